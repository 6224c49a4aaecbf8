"""Real training crops from the Boggle Boards photos (training only).

Cells are cut through the run-time ``cut_cells`` from the truth corners, with the
corners jittered so that the model tolerates tray-finder error. Faces in truth.json
are in the board's frame; the turn of each cube is not labelled (turn = -1).
Layouts are split into train / held-out by a seeded shuffle of layout ids.
"""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from ..vision.cells import cut_cells, grid_pitch
from ..vision.reader_model import FACES


def load_truth(boards_dir: Path) -> list[dict]:
    return json.loads((Path(boards_dir) / "truth.json").read_text())["photos"]


def split_layouts(photos: list[dict], holdout_frac: float, seed: int) -> tuple[set, set]:
    """(train layout ids, held-out layout ids), sizes stratified so each tray size is held out."""
    rng = np.random.default_rng(seed)
    train, held = set(), set()
    for size in sorted({p["size"] for p in photos}):
        ids = sorted({p["layout"] for p in photos if p["size"] == size})
        rng.shuffle(ids)
        k = max(1, int(round(len(ids) * holdout_frac)))
        held.update(ids[:k])
        train.update(ids[k:])
    return train, held


def jitter_corners(corners: np.ndarray, n: int, frac: float, rng: np.random.Generator) -> np.ndarray:
    """Grid corners (4, 2) moved as a tray finder's error would: each by Gaussian
    noise of frac x the pitch, all by a common shift of 0.7 x that."""
    c = np.asarray(corners, np.float64)
    pitch = grid_pitch(c, n)
    return c + rng.normal(0, frac * pitch, (4, 2)) + rng.normal(0, frac * pitch * 0.7, (1, 2))


def photo_crops(boards_dir: Path, photo: dict, cell_px: int, rng: np.random.Generator | None,
                jitter_frac: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Crops (N*N, S, S, 3) uint8 and face indices (N*N,) of one photo.

    With rng, corners move by Gaussian noise of jitter_frac pitch plus a common shift.
    """
    img = cv2.imread(str(Path(boards_dir) / photo["file"]), cv2.IMREAD_COLOR)
    n = photo["size"]
    c = np.array(photo["corners"], np.float64)
    if rng is not None and jitter_frac > 0:
        c = jitter_corners(c, n, jitter_frac, rng)
    crops = cut_cells(img, c, n, cell_px).reshape(n * n, cell_px, cell_px, 3)
    faces = np.array([FACES.index(f) for row in photo["faces"] for f in row], np.int64)
    return crops, faces


def build(boards_dir: Path, layouts: set, cell_px: int, copies: int, jitter_frac: float,
          seed: int, degrade_share: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """All crops of the photos whose layout is in ``layouts``; copies>0 adds jittered copies.

    degrade_share: the share of the jittered crops that also go through the camera
    damage of the synthetic crops (``crops.degrade``: blur, dim light, low
    resolution, noise, JPEG), so that real cubes are also seen in bad photos.
    """
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for p in load_truth(boards_dir):
        if p["layout"] not in layouts:
            continue
        if copies == 0:
            x, y = photo_crops(boards_dir, p, cell_px, None)
            xs.append(x); ys.append(y)
        for _ in range(copies):
            x, y = photo_crops(boards_dir, p, cell_px, rng, jitter_frac)
            if degrade_share > 0:
                from .crops import degrade
                for i in np.flatnonzero(rng.random(len(x)) < degrade_share):
                    x[i] = degrade(x[i], rng)
            xs.append(x); ys.append(y)
    return np.concatenate(xs), np.concatenate(ys)
