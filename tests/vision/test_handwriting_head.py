"""The adapted head: zero weights leave the base model's odds; a hash mismatch is refused."""
from __future__ import annotations

import hashlib

import numpy as np
import pytest

from boggle_cv.errors import EngineMissingError
from boggle_cv.vision.handwriting import head


def _write(tmp_path, **arrays):
    p = tmp_path / "word_head.npz"
    np.savez(p, **arrays)
    (tmp_path / "word_head.npz.sha256").write_text(hashlib.sha256(p.read_bytes()).hexdigest() + "  word_head.npz\n")
    return p


def _probs(t=6, seed=0):
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(27), size=t).astype(np.float32)
    return p, rng.normal(size=(t, 120)).astype(np.float32)


def test_context_stacks_neighbours_with_zero_ends():
    f = np.arange(8, dtype=np.float32).reshape(4, 2)
    c = head.context(f, 3)
    assert c.shape == (4, 6)
    assert c[0].tolist() == [0, 0, 0, 1, 2, 3]
    assert c[3].tolist() == [4, 5, 6, 7, 0, 0]
    assert head.context(f, 5).shape == (4, 10)


@pytest.mark.parametrize("hidden", [0, 8])
def test_zero_head_is_the_base_model(tmp_path, monkeypatch, hidden):
    arrays = {"W": np.zeros((hidden or 360, 27), np.float32), "b": np.zeros(27, np.float32)}
    if hidden:
        arrays = {"W1": np.ones((360, hidden), np.float32), "b1": np.zeros(hidden, np.float32), **arrays}
    monkeypatch.setenv("BOGGLE_CV_WORD_HEAD", str(_write(tmp_path, **arrays)))
    p, f = _probs()
    np.testing.assert_allclose(head.apply(p, f), p / p.sum(1, keepdims=True), rtol=1e-5, atol=1e-7)


def test_bias_moves_the_odds(tmp_path, monkeypatch):
    b = np.zeros(27, np.float32)
    b[1] = 5.0  # "a"
    monkeypatch.setenv("BOGGLE_CV_WORD_HEAD", str(_write(tmp_path, W=np.zeros((360, 27), np.float32), b=b)))
    p, f = _probs()
    out = head.apply(p, f)
    assert np.all(out[:, 1] > p[:, 1]) and np.allclose(out.sum(1), 1, atol=1e-5)


def test_corrupt_head_is_refused(tmp_path, monkeypatch):
    p = _write(tmp_path, W=np.zeros((360, 27), np.float32), b=np.zeros(27, np.float32))
    (tmp_path / "word_head.npz.sha256").write_text("0" * 64 + "\n")
    monkeypatch.setenv("BOGGLE_CV_WORD_HEAD", str(p))
    with pytest.raises(EngineMissingError):
        head.apply(*_probs())


def test_none_means_no_head(monkeypatch):
    monkeypatch.setenv("BOGGLE_CV_WORD_HEAD", "none")
    p, f = _probs()
    assert head.apply(p, f) is p
