"""How far a found tray is from the truth (evaluation scripts and tests)."""
from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike


def corner_error(found: ArrayLike, truth: ArrayLike) -> float:
    """Mean corner distance divided by the mean side of the truth quad.

    found, truth: four (x, y) points (lists or arrays). The best of the 8 orderings of
    a square counts (a tray has no fixed top or handedness in the comparison), as
    ../shared/tools/eval_photos.py does.
    """
    truth = [tuple(map(float, p)) for p in np.asarray(truth).tolist()]
    found = [tuple(map(float, p)) for p in np.asarray(found).tolist()]
    side = sum(math.dist(truth[i], truth[(i + 1) % 4]) for i in range(4)) / 4
    best = float("inf")
    for f in (found, found[::-1]):
        for k in range(4):
            g = f[k:] + f[:k]
            best = min(best, sum(math.dist(a, b) for a, b in zip(g, truth)) / 4 / side)
    return best
