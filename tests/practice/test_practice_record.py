"""The personal record in the games database: per player, size, edition and clock;
the best and the average of the last ten; one round per deal; reads that create and
change nothing; the migration of an older database only on a write."""
from __future__ import annotations

import os
import sqlite3

import pytest

from boggle_cv.store import database as store, schema as store_schema
from boggle_cv.game.board import Board
from boggle_cv.game.dictionary import load_default
from boggle_cv.errors import StorageError
from boggle_cv.practice import record
from boggle_cv.practice.record import PracticeRound
from boggle_cv.game.scoring import solve
from boggle_cv.practice.round import merge_words, practice_round, record_round, score_practice

BOARD = "PERS/LATG/SINE/TERS"


def played(score: int, player: str = "ann", size: int = 4, lang: str = "en", seconds: int = 180,
           deal: str | None = None, at: float = 0.0) -> PracticeRound:
    return PracticeRound(player, size, lang, seconds, "shake", BOARD, score, 3625, score, 1045,
                         {"score": score}, "modern-4", deal, at)


def test_the_best_and_the_average_of_the_last_ten(games_db):
    db = games_db
    scores = [5, 30, 12, 7, 9, 11, 13, 15, 2, 4, 6, 8]
    for i, s in enumerate(scores):
        stored, rec, new = record.save(db, played(s, at=1000.0 + i))
        assert new and stored.id == i + 1 and rec.rounds[-1] == stored
    rec = record.record(db, "ann", 4, "en", 180)
    assert rec is not None and len(rec.rounds) == 12
    assert rec.best.score == 30 and rec.best.played_at == 1001.0
    assert rec.average == pytest.approx(sum(scores[-10:]) / 10)
    assert [r.score for r in rec.rounds] == scores  # oldest first
    assert rec.to_dict()["average_last_10"] == pytest.approx(8.7)


def test_a_record_is_per_player_size_edition_and_clock(games_db):
    db = games_db
    record.save(db, played(10, "Ann"))
    record.save(db, played(20, "ann"))            # the same player, written otherwise
    record.save(db, played(50, "ＡＮＮ"))           # full-width: NFKC makes it ANN
    record.save(db, played(99, "bob"))
    record.save(db, played(70, "ann", size=5))
    record.save(db, played(80, "ann", lang="fr"))
    record.save(db, played(90, "ann", seconds=600))
    rec = record.record(db, "ANN", 4, "en", 180)
    assert rec is not None and [r.score for r in rec.rounds] == [10, 20, 50] and rec.best.score == 50
    groups = record.history(db, "ann")
    assert sorted((r.size, r.lang, r.seconds, r.best.score) for r in groups) == [
        (4, "en", 180, 50), (4, "en", 600, 90), (4, "fr", 180, 80), (5, "en", 180, 70)]
    assert len(record.history(db)) == 5
    assert record.record(db, "cy", 4, "en", 180) is None


def test_one_round_per_deal(games_db):
    """The page sends a round again when its answer was lost: stored once."""
    db = games_db
    first, rec1, new1 = record.save(db, played(12, deal="d-1"))
    again, rec2, new2 = record.save(db, played(40, deal="d-1"))
    assert new1 and not new2 and again.id == first.id and again.score == 12
    assert len(rec2.rounds) == 1
    record.save(db, played(3, deal="d-2"))
    assert len(record.record(db, "ann", 4, "en", 180).rounds) == 2


def test_reads_create_nothing_and_change_nothing(tmp_path):
    db = tmp_path / "none" / "g.db"
    assert record.record(db, "ann", 4, "en", 180) is None and record.history(db) == []
    assert not db.parent.exists()
    db = tmp_path / "g.db"
    record.save(db, played(5))
    before = (db.read_bytes(), db.stat().st_mtime_ns)
    record.history(db)
    record.record(db, "ann", 4, "en", 180)
    assert (db.read_bytes(), db.stat().st_mtime_ns) == before


def test_an_older_database_gets_the_table_on_its_first_practice_round(tmp_path):
    db = tmp_path / "g.db"
    conn = sqlite3.connect(db)
    for statement in store_schema.GAME_TABLES + store_schema.ROOM_TABLES + store_schema.ROUND_LANG + store_schema.ROOM_WORD_IMAGES:
        conn.execute(statement)
    conn.execute("INSERT INTO meta VALUES ('schema_version', '4')")
    conn.execute("INSERT INTO games(name, created_at) VALUES ('friday', 1)")
    conn.commit()
    conn.close()
    assert record.history(db) == []  # a read: no migration
    assert sqlite3.connect(db).execute("SELECT value FROM meta").fetchone() == ("4",)
    record.save(db, played(7))
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(store.SCHEMA_VERSION),)
    assert conn.execute("SELECT name FROM games").fetchall() == [("friday",)]
    assert store.list_games(db) == ["friday"]


