"""Rendered sheets for the sheet reader's tests (boggle_cv.synth.sheets) and a fake
word reader, so that the paper and layout stages are tested without the model."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from boggle_cv.synth.sheets import photograph, render_paper

WORDS = ["seat", "sat", "eats", "tease", "rate", "tears", "stare", "least", "steal", "tale", "slate", "ant"]


def fake_reader(crops, lexicon=None):
    """One reading a crop: its width and height as the 'word' (so tests can see crops)."""
    return [SimpleNamespace(word="w", confidence=1.0, alternatives=(("w", 1.0),), flagged=False,
                            free=f"{c.shape[1]}x{c.shape[0]}") for c in crops]


def sheet(seed: int = 0, lines=None, **kw):
    """A rendered paper (BGR) and its word boxes; kw go to render_paper."""
    rng = np.random.default_rng(seed)
    return render_paper(lines if lines is not None else [[w] for w in WORDS], rng, **kw)


def photo_of(paper, seed: int = 0, **kw):
    return photograph(paper, np.random.default_rng(seed + 100), **kw)
