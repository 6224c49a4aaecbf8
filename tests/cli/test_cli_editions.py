"""`--lang` on the command line (`python -m boggle_cv` in a subprocess for true exit
codes), the edition in the games database, and the cube-set prior per edition."""
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from boggle_cv.game import dice
from boggle_cv.store import database as store, schema as store_schema
from boggle_cv.game.board import Board
from boggle_cv.game.wordlists import parse_words

REPO = Path(__file__).resolve().parents[2]


def run(*args, stdin: bytes | None = None):
    p = subprocess.run([sys.executable, "-m", "boggle_cv", *map(str, args)], input=stdin,
                       capture_output=True, cwd=REPO, timeout=120)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def test_score_in_french_with_an_accented_list(tmp_path):
    ann = tmp_path / "ann.txt"
    ann.write_text("Été\nÉTÉ\ncœur\nchat\n", encoding="utf-8")
    rc, out, err = run("score", "ETEC/XXUO/XXRX/XXXX", "--lang", "fr", "--player", f"ann={ann}", "--json")
    assert rc == 0 and err == "", err
    doc = json.loads(out)
    assert doc["rules"]["lang"] == "fr" and doc["dictionary"] == "default-fr" and doc["rules_why"]["lang"] == "option"
    words = doc["players"][0]["words"]
    # the list reader lower-cases entries (wordlists.parse_words); "written" keeps the accents
    assert [(w["word"], w.get("written"), w["status"]) for w in words] == [
        ("ete", "été", "scored"), ("ete", "été", "repeated"), ("coeur", "cœur", "scored"), ("chat", None, "not_on_board")]


def test_score_text_in_german_and_no_warning_for_umlauts(tmp_path):
    bea = tmp_path / "bea.txt"
    bea.write_text("Öl\nStraße\n", encoding="utf-8")
    rc, out, err = run("score", "OELS/XXXT/XXRA/XXES", "--lang", "de", "--player", f"bea={bea}")
    assert rc == 0 and "warning" not in err, err
    assert "OEL" in out and "STRASSE" in out


def test_unknown_edition_is_exit_2_listing_the_editions():
    rc, _, err = run("score", "PERS/LATG/SINE/TERS", "--lang", "xx", "--player", "a=-", stdin=b"pert\n")
    assert rc == 2 and "Traceback" not in err
    assert all(code in err for code in ("en", "fr", "de", "es", "it", "nl"))
    rc, _, err = run("solve", "PERS/LATG/SINE/TERS", "--lang", "FRENCH")
    assert rc == 2 and "'fr'" in err


def test_solve_in_italian_uses_its_shortest_word():
    rc, out, _ = run("solve", "CASA/ORTE/NEMI/LUPO", "--lang", "it", "--json")
    assert rc == 0
    doc = json.loads(out)
    assert doc["rules"] == {**doc["rules"], "lang": "it", "min_length": 4}
    assert doc["words"] and min(len(w["word"]) for w in doc["words"]) >= 4
    rc, out, _ = run("solve", "CASA/ORTE/NEMI/LUPO", "--lang", "it", "--min-length", "3", "--json")
    assert json.loads(out)["rules"]["min_length"] == 3


def test_english_json_is_unchanged_but_for_the_edition():
    rc, out, _ = run("solve", "PERS/LATG/SINE/TERS", "--json")
    rules = json.loads(out)["rules"]
    assert rules == {"size": 4, "variant": "standard", "min_length": 3, "long_words": "per-letter",
                     "bonus_cells": [], "challenge_cell": None, "lang": "en"}


def test_a_dictionary_of_another_language_is_folded_by_the_edition(tmp_path):
    words = tmp_path / "de.txt"
    words.write_text("Öl\nStraße\n", encoding="utf-8")
    ann = tmp_path / "ann.txt"
    ann.write_text("öl\n", encoding="utf-8")
    rc, out, err = run("score", "OELX/XXXX/XXXX/XXXX", "--lang", "de", "--dict", words, "--player", f"ann={ann}",
                       "--json")
    assert rc == 0 and err == ""
    assert json.loads(out)["players"][0]["score"] == 1
    rc, out, err = run("score", "OELX/XXXX/XXXX/XXXX", "--dict", words, "--player", f"ann={ann}", "--json")
    assert rc == 2 and "holds no words" in err  # in English, Öl and Straße are no words


def test_scan_stores_the_edition_with_the_round(tmp_path):
    db = tmp_path / "g.sqlite3"
    photo = tmp_path / "p.jpg"
    photo.write_bytes(b"not read: --board replaces the reading")
    ann = tmp_path / "ann.txt"
    ann.write_text("città\n", encoding="utf-8")
    rc, out, err = run("scan", photo, "--board", "CITT/XXXA/XXXX/XXXX", "--lang", "it", "--player", f"ann={ann}",
                       "--game", "g", "--db", db, "--json")
    assert rc == 0, err
    assert json.loads(out)["players"][0]["score"] == 2  # citta: 5 letters
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT lang FROM rounds").fetchall() == [("it",)]
    conn.close()


