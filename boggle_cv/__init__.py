"""boggle-cv: a computer-vision referee for Boggle.

The library (names are imported on first use, so `import boggle_cv` stays cheap):

  Board, parse_board        a board: Board.parse("PERS/LATG/SINE/TERS")
  solve(board, ...)         every word on it, best first, with points and best path
  score_round(board, lists) the referee's sheet for players' lists
  read_board(photo, ...)    read the board in a photo (path or BGR uint8 array)
  Scanner                   a reusable photo reader (models loaded once)
  referee_round, RoundRequest  one round: a scan or given board, corrections, rules,
  RoundResult, ...          the players' lists -> one typed result (to_dict/from_dict)
  Rules, load_dictionary    rules of scoring; the default or a custom word list
  EDITIONS, fold_word       the editions (--lang: en fr de es it nl) and their folding
  BoggleError, ...          every error a user can meet (UsageError is a ValueError)

See README.md, "Use it as a library".
"""
from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    "Board": "board",
    "solve": "scoring",
    "score_round": "scoring",
    "Rules": "scoring",
    "ScoreSheet": "scoring",
    "read_board": "vision.pipeline",
    "Scanner": "vision.pipeline",
    "ScanResult": "vision.pipeline",
    "load_image": "vision.imageio",
    "referee_round": "referee",
    "RoundRequest": "referee",
    "RoundResult": "referee",
    "RulesOptions": "referee",
    "Corrections": "referee",
    "MarksPolicy": "referee",
    "Dictionary": "dictionary",
    "load_default_dictionary": "dictionary",
    "load_dictionary": "dictionary",
    "EDITIONS": "editions",
    "LANGS": "editions",
    "fold_word": "folding",
    "BoggleError": "errors",
    "UsageError": "errors",
    "ArgumentTypeError": "errors",
    "ImageReadError": "errors",
    "NoBoardError": "errors",
    "EngineMissingError": "errors",
}
_ALIASES = {"load_default_dictionary": "load_default", "load_dictionary": "load_word_list"}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'boggle_cv' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), _ALIASES.get(name, name))
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    """The public API (and the module's own dunder attributes)."""
    return sorted(set(__all__) | {n for n in globals() if n.startswith("__")})
