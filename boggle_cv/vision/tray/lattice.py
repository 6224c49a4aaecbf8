"""Fit a square lattice to candidate cube tops: index (col, row) -> image (x, y).

From a seed blob, two lattice steps are taken from its nearest similar-sized
neighbours; the lattice then grows cell by cell, predicting each neighbour's position
with a homography fitted to the cells found so far (so perspective is followed), and
taking the candidate nearest the prediction. Several seeds are tried; the lattice
with the most members wins.

Coordinates: image points (x, y) in working-image pixels; lattice indices (col, row)
as integers, with (0, 0) at the seed.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from ..quantiles import median
from ..stages import FloatArray
from .blobs import Blobs

#: Lattice members: (col, row) index -> blob index.
Members = dict[tuple[int, int], int]


@dataclass(frozen=True)
class LatticeConfig:
    """Parameters of lattice growth.

    n_seeds: how many seed blobs are tried (best quality first, spread out).
    min_pitch / max_pitch: neighbour distance range as multiples of the seed's side.
    max_size_ratio: neighbours' sides may differ by at most this factor.
    min_step_angle / max_step_angle: the angle between the two steps (degrees).
    match_radius: a candidate is taken when within this fraction of the local pitch
        of the predicted position.
    max_extent: no lattice grows beyond this many cells in a direction.
    unshear: re-index a grown lattice onto the basis whose index bounding box is
        smallest (see :func:`unshear`).
    """

    n_seeds: int = 12
    min_pitch: float = 0.9
    max_pitch: float = 2.4
    max_size_ratio: float = 1.6
    min_step_angle: float = 45.0
    max_step_angle: float = 135.0
    match_radius: float = 0.28
    max_extent: int = 9
    unshear: bool = False


@dataclass
class Lattice:
    """A grown lattice.

    members: dict (col, row) -> blob index; H: 3x3 float homography mapping (col, row, 1)
    to working-image (x, y, 1); pitch: median neighbour distance in px; residual:
    RMS fit error of member centres as a fraction of the pitch.
    """

    members: dict[tuple[int, int], int]
    H: np.ndarray
    pitch: float
    residual: float

    def project(self, idx: np.ndarray) -> np.ndarray:
        """(K, 2) float (col, row) -> (K, 2) float (x, y)."""
        pts = cv2.perspectiveTransform(idx.reshape(-1, 1, 2).astype(np.float64), self.H)
        return pts.reshape(-1, 2)

    def extent(self) -> tuple[int, int, int, int]:
        """(col_min, col_max, row_min, row_max) of the members."""
        k = np.array(list(self.members.keys()))
        return int(k[:, 0].min()), int(k[:, 0].max()), int(k[:, 1].min()), int(k[:, 1].max())


def _distinct(values: np.ndarray) -> int:
    """How many different values (a set, not np.unique: that imports numpy.ma, 11 ms
    of a cold scan; see vision.quantiles)."""
    return len(set(values.tolist()))


def _fit_h(idx: np.ndarray, pts: np.ndarray) -> np.ndarray | None:
    """Least-squares homography (or affine with <4 distinct rows/cols) index->image."""
    rows, cols = _distinct(idx[:, 0]), _distinct(idx[:, 1])
    if len(idx) >= 4 and rows >= 2 and cols >= 2:
        ok_persp = rows >= 3 and cols >= 3
        if ok_persp:
            H, _ = cv2.findHomography(idx.astype(np.float64), pts.astype(np.float64), 0)
            if H is not None:
                return H
        A, _ = cv2.estimateAffine2D(idx.astype(np.float64), pts.astype(np.float64),
                                    method=cv2.LMEDS)
        if A is not None:
            return np.vstack([A, [0, 0, 1]])
    return None


def _steps(blobs: Blobs, seed: int, cfg: LatticeConfig) -> tuple[FloatArray, FloatArray] | None:
    """Two lattice step vectors (2,) from the seed's neighbours, or None."""
    c = blobs.centres[seed]
    s = blobs.sides[seed]
    d = blobs.centres - c
    dist = np.hypot(d[:, 0], d[:, 1])
    ratio = blobs.sides / s
    ok = (dist > cfg.min_pitch * s) & (dist < cfg.max_pitch * s) & (
        ratio < cfg.max_size_ratio) & (ratio > 1 / cfg.max_size_ratio)
    cand = np.flatnonzero(ok)
    if len(cand) < 2:
        return None
    cand = cand[np.argsort(dist[cand])]
    u = d[cand[0]]
    for j in cand[1:]:
        v = d[j]
        cosang = abs(np.dot(u, v)) / (np.linalg.norm(u) * np.linalg.norm(v))
        ang = np.degrees(np.arccos(np.clip(cosang, 0, 1)))
        if cfg.min_step_angle < ang and np.linalg.norm(v) < 1.6 * np.linalg.norm(u):
            # Gauss reduction: never take a diagonal as the second step
            for _ in range(3):
                if np.linalg.norm(v - u) < np.linalg.norm(v):
                    v = v - u
                elif np.linalg.norm(v + u) < np.linalg.norm(v):
                    v = v + u
                else:
                    break
            return u, v
    return None


