"""The prior of common words in the lexicon reading (vision/handwriting/commonness.py)."""
from __future__ import annotations

import gzip
from importlib import resources

import numpy as np
import pytest

from boggle_cv.vision.handwriting import commonness, ctc, reading



@pytest.fixture(autouse=True)
def _posterior_flags(monkeypatch):
    """These tests hold the posterior and its own flag (reading.FLAG_BELOW), not the
    shipped calibration's (test_handwriting_doubt.py)."""
    monkeypatch.setenv("BOGGLE_CV_WORD_DOUBT", "none")

def test_table_ranks_common_words_before_rare_ones():
    table = commonness.ranks()
    assert table["the"] == 0 and table["time"] == 0 and table["happy"] == 0
    assert table["haply"] > table["happy"] and table["tine"] > table["time"]
    assert table["billon"] > table["billion"]
    assert set(table.values()) == set(range(len(commonness.SIZES)))
    assert all(w.isascii() and w.isalpha() and w == w.lower() for w in list(table)[::997])


def test_shipped_table_is_one_sorted_line_per_size_with_a_reproducible_header():
    data = (resources.files("boggle_cv") / "data" / commonness.LEVELS_FILE).read_bytes()
    assert data[4:8] == b"\0\0\0\0"  # gzip mtime 0: a rebuild gives the same bytes
    lines = gzip.decompress(data).decode("ascii").splitlines()
    assert [int(line.split()[0]) for line in lines] == list(commonness.SIZES)
    for line in lines:
        words = line.split()[1:]
        assert words == sorted(words) and words


def test_table_words_are_default_dictionary_words():
    from boggle_cv.game.dictionary import load_default
    dictionary = load_default()
    sample = sorted(commonness.ranks())[::501]
    assert sample and all(w in dictionary for w in sample)


def test_frequency_table_sorts_common_words_before_rare_ones():
    table = commonness.frequencies()
    assert table["the"] > 7 and table["value"] > table["valve"] and table["happy"] > table["haply"]
    assert table["time"] > table["tine"] and table["sure"] > table["sire"]
    assert all(round(z * 10) == pytest.approx(z * 10) for z in list(table.values())[::997])
    assert all(w.isascii() and w.isalpha() and w == w.lower() for w in list(table)[::997])


def test_shipped_frequency_table_is_one_sorted_line_per_tenth_with_a_reproducible_header():
    data = (resources.files("boggle_cv") / "data" / commonness.ZIPF_FILE).read_bytes()
    assert data[4:8] == b"\0\0\0\0"  # gzip mtime 0: a rebuild gives the same bytes
    lines = gzip.decompress(data).decode("ascii").splitlines()
    tenths = [int(line.split()[0]) for line in lines]
    assert tenths == sorted(set(tenths)) and tenths[0] > 0
    for line in lines:
        words = line.split()[1:]
        assert words == sorted(words) and words


def test_frequency_table_words_are_default_dictionary_words():
    from boggle_cv.game.dictionary import load_default
    dictionary = load_default()
    sample = sorted(commonness.frequencies())[::501]
    assert sample and all(w in dictionary for w in sample)


def test_log_prior_by_frequency_unknown_as_rare_and_none_for_other_languages():
    got = commonness.log_prior(["the", "haply", "zzzqx"])
    table = commonness.frequencies()
    want = commonness.ZIPF_WEIGHT * np.array([commonness.ZIPF_CAP, table["haply"], commonness.UNKNOWN_ZIPF])
    assert table["the"] > commonness.ZIPF_CAP
    np.testing.assert_allclose(got, want)
    np.testing.assert_array_equal(commonness.log_prior(["the", "haply"], "de"), [0.0, 0.0])
    assert commonness.log_prior([]).shape == (0,)


def _views_for(word: str, frames: int = 12, other: float = 0.01) -> list[np.ndarray]:
    """(T, 27) frame probabilities spelling `word` (blank, letter, blank, ...); a
    letter written "m|n" is either, at equal odds; every other class has `other`."""
    probs = np.full((frames, 27), other, np.float32)
    probs[:, 0] = 0.5
    letters = word.replace("m|n", "#")
    for i, ch in enumerate(letters):
        probs[2 * i + 1, :] = other
        for c in ("mn" if ch == "#" else ch):
            probs[2 * i + 1, ord(c) - 96] = 0.9 / (2 if ch == "#" else 1)
    return [probs / probs.sum(axis=1, keepdims=True)]


