"""boggle-cv: a computer-vision referee for Boggle.

The library (names are imported on first use, so `import boggle_cv` stays cheap):

  Board, parse_board        a board: Board.parse("PERS/LATG/SINE/TERS")
  solve(board, ...)         every word on it, best first, with points and best path
  score_round(board, lists) the referee's sheet for players' lists
  read_board(photo, ...)    read the board in a photo (path or BGR uint8 array)
  Scanner                   a reusable photo reader (models loaded once)
  read_sheet(photo, lexicon)  a player's handwritten sheet: its words in writing
                            order, each read (confidence, alternatives, flag), boxed,
                            crossed out or not (no board: dictionary=load_default_dictionary())
  read_words(images, lexicon) handwritten word crops, one reading each
  referee_round, RoundRequest  one round: a scan or given board, corrections, rules,
  RoundResult, ...          the players' lists -> one typed result (to_dict/from_dict)
  Rules, load_dictionary    rules of scoring; the default or a custom word list
  EDITIONS, fold_word       the editions (--lang: en fr de es it nl) and their folding
  BoggleError, ...          every error a user can meet (UsageError is a ValueError)

See docs/library.md.
"""
# First, before anything else: when this package is imported because the command
# starts (`python -m boggle_cv`, the `boggle-cv` console script), a Ctrl-C from here on
# ends with one line and exit 130 (entry.py explains the stretches). os and
# sys come loaded with the interpreter; so does the C module _signal.
import os as _os
import sys as _sys


def _interrupted_line(stream: object) -> str:
    """The line a Ctrl-C ends the command with. On a terminal it starts at the line's
    first column and clears what is left of it (ESC [K): the terminal echoes the key
    as "^C" where the cursor stood, which would otherwise stay in front of it."""
    try:
        tty = bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        tty = False
    return "\rboggle-cv: interrupted\x1b[K\n" if tty else "boggle-cv: interrupted\n"


def _interrupted_while_starting(signum: int, frame: object) -> None:
    """SIGINT before the command's main(): nothing to clean up, so say it and leave."""
    try:
        _sys.stderr.write(_interrupted_line(_sys.stderr))
        _sys.stderr.flush()
    finally:
        _os._exit(130)


def _started_as_command() -> bool:
    """Is this import the start of the command line? `python -m boggle_cv` (runpy
    imports the package while sys.argv[0] is still "-m") or the console script
    (sys.argv[0] is the `boggle-cv` script Python was started with). Never in a
    library user's program, nor in a worker process (spawned with -c: its argv is
    its parent's, its orig_argv is not)."""
    argv = _sys.argv
    orig = list(getattr(_sys, "orig_argv", ()))
    if not argv:
        return False
    if argv[0] == "-m":
        return "-mboggle_cv" in orig or any(a == "-m" and b == "boggle_cv" for a, b in zip(orig, orig[1:]))
    name = _os.path.basename(argv[0]).lower()
    return name in ("boggle-cv", "boggle-cv.exe", "boggle-cv-script.py") and argv[0] in orig[1:]


def _guard_start(always: bool = False) -> None:
    """Hand SIGINT to _interrupted_while_starting while the command starts (or
    `always`: entry.py, imported by whoever runs main()); only where Python's own
    handler is still in place, and only in the main thread."""
    try:
        if not (always or _started_as_command()):
            return
        csignal = _sys.modules.get("_signal") or __import__("signal")
        if csignal.getsignal(csignal.SIGINT) is csignal.default_int_handler:
            csignal.signal(csignal.SIGINT, _interrupted_while_starting)
    except (ValueError, OSError, AttributeError):  # not the main thread; no signals here
        pass


_guard_start()

import importlib  # noqa: E402 - after the guard, on purpose
from typing import Any  # noqa: E402

__version__ = "0.1.0"

# public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    "Board": "game.board",
    "solve": "game.scoring",
    "score_round": "game.scoring",
    "Rules": "game.scoring",
    "ScoreSheet": "game.scoring",
    "read_board": "vision.pipeline",
    "Scanner": "vision.pipeline",
    "ScanResult": "vision.pipeline",
    "load_image": "vision.imageio",
    "read_sheet": "vision.sheet.read",
    "SheetReading": "vision.sheet.types",
    "SheetWord": "vision.sheet.types",
    "read_words": "vision.handwriting",
    "WordReading": "vision.handwriting",
    "referee_round": "game.referee",
    "RoundRequest": "game.referee",
    "RoundResult": "game.referee",
    "RulesOptions": "game.referee",
    "Corrections": "game.referee",
    "MarksPolicy": "game.referee",
    "Dictionary": "game.dictionary",
    "load_default_dictionary": "game.dictionary",
    "load_dictionary": "game.dictionary",
    "EDITIONS": "game.editions",
    "LANGS": "game.editions",
    "fold_word": "game.folding",
    "BoggleError": "errors",
    "UsageError": "errors",
    "ArgumentTypeError": "errors",
    "ImageReadError": "errors",
    "NoBoardError": "errors",
    "NoWritingError": "errors",
    "EngineMissingError": "errors",
}
_ALIASES = {"load_default_dictionary": "load_default", "load_dictionary": "load_word_list"}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str) -> "Any":
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'boggle_cv' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), _ALIASES.get(name, name))
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    """The public API (and the module's own dunder attributes)."""
    return sorted(set(__all__) | {n for n in globals() if n.startswith("__")})