_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))


def _beyond(span: list[int], key: tuple[int, int], lim: int) -> bool:
    """True when `key` (col, row) lies outside the members' span (col min, col max,
    row min, row max) along a direction in which that span already covers `lim` cells."""
    c0, c1, r0, r1 = span
    return ((c1 - c0 >= lim and not c0 <= key[0] <= c1)
            or (r1 - r0 >= lim and not r0 <= key[1] <= r1))


def grow(blobs: Blobs, seed: int, cfg: LatticeConfig) -> Lattice | None:
    """Grow a lattice from one seed blob; None when the seed has no lattice around it."""
    st = _steps(blobs, seed, cfg)
    if st is None:
        return None
    u, v = st
    c0 = blobs.centres[seed]
    members: dict[tuple[int, int], int] = {(0, 0): seed}
    H = np.array([[u[0], v[0], c0[0]], [u[1], v[1], c0[1]], [0, 0, 1]], np.float64)
    frontier = [(0, 0)]
    lim = cfg.max_extent
    span = [0, 0, 0, 0]  # the members' col min, col max, row min, row max
    free = np.ones(len(blobs), bool)
    free[seed] = False
    while frontier:
        new_frontier = []
        for (ci, ri) in frontier:
            # the cell and its 8 neighbours predicted at once (the same values one by one)
            pq = cv2.perspectiveTransform(np.array([[(ci, ri)] + [(ci + dc, ri + dr) for dc, dr in _DIRS]],
                                                   np.float64), H)[0]
            q = pq[0]
            ratio = blobs.sides / blobs.sides[members[(ci, ri)]]
            similar = (ratio < cfg.max_size_ratio) & (ratio > 1 / cfg.max_size_ratio)
            dist = np.hypot(blobs.centres[None, :, 0] - pq[1:, None, 0], blobs.centres[None, :, 1] - pq[1:, None, 1])
            for k, (dc, dr) in enumerate(_DIRS):
                key = (ci + dc, ri + dr)
                if key in members or _beyond(span, key, lim):
                    continue
                p = pq[k + 1]
                step = np.hypot(*(p - q))
                d = dist[k]
                ok = (d < cfg.match_radius * step) & similar & free
                if not ok.any():
                    continue
                j = int(np.flatnonzero(ok)[np.argmin(d[ok])])
                free[j] = False
                members[key] = j
                span[:] = [min(span[0], key[0]), max(span[1], key[0]), min(span[2], key[1]), max(span[3], key[1])]
                new_frontier.append(key)
        if new_frontier:
            idx = np.array(list(members.keys()), np.float64)
            pts = blobs.centres[list(members.values())]
            H2 = _fit_h(idx, pts)
            if H2 is not None:
                H = H2
        frontier = new_frontier
    if len(members) < 4:
        return None
    return _finish(blobs, members, H, cfg)


def _unimodular(max_entry: int = 2) -> list[np.ndarray]:
    """Integer 2x2 matrices with entries in [-max_entry, max_entry] and det +-1
    (changes of lattice basis), the identity first."""
    out = [np.eye(2, dtype=np.int64)]
    rng = range(-max_entry, max_entry + 1)
    for a in rng:
        for b in rng:
            for c in rng:
                for d in rng:
                    if abs(a * d - b * c) == 1 and not (a == d == 1 and b == c == 0):
                        out.append(np.array([[a, b], [c, d]], np.int64))
    return out


_BASES = _unimodular()
_STACKED = np.stack(_BASES)  # (B, 2, 2)


