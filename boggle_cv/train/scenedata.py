"""Training crops cut from whole synthetic tray photos (training only).

The crop renderer (:mod:`.crops`) draws one cube top at a time, flat. The scene
renderer behind ``boggle-cv synth`` (:func:`boggle_cv.synth.scene.render_photo`)
draws whole trays in 3D: cube sides and their letters, cast shadows, wood and
marble cubes, close-ups that leave the photo, perspective. Crops cut from its
photos, through the run-time ``cut_cells`` from the truth corners (jittered like
the real crops), teach the reader those too.

Photo i is rendered with ``np.random.default_rng([seed, i])``, as ``boggle-cv synth
--seed SEED`` does: keep ``seed`` away from the seeds of the held-out synthetic
sets (90210 and 777 in docs/accuracy.md).

The lone Q: a share of the renders (``LONE_Q_P``, drawn from a generator of its
own, ``[seed, i, 3]``) print every Qu face as a lone "Q" (``render_photo(...,
lone_q=True)``, any set), the others none (``lone_q=False``, French sets too);
their Qu cells keep the Qu label. The camera damage of a lone-Q cell is the
tail-keeping one (``crops.degrade(..., keep_tail=True)``), and a lone-Q cell
of a photo with fewer than ``LONE_Q_MIN_PX`` px a pitch is left out: its tail
is a pixel or two, and it would teach that an O is a Qu.
"""
from __future__ import annotations

import numpy as np

from ..vision.cells import cut_cells
from ..vision.reader_model import FACES
from .parallel import map_concat
from .realdata import jitter_corners

CROP_PX = 64
LONE_Q_P = 0.4          # share of the renders whose Qu faces are printed as a lone Q
LONE_Q_MIN_PX = 18.0    # lone-Q cells of photos with fewer px a pitch are left out


def photo_crops(seed: int, i: int, jitter_frac: float, degrade_share: float,
                lone_q_p: float = LONE_Q_P) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops (K, 64, 64, 3) uint8, faces (K,) and turns (K,) int64 of photo i (K = N*N,
    less the lone-Q cells of a photo under LONE_Q_MIN_PX a pitch; 0 when the photo
    has no complete board). turns: quarter turns clockwise (reader_model
    convention), from the truth's degrees. lone_q_p: chance that the render prints
    its Qu faces as a lone Q."""
    from ..synth.scene import render_photo
    from .crops import degrade
    rng = np.random.default_rng([seed, i])
    lone_q = bool(np.random.default_rng([seed, i, 3]).random() < lone_q_p)
    img, truth = render_photo(rng, lone_q=lone_q)
    if not truth.get("faces") or not truth.get("corners") or truth.get("no_board"):
        return (np.zeros((0, CROP_PX, CROP_PX, 3), np.uint8), np.zeros(0, np.int64),
                np.zeros(0, np.int64))
    n = truth["size"]
    c = np.array(truth["corners"], np.float64)
    aug = np.random.default_rng([seed, i, 2])
    if jitter_frac > 0:
        c = jitter_corners(c, n, jitter_frac, aug)
    crops = cut_cells(img, c, n, CROP_PX).reshape(n * n, CROP_PX, CROP_PX, 3)
    faces = np.array([FACES.index(f) for row in truth["faces"] for f in row], np.int64)
    lone = (faces == FACES.index("Qu")) & lone_q
    for k in np.flatnonzero(aug.random(len(crops)) < degrade_share):
        crops[k] = degrade(crops[k], aug, keep_tail=bool(lone[k]))
    turns = (np.array(truth["turns"], np.int64).reshape(-1) // 90) % 4
    keep = ~(lone & (truth["camera"]["px_per_pitch"] < LONE_Q_MIN_PX))
    return crops[keep], faces[keep], turns[keep]


def _chunk(args):
    seed, lo, hi, jitter_frac, degrade_share = args
    from ..vision.reader_model import preprocess
    parts = [photo_crops(seed, i, jitter_frac, degrade_share) for i in range(lo, hi)]
    x = np.concatenate([p[0] for p in parts])
    return (preprocess(x) if len(x) else np.zeros((0, 1, 48, 48), np.float32),
            np.concatenate([p[1] for p in parts]), np.concatenate([p[2] for p in parts]))


def build(photos: int, seed: int, jitter_frac: float = 0.06, degrade_share: float = 0.2,
          workers: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Preprocessed network input (K, 1, 48, 48) float32, faces (K,), turns (K,) of the
    cells of `photos` scene renders (photos without a complete board give none)."""
    step = 50
    jobs = [(seed, lo, min(photos, lo + step), jitter_frac, degrade_share) for lo in range(0, photos, step)]
    return map_concat(_chunk, jobs, workers)
