"""What the referee and the report use of a photo's reading, as protocols: the game
layer reads a scan through these and never imports the vision code that makes one
(vision.pipeline.ScanResult, vision.decode.BoardReading and CellReading satisfy
them). A scan's JSON document is turned back into a reading by the reader that
vision.pipeline registers (`register_scan_reader`; loaded by name when none is), so
that `RoundResult.from_dict` rebuilds a scanned round with no import of vision here."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from .board import Board

Cell = tuple[int, int]


class CellRead(Protocol):
    """One cube as read: board (row, col), the face and its confidence (0..1), the
    runner-up, whether the reader doubts it, the share of it outside the photo."""

    @property
    def row(self) -> int: ...
    @property
    def col(self) -> int: ...
    @property
    def face(self) -> str: ...
    @property
    def confidence(self) -> float: ...
    @property
    def runner_up(self) -> str: ...
    @property
    def runner_up_confidence(self) -> float: ...
    @property
    def flagged(self) -> bool: ...
    @property
    def outside_photo(self) -> float: ...


class MarkSeen(Protocol):
    """A red mark seen on the board: kind "bonus" (a ring) or "challenge" (the red
    cube), its board cell, whether it is sure (a faint one is doubtful)."""

    @property
    def kind(self) -> str: ...
    @property
    def cell(self) -> Cell: ...
    @property
    def sure(self) -> bool: ...


class BoardRead(Protocol):
    """The board as read, turned upright: cells[row][col], the doubtful cells, the mean
    confidence, the known cube sets that fit it."""

    @property
    def board(self) -> Board: ...
    @property
    def cells(self) -> Sequence[Sequence[CellRead]]: ...
    @property
    def flagged(self) -> list[Cell]: ...
    @property
    def mean_confidence(self) -> float: ...
    @property
    def sets(self) -> list[str]: ...


class PhotoReading(Protocol):
    """A photo's reading as the referee uses it: the board read, its cells, the red
    marks seen (board cells), its JSON document."""

    @property
    def board(self) -> Board: ...
    @property
    def reading(self) -> BoardRead: ...
    @property
    def bonus_cells(self) -> list[Cell]: ...
    @property
    def challenge_cell(self) -> Cell | None: ...
    @property
    def marks(self) -> Sequence[MarkSeen]: ...
    def to_dict(self) -> dict[str, Any]: ...


ScanReader = Callable[[dict[str, Any]], PhotoReading]
#: The module that registers the package's own photo reader when it is imported.
PHOTO_READER = "boggle_cv.vision.pipeline"
_readers: list[ScanReader] = []


def register_scan_reader(reader: ScanReader) -> None:
    """Say how a scan's JSON document becomes a reading (vision.pipeline does, on import)."""
    if reader not in _readers:
        _readers.append(reader)


def scan_from_dict(doc: Mapping[str, Any]) -> PhotoReading:
    """A reading rebuilt from its document by the registered reader. With none
    registered yet, the package's photo reader is loaded by name (it registers itself
    on import): the game names no vision module it depends on, yet a scanned round's
    document is always rebuilt."""
    if not _readers:
        import importlib
        importlib.import_module(PHOTO_READER)
    return _readers[-1](dict(doc))
