"""The PostgreSQL server the tests use: $BOGGLE_CV_TEST_PG (scripts/with-postgres.sh
starts a throwaway one and sets it); tests that need it skip when it is unset."""
from __future__ import annotations

import os
import secrets
import shlex
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

import pytest

from boggle_cv.store.sql import PgUrl

ENV = "BOGGLE_CV_TEST_PG"


def server_url() -> str:
    url = os.environ.get(ENV)
    if not url:
        pytest.skip(f"no PostgreSQL server (${ENV} unset: run the tests under scripts/with-postgres.sh)")
    pytest.importorskip("psycopg")
    pytest.importorskip("psycopg_pool")
    return url


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


@contextmanager
def fresh_database() -> Iterator[PgUrl]:
    """A database made for one test on the test server, dropped afterwards."""
    import psycopg

    from boggle_cv.store import postgres as store_pg
    admin = server_url()
    name = "t_" + secrets.token_hex(6)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield PgUrl(_with_database(admin, name))
    finally:
        store_pg.close_pools()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def pg_ctl(*args: str) -> subprocess.CompletedProcess[str]:
    """Run pg_ctl on the test server's cluster (restart, stop, start: the tests that
    lose the server); skips when the cluster is not this machine's."""
    ctl, data = os.environ.get("BOGGLE_CV_TEST_PG_CTL"), os.environ.get("BOGGLE_CV_TEST_PG_DATA")
    if not ctl or not data:
        pytest.skip("the PostgreSQL cluster cannot be restarted from here (no $BOGGLE_CV_TEST_PG_CTL)")
    log = ["-l", os.path.join(os.path.dirname(data), "server.log")] if args[:1] in (("start",), ("restart",)) else []
    return subprocess.run([*shlex.split(ctl), "-D", data, *args, *log], stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=60, check=True)
