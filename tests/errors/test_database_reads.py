"""Read commands only read the games database; foreign files are never touched.

`standings` opens the database read-only and creates nothing: a foreign SQLite file
keeps its own tables (no boggle-cv table is added to it), a 0-byte file stays empty,
and a read-only database can be read.
"""
from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from boggle_cv.store import database as store
from boggle_cv.errors import StorageError

from .conftest import BOARD, one_error_line, run

REPO = Path(__file__).resolve().parents[2]


def _fingerprint(path: Path) -> tuple[str, int, int]:
    st = path.stat()
    return hashlib.sha256(path.read_bytes()).hexdigest(), st.st_size, st.st_mtime_ns


def _foreign(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("INSERT INTO notes(text) VALUES ('keep me')")
    conn.commit()
    conn.close()


def _round(db: Path, game: str = "g", score: int = 3) -> int:
    return store.save_round(db, game, BOARD, {"ann": score}, {"ann": []}, {})


def test_foreign_sqlite_file_is_refused_untouched(tmp_path, small_photo):
    db = tmp_path / "other.sqlite3"
    _foreign(db)
    before = _fingerprint(db)
    for args in (("standings", "g", "--db", db), ("standings", "--list", "--db", db),
                 ("scan", small_photo[".jpg"], "--board", BOARD, "--game", "g", "--db", db)):
        one_error_line(run(*args), 7, "not a boggle-cv games database")
    assert _fingerprint(db) == before
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")] == ["notes"]
    conn.close()


def test_empty_file_is_an_empty_database_and_stays_empty(tmp_path):
    db = tmp_path / "empty.sqlite3"
    db.write_bytes(b"")
    out = run("standings", "--list", "--db", db)
    assert out.returncode == 0 and "no games stored yet" in out.stdout, out.stderr
    one_error_line(run("standings", "g", "--db", db), 2, "no game named")
    assert db.stat().st_size == 0
    assert _round(db) == 1  # a write makes it a database
    assert store.list_games(db) == ["g"]


def test_reads_never_change_the_file(tmp_path):
    db = tmp_path / "g.sqlite3"
    _round(db)
    _round(db, score=5)
    before = _fingerprint(db)
    assert run("standings", "g", "--db", db).returncode == 0
    assert run("standings", "--list", "--db", db, "--json").returncode == 0
    assert store.standings(db, "g").players[0].total == 8
    assert _fingerprint(db) == before


_READ_AS_NOBODY = """
import os, sys
sys.path.insert(0, sys.argv[1])
from boggle_cv.store import database as store
import json, sqlite3, encodings.idna
if os.getuid() == 0:
    os.setgid(65534)
    os.setuid(65534)
s = store.standings(sys.argv[2], "g")
print(json.dumps([s.rounds, store.list_games(sys.argv[2])]))
"""


@pytest.mark.skipif(not hasattr(os, "setuid"), reason="POSIX permissions")
def test_read_only_database_can_be_read():
    """The file and its folder read-only (as on a read-only mount): read as another
    user when the tests run as root, who can write anywhere (in a folder of /tmp that
    user can reach: pytest's own are private)."""
    import shutil
    import tempfile
    folder = Path(tempfile.mkdtemp(prefix="boggle-ro-"))
    folder.chmod(0o755)
    db = folder / "g.sqlite3"
    _round(db)
    before = _fingerprint(db)
    db.chmod(0o444)
    folder.chmod(0o555)
    try:
        out = subprocess.run([sys.executable, "-c", _READ_AS_NOBODY, str(REPO), str(db)],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr[-1000:]
        assert out.stdout.strip() == '[1, ["g"]]'
        assert _fingerprint(db) == before and sorted(p.name for p in folder.iterdir()) == ["g.sqlite3"]
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


def test_newer_schema_is_refused_untouched(tmp_path):
    db = tmp_path / "g.sqlite3"
    _round(db)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(store.SCHEMA_VERSION + 1),))
    conn.commit()
    conn.close()
    before = _fingerprint(db)
    with pytest.raises(StorageError, match="newer boggle-cv"):
        store.standings(db, "g")
    with pytest.raises(StorageError, match="newer boggle-cv"):
        _round(db)
    assert _fingerprint(db) == before


def test_migrations_run_only_on_write(tmp_path, monkeypatch):
    db = tmp_path / "g.sqlite3"
    _round(db)
    from boggle_cv.store import schema as store_schema
    monkeypatch.setattr(store_schema, "SCHEMA_VERSION", store_schema.SCHEMA_VERSION + 1)
    monkeypatch.setattr(store_schema, "MIGRATIONS",
                        {store_schema.SCHEMA_VERSION - 1: ("ALTER TABLE rounds ADD COLUMN note TEXT",)})
    before = _fingerprint(db)
    assert store.standings(db, "g").rounds == 1  # an older schema is read as it is
    assert _fingerprint(db) == before
    assert _round(db) == 2
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == str(store_schema.SCHEMA_VERSION)
    assert "note" in [r[1] for r in conn.execute("PRAGMA table_info(rounds)")]
    conn.close()


def test_database_under_a_file_says_not_a_directory(tmp_path, small_photo):
    (tmp_path / "file").write_text("x")
    line = one_error_line(run("scan", small_photo[".jpg"], "--board", BOARD, "--game", "g",
                              "--db", tmp_path / "file" / "x.db"), 7, "not a directory")
    assert "File exists" not in line


def test_default_location_per_platform(monkeypatch, tmp_path):
    monkeypatch.delenv("BOGGLE_CV_DB", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert store.data_dir("linux") == tmp_path / ".local" / "share" / "boggle-cv"
    assert store.default_db_path() == tmp_path / ".local" / "share" / "boggle-cv" / "games.sqlite3"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/not/allowed")  # the XDG spec ignores relative paths
    assert store.data_dir("linux") == tmp_path / ".local" / "share" / "boggle-cv"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert store.data_dir("linux") == tmp_path / "xdg" / "boggle-cv"
    assert store.data_dir("darwin") == tmp_path / "Library" / "Application Support" / "boggle-cv"
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    assert store.data_dir("win32") == tmp_path / "Local" / "boggle-cv"
    monkeypatch.setenv("BOGGLE_CV_DB", str(tmp_path / "mine.db"))
    assert store.default_db_path() == tmp_path / "mine.db"


def test_a_game_that_is_not_stored_is_a_usage_error_naming_the_games(tmp_path):
    """`standings nosuch`: exit 2 (the name is wrong, not the database), one line that
    names the stored games; with no database yet, one line that says none is stored."""
    db = tmp_path / "games.sqlite3"
    one_error_line(run("standings", "nosuch", "--db", db), 2, "no game named 'nosuch': no games are stored")
    assert not db.exists()
    _round(db, "friday")
    _round(db, "saturday")
    out = run("standings", "nosuch", "--db", db)
    one_error_line(out, 2, "no game named 'nosuch'; the games in")
    assert "friday, saturday" in out.stderr
