"""The referee (boggle_cv/game/referee.py): one round from a scan or a given board, the
rules in force and why, corrections, doubtful cells, and the document round trip."""
from __future__ import annotations

import json

import numpy as np
import pytest

from boggle_cv.game.board import Board
from boggle_cv.errors import ArgumentTypeError, UsageError
from boggle_cv.game.referee import (Corrections, MarksPolicy, RoundRequest, RoundResult, RulesOptions, referee_round)
from boggle_cv.game.scoring import score_round
from boggle_cv.vision.decode import decode
from boggle_cv.vision.pipeline import ScanResult
from boggle_cv.vision.reader_model import FACES
from boggle_cv.vision.stages import Reading
from boggle_cv.vision.tray import TrayResult

BOARD = "PERS/LATG/SINE/TERS"
LISTS = {"ann": ["pert", "last", "xyzzy"], "bob": ["last", "sine", "rest"]}


def fake_scan(text: str = BOARD, doubtful: tuple[int, int] | None = (1, 2), runner_up: str = "W",
              bonus: list[tuple[int, int]] | None = None, challenge: tuple[int, int] | None = None) -> ScanResult:
    """A ScanResult as the pipeline makes it, from a recorded reading of `text`
    (upright, one cell doubtful between its face and `runner_up`) on a square tray."""
    b = Board.parse(text)
    n = b.size
    faces = np.full((n * n, len(FACES)), 1e-4, np.float32)
    for (r, c) in b.cells():
        faces[r * n + c, FACES.index(b.faces[r][c])] = 1.0
    if doubtful is not None:
        k = doubtful[0] * n + doubtful[1]
        faces[k] = 1e-4
        faces[k, FACES.index(b.faces[doubtful[0]][doubtful[1]])] = 0.6
        faces[k, FACES.index(runner_up)] = 0.35
    faces /= faces.sum(1, keepdims=True)
    turns = np.tile(np.array([[0.97, 0.01, 0.01, 0.01]], np.float32), (n * n, 1))
    reading = decode(Reading(faces, turns), n, use_prior=False)
    pitch = 100.0
    corners = np.array([(0, 0), (n * pitch, 0), (n * pitch, n * pitch), (0, n * pitch)], np.float64) + 50.5
    centres = np.array([[(50.5 + (c + 0.5) * pitch, 50.5 + (r + 0.5) * pitch) for c in range(n)] for r in range(n)])
    return ScanResult("tray.jpg", (600, 640), TrayResult(n, corners, 0.93, centres), reading, "classifier",
                      {"tray": 0.1}, bonus or [], challenge)


def test_a_given_board_scores_as_score_round(dictionary=None):
    result = referee_round(RoundRequest(corrections=Corrections(board=Board.parse(BOARD)), players=LISTS))
    want = score_round(Board.parse(BOARD), LISTS).to_dict()
    doc = result.to_dict()
    assert {k: v for k, v in doc.items() if k in want} == want
    assert result.given and result.read_board is None and result.unresolved == ()
    assert doc["rules_why"] == {"challenge_cell": "none", "variant": "default", "bonus_cells": "none",
                                "min_length": "board size", "long_words": "default"}


def test_round_trip_of_every_kind_of_round():
    scan = fake_scan(bonus=[(0, 0)], challenge=(3, 3))
    requests = [
        RoundRequest(corrections=Corrections(board=Board.parse(BOARD)), players=LISTS),
        RoundRequest(corrections=Corrections(board=Board.parse(BOARD)), players=LISTS, photo="x.jpg"),
        RoundRequest(scan, Corrections(cells={(0, 1): "A"}), players=LISTS, photo="tray.jpg", timings={"load": 0.0123}),
        RoundRequest(scan, marks=MarksPolicy.ignore, options=RulesOptions(min_length=4, long_words="flat")),
    ]
    for req in requests:
        result = referee_round(req)
        doc = json.loads(json.dumps(result.to_dict()))
        again = RoundResult.from_dict(doc)
        assert again.to_dict() == doc
        assert again.board == result.board and again.rules == result.rules
        assert again.unresolved == result.unresolved and again.corrected == result.corrected


def test_marks_seen_in_the_photo_set_the_rules_unless_ignored():
    scan = fake_scan(doubtful=None, bonus=[(0, 0)], challenge=(3, 3))
    used = referee_round(RoundRequest(scan, options=RulesOptions(bonus_cells=frozenset({(1, 1)})), players=LISTS))
    assert used.rules.variant == "challenge" and used.rules.challenge_cell == (3, 3)
    assert used.rules.bonus_cells == {(0, 0), (1, 1)}
    assert used.rules_why["bonus_cells"] == "option+photo" and used.rules_why["variant"] == "photo"
    assert any("r4c4" in n for n in used.notes) and any("r1c1" in n for n in used.notes)
    ignored = referee_round(RoundRequest(scan, marks=MarksPolicy.ignore, players=LISTS))
    assert ignored.rules.variant == "standard" and ignored.rules.bonus_cells == frozenset()
    chosen = referee_round(RoundRequest(scan, options=RulesOptions(variant="standard"), players=LISTS))
    assert chosen.rules.variant == "standard" and chosen.rules_why["challenge_cell"] == "none"


