"""What the sheet reader returns: the contract its callers (the CLI, the room, the
shared eval tools) read.

Points are float (x, y) photo pixels; a box is 4 points clockwise from the word's
top-left as written (upright), whatever the photo's turn.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Point = tuple[float, float]


@dataclass(frozen=True)
class SheetWord:
    """One written word: its reading (the five fields of handwriting.WordReading),
    where it is in the photo, and whether its writer crossed it out.

    word: a-z, the best reading ('' when nothing legible); confidence: P(word), 0..1;
    alternatives: ((word, p), ...) best first, alternatives[0][0] == word; flagged: doubtful,
    ask the player; free: the lexicon-less reading; box: 4 (x, y) photo pixels, clockwise
    from top-left; crossed_out: struck through by its writer (not scored); p_right:
    the word reader's calibrated P(right) (handwriting.doubt; None without one), which
    orders the doubtful words (least sure first); evidence: what it was computed from
    (not in to_dict); written: with a board known, what the ink says without it (the
    open reading: handwriting.board_check), '' without a board."""

    word: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...]
    flagged: bool
    free: str
    box: tuple[Point, ...]
    crossed_out: bool
    p_right: float | None = None
    evidence: Any = field(default=None, compare=False, repr=False)
    written: str = ""

    @property
    def as_written(self) -> str:
        """What the ink says without the board: `written` where a board was known, else
        the free reading."""
        return self.written or self.free

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: word, confidence, alternatives [[w, p], ...], flagged, free,
        written, crossed_out, box."""
        return {"word": self.word, "confidence": round(self.confidence, 4),
                "alternatives": [[w, round(p, 4)] for w, p in self.alternatives],
                "flagged": self.flagged, "free": self.free, "written": self.written, "crossed_out": self.crossed_out,
                "box": [[round(x, 1), round(y, 1)] for x, y in self.box]}

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> SheetWord:
        """Inverse of to_dict (a field it lacks takes its default: an older document
        has no "written"; no evidence, no p_right)."""
        alts = tuple((str(a[0]), float(a[1])) for a in doc.get("alternatives") or () if a)
        box = tuple((float(p[0]), float(p[1])) for p in doc.get("box") or ())
        return cls(str(doc.get("word") or ""), float(doc.get("confidence") or 0.0), alts, bool(doc.get("flagged")),
                   str(doc.get("free") or ""), box, bool(doc.get("crossed_out")),
                   written=str(doc.get("written") or ""))


@dataclass(frozen=True)
class SheetReading:
    """A sheet's words in writing order (columns left to right, lines top to bottom,
    words left to right), the paper's corners (4 (x, y) photo pixels, clockwise from
    the upright sheet's top-left), the turn applied to make it upright (degrees
    clockwise: 0, 90, 180, 270) and stage timings (stage -> seconds)."""

    words: tuple[SheetWord, ...]
    corners: tuple[Point, ...]
    turn: int = 0
    timings: dict[str, float] | None = None

    @property
    def scored_words(self) -> list[str]:
        """The words that count: read (non-empty) and not crossed out, in writing order."""
        return [w.word for w in self.words if w.word and not w.crossed_out]

    def to_dict(self) -> dict[str, Any]:
        return {"corners": [[round(x, 1), round(y, 1)] for x, y in self.corners], "turn": self.turn,
                "words": [w.to_dict() for w in self.words]}
