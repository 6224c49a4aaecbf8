"""boggle-cv: a computer-vision referee for Boggle.

Public API (imported lazily so that `import boggle_cv` stays cheap):
  Board                      boggle_cv.board
  solve(board, ...)          boggle_cv.solver
  score_round(board, ...)    boggle_cv.scoring
  read_board(image, ...)     boggle_cv.vision.pipeline
"""
from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["Board", "solve", "score_round", "read_board"]


def __getattr__(name: str):
    if name == "Board":
        from .board import Board
        return Board
    if name == "solve":
        from .solver import solve
        return solve
    if name == "score_round":
        from .scoring import score_round
        return score_round
    if name == "read_board":
        from .vision.pipeline import read_board
        return read_board
    raise AttributeError(name)