def test_doubtful_cells_stay_unresolved_until_fixed():
    scan = fake_scan(doubtful=(1, 2), runner_up="W")
    plain = referee_round(RoundRequest(scan))
    assert plain.unresolved == ((1, 2),) and plain.corrected == ()
    assert any("1 doubtful" in n for n in plain.notes)
    fixed = referee_round(RoundRequest(scan, Corrections(cells={(1, 2): "W"})))
    assert fixed.unresolved == () and fixed.corrected == ((1, 2),) and fixed.board.faces[1][2] == "W"
    confirmed = referee_round(RoundRequest(scan, Corrections(cells={(1, 2): "T"})))  # the reading, confirmed
    assert confirmed.unresolved == () and confirmed.corrected == ()


def test_a_given_board_replaces_the_reading():
    result = referee_round(RoundRequest(fake_scan(), Corrections(board=Board.parse("ABCD/EFGH/IJKL/MNOP")), photo="t.jpg"))
    assert result.scan is None and result.read_board is None
    doc = result.to_dict()
    assert doc["board"]["given"] is True and doc["tray"] is None


@pytest.mark.parametrize("request_, fragment", [
    (RoundRequest(), "needs a board"),
    (RoundRequest(corrections=Corrections(board=Board.parse(BOARD), cells={(4, 0): "A"})), "outside"),
    (RoundRequest(corrections=Corrections(board=Board.parse(BOARD)), options=RulesOptions(variant="challenge")),
     "challenge cube's cell"),
    (RoundRequest(corrections=Corrections(board=Board.parse(BOARD)),
                  options=RulesOptions(variant="standard", challenge_cell=(0, 0))), "variant is standard"),
    (RoundRequest(corrections=Corrections(board=Board.parse(BOARD)), options=RulesOptions(min_length=0)), "min_length"),
])
def test_requests_that_cannot_be_scored_are_value_errors(request_, fragment):
    with pytest.raises(ValueError, match=fragment) as info:
        referee_round(request_)
    assert isinstance(info.value, UsageError)


def test_a_list_given_as_one_string_is_refused():
    with pytest.raises(TypeError, match="one string") as info:
        referee_round(RoundRequest(corrections=Corrections(board=Board.parse(BOARD)), players={"ann": "pert last"}))
    assert isinstance(info.value, ArgumentTypeError)


def test_a_malformed_document_is_a_usage_error():
    with pytest.raises(UsageError, match="not a boggle-cv round document"):
        RoundResult.from_dict({"board": {"faces": [["A"]]}})


def test_a_doubtful_cell_is_a_question_only_when_a_list_s_score_depends_on_it():
    scan = fake_scan(doubtful=(1, 2), runner_up="W")   # PERT needs the T of r2c3
    unused = referee_round(RoundRequest(scan, players={"ann": ["sine"]}))
    assert unused.unresolved == ((1, 2),) and unused.questions == ()
    assert [d.key for d in unused.decision.settled] == ["r2c3"]
    assert any("no score depends on: r2c3 T (or W)" in n for n in unused.notes)
    used = referee_round(RoundRequest(scan, players={"ann": ["sine", "pert"]}))
    assert used.questions == ("r2c3",)
    doc = json.loads(json.dumps(used.to_dict()))
    assert [q["key"] for q in doc["questions"]] == ["r2c3"] and doc["questions"][0]["rides"]["players"] == ["ann"]
    assert RoundResult.from_dict(doc).to_dict() == doc


def test_a_sheet_s_doubts_ride_with_the_request_and_a_dropped_entry_is_not_scored():
    from boggle_cv.game.questions import WordDoubt
    doubts = (WordDoubt("ann", 0, (("", 0.9), ("pert", 0.1)), "crossed"), WordDoubt("ann", 1, (("sine", 0.6), ("sane", 0.4))))
    result = referee_round(RoundRequest(corrections=Corrections(board=Board.parse(BOARD)),
                                        players={"ann": ["", "sine"]}, doubts=doubts))
    assert [w.word for w in result.sheet.players[0].words] == ["sine"]
    assert result.questions == ("ann#1",) and [d.key for d in result.decision.settled] == ["ann#2"]