def test_prior_breaks_a_near_tie_towards_the_common_word():
    """time (Zipf 6.3, counted as ZIPF_CAP 5.5) against tine (2.6), the ink unable to
    tell m from n: time, sure of it; without the prior a coin toss."""
    views = _views_for("tim|ne")  # the ink cannot tell m from n
    lexicon = ["tine", "time"]
    enc = ctc.encode(lexicon)
    scores = reading.lexicon_scores(views, enc)
    assert scores[0] == pytest.approx(scores[1])  # the ink cannot tell them apart
    prior = commonness.log_prior(lexicon)
    r = reading.read_views(views, lexicon, enc, prior)
    assert r.word == "time" and r.confidence > 0.9 and not r.flagged
    uniform = reading.read_views(views, lexicon, enc)
    assert uniform.confidence == pytest.approx(0.5) and uniform.flagged


def test_a_tie_of_two_common_words_stays_flagged():
    """mine (Zipf 5.0) and nine (4.9): the prior barely leans, the word is asked."""
    views = _views_for("m|nine")
    lexicon = ["nine", "mine"]
    r = reading.read_views(views, lexicon, None, commonness.log_prior(lexicon))
    assert r.word == "mine" and r.flagged and r.confidence < 0.6


def test_clear_ink_beats_the_prior():
    """haply is about 3.8 Zipf units rarer than happy (3.8 nats of prior): a letter the
    network is sure of (0.9 against 0.0001: 4.6 nats after the temperature) outweighs
    it, a letter at 90:1 (2.2 nats) does not."""
    table = commonness.frequencies()
    assert 3.0 < commonness.ZIPF_WEIGHT * (min(table["happy"], commonness.ZIPF_CAP) - table["haply"]) < 4.5
    views = _views_for("haply", other=0.0001)
    lexicon = ["happy", "haply"]
    r = reading.read_views(views, lexicon, None, commonness.log_prior(lexicon))
    assert r.word == "haply"
    unsure = reading.read_views(_views_for("haply"), lexicon, None, commonness.log_prior(lexicon))
    assert unsure.word == "happy" and unsure.flagged


def test_read_words_applies_the_prior_of_its_language(monkeypatch):
    from boggle_cv.vision.handwriting import recogniser
    monkeypatch.setattr(reading, "crop_views", lambda images: [_views_for("tim|ne") for _ in images])
    monkeypatch.setattr(recogniser, "frame_probs", lambda images, stretch=1.0: [_views_for("tim|ne")[0] for _ in images])
    image = np.full((48, 100, 3), 255, np.uint8)
    en = reading.read_words([image], ["tine", "time"])[0]
    de = reading.read_words([image], ["tine", "time"], lang="de")[0]
    assert en.word == "time" and en.confidence > de.confidence
    assert de.confidence == pytest.approx(0.5)
    free = reading.read_words([image])[0]  # the free reading shows the ink, no prior
    assert free.word in ("time", "tine")


def test_wordfreq_notice_ships_beside_the_frequency_table():
    notice = (resources.files("boggle_cv") / "data" / "en-word-zipf.LICENSE").read_text(encoding="utf-8")
    assert "Attribution-ShareAlike 4.0" in notice and "SUBTLEX" in notice and "OpenSubtitles" in notice


def test_scowl_notice_ships_beside_the_english_list_and_its_levels():
    notice = (resources.files("boggle_cv") / "data" / "default-dict.LICENSE").read_text(encoding="utf-8")
    assert "en-word-levels.txt.gz" in notice and "Copyright 2000-2011 by Kevin Atkinson" in notice
    assert "Permission to use, copy, modify, distribute and sell" in notice


def test_a_doubtful_word_gets_a_second_look_at_other_stretches(monkeypatch):
    """read_words: a lexicon reading under RECHECK_BELOW is read again at SECOND_LOOK's
    stretches (only that crop), its candidates scored over all the views; a sure one is
    read once."""
    from boggle_cv.vision.handwriting import recogniser
    sure, doubtful = np.zeros((48, 100, 3), np.uint8), np.full((48, 100, 3), 255, np.uint8)
    first = {id(sure): _views_for("time", other=0.0001)[0], id(doubtful): _views_for("tim|ne")[0]}
    monkeypatch.setattr(reading, "crop_views", lambda images: [[first[id(im)]] for im in images])
    looked: list[tuple[int, float]] = []

    def more(images, stretch=1.0):
        looked.extend((len(images), stretch) for _ in [0])
        assert all(im is doubtful for im in images)
        return [_views_for("tine", other=0.0001)[0] for _ in images]
    monkeypatch.setattr(recogniser, "frame_probs", more)
    a, b = reading.read_words([sure, doubtful], ["tine", "time"], lang="de")
    assert a.word == "time" and a.confidence > reading.RECHECK_BELOW
    assert looked == [(1, s) for s in reading.SECOND_LOOK]
    assert b.word == "tine"  # two clear views of "tine" outweigh one that cannot tell
