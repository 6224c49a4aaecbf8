"""scripts/game_taps.py: what the referee asks a table of paper players, and what it
lets through (scores and words shown wrong)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from game_taps import games, play, scores, summary  # noqa: E402

TABLE = {"seat": 1, "sat": 1, "tears": 2, "stare": 2, "east": 1}


def read(word, flagged=False, alts=(), crossed=False):
    return {"word": word, "free": word, "flagged": flagged, "crossed_out": crossed,
            "alternatives": [[word, 0.6]] + [[a, 0.4 / max(len(alts), 1)] for a in alts]}


def test_only_doubts_that_change_a_score_are_tapped_and_the_truth_answers():
    truth = {"ann": ["seat", "tears", "stare"], "bob": ["sat", "east"]}
    readings = {
        "ann": [read("seat", True, ["sat"]),     # seat or sat: bob has sat, so it rides: asked, kept
                read("tears", True, ["tear"]),   # tear is no word of the board: asked, kept
                read("stare")],
        "bob": [read("sat"), read("east", True, ["east"]),   # one option, but it may be no word: asked
                read("zzz", True, ["zzy"])],     # junk that scores nothing either way: settled, shown wrong
    }
    rounds = {r.name: r for r in play(truth, readings, TABLE, {"ann": "dhsd", "bob": "dhsd"})}
    assert rounds["ann"].taps == 2 and rounds["bob"].taps == 1
    assert rounds["bob"].shown_wrong == 1 and rounds["ann"].shown_wrong == 0
    assert all(r.score == r.true_score and r.typed == 0 for r in rounds.values())


def test_a_confident_error_that_scores_is_a_score_error_and_the_true_word_is_typed():
    truth = {"ann": ["seat"]}
    rounds = play(truth, {"ann": [read("east")]}, TABLE, {"ann": "jeremy-words"})
    assert (rounds[0].taps, rounds[0].typed, rounds[0].shown_wrong) == (0, 1, 1)
    assert rounds[0].score == 2 and rounds[0].true_score == 1


def test_crossing_off_and_games_of_n_players():
    assert scores({"a": ["seat", "seat", "tears"], "b": ["tears"]}, TABLE) == {"a": 1, "b": 0}
    sets = {"s1": "dhsd", "s2": "jeremy-words", "s3": "dhsd", "s4": "dhsd"}
    assert games(list(sets), sets, 2) == [["s1", "s3"], ["s4"], ["s2"]]


def test_the_last_line_on_a_small_set(tmp_path):
    folder = tmp_path / "sheets"
    folder.mkdir()
    truth = {f"sheet-00{i}.jpg": {"set": s, "writer": "w", "words": ["seat", "tears"]}
             for i, s in enumerate(["dhsd", "dhsd", "jeremy-words"])}
    (folder / "truth.json").write_text(json.dumps(truth))
    saved = {n: {"words": [read("seat"), read("tears", True, ["tear"])]} for n in truth}
    (tmp_path / "readings.json").write_text(json.dumps(saved))
    words = tmp_path / "words.txt"
    fill = [a + b + c for a in "bcdfg" for b in "aeiou" for c in "klmnprst"]   # 200 more, to fill a board
    words.write_text("\n".join(["seat", "tears", "tear", "sat", "stare", "east", "rest", "tree", *fill]) + "\n")
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "game_taps.py"), str(folder), "--players", "2",
                          "--words", str(words), "--load", str(tmp_path / "readings.json")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    last = out.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"game taps: median [\d.]+ a sheet \(print [\d.]+ max \d+, scrawl [\d.]+ max \d+\), "
                        r"typed \d+ in 3 sheets, score errors \d+ in 3 player-rounds, display errors \d+, "
                        r"invented \d+ in 6 written words", last), last


def test_a_board_word_nobody_wrote_accepted_unasked_is_invented():
    truth = {"ann": ["seat", "slab"]}
    rounds = play(truth, {"ann": [read("seat"), read("sat")]}, TABLE, {"ann": "jeremy-words"})
    assert (rounds[0].invented, rounds[0].shown_wrong, rounds[0].written) == (1, 1, 2)
    rounds = play(truth, {"ann": [read("seat"), read("slob")]}, TABLE, {"ann": "jeremy-words"})
    assert (rounds[0].invented, rounds[0].shown_wrong) == (0, 1)  # shown wrong, but no board word: 0 points


def test_an_offboard_board_leaves_a_share_of_each_player_s_words_off_half_with_a_near_word():
    import random

    from sheet_taps import offboard_board
    pool = [a + b + c + d for a in "bcdfgst" for b in "aeiou" for c in "lmnrst" for d in "aeiosy"]
    pool_set = set(pool)
    ann, bob = sorted(pool_set)[:20], sorted(pool_set)[100:110]
    board, lexicon, off = offboard_board([ann, bob], 0.2, pool, pool_set, random.Random(3))
    assert len(off & set(ann)) == 4 and len(off & set(bob)) == 2
    assert not off & set(board) and set(ann + bob) - off <= set(board)
    near = [w for w in off if any(sum(x != y for x, y in zip(w, b)) == 1 for b in board if len(b) == len(w))]
    assert len(near) >= 3  # half of the 6 words off the board have a word one letter away on it
    assert set(board) <= set(lexicon) and len(board) >= 110


def test_every_game_dealt_k_boards_gives_k_player_rounds_a_sheet(tmp_path):
    folder = tmp_path / "sheets"
    folder.mkdir()
    truth = {f"sheet-00{i}.jpg": {"set": "dhsd", "writer": "w", "words": ["seat", "tears"]} for i in range(2)}
    (folder / "truth.json").write_text(json.dumps(truth))
    saved = {f"{n}{k}": {"words": [read("seat"), read("tears")]} for n in truth for k in ("", "#2", "#3")}
    (tmp_path / "readings.json").write_text(json.dumps(saved))
    words = tmp_path / "words.txt"
    fill = [a + b + c for a in "bcdfg" for b in "aeiou" for c in "klmnprst"]
    words.write_text("\n".join(["seat", "tears", "tear", "sat", "stare", "east", *fill]) + "\n")
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "game_taps.py"), str(folder), "--boards", "3",
                          "--offboard", "0.5", "--words", str(words), "--load", str(tmp_path / "readings.json")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "score errors 0 in 6 player-rounds" in out.stdout.splitlines()[-1]
    bad = subprocess.run([sys.executable, str(ROOT / "scripts" / "game_taps.py"), str(folder), "--offboard", "2"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--offboard" in bad.stderr