def test_an_older_database_gains_the_edition_column_on_write_only(tmp_path):
    db = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(db)
    for statement in store_schema.GAME_TABLES + store_schema.ROOM_TABLES:  # a schema-2 database, as made before editions
        conn.execute(statement)
    conn.execute("INSERT INTO meta VALUES ('schema_version', '2')")
    conn.execute("INSERT INTO games VALUES (1, 'g', 0)")
    conn.execute("INSERT INTO rounds(id, game_id, created_at, board, report) VALUES (1, 1, 0, 'ABC/DEF/GHI', '{}')")
    conn.execute("INSERT INTO round_players VALUES (1, 'ann', 3, '[]')")
    conn.commit()
    conn.close()
    assert store.standings(db, "g").rounds == 1  # read as it is
    assert store.save_round(db, "g", "ABC/DEF/GHI", {"ann": 2}, {"ann": []}, {}, lang="nl") == 2
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT lang FROM rounds ORDER BY id").fetchall() == [("en",), ("nl",)]
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(store.SCHEMA_VERSION),)
    conn.close()
    assert store.standings(db, "g").players[0].total == 5


def test_a_french_list_warns_only_about_tokens_that_are_no_words():
    notes: list[str] = []
    words = parse_words(["Été, cœur, aujourd'hui"], "ann", notes, lang="fr")
    assert words == ["été", "cœur", "aujourd'hui"]
    assert len(notes) == 1 and "1 entry" in notes[0] and "aujourd" in notes[0] and "(fr)" in notes[0]


def test_cube_sets_and_the_prior_per_edition():
    assert dice.sets_of_size(4) == ("classic-4", "modern-4")
    assert dice.sets_of_size(4, "fr") == ("fr-4",) and dice.sets_of_size(4, "it") == ("it-4",)
    assert all(dice.sets_of_size(n, lang) == () for n in (4, 5, 6) for lang in ("de", "es", "nl"))
    board = dice.roll("fr-4", 1)
    assert "fr-4" in dice.sets_for_board(board) and "fr-4" not in dice.sets_for_board(board, lang="en")
    # Il Paroliere has no J K W X Y: a board with a K cannot come from it
    assert not dice.can_produce(Board.parse("KAEI/OTAB/ILRT/ABMO"), "it-4")


def test_the_decoder_weighs_the_editions_sets_only():
    from boggle_cv.vision.decode import FACES, DecodeConfig, decode
    from boggle_cv.vision.stages import Reading
    board = dice.roll("fr-4", 5)
    faces = np.full((16, len(FACES)), 0.001)
    for k, f in enumerate(f for row in board.faces for f in row):
        faces[k, FACES.index(f)] = 0.99
    turns = np.tile([1.0, 0, 0, 0], (16, 1))
    reading = Reading(faces, turns)
    assert decode(reading, 4, DecodeConfig(edition="fr")).sets == ["fr-4"]
    assert decode(reading, 4, DecodeConfig(edition="de")).sets == []
    assert "fr-4" not in decode(reading, 4).sets


@pytest.mark.parametrize("face", ["Q", "q", "[Q]", "[Qu]"])
def test_a_lone_q_face_is_the_qu_face(face):
    # some French dice print the Qu face as a lone Q: read, typed or corrected, it is Qu
    from boggle_cv.game.board import normalise_face
    assert normalise_face(face.strip("[]")) == "Qu"
    assert Board.parse(f"{face}AIT/XXXX/XXXX/XXXX").face(0, 0) == "Qu"


def test_a_french_scan_flags_an_o_that_may_be_a_lone_q():
    # a lone Q the reader still takes for an O keeps a little Qu (reader v6 on
    # synthetic lone-Q cells: median 0.04; v7 reads them Qu, its one miss on 200
    # French photos gave Qu 0.02; genuine O cells: 99th percentile 0.012 with v6)
    from boggle_cv.vision.decode import FACES, DecodeConfig, decode
    from boggle_cv.vision.stages import Reading
    board = dice.roll("fr-4", 5)
    faces = np.full((16, len(FACES)), 0.001)
    for k, f in enumerate(f for row in board.faces for f in row):
        faces[k, FACES.index(f)] = 0.95
    faces[0] = 0.001
    faces[0, FACES.index("O")], faces[0, FACES.index("Qu")] = 0.9, 0.03
    reading = Reading(faces, np.tile([1.0, 0, 0, 0], (16, 1)))
    cell = decode(reading, 4, DecodeConfig(edition="fr")).cells[0][0]
    assert cell.face == "O" and cell.flagged and cell.runner_up == "Qu"
    for edition in ("en", "it", "de"):
        other = decode(reading, 4, DecodeConfig(edition=edition)).cells[0][0]
        assert other.face == "O" and not other.flagged
    faces[0, FACES.index("Qu")] = 0.005  # a plain O
    assert not decode(Reading(faces, reading.turns), 4, DecodeConfig(edition="fr")).cells[0][0].flagged


def test_the_text_report_shows_the_entry_as_written_in_other_editions(tmp_path):
    ann = tmp_path / "ann.txt"
    ann.write_text("Été\ncœur\n", encoding="utf-8")
    rc, out, _ = run("score", "ETEC/XXUO/XXRX/XXXX", "--lang", "fr", "--player", f"ann={ann}")
    assert rc == 0 and "ETE (été)" in out and "COEUR (cœur)" in out
    ann.write_text("élan\n", encoding="utf-8")
    rc, out, _ = run("score", "ELAN/XXXX/XXXX/XXXX", "--player", f"ann={ann}")
    assert rc == 0 and "ELAN " in out and "(élan)" not in out  # English text as before