def _areas(idx: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """(B,) the index bounding box's area of idx (K, 2) in each basis of _BASES."""
    moved = np.einsum("kj,bij->bki", idx, _STACKED)  # (B, K, 2): idx @ t.T for each t
    span = moved.max(axis=1) - moved.min(axis=1) + 1
    out: npt.NDArray[np.int64] = span[:, 0] * span[:, 1]
    return out


def unshear(members: Members, H: FloatArray) -> tuple[Members, FloatArray]:
    """Re-index a lattice whose basis is sheared (one step a diagonal of the cube
    grid: in a steep oblique view a diagonal can be shorter than a true step, so the
    nearest-neighbour steps pick it). The cube tops of a tray fill a square of
    indices, so the basis whose index bounding box is smallest is the tray's own.

    members: (col, row) -> blob index; H: 3x3 index -> image. Returns the re-indexed
    (members, H) (unchanged when the current basis is already the tightest)."""
    idx = np.array(list(members.keys()), np.int64)

    def area(k: npt.NDArray[np.int64]) -> int:
        span = k.max(axis=0) - k.min(axis=0) + 1
        return int(span[0] * span[1])

    areas = _areas(idx)  # of every basis, the identity first
    best = int(np.argmin(areas))  # the first of the smallest (the identity on a tie)
    if areas[best] >= area(idx):
        return members, H
    best_t = _BASES[best]
    new = idx @ best_t.T
    new -= new.min(axis=0)
    new_members = {(int(c), int(r)): j for (c, r), j in zip(new, members.values())}
    # image = H (i; 1) with i = T^-1 (i' - offset)
    off = (idx @ best_t.T).min(axis=0)
    A = np.eye(3)
    A[:2, :2] = np.linalg.inv(best_t.astype(np.float64))
    A[:2, 2] = A[:2, :2] @ off.astype(np.float64)
    return new_members, H @ A


def _finish(blobs: Blobs, members: Members, H: FloatArray,
            cfg: LatticeConfig = LatticeConfig()) -> Lattice:
    """Refit on all members, drop outliers, measure pitch and residual."""
    if cfg.unshear:
        members, H = unshear(members, H)
    idx = np.array(list(members.keys()), np.float64)
    pts = blobs.centres[list(members.values())]
    H2 = _fit_h(idx, pts)
    if H2 is not None:
        H = H2
    proj = cv2.perspectiveTransform(idx.reshape(-1, 1, 2), H).reshape(-1, 2)
    trio = np.array([[(ci, ri), (ci + 1, ri), (ci, ri + 1)] for (ci, ri) in members], np.float64)
    a = cv2.perspectiveTransform(trio.reshape(-1, 1, 2), H).reshape(-1, 3, 2)
    steps = np.stack([np.hypot(*(a[:, 1] - a[:, 0]).T), np.hypot(*(a[:, 2] - a[:, 0]).T)], axis=1).ravel()
    pitch = float(median(steps))
    err = np.hypot(*(proj - pts).T) / pitch
    keep = err < 0.3
    if keep.sum() < len(members) and keep.sum() >= 4:
        members = {k: v for (k, v), kk in zip(members.items(), keep) if kk}
        return _finish(blobs, members, H, cfg)
    return Lattice(members, H, pitch, float(np.sqrt(np.mean(err ** 2))))


def pick_seeds(blobs: Blobs, n: int) -> list[int]:
    """Up to n seed indices: best quality first, skipping ones close to a chosen seed."""
    order = np.argsort(-blobs.quality)
    seeds: list[int] = []
    for i in order:
        if len(seeds) >= n:
            break
        if any(np.hypot(*(blobs.centres[i] - blobs.centres[s])) < 1.5 * blobs.sides[s]
               for s in seeds):
            continue
        seeds.append(int(i))
    return seeds


def best_lattices(blobs: Blobs, cfg: LatticeConfig = LatticeConfig()) -> list[Lattice]:
    """Distinct grown lattices, largest first."""
    out: list[Lattice] = []
    seen: list[frozenset[int]] = []
    for s in pick_seeds(blobs, cfg.n_seeds):
        if any(s in fs for fs in seen):
            continue
        lat = grow(blobs, s, cfg)
        if lat is None:
            continue
        fs = frozenset(lat.members.values())
        seen.append(fs)
        out.append(lat)
    out.sort(key=lambda l: -len(l.members))
    return out
