"""How likely a lexicon reading is right: the evidence of one reading and the shipped
calibration that turns it into a probability, which decides whether the player is
asked (``models/word_doubt.json``, SHA-256 in ``word_doubt.json.sha256``).

The posterior over the lexicon alone is a poor judge on fast scrawl: a common long
word read from blurred ink can be right at 60%, a short one wrong at 97%. The
evidence (``Evidence``, all floats) is what the reading already computed:

  doubt     -log(1 - p1): p1 the posterior of the word read (0.99 -> 4.6)
  margin    log(p1 / p2): how far the runner-up is behind (nats)
  fit_gap   log P(free | ink) - log P(word | ink): what the lexicon word costs the
            ink against the network's own best string (nats, under the first view)
  same      1.0 when the word is the free reading
  misfit    letters the word differs from the free reading by, over its length
  agree     how many of the other views (stretches) pick the same word (0-2)
  length    letters of the word
  common    the word's log prior (commonness: Zipf frequency, capped)
  on_board  1.0 when the word can be traced on the board (a board known), else 0.0
  per_frame log P(word | ink) per output frame

The calibration is a logistic regression over those (``Calibration``): P(right) =
sigmoid(w . (x - mean) / scale + bias), fitted on readings the models had never
seen (``boggle_cv/train/word_doubt.py``, on the tune split's composed sheets read
with models trained on the train split). A reading is asked about when P(right) is
under the file's ``ask_below``. Without the file (or with
$BOGGLE_CV_WORD_DOUBT=none) the posterior alone decides (``reading.FLAG_BELOW``).
"""
from __future__ import annotations

import hashlib
import json
import math
from dataclasses import astuple, dataclass, fields
from functools import lru_cache
from pathlib import Path

from ...errors import EngineMissingError
from . import shipped
from .board_check import BoardRule

FILE = "word_doubt.json"
ENV = "BOGGLE_CV_WORD_DOUBT"


@dataclass(frozen=True)
class Evidence:
    """One lexicon reading's evidence (module doc; units there)."""

    doubt: float
    margin: float
    fit_gap: float
    same: float
    misfit: float
    agree: float
    length: float
    common: float
    on_board: float
    per_frame: float

    def vector(self) -> tuple[float, ...]:
        return tuple(float(v) for v in astuple(self))


NAMES = tuple(f.name for f in fields(Evidence))
#: Each value is clipped to this range before the calibration (a -1e30 log-likelihood
#: of an impossible word stays finite).
CLIP = 50.0


@dataclass(frozen=True)
class Calibration:
    """A fitted logistic regression over Evidence (module doc): `names` the features
    in order, their `mean` and `scale`, `weights`, `bias`; `ask_below`: the P(right)
    under which a reading is asked about."""

    names: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    ask_below: float
    #: when a board lexicon's word stands against the open reading (board_check);
    #: None: board_check.DEFAULT_RULE
    board: BoardRule | None = None

    def p_right(self, ev: Evidence) -> float:
        values = dict(zip(NAMES, ev.vector()))
        z = self.bias
        for name, m, s, w in zip(self.names, self.mean, self.scale, self.weights):
            x = min(max(values[name], -CLIP), CLIP)
            z += w * (x - m) / s
        return 1.0 / (1.0 + math.exp(-min(max(z, -CLIP), CLIP)))

    def to_dict(self) -> dict[str, object]:
        doc: dict[str, object] = {"names": list(self.names), "mean": list(self.mean), "scale": list(self.scale),
                                  "weights": list(self.weights), "bias": self.bias, "ask_below": self.ask_below}
        if self.board is not None:
            doc["board"] = self.board.to_dict()
        return doc

    @classmethod
    def from_dict(cls, doc: dict[str, object]) -> Calibration:
        def floats(key: str) -> tuple[float, ...]:
            value = doc[key]
            assert isinstance(value, list)
            return tuple(float(v) for v in value)
        names = doc["names"]
        assert isinstance(names, list) and all(n in NAMES for n in names), names
        bias, ask_below = doc["bias"], doc["ask_below"]
        assert isinstance(bias, (int, float)) and isinstance(ask_below, (int, float))
        board = doc.get("board")
        assert board is None or isinstance(board, dict), board
        return cls(tuple(str(n) for n in names), floats("mean"), floats("scale"), floats("weights"),
                   float(bias), float(ask_below), BoardRule.from_dict(board) if board is not None else None)


@lru_cache(maxsize=2)
def _load(path_str: str, mtime_ns: int) -> Calibration:
    path = Path(path_str)
    data = shipped.verified_bytes(path, "handwriting calibration")
    try:
        return Calibration.from_dict(json.loads(data))
    except (ValueError, KeyError, AssertionError, TypeError) as err:
        raise EngineMissingError(f"handwriting calibration cannot be read: {path} ({err})", "reinstall boggle-cv") from err


def board_rule() -> BoardRule:
    """The rule of board_check in use: the calibration's, else board_check.DEFAULT_RULE."""
    from .board_check import DEFAULT_RULE
    cal = calibration()
    return cal.board if cal is not None and cal.board is not None else DEFAULT_RULE


def calibration() -> Calibration | None:
    """The calibration in use ($BOGGLE_CV_WORD_DOUBT, else the shipped file), or None
    (the posterior alone decides)."""
    key = shipped.in_use(ENV, FILE, "handwriting calibration")
    return None if key is None else _load(*key)


def write(path: Path, cal: Calibration) -> None:
    """Write a calibration file and its .sha256 beside it (training)."""
    data = (json.dumps(cal.to_dict(), indent=1) + "\n").encode("ascii")
    path.write_bytes(data)
    path.with_name(path.name + ".sha256").write_text(f"{hashlib.sha256(data).hexdigest()}  {path.name}\n")
