"""Games database: atomic rounds, standings, targets, damaged or locked files."""
import sqlite3

import pytest

from boggle_cv.store import database as store
from boggle_cv.errors import StorageError, UsageError


def _save(db, game, scores):
    words = {p: [{"word": "cat", "status": "scored", "points": s}] for p, s in scores.items()}
    return store.save_round(db, game, "ABCD/EFGH/IJKL/MNOP", scores, words, {"scores": scores}, photo="x.jpg")


def test_rounds_accumulate_and_sort_by_total(games_db):
    db = games_db
    assert _save(db, "friday", {"ann": 10, "bob": 4}) == 1
    assert _save(db, "friday", {"ann": 1, "bob": 20}) == 2
    s = store.standings(db, "friday")
    assert s.rounds == 2
    assert [(p.player, p.total, p.rounds, p.best_round) for p in s.players] == [("bob", 24, 2, 20), ("ann", 11, 2, 10)]


def test_first_to_target_is_decided_by_round_then_total(games_db):
    db = games_db
    _save(db, "g", {"ann": 30, "bob": 10})
    _save(db, "g", {"ann": 25, "bob": 50})  # both pass 50 in round 2; bob 60 > ann 55
    _save(db, "g", {"ann": 100, "bob": 0})
    s = store.standings(db, "g", target=50)
    assert s.first_to_target == ["bob"]
    by = {p.player: p for p in s.players}
    assert by["ann"].reached_target_in_round == 2 and by["bob"].reached_target_in_round == 2


def test_tie_to_target_lists_both(games_db):
    db = games_db
    _save(db, "g", {"ann": 50, "bob": 50})
    assert store.standings(db, "g", target=50).first_to_target == ["ann", "bob"]


def test_games_are_separate(games_db):
    db = games_db
    _save(db, "a", {"ann": 1})
    _save(db, "b", {"bob": 2})
    assert store.list_games(db) == ["a", "b"]
    assert [p.player for p in store.standings(db, "b").players] == ["bob"]


def test_unknown_game_on_either_backend(games_db):
    _save(games_db, "a", {"ann": 1})
    with pytest.raises(UsageError, match="no game named 'x'; the games in .*: a"):
        store.standings(games_db, "x")


def test_unknown_game_and_missing_db(tmp_path):
    db = tmp_path / "g.sqlite3"
    with pytest.raises(UsageError, match="no game named 'x': no games are stored"):
        store.standings(db, "x")
    assert not db.exists()
    _save(db, "a", {"ann": 1})
    _save(db, "b", {"ann": 1})
    with pytest.raises(UsageError, match="no game named 'x'; the games in .*: a, b"):
        store.standings(db, "x")


def test_corrupt_database_is_a_storage_error(tmp_path):
    db = tmp_path / "g.sqlite3"
    db.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StorageError):
        _save(db, "a", {"ann": 1})


def test_directory_as_database(tmp_path):
    with pytest.raises(StorageError, match="directory"):
        _save(tmp_path, "a", {"ann": 1})


def test_locked_database_fails_cleanly_and_stores_nothing(tmp_path, monkeypatch):
    db = tmp_path / "g.sqlite3"
    _save(db, "a", {"ann": 1})
    monkeypatch.setattr(store, "BUSY_TIMEOUT_S", 0.05)
    holder = sqlite3.connect(str(db), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StorageError, match="locked"):
            _save(db, "a", {"ann": 5})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert store.standings(db, "a").rounds == 1


def test_failure_mid_round_leaves_no_partial_round(games_db):
    db = games_db
    _save(db, "a", {"ann": 1})

    class Boom(dict):
        def items(self):
            yield "ann", 3
            raise KeyboardInterrupt  # Ctrl-C between two players' rows

    with pytest.raises(KeyboardInterrupt):
        store.save_round(db, "a", "ABCD/EFGH/IJKL/MNOP", Boom(), {}, {})
    s = store.standings(db, "a")
    assert s.rounds == 1 and s.players[0].total == 1