def test_the_rooms_games_survive_beside_the_record(games_db):
    """One database for the room's games and the record: each keeps the other's rows."""
    db = games_db
    record.save(db, played(7))
    store.save_round(db, "friday", BOARD, {"ann": 3}, {"ann": []}, {"x": 1})
    record.save(db, played(9))
    assert store.standings(db, "friday").players[0].total == 3
    assert [r.score for r in record.record(db, "ann", 4, "en", 180).rounds] == [7, 9]


def test_foreign_damaged_and_newer_files_are_refused_untouched(tmp_path):
    foreign = tmp_path / "other.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"SQLite format 3\x00" + os.urandom(3000))
    newer = tmp_path / "newer.db"
    record.save(newer, played(1))
    conn = sqlite3.connect(newer)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(store.SCHEMA_VERSION + 1),))
    conn.commit()
    conn.close()
    for path, fragment in ((foreign, "not a boggle-cv games database"), (garbage, "damaged"),
                           (newer, "newer boggle-cv")):
        before = path.read_bytes()
        for attempt in (lambda: record.save(path, played(5)), lambda: record.history(path)):
            with pytest.raises(StorageError) as err:
                attempt()
            assert fragment in err.value.one_line() and err.value.exit_code == 7
        assert path.read_bytes() == before


def test_a_practice_round_is_scored_by_the_standard_rules_and_summed_up(tmp_path):
    d = load_default()
    result = score_practice("ann", ["pert", "PERT", "last", "xyzzy", "sire"], d, "en", board=Board.parse(BOARD))
    p = practice_round(result, 180, "shake", "modern-4")
    assert (p.player, p.size, p.lang, p.seconds, p.board) == ("ann", 4, "en", 180, BOARD)
    assert p.score == result.sheet.players[0].score == 3 and p.words_scored == 3
    every = solve(Board.parse(BOARD), d)
    assert p.max_points == sum(w.points for w in every) and p.board_words == len(every) > 1000
    db = tmp_path / "g.db"
    summary = record_round(db, p, result)
    assert summary.stored and summary.new_best and summary.best_before is None
    doc = summary.to_dict()
    assert doc["score"] == 3 and doc["share"] == round(3 / p.max_points, 4) and doc["round_count"] == 1
    assert [w["word"] for w in doc["best_missed"]] == [w.word for w in result.sheet.missed[:5]]
    assert doc["round"]["players"][0]["name"] == "ann"
    assert record.report(db, summary.played.id)["players"][0]["score"] == 3
    second = record_round(db, practice_round(score_practice("ann", ["pert"], d, "en", board=Board.parse(BOARD)),
                                             180, "shake", "modern-4"), result)
    assert not second.new_best and second.best_before == 3 and second.to_dict()["average_last_10"] == 2.0


def test_a_round_the_store_refuses_is_still_summed_up(tmp_path):
    d = load_default()
    db = tmp_path / "g.db"
    record.save(db, played(50))
    db_result = score_practice("ann", ["pert"], d, "en", board=Board.parse(BOARD))
    conn = sqlite3.connect(db, timeout=0.1)
    conn.execute("BEGIN EXCLUSIVE")
    try:
        old = store.BUSY_TIMEOUT_S
        store.BUSY_TIMEOUT_S = 0.2
        summary = record_round(db, practice_round(db_result, 180, "shake"), db_result)
    finally:
        store.BUSY_TIMEOUT_S = old
        conn.rollback()
        conn.close()
    assert not summary.stored and "locked" in summary.error.one_line()
    assert summary.to_dict()["stored"] is False and summary.to_dict()["error"]
    assert [r.score for r in record.record(db, "ann", 4, "en", 180).rounds] == [50]


def test_lists_merge_each_word_once():
    assert merge_words(["Cat", "dog"], ["cat", "emu"], [], ["DOG", "fox"]) == ["Cat", "dog", "emu", "fox"]
    assert merge_words(["Été"], ["ete"], lang="fr") == ["Été"]
