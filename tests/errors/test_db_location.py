"""`--db` and $BOGGLE_CV_DB name a file or a postgresql:// URL; any other URL is a
usage error (exit 2, one line) and nothing is made: no folder named after the scheme."""
from __future__ import annotations

import pytest

from .conftest import BOARD, one_error_line, run


@pytest.mark.parametrize("args", [
    ("standings", "--list", "--db", "http://example.org/games"),
    ("serve", "--port", "0", "--db", "mysql://root@127.0.0.1/boggle"),
    ("practice", "--history", "--db", "sqlite:///games.db"),
    ("scan", "PHOTO", "--board", BOARD, "--player", "ann=ann.txt", "--game", "g", "--db", "ftp://host/x"),
])
def test_a_url_that_is_not_postgresql_is_refused_and_makes_nothing(tmp_path, small_photo, args):
    (tmp_path / "ann.txt").write_text("pers\n")
    args = tuple(small_photo[".jpg"] if a == "PHOTO" else a for a in args)
    one_error_line(run(*args, cwd=tmp_path), 2, "--db", "is not a database boggle-cv can use", "postgresql://")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ann.txt"]


def test_the_environment_variable_is_checked_the_same_way(tmp_path):
    proc = run("standings", "--list", env={"BOGGLE_CV_DB": "redis://127.0.0.1/0"}, cwd=tmp_path)
    one_error_line(proc, 2, "BOGGLE_CV_DB redis://", "postgresql://")
    assert list(tmp_path.iterdir()) == []


def test_an_unreachable_postgresql_server_is_one_line_exit_7(tmp_path):
    pytest.importorskip("psycopg")
    import socket
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = run("standings", "--list", "--db", f"postgresql://nobody:secret@127.0.0.1:{port}/boggle", cwd=tmp_path)
    line = one_error_line(proc, 7, "cannot reach the games database", f"127.0.0.1:{port}")
    assert "secret" not in line  # the password is never printed
    assert list(tmp_path.iterdir()) == []


def test_serve_on_a_postgresql_server_that_is_away_says_so_at_start(tmp_path):
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = run("serve", "--port", "0", "--db", f"postgresql://ann:pw@127.0.0.1:{port}/boggle", cwd=tmp_path,
               timeout=60)
    line = one_error_line(proc, 7, "cannot reach the games database", "connection refused")
    assert "pw" not in line.replace("postgresql://ann:***", "")


def test_a_postgresql_url_without_psycopg_names_the_extra(tmp_path):
    import subprocess
    import sys
    code = ("import sys; sys.modules['psycopg'] = None; sys.argv = ['boggle-cv', 'standings', '--list', '--db', "
            "'postgresql://127.0.0.1/boggle']; from boggle_cv.cli import main; main()")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    one_error_line(out, 7, "needs psycopg", "boggle-cv[postgres]")
