"""Is there a board on this lattice? Score every N x N window of lattice cells.

``board_from_lattice(lattice, blobs, white, size, cfg, heat, work)`` returns a
``FittedGrid`` (the best window: N, corners, confidence, cube centres) or a
``Refusal`` saying why no window is a board. A window is refused when a visible cell
of it looks empty, when too few of its visible cells hold a detected cube top, when
detected cube tops continue in the ring of cells around it, or (detector source)
when a row or column of it holds no confident cube top. The best window (most cube
tops; on a tie the smaller N) wins. Settings: ``config.BoardConfig``.

Coordinates: (x, y) working-image pixels; lattice cells (col, row).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Collection

import numpy as np
import numpy.typing as npt

from ..quantiles import median
from ..stages import FloatArray, ImageU8
from .blobs import Blobs, GreyU8
from .config import SIZES, BoardConfig
from .lattice import Lattice

Cell = tuple[int, int]
Heat = npt.NDArray[np.float32]


@dataclass(frozen=True)
class CellState:
    """What the centre patch (+-0.3 pitch) of one lattice cell shows.

    whiteness: median whiteness (grey levels; NaN when wholly outside the frame);
    outside: share of the patch outside the frame; ink: share of patch pixels darker
    than 0.7 x that median (letter ink); heat: highest detector heat within 0.2 pitch
    of the centre (0 without a heatmap).
    """

    whiteness: float
    outside: float
    ink: float
    heat: float


@dataclass(frozen=True)
class FittedGrid:
    """A board found on a lattice, in working px: size N; corners float (4, 2) (x, y)
    r0c0, r0c(N-1), r(N-1)c(N-1), r(N-1)c0 in lattice order (not yet clockwise from
    the top-left); confidence 0..1; centres float (N, N, 2) (x, y), [row, col]: the
    detected cube tops, or the lattice's prediction where none was detected."""

    size: int
    corners: FloatArray
    confidence: float
    centres: FloatArray


@dataclass(frozen=True)
class Refusal:
    """No board: ``reason`` says why, in words for the user ("3 of the 4x4 cells look
    empty ...")."""

    reason: str


#: A cell's centre patch: 9 x 9 offsets (dx, dy) within +-0.3 pitch, and which of them
#: lie within +-0.2 pitch (where the detector's heat is read).
_PATCH = np.array([(dx, dy) for dx in np.linspace(-0.3, 0.3, 9) for dy in np.linspace(-0.3, 0.3, 9)])
_NEAR = np.abs(_PATCH).max(axis=1) <= 0.2
_PATCH.setflags(write=False)
_NEAR.setflags(write=False)


def can_hold_board(lat: Lattice, size: int | None, cfg: BoardConfig) -> bool:
    """False when the lattice has too few members for any window to be a board: a
    window needs ``min_visible`` of its N x N cells in the frame and ``min_fill`` of
    those holding members, so at least min_fill x min_visible x N^2 members (N: `size`,
    or the smallest of SIZES). board_from_lattice refuses such a lattice whatever
    else it sees (only its reason is then lost)."""
    n = size or min(SIZES)
    return len(lat.members) >= cfg.min_fill * cfg.min_visible * n * n


def cell_state(white: GreyU8, lat: Lattice, cell: Cell, heat: Heat | None = None) -> CellState:
    """The CellState of lattice cell (col, row); white: (H, W) uint8 whiteness map,
    heat: (H, W) float32 detector heat of the same image, or None."""
    h, w = white.shape
    offs = _PATCH
    pts = lat.project(offs + cell)
    inside = (pts[:, 0] >= 0) & (pts[:, 0] < w - 1) & (pts[:, 1] >= 0) & (pts[:, 1] < h - 1)
    frac_out = float(1 - inside.mean())
    hv = 0.0
    if not inside.any():
        return CellState(float("nan"), frac_out, 0.0, hv)
    p = pts[inside].astype(int)
    vals = white[p[:, 1], p[:, 0]].astype(np.float64)
    val = float(median(vals))
    dark = float(np.mean(vals < 0.7 * val))
    if heat is not None:
        near = _NEAR[inside]
        if near.any():
            hv = float(heat[p[near, 1], p[near, 0]].max())
    return CellState(val, frac_out, dark, hv)


