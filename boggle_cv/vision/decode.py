"""Whole-board decoding: per-cell probabilities -> the most likely board.

Input: a ``Reading`` for the N*N cells in row-major order (``reader.read`` on
``cut_cells(...).reshape(-1, S, S, 3)``), i.e. faces (N*N, F) and turns (N*N, 4)
probabilities in the photo's grid frame.

Steps:
 1. Orientation: the board is turned by r clockwise quarter turns (r in 0..3) so
    that most letters read upright: r maximises sum over cells of P(turn == -r mod 4).
    Grid and per-cell turns are rotated with it (a cell's turn t becomes t + r).
 2. Faces: each cell's most probable face; runner-up kept.
 3. Cube-set prior (soft): if the board fits no known set of its size, doubtful cells
    (confidence below ``prior_max_conf``) may switch to their runner-up when that
    lets a set explain more cells and the runner-up is not much less likely
    (probability ratio at least ``prior_min_ratio``). A confident reading is never
    changed. The sets that fit the final board are reported.
 4. Flags: cells whose confidence is below ``flag_below`` are flagged for the user.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..game import dice
from ..game.board import BLANK, Board
from ..game.editions import EDITIONS
from .stages import Reading
from .reader_model import FACES, TURNS


@dataclass(frozen=True)
class DecodeConfig:
    """Thresholds (probabilities in 0..1), and the edition whose cube sets are the
    prior (boggle_cv.game.editions code; dice.sets_of_size(n, edition): none for de, es,
    nl, so those read without a prior)."""

    flag_below: float = 0.80
    prior_max_conf: float = 0.90
    prior_min_ratio: float = 0.05
    max_prior_changes: int = 3
    max_candidates: int = 8   # doubtful cells tried per change, most likely runner-ups first
    edition: str = "en"
    # editions whose dice may print the Qu face as a lone Q (editions.Edition.lone_q):
    # an O read with at least this probability of Qu is flagged, Qu its runner-up
    lone_q_min: float = 0.01


@dataclass
class CellReading:
    """One cell of the decoded board (row, col in the reported orientation)."""

    row: int
    col: int
    face: str
    confidence: float
    turn: int            # degrees clockwise the face is rotated from upright in the reported board
    runner_up: str
    runner_up_confidence: float
    flagged: bool
    changed_by_prior: bool = False
    photo_cell: tuple[int, int] = (0, 0)  # (row, col) in the photo's grid (corner order)
    outside_photo: float = 0.0  # share of the cube top beyond the photo's edge (0..1)

    def to_dict(self) -> dict[str, Any]:
        return {"row": self.row, "col": self.col, "face": self.face,
                "confidence": round(self.confidence, 4), "turn": self.turn,
                "runner_up": self.runner_up, "runner_up_confidence": round(self.runner_up_confidence, 4),
                "flagged": self.flagged, "changed_by_prior": self.changed_by_prior,
                "photo_cell": list(self.photo_cell),
                "outside_photo": round(self.outside_photo, 3)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CellReading:
        """Inverse of to_dict (values as rounded there)."""
        pc = d.get("photo_cell", (d["row"], d["col"]))
        return cls(int(d["row"]), int(d["col"]), str(d["face"]), float(d["confidence"]), int(d["turn"]),
                   str(d["runner_up"]), float(d["runner_up_confidence"]), bool(d["flagged"]),
                   bool(d.get("changed_by_prior", False)), (int(pc[0]), int(pc[1])),
                   float(d.get("outside_photo", 0.0)))


@dataclass
class BoardReading:
    """The decoded board: faces turned so most letters read upright, per-cell detail.

    rotation: clockwise quarter turns applied to the photo's grid (corner order) to
    get ``board``; the board's cell (r, c) is photo cell ``cells[r][c].photo_cell``.
    sets: names of the known cube sets that could produce the board.
    """

    board: Board
    cells: list[list[CellReading]]
    rotation: int
    sets: list[str] = field(default_factory=list)
    sets_with_challenge: list[str] = field(default_factory=list)
    #: the mean confidence as reported, when the reading was rebuilt from a document
    #: (its cells' confidences are rounded there); None: computed from the cells
    reported_mean: float | None = None

    @property
    def size(self) -> int:
        return self.board.size

    @property
    def flagged(self) -> list[tuple[int, int]]:
        return [(c.row, c.col) for row in self.cells for c in row if c.flagged]

    @property
    def mean_confidence(self) -> float:
        if self.reported_mean is not None:
            return self.reported_mean
        return float(np.mean([c.confidence for row in self.cells for c in row]))

    def to_dict(self) -> dict[str, Any]:
        return {"size": self.size, "faces": self.board.to_rows(), "text": self.board.to_text(),
                "rotation": self.rotation * 90,
                "cells": [[c.to_dict() for c in row] for row in self.cells],
                "flagged": [list(x) for x in self.flagged],
                "sets": list(self.sets), "sets_with_challenge": list(self.sets_with_challenge)}


def mark_cut_cells(reading: BoardReading, outside: np.ndarray, flag_above: float = 0.1) -> None:
    """Record, per cell, the share of its cube top beyond the photo's edge
    (outside: float (N, N) indexed by PHOTO cell [row, col]); a cell cut by more than
    flag_above is flagged for the user to check (part of its letter is not seen)."""
    for row in reading.cells:
        for c in row:
            c.outside_photo = float(outside[c.photo_cell[0], c.photo_cell[1]])
            if c.outside_photo > flag_above:
                c.flagged = True

def implausible(reading: BoardReading, max_blanks: int = 2, max_blank_share: float = 0.25,
                min_mean_confidence: float = 0.0, max_unmatched_share: float = 0.25) -> str | None:
    """Why a decoded board cannot be a photographed tray of cubes, or None.

    A grid laid over something that is not a full tray (an empty tray's cells, a
    tray with cubes missing, a grid beside the tray) reads as blanks or as faces
    the reader is unsure of everywhere. Real cube sets carry at most one cube with
    blank faces (RULES.md), but a blurred photo of a full tray can read a few
    cubes as blank, so the bar is more than max(max_blanks, max_blank_share x N*N)
    blanks (4x4: 5 or more; measured: grids over empty or broken synthetic trays
    read 8-12 of 16 as blank, defocused real trays up to 3). A mean confidence
    below min_mean_confidence (0..1; 0 = no bar: it suits only a calibrated
    reader) is refused too, and so is a board whose letters no known cube set of its
    size can show on more than max_unmatched_share of its cells (dice.fewest_unmatched:
    a cross-stitch tablecloth read as a 4x4 board of N's leaves 7 of 16; the 202
    true boards of ../shared's real-photos and boggle-boards leave at most 1, and the
    boards read from them and from 1,460 variants of them (scripts/make_variants.py,
    normal and --harsh) at most 3, a misread one; 4x4 boards of letters drawn by the
    letter frequencies of each edition's dictionary, de, es and nl included (editions
    with no cube set here), at most 2 in 200 each).
    """
    n_blank = sum(c.face == BLANK for row in reading.cells for c in row)
    if n_blank > max(max_blanks, int(max_blank_share * reading.size ** 2)):
        return (f"{n_blank} of the {reading.size}x{reading.size} cells read as blank "
                "(an empty tray, or cubes missing?)")
    if reading.mean_confidence < min_mean_confidence:
        return (f"the cubes could not be read (mean confidence "
                f"{reading.mean_confidence:.0%}; too blurred, or not a Boggle tray?)")
    unmatched = dice.fewest_unmatched(reading.board)
    n2 = reading.size ** 2
    if unmatched is not None and unmatched > max_unmatched_share * n2:
        return (f"no cube set shows these letters ({n2 - unmatched} of the {n2} cells at most: "
                "a pattern taken for a tray?)")
    return None

def choose_rotation(turns: np.ndarray) -> int:
    """Clockwise quarter turns r of the grid that make most faces upright.

    turns: (N, N, 4) turn probabilities in the photo grid. Ties go to the smaller r.
    """
    t = turns.reshape(-1, 4)
    scores = [float(t[:, (-r) % 4].sum()) for r in range(4)]
    return int(np.argmax(scores))


def _rot_grid(a: np.ndarray, r: int) -> np.ndarray:
    """Rotate the first two axes clockwise by r quarter turns (as Board.rotated)."""
    return np.rot90(a, -r, axes=(0, 1))


def decode(reading: Reading, size: int, config: DecodeConfig = DecodeConfig(),
           use_prior: bool = True, outside: np.ndarray | None = None) -> BoardReading:
    """Decode N*N per-cell probabilities (row-major, photo grid) into a BoardReading.

    outside: optional float (N, N), photo grid: share of each cube top beyond the
    photo's edge. Such a cell's probabilities are flattened (p ** (1 - share),
    renormalised), so a letter seen in part weighs less against the cube sets, and
    the cell is recorded and flagged (see mark_cut_cells).
    """
    n = int(size)
    faces = np.asarray(reading.faces, np.float64)
    if outside is not None and faces.shape == (n * n, len(FACES)):
        w = 1.0 - np.clip(np.asarray(outside, np.float64).reshape(-1, 1), 0.0, 0.9)
        faces = np.maximum(faces, 1e-12) ** w
        faces = faces / faces.sum(axis=1, keepdims=True)
    turns = np.asarray(reading.turns, np.float64)
    if faces.shape != (n * n, len(FACES)) or turns.shape != (n * n, len(TURNS)):
        raise ValueError(f"decode: expected faces ({n * n}, {len(FACES)}) and turns ({n * n}, 4)")
    fg, tg = faces.reshape(n, n, -1), turns.reshape(n, n, -1)
    r = choose_rotation(tg)
    fr = _rot_grid(fg, r)
    tr = np.roll(_rot_grid(tg, r), r, axis=-1)  # turn t in the photo is t + r on the turned board
    idx = np.array(list(np.ndindex(n, n))).reshape(n, n, 2)
    src = _rot_grid(idx, r)
    order = np.argsort(-fr, axis=-1)
    choice = order[..., 0].copy()
    changed = np.zeros((n, n), bool)
    sets: list[str] = []
    sets_ch: list[str] = []
    if use_prior:
        choice, changed, sets, sets_ch = _apply_prior(fr, order, choice, config)
    lone_q = _lone_q_dice(config.edition)
    cells = []
    for i in range(n):
        row = []
        for j in range(n):
            k = int(choice[i, j])
            ru = int(order[i, j, 0] if order[i, j, 0] != k else order[i, j, 1])
            conf = float(fr[i, j, k])
            doubt = conf < config.flag_below or bool(changed[i, j])
            if lone_q and k == _O and fr[i, j, _QU] >= config.lone_q_min:
                ru, doubt = _QU, True   # maybe a lone Q, which the reader takes for an O
            row.append(CellReading(i, j, FACES[k], conf, int(np.argmax(tr[i, j])) * 90, FACES[ru],
                                   float(fr[i, j, ru]), doubt,
                                   bool(changed[i, j]), (int(src[i, j, 0]), int(src[i, j, 1]))))
        cells.append(row)
    board = Board(tuple(tuple(c.face for c in row) for row in cells))
    result = BoardReading(board, cells, r, sets, sets_ch)
    if outside is not None:
        mark_cut_cells(result, np.asarray(outside, np.float64).reshape(n, n))
    return result


_O, _QU = FACES.index("O"), FACES.index("Qu")


def _lone_q_dice(edition: str) -> bool:
    """True if edition's dice may print the Qu face as a lone Q (French). The reader
    reads a lone Q as Qu since v7, but a damaged one can still come out as an O with
    a little Qu left (docs/editions.md), so such O cells are flagged for the players
    with Qu as the runner-up."""
    e = EDITIONS.get(edition)
    return e is not None and e.lone_q_dice


def _board(choice: np.ndarray) -> Board:
    return Board(tuple(tuple(FACES[int(k)] for k in row) for row in choice))


def _apply_prior(fr: npt.NDArray[np.float64], order: npt.NDArray[np.intp],
                 choice: npt.NDArray[np.intp], cfg: DecodeConfig
                 ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_], list[str], list[str]]:
    """Swap doubtful cells to runner-ups while that makes a known cube set fit better."""
    n = choice.shape[0]
    names = list(dice.sets_of_size(n, cfg.edition))
    changed = np.zeros((n, n), bool)

    def misfit(ch: npt.NDArray[np.intp]) -> int:
        return dice.fewest_unmatched(_board(ch), names) or 0

    if names:
        best = misfit(choice)
        for _ in range(cfg.max_prior_changes):
            if best == 0:
                break
            cands = []
            for i in range(n):
                for j in range(n):
                    k = choice[i, j]
                    p = fr[i, j, k]
                    if p >= cfg.prior_max_conf or changed[i, j]:
                        continue
                    ru = order[i, j, 1]
                    if fr[i, j, ru] / max(p, 1e-9) >= cfg.prior_min_ratio:
                        cands.append((-fr[i, j, ru] / p, i, j, ru))
            cands.sort()
            improved = False
            for _, i, j, ru in cands[:cfg.max_candidates]:
                trial = choice.copy()
                trial[i, j] = ru
                m = misfit(trial)
                if m < best:
                    choice, best, improved = trial, m, True
                    changed[i, j] = True
                    break
            if not improved:
                break
    b = _board(choice)
    sets = [s for s in names if dice.can_produce(b, s)]
    sets_ch = [s for s in names if dice.can_produce(b, s, challenge=True)]
    return choice, changed, sets, sets_ch
