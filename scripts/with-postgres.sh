#!/usr/bin/env bash
# Run a command with a throwaway PostgreSQL server on 127.0.0.1:
#   bash scripts/with-postgres.sh python -m pytest tests/unit/test_store.py
# or, sourced by a script (.ci/run), start it for the rest of that script:
#   source scripts/with-postgres.sh
# Installs Debian's postgresql when its programs are missing (as root), makes a new
# cluster in a temporary folder (trust authentication on loopback only, fsync off:
# the data is thrown away), starts it on a free port, exports
#   BOGGLE_CV_TEST_PG=postgresql://boggle@127.0.0.1:PORT/boggle
#   BOGGLE_CV_TEST_PG_DATA=the cluster's folder   BOGGLE_CV_TEST_PG_CTL=how to run pg_ctl on it
# runs the command, then stops the server and removes the folder; exits with the
# command's status (sourced: the server stops when the sourcing script exits). The tests that need PostgreSQL skip when BOGGLE_CV_TEST_PG is unset.
set -euo pipefail

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "with-postgres.sh: PostgreSQL is not installed (run as root: apt-get install -y postgresql)" >&2
    exit 3
  fi
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql >/dev/null
  bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi

# the server refuses to run as root: as root, the cluster belongs to the postgres user
as_owner() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
  as_owner() { runuser -u postgres -- "$@"; }
fi

dir=$(mktemp -d /tmp/boggle-cv-pg.XXXXXX)
chmod 755 "$dir"
[ "$(id -u)" -eq 0 ] && chown postgres "$dir"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
  as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

as_owner "$bindir/initdb" -D "$dir/data" -U boggle -A trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 3; }
opts="-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
as_owner "$bindir/pg_ctl" -D "$dir/data" -o "$opts" -l "$dir/server.log" -w start >/dev/null \
  || { cat "$dir/server.log" >&2; exit 3; }
as_owner "$bindir/createdb" -h 127.0.0.1 -p "$port" -U boggle boggle

export BOGGLE_CV_TEST_PG="postgresql://boggle@127.0.0.1:$port/boggle"
export BOGGLE_CV_TEST_PG_DATA="$dir/data"
if [ "$(id -u)" -eq 0 ]; then
  export BOGGLE_CV_TEST_PG_CTL="runuser -u postgres -- $bindir/pg_ctl"
else
  export BOGGLE_CV_TEST_PG_CTL="$bindir/pg_ctl"
fi
echo "with-postgres.sh: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port" >&2
if [ "$#" -eq 0 ] && (return 0 2>/dev/null); then
  return 0  # sourced: the EXIT trap stops the server when the caller ends
fi
set +e
"$@"
status=$?
set -e
exit $status