def cell_states(white: GreyU8, lat: Lattice, cells: list[Cell], heat: Heat | None = None) -> dict[Cell, CellState]:
    """cell_state of each of ``cells`` (col, row), the same values, with the patches
    of all the cells projected and read at once."""
    if not cells:
        return {}
    h, w = white.shape
    idx = np.asarray(cells, np.float64)
    pts = lat.project((_PATCH[None, :, :] + idx[:, None, :]).reshape(-1, 2)).reshape(len(cells), len(_PATCH), 2)
    inside = (pts[..., 0] >= 0) & (pts[..., 0] < w - 1) & (pts[..., 1] >= 0) & (pts[..., 1] < h - 1)
    whole = inside.all(axis=1)
    out: dict[Cell, CellState] = {}
    if whole.any():
        p = pts[whole].astype(int)
        vals = white[p[..., 1], p[..., 0]].astype(np.float64)
        mid = len(_PATCH) // 2  # an odd count: the median is the middle value
        val = np.partition(vals, mid, axis=1)[:, mid]
        dark = (vals < 0.7 * val[:, None]).mean(axis=1)
        hv = heat[p[:, _NEAR, 1], p[:, _NEAR, 0]].max(axis=1) if heat is not None else np.zeros(len(val))
        for j, k in enumerate(np.nonzero(whole)[0]):
            out[cells[k]] = CellState(float(val[j]), 0.0, float(dark[j]), float(hv[j]))
    for k in np.nonzero(~whole)[0]:
        out[cells[k]] = cell_state(white, lat, cells[k], heat)
    return out


def lines_supported(lat: Lattice, c0: int, r0: int, n: int, state: Callable[[Cell], CellState],
                    cfg: BoardConfig, unsure: Collection[Cell] = frozenset()) -> bool:
    """True when every row and every column of the window (lattice cells c0..c0+n-1,
    r0..r0+n-1) that has a visible cell holds at least one lattice member (a detected
    cube top) that is not unsure (unsure: members whose detector peak is below
    weak_quality x the members' median, such as the polka dots of a table cloth that
    happen to lie on the lattice), so a window never grows over the tray's rim or
    the table."""
    for line in range(n):
        for cells in ([(c0 + i, r0 + line) for i in range(n)],
                      [(c0 + line, r0 + i) for i in range(n)]):
            visible = [k for k in cells if state(k).outside < cfg.unknown_frac]
            if visible and not any(k in lat.members and k not in unsure for k in cells):
                return False
    return True


def is_red(work: ImageU8 | None, lat: Lattice, cell: Cell, cfg: BoardConfig) -> bool:
    """True when the centre patch (+-0.25 pitch) of lattice cell (col, row) of the
    working image (H, W, 3) BGR is mostly saturated red (a challenge cube):
    R > red_ratio x max(G, B) on most pixels."""
    if work is None:
        return False
    h, w = work.shape[:2]
    g = np.linspace(-0.25, 0.25, 5)
    pts = lat.project(np.array([(cell[0] + dx, cell[1] + dy) for dx in g for dy in g]))
    ok = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
    if not ok.any():
        return False
    p = pts[ok].astype(int)
    bgr = work[p[:, 1], p[:, 0]].astype(np.float64)
    red = (bgr[:, 2] > cfg.red_ratio * np.maximum(bgr[:, 0], bgr[:, 1])) & (bgr[:, 2] > 60)
    return bool(red.mean() > 0.5)


@dataclass(frozen=True)
class _Window:
    """The best window so far: its key (score, -N), N, origin (c0, r0), members
    inside, visible cells and doubtful cells."""

    key: tuple[float, int]
    n: int
    c0: int
    r0: int
    inside: int
    n_vis: int
    doubtful: int


