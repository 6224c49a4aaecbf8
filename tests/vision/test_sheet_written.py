"""written: German words as an a-z reader sees them handwritten (ä -> a, ß -> ss or s),
and read_sheet(lang="de") reporting the dictionary's folded word."""
from __future__ import annotations

from types import SimpleNamespace

from boggle_cv.vision.sheet import read_sheet
from boggle_cv.vision.sheet.written import with_written_forms, written_forms

from sheet_helpers import WORDS, photo_of, sheet


def test_written_forms_of_folded_german_words():
    assert written_forms("baer") == {"bar"}
    assert written_forms("oel") == {"ol"}
    assert written_forms("fuesse") == {"fusse", "fuese", "fuse"}  # Füße: ü -> u, ß -> ss or s
    assert written_forms("tisch") == set()
    assert len(written_forms("aeoeueaeoeue")) == 2 ** 4 - 1  # at most four pairs varied


def test_a_written_form_that_is_a_word_stays_that_word():
    lex, back = with_written_forms(["baer", "bar", "oel"])
    assert lex == ["baer", "bar", "oel", "ol"] and back == {"ol": "oel"}


def test_a_german_sheet_reports_the_folded_word():
    paper, _ = sheet(0, lines=[["seat"], ["sat"], ["eats"]])
    photo, _ = photo_of(paper, 0)
    seen: list[list[str]] = []

    def reader(crops, lexicon=None):
        # the written "Öl" read through a-z: "ol", with "oel" and "al" behind it
        seen.append(list(lexicon))
        return [SimpleNamespace(word="ol", confidence=0.6, alternatives=(("ol", 0.6), ("al", 0.25), ("oel", 0.15)),
                                flagged=True, free="ol") for _ in crops]

    got = read_sheet(photo, ["oel", "al", "baer"], reader=reader, lang="de")
    assert "ol" in seen[0] and "bar" in seen[0]
    w = got.words[0]
    assert w.word == "oel" and abs(w.confidence - 0.75) < 1e-9
    assert [a for a, _ in w.alternatives] == ["oel", "al"]
    # English: the lexicon as given, the reading as read
    got = read_sheet(photo, ["oel", "al", "baer"], reader=reader)
    assert seen[-1] == ["oel", "al", "baer"] and got.words[0].word == "ol"
