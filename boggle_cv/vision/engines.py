"""Readers by engine name: ``classifier`` (the shipped network, ``reader``),
``tesseract`` (``reader_tesseract``, a slow, independent second opinion) and
``both`` (the classifier's probabilities blended with tesseract's)."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UsageError

if TYPE_CHECKING:  # importing the engines' names stays cheap (no OpenCV): the CLI parses with them
    from .stages import ImageU8, Reader, Reading


class Engine(str, Enum):
    """The reading engines a user can choose (``--engine``)."""

    classifier = "classifier"
    tesseract = "tesseract"
    both = "both"


ENGINES: tuple[str, ...] = tuple(e.value for e in Engine)


def make_reader(engine: str = "classifier", model_path: str | Path | None = None) -> Reader:
    """The reader for an engine name; UsageError (a ValueError) for an unknown name,
    EngineMissingError when its model or program is not installed."""
    from .reader import ClassifierReader
    name = engine.value if isinstance(engine, Engine) else engine
    if name == "classifier":
        return ClassifierReader(model_path)
    if name == "tesseract":
        from .reader_tesseract import TesseractReader
        return TesseractReader()
    if name == "both":
        from .reader_tesseract import TesseractReader
        return BlendedReader(ClassifierReader(model_path), TesseractReader())
    raise UsageError(f"unknown engine {engine!r}", "use one of: " + ", ".join(ENGINES))


class BlendedReader:
    """Weighted mean of two readers' probabilities (first reader weighted ``weight``)."""

    name = "both"

    def __init__(self, first: Reader, second: Reader, weight: float = 0.75) -> None:
        self.first, self.second, self.weight = first, second, float(weight)

    def read(self, crops: ImageU8) -> Reading:
        import numpy as np

        from .stages import Reading
        a, b = self.first.read(crops), self.second.read(crops)
        w = self.weight
        return Reading((w * a.faces + (1 - w) * b.faces).astype(np.float32),
                       (w * a.turns + (1 - w) * b.turns).astype(np.float32))