def board_from_lattice(lat: Lattice, blobs: Blobs, white: GreyU8, size: int | None,
                       cfg: BoardConfig, heat: Heat | None = None,
                       work: ImageU8 | None = None) -> FittedGrid | Refusal:
    """The best N x N window of lattice cells (see the module docstring) as a
    FittedGrid in working px, or a Refusal. blobs: the candidates the lattice was
    grown on; white: (H, W) uint8 whiteness map; size: N, or None to try 4, 5, 6;
    heat: the detector's (H, W) float32 heatmap when the candidates are its peaks
    (None for classical blobs); work: the working image (H, W, 3) BGR (red cells)."""
    if lat.residual > cfg.max_residual:
        return Refusal(f"the cube tops do not lie on a regular grid (fit error {lat.residual:.2f})")
    member_idx = list(lat.members.values())
    ref = float(median(blobs.whiteness[member_idx]))
    cmin, cmax, rmin, rmax = lat.extent()
    sizes = (size,) if size else SIZES
    cache: dict[Cell, CellState] = {}

    def state(k: Cell) -> CellState:
        if not cache:  # every cell a window of any size can hold, read at once
            cols = range(min(min(cmin, cmax - n + 1) for n in sizes), max(max(cmin + n - 1, cmax) for n in sizes) + 1)
            rows = range(min(min(rmin, rmax - n + 1) for n in sizes), max(max(rmin + n - 1, rmax) for n in sizes) + 1)
            cache.update(cell_states(white, lat, [(c, r) for r in rows for c in cols], heat))
        if k not in cache:
            cache[k] = cell_state(white, lat, k, heat)
        return cache[k]

    heat_min = cfg.heat_cube
    if heat is not None:
        heat_min = max(cfg.heat_cube, cfg.heat_rel * float(median(blobs.quality[member_idx])))
    best: _Window | None = None
    best_reason: tuple[int, str] | None = None
    reason = (f"the largest grid of square shapes found is {rmax - rmin + 1}x{cmax - cmin + 1}, not a full "
              + " or ".join(", ".join(f"{k}x{k}" for k in sizes).rsplit(", ", 1)) + " board")
    weak: set[Cell] = set()
    unsure: set[Cell] = set()
    if heat is not None:
        # unsure: detector peaks that are not confident; they never hold up a row or
        # column of a window. weak: unsure and not white either (a polka dot, a
        # tray's corner): they may lie outside the window
        qref = float(median(blobs.quality[member_idx]))
        unsure = {k for k, j in lat.members.items() if blobs.quality[j] < cfg.weak_quality * qref}
        weak = {k for k in unsure if blobs.whiteness[lat.members[k]] < cfg.cube_like * ref}
    for n in sizes:
        for c0 in range(min(cmin, cmax - n + 1), max(cmin, cmax - n + 1) + 1):
            for r0 in range(min(rmin, rmax - n + 1), max(rmin, rmax - n + 1) + 1):
                cells = [(c0 + c, r0 + r) for r in range(n) for c in range(n)]
                inside = sum(1 for k in cells if k in lat.members)
                window = set(cells)
                strong_out = sum(1 for k in lat.members if k not in window and k not in weak)
                if strong_out > 2:
                    continue  # members left outside the window
                if heat is not None and not lines_supported(lat, c0, r0, n, state, cfg, unsure):
                    continue  # a row or column of the window without any cube top
                n_vis = n_cube = 0
                empty = doubtful = 0
                for k in cells:
                    st = state(k)
                    if st.outside >= cfg.unknown_frac:
                        continue
                    n_vis += 1
                    if k in lat.members:
                        continue
                    if heat is not None and st.heat >= heat_min:
                        n_cube += 1
                    elif np.isnan(st.whiteness):
                        empty += 1
                    elif st.whiteness >= cfg.cube_like * ref and st.ink >= cfg.min_ink:
                        n_cube += 1
                    elif heat is not None and (st.whiteness >= cfg.doubtful_like * ref
                                               or is_red(work, lat, k, cfg)):
                        doubtful += 1  # a blank cube or a red challenge cube?
                    else:
                        empty += 1
                if doubtful > cfg.max_doubtful or (
                        doubtful and inside < cfg.doubtful_fill * max(1, n_vis)):
                    empty += doubtful
                if empty:
                    if strong_out <= 2 and (best_reason is None or empty < best_reason[0]):
                        best_reason = (empty, f"{empty} of the {n}x{n} cells look empty "
                                       "(tray not full, or the cubes are too blurred)")
                    continue
                if n_vis < cfg.min_visible * n * n or inside < cfg.min_fill * n_vis:
                    if best_reason is None:
                        reason = f"only {inside} of {n * n} cube tops were recognised"
                    continue
                score = inside + 0.5 * n_cube
                key = (score, -n)
                if best is None or key > best.key:
                    best = _Window(key, n, c0, r0, inside, n_vis, doubtful)
    if best is None:
        return Refusal(best_reason[1] if best_reason else reason)
    return _fit(lat, blobs, best, cfg, heat is not None)


def _fit(lat: Lattice, blobs: Blobs, win: _Window, cfg: BoardConfig,
         detector: bool) -> FittedGrid | Refusal:
    """Corners, centres and confidence of the chosen window (or a Refusal when the
    confidence is below the source's bar)."""
    n, c0, r0 = win.n, win.c0, win.r0
    fill = win.inside / max(1, win.n_vis)
    m = cfg.corner_margin
    a0, a1 = c0 - m, c0 + n - 1 + m
    b0, b1 = r0 - m, r0 + n - 1 + m
    corners = lat.project(np.array([(a0, b0), (a1, b0), (a1, b1), (a0, b1)], np.float64))
    cells = [(c0 + c, r0 + r) for r in range(n) for c in range(n)]
    centres = lat.project(np.array(cells, np.float64))
    for i, k in enumerate(cells):
        if k in lat.members:
            centres[i] = blobs.centres[lat.members[k]]
    conf = float(np.clip(fill * (1 - lat.residual / cfg.max_residual * 0.5), 0, 1))
    conf *= cfg.doubtful_factor ** win.doubtful
    if conf < (cfg.min_confidence_detector if detector else cfg.min_confidence):
        return Refusal(f"the grid is too uncertain (confidence {conf:.2f})")
    return FittedGrid(n, corners, conf, centres.reshape(n, n, 2))
