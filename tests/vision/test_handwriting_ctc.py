"""The CTC scorer against a brute-force sum over every alignment, on small cases."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from boggle_cv.vision.handwriting import ctc


def _collapse(path):
    out, prev = [], 0
    for c in path:
        if c != prev and c != 0:
            out.append(c)
        prev = c
    return tuple(out)


def _brute(probs, word, classes):
    """Sum of P(path) over every path of len T over `classes` that collapses to word."""
    target = tuple(ord(c) - 96 for c in word)
    total = 0.0
    for path in itertools.product(classes, repeat=probs.shape[0]):
        if _collapse(path) == target:
            total += float(np.prod([probs[t, c] for t, c in enumerate(path)]))
    return total


@pytest.mark.parametrize("seed", range(4))
def test_log_likelihoods_match_brute_force(seed):
    rng = np.random.default_rng(seed)
    t = 5
    # mass only on blank, a, b, c so the brute force stays small (4^5 paths)
    probs = np.full((t, 27), 1e-12)
    probs[:, :4] = rng.dirichlet(np.ones(4), size=t)
    probs /= probs.sum(1, keepdims=True)
    words = ["a", "ab", "aa", "abc", "cab", "bb", "abca", "aaa", "ccc"]
    labels, lengths = ctc.encode(words)
    got = ctc.log_likelihoods(probs, labels, lengths)
    for w, g in zip(words, got):
        want = _brute(probs, w, range(4))
        assert g == pytest.approx(np.log(want), rel=1e-9, abs=1e-9), w


def test_a_word_longer_than_the_frames_allow_is_impossible():
    probs = np.full((3, 27), 1 / 27)
    labels, lengths = ctc.encode(["aa", "abcd"])  # "aa" needs 3 frames (a, blank, a)
    got = ctc.log_likelihoods(probs, labels, lengths)
    assert got[0] > ctc.NEG_INF / 2
    assert got[1] <= ctc.NEG_INF / 2


def test_long_sequences_do_not_underflow():
    rng = np.random.default_rng(7)
    probs = rng.dirichlet(np.ones(27) * 0.05, size=200) + 1e-8
    probs /= probs.sum(1, keepdims=True)
    labels, lengths = ctc.encode(["boggle", "seat"])
    got = ctc.log_likelihoods(probs, labels, lengths)
    assert np.all(np.isfinite(got)) and np.all(got > ctc.NEG_INF / 2)


def test_greedy_collapses_repeats_and_blanks():
    seq = [1, 1, 0, 1, 2, 2, 0, 0, 3]
    probs = np.full((len(seq), 27), 0.01)
    probs[np.arange(len(seq)), seq] = 0.9
    text, p = ctc.greedy(probs)
    assert text == "aabc" and 0 < p < 1


def test_views_combine_by_mean_log_likelihood_and_temperature_softmax():
    """reading.read_views: each candidate's score is its CTC log-likelihood averaged over
    the crop's views (stretches, possibly of different lengths); the posterior is the
    softmax of the scores / TEMPERATURE plus LENGTH_BONUS per letter; flagged below
    FLAG_BELOW."""
    from boggle_cv.vision.handwriting import reading

    rng = np.random.default_rng(7)
    views = [rng.dirichlet(np.ones(27), size=t).astype(np.float32) for t in (6, 8)]
    words = ["ab", "ba", "abc", "cab"]
    enc = ctc.encode(words)
    want = np.mean([ctc.log_likelihoods(v, *enc) for v in views], axis=0)
    np.testing.assert_allclose(reading.lexicon_scores(views, enc), want)
    r = reading.read_views(views, words)
    z = want / reading.TEMPERATURE + reading.LENGTH_BONUS * np.array([len(w) for w in words])
    z = np.exp(z - z.max())
    post = z / z.sum()
    assert r.word == words[int(post.argmax())]
    assert r.confidence == pytest.approx(float(post.max()))
    assert r.flagged == (r.confidence < reading.FLAG_BELOW or not r.free)
    # one view is that view's own reading
    one = reading.read_views(views[:1], words)
    lengths = np.array([len(w) for w in words])
    one_z = ctc.log_likelihoods(views[0], *enc) / reading.TEMPERATURE + reading.LENGTH_BONUS * lengths
    assert one.alternatives[0][0] == words[int(one_z.argmax())]


def test_length_bonus_undoes_the_lean_to_short_words():
    """A long word whose extra letters the network is unsure of (their frames split
    between the letter and blank) beats the short word hidden in it once each letter
    earns LENGTH_BONUS; without the bonus the short word wins."""
    from boggle_cv.vision.handwriting import reading

    def frames(pairs):
        p = np.full((len(pairs), 27), 1e-4, np.float32)
        for t, (c, q) in enumerate(pairs):
            p[t, 0] = 1 - q if c else 1.0
            if c:
                p[t, ctc.LETTERS.index(c) + 1] = q
        return p / p.sum(1, keepdims=True)

    # "order" clear, then four letters of "orderly"-like ink each at 45% against blank
    view = frames([("o", 0.99), ("", 1), ("r", 0.99), ("", 1), ("d", 0.99), ("", 1), ("e", 0.99), ("", 1),
                   ("r", 0.99), ("", 1), ("l", 0.45), ("", 1), ("y", 0.45), ("", 1)])
    words = ["order", "orderly"]
    assert reading.read_views([view], words).word == "orderly"
    ll = reading.lexicon_scores([view], ctc.encode(words))
    assert ll[0] > ll[1]  # the likelihood alone prefers the short word
