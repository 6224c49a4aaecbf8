"""The free reading's letter model (vision/handwriting/charlm.py) and CTC prefix beam
search (ctc.beam_search)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from boggle_cv.vision.handwriting import charlm, ctc


def test_letter_table_is_a_distribution_over_the_next_letter():
    t = charlm.table()
    assert t.shape == (27, 27, 27) and t.dtype == np.float32
    np.testing.assert_allclose(np.exp(t.astype(np.float64)).sum(axis=2), 1.0, atol=1e-4)


def test_letter_model_knows_words_from_letter_soup():
    assert charlm.word_log_prob("grabendorf") > charlm.word_log_prob("gxabendosf") + 5
    assert charlm.word_log_prob("house") > charlm.word_log_prob("hquse")
    assert charlm.word_log_prob("strasse") > charlm.word_log_prob("strsse")


def test_count_and_normalise_give_the_trigrams_of_the_words():
    t = charlm.normalise(charlm.count(["ab", "ab", "ac"]), k=1e-9)
    a, b, c = 1, 2, 3
    assert np.exp(t[0, 0, a]) == pytest.approx(1.0, abs=1e-6)        # every word starts with a
    assert np.exp(t[0, a, b]) == pytest.approx(2 / 3, abs=1e-6)      # then b twice, c once
    assert np.exp(t[a, b, charlm.EDGE]) == pytest.approx(1.0, abs=1e-6)  # and ends


def _all_labellings(t_frames: int, letters: str) -> list[str]:
    out = [""]
    for n in range(1, t_frames + 1):
        out += ["".join(p) for p in itertools.product(letters, repeat=n)]
    return out


def test_beam_search_without_the_letter_model_finds_the_most_probable_labelling():
    rng = np.random.default_rng(3)
    for _ in range(5):
        probs = np.full((5, 27), 1e-6)
        probs[:, [0, 1, 2]] = rng.dirichlet(np.ones(3), size=5)  # blank, a, b
        probs /= probs.sum(axis=1, keepdims=True)
        words = [w for w in _all_labellings(5, "ab") if w]
        ll = ctc.log_likelihoods(probs, *ctc.encode(words))
        blank = float(np.log(probs[:, 0]).sum())
        best = max(zip(list(ll) + [blank], words + [""]))[1]
        assert ctc.beam_search(probs, charlm.table(), 0.0, 0.0, beam=64, floor=0.0) == best


def _g_rx_ab() -> np.ndarray:
    probs = np.full((9, 27), 1e-4)
    probs[:, 0] = 0.6
    for i, c in enumerate("g#ab"):
        f = 2 * i + 1
        probs[f, 0] = 0.05
        for ch, p in ((("r", 0.42), ("x", 0.48)) if c == "#" else ((c, 0.9),)):
            probs[f, ord(ch) - 96] = p
    return np.asarray(probs / probs.sum(axis=1, keepdims=True))


def test_read_words_free_reading_uses_the_letter_model(monkeypatch):
    from boggle_cv.vision.handwriting import reading
    monkeypatch.setattr(reading, "crop_views", lambda images: [[_g_rx_ab()] for _ in images])
    image = np.full((48, 100, 3), 255, np.uint8)
    free = reading.read_words([image])[0]
    assert free.word == "grab" and free.free == "grab"
    board = reading.read_words([image], ["grab", "gxab"])[0]
    assert board.free == "grab"


def test_the_letter_model_settles_a_letter_the_ink_leaves_open():
    """Frames spelling g-?-a-b where ? is x a little more than r: the ink alone reads
    "gxab", the letter model "grab"."""
    probs = _g_rx_ab()
    assert ctc.beam_search(probs, charlm.table(), 0.0, 0.0) == "gxab" == ctc.greedy(probs)[0]
    assert ctc.beam_search(probs, charlm.table(), 0.5, 1.0) == "grab"
    blank = np.full((6, 27), 1e-4)
    blank[:, 0] = 1.0
    assert ctc.beam_search(blank / blank.sum(axis=1, keepdims=True), charlm.table(), 0.5, 1.0) == ""
