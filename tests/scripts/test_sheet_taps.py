"""scripts/sheet_taps.py: what putting a sheet right costs its player."""
from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from sheet_taps import count_taps, summary  # noqa: E402


def read(word, flagged=False, alts=(), crossed=False):
    alternatives = [(word, 0.6)] + [(a, 0.1) for a in alts]
    return SimpleNamespace(word=word, flagged=flagged, alternatives=alternatives, crossed_out=crossed)


def test_a_sheet_read_right_costs_nothing():
    cost = count_taps(["seat", "tears", "stare"], [read("stare"), read("seat"), read("tears")])
    assert (cost.taps, cost.typed, cost.confident, cost.right) == (0, 0, 0, 3)


def test_each_way_a_word_costs():
    truth = ["seat", "tears", "stare", "least", "steal", "slate"]
    reads = [
        read("seat"),                                   # right: nothing
        read("tears", flagged=True),                    # asked, right: keep it (1 tap)
        read("stars", flagged=True, alts=("stare",)),   # asked, the true word offered: pick it (1 tap)
        read("lest", flagged=True, alts=("lust",)),     # asked, no true word offered: remove it (1 tap)
        read("steel"),                                  # wrong, not asked: a confident error
        read("slate", crossed=True),                    # taken for crossed out: put it back (1 tap)
    ]
    cost = count_taps(truth, reads)
    assert cost.asked == 2 and cost.removed == 1 and cost.restored == 1 and cost.taps == 4
    assert cost.confident == 1
    assert cost.typed == 2  # least (never offered) and steal (hidden behind the confident error)
    assert cost.right == 4 and cost.words == 6


def test_an_unasked_right_word_claims_its_truth_before_an_asked_one():
    # "seat" written once, read twice: the sure reading is the one that counts, the
    # doubtful copy is junk to remove
    cost = count_taps(["seat"], [read("seat", flagged=True), read("seat")])
    assert (cost.asked, cost.removed, cost.confident, cost.typed) == (0, 1, 0, 0)


def test_only_the_offered_alternatives_count():
    reads = [read("stars", flagged=True, alts=("stairs", "scars", "stare"))]
    assert count_taps(["stare"], reads).typed == 0                     # the fourth of five offered
    assert count_taps(["stare"], reads, alternatives=3).typed == 1     # the reading and two more only
    assert count_taps(["stare"], [SimpleNamespace(**{**vars(reads[0]), "alternatives": []})]).typed == 1


def test_readings_as_json_documents_count_the_same():
    doc = {"word": "tears", "flagged": True, "alternatives": [["tears", 0.7]], "crossed_out": False}
    assert count_taps(["tears"], [doc]).asked == 1


def test_summary_line_has_the_figures_of_the_goals():
    costs = [count_taps(["seat", "sat"], [read("seat"), read("sat", flagged=True)]),
             count_taps(["seat"], [read("set")])]
    line = summary("taps, fast scrawl", costs, [0.5, 1.5])
    assert "median 0.5" in line and "worst 1" in line
    assert "typed 1 (5.0 per 10 sheets)" in line
    assert "confident errors 1 (333.3 per 1,000 words)" in line and "1.00 s a sheet" in line
