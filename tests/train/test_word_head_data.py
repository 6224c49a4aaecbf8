"""The word models' training data: the splits (by writer / by word), the refusal to
train on the test split, and the defocused copies (train/word_head.py). No torch."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from boggle_cv.train.word_head import (DHSD_TEST_WRITERS, DHSD_TUNE_WRITERS, defocused, parse_splits, split_of,
                                       training_items)


def _manifest(tmp_path):
    items = [{"set": "dhsd", "writer": w, "transcription": "Köln", "file": f"d{w}.png"} for w in range(1, 35)]
    items += [{"set": "jeremy-words", "writer": "jeremy", "transcription": t, "file": f"j{k}.png"}
              for k, t in enumerate(["seat", "sat", "eats", "tease", "rate", "tears", "stare", "least", "steal", "tale",
                                     "slate", "ant", "seat", "1969"])]
    (tmp_path / "manifest.json").write_text(json.dumps(items))
    return items


def test_dhsd_splits_by_writer_and_jeremy_by_word(tmp_path):
    items = _manifest(tmp_path)
    for x in items:
        if x["set"] == "dhsd":
            want = ("tune" if x["writer"] in DHSD_TUNE_WRITERS else "test") if x["writer"] in DHSD_TEST_WRITERS else "train"
            assert split_of(x) == want
    seats = [split_of(x) for x in items if x["transcription"] == "seat"]
    assert len(set(seats)) == 1  # one word, every writing of it, in one split


def test_training_items_take_the_splits_asked_and_never_the_test_split(tmp_path):
    items = _manifest(tmp_path)
    train = training_items(tmp_path)
    both = training_items(tmp_path, ("train", "tune"))
    assert {split_of(x) for x in train} == {"train"}
    assert {split_of(x) for x in both} == {"train", "tune"} and len(both) > len(train)
    assert all(x["transcription"] != "1969" for x in both)  # no letters: not a word to learn
    assert sum(split_of(x) == "test" for x in items) > 0


@pytest.mark.parametrize("text", ["test", "train,test", "", "tune,bogus"])
def test_the_test_split_and_unknown_splits_are_refused(text):
    with pytest.raises(SystemExit, match="held out"):
        parse_splits(text)


def test_parse_splits():
    assert parse_splits("train") == ("train",)
    assert parse_splits("train, tune") == ("train", "tune")


def test_a_defocused_copy_is_small_soft_and_still_ink_on_paper():
    im = np.full((110, 300, 3), 235, np.uint8)
    cv2.putText(im, "seat", (10, 85), cv2.FONT_HERSHEY_SIMPLEX, 3.0, (20, 20, 20), 6)
    rng = np.random.default_rng(0)
    for _ in range(5):
        out = defocused(im, rng)
        assert out.dtype == np.uint8 and out.ndim == 3 and 28 <= out.shape[0] <= 56
        grey = cv2.cvtColor(out, cv2.COLOR_BGR2GRAY).astype(np.float32)
        assert grey.min() < 120 and np.percentile(grey, 90) > 200  # the word is still there
        small = cv2.resize(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY), out.shape[1::-1], interpolation=cv2.INTER_AREA)
        edges = [float(np.abs(np.diff(g.astype(np.float32), axis=1)).max()) for g in (grey, small)]
        assert edges[0] < edges[1]  # softer than the same word only shrunk