def test_default_path_respects_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("BOGGLE_CV_DB", str(tmp_path / "x.db"))
    assert store.default_db_path() == tmp_path / "x.db"
    monkeypatch.delenv("BOGGLE_CV_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert store.default_db_path() == tmp_path / "boggle-cv" / "games.sqlite3"


def test_a_write_transaction_keeps_all_or_nothing_and_maps_what_sqlite_refuses(tmp_path):
    db = tmp_path / "g.sqlite3"

    def insert_then_fail(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO games(name, created_at) VALUES ('half', 0)")
        conn.execute("INSERT INTO no_such_table VALUES (1)")

    seen: list[bool] = []

    def mapped(e: sqlite3.Error, opening: bool) -> StorageError:
        seen.append(opening)
        return StorageError(f"refused: {e}")
    with pytest.raises(StorageError, match="refused: no such table"):
        store.write_transaction(db, insert_then_fail, mapped)
    assert seen == [False] and store.list_games(db) == []  # rolled back: nothing kept
    with pytest.raises(sqlite3.OperationalError):  # no mapping: raised as it is
        store.write_transaction(db, insert_then_fail, lambda e, opening: None)
    def insert_then_raise(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO games(name, created_at) VALUES ('half', 0)")
        raise KeyError("not SQLite's")
    with pytest.raises(KeyError):  # not SQLite's: raised as it is, rolled back
        store.write_transaction(db, insert_then_raise, mapped)
    assert store.write_transaction(db, lambda conn: conn.execute(
        "INSERT INTO games(name, created_at) VALUES ('kept', 0)").rowcount, mapped) == 1
    assert store.list_games(db) == ["kept"]


def _save_print(db, game, scores, fingerprint, replace=False):
    words = {p: [] for p in scores}
    return store.save_round(db, game, "ABCD/EFGH/IJKL/MNOP", scores, words, {"scores": scores},
                            fingerprint=fingerprint, replace=replace)


def test_a_repeated_round_is_refused_or_replaced_in_place(tmp_path):
    """The same fingerprint in one game: refused (exit 7, the round it repeats named);
    with replace it takes that round's place and number; another game takes it."""
    from boggle_cv.errors import RepeatedRoundError
    from boggle_cv.store.rounds import stored_round
    db = tmp_path / "g.sqlite3"
    assert _save_print(db, "sat", {"ann": 5}, "aaa") == 1
    assert _save_print(db, "sat", {"ann": 7}, "bbb") == 2
    with pytest.raises(RepeatedRoundError) as e:
        _save_print(db, "sat", {"ann": 9}, "aaa")
    assert e.value.exit_code == 7 and "already round 1 of game 'sat'" in e.value.one_line()
    assert "--replace" in e.value.one_line() and "--remove 1" in e.value.one_line()
    assert store.standings(db, "sat").rounds == 2
    assert _save_print(db, "sat", {"ann": 9}, "aaa", replace=True) == 1
    s = store.standings(db, "sat")
    assert s.rounds == 2 and s.players[0].total == 16 and s.players[0].best_round == 9
    assert stored_round(db, "sat", "aaa") == 1 and stored_round(db, "sat", "ccc") is None
    assert _save_print(db, "sun", {"ann": 1}, "aaa") == 1
    assert _save_print(db, "sat", {"ann": 1}, None) == 3 and _save_print(db, "sat", {"ann": 1}, None) == 4


def test_a_round_is_removed_and_the_later_ones_renumbered(tmp_path):
    from boggle_cv.errors import UsageError
    from boggle_cv.store.rounds import remove_round, stored_round
    db = tmp_path / "g.sqlite3"
    for k, points in enumerate((5, 7, 11)):
        _save_print(db, "sat", {"ann": points, "bob": 1}, f"p{k}")
    assert remove_round(db, "sat", 2) == 2
    s = store.standings(db, "sat")
    assert s.rounds == 2 and {p.player: p.total for p in s.players} == {"ann": 16, "bob": 2}
    assert stored_round(db, "sat", "p2") == 2 and stored_round(db, "sat", "p1") is None
    with pytest.raises(UsageError, match="has 2 round"):
        remove_round(db, "sat", 3)
    with pytest.raises(StorageError, match="no game named"):
        remove_round(db, "nosuch", 1)
    with pytest.raises(StorageError, match="no games database"):
        remove_round(tmp_path / "none.sqlite3", "sat", 1)
    assert not (tmp_path / "none.sqlite3").exists()


def test_a_database_of_schema_5_opens_keeps_its_rounds_and_gains_fingerprints(tmp_path):
    """An older database (before fingerprints): read as it is, and its first write
    migrates it; its old rounds never count as repeats."""
    from boggle_cv.store import schema as store_schema
    from boggle_cv.store.rounds import stored_round
    db = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(db)
    for statement in store_schema.CREATE_TABLES + store_schema.ROUND_LANG + store_schema.ROOM_WORD_IMAGES \
            + store_schema.PRACTICE_ROUNDS:
        conn.execute(statement)
    conn.execute("INSERT INTO meta VALUES ('schema_version', '5')")
    conn.execute("INSERT INTO games(name, created_at) VALUES ('sat', 0)")
    conn.execute("INSERT INTO rounds(game_id, created_at, board, report) VALUES (1, 0, 'AB/CD', '{}')")
    conn.execute("INSERT INTO round_players VALUES (1, 'ann', 4, '[]')")
    conn.commit()
    conn.close()
    assert store.standings(db, "sat").rounds == 1 and stored_round(db, "sat", "aaa") is None
    assert _save_print(db, "sat", {"ann": 1}, "aaa") == 2
    assert store.standings(db, "sat").players[0].total == 5 and stored_round(db, "sat", "aaa") == 2
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "6"
    conn.close()
def test_an_empty_postgresql_database_holds_no_game_and_a_read_creates_nothing(pg_db):
    import psycopg
    assert store.list_games(pg_db) == []
    with pytest.raises(UsageError, match="no game named 'x'"):
        store.standings(pg_db, "x")
    with psycopg.connect(pg_db.url) as conn:
        assert conn.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
                            ).fetchone()[0] == 0
