"""The sheet reader: a player's handwritten list, from a photo.

Stages, one module each (data flows down):
  paper    find the paper, flatten it (perspective), turn it upright
  ink      the writing's ink on the flat paper, ruled and margin lines taken out
  layout   the written words in writing order; marks ignored, crossed-out words kept
  read     the chain: load -> paper -> ink -> layout -> crops -> handwriting.read_words
  reread   a sheet's words read again once its board is known, a person's words kept
  types    SheetWord, SheetReading (what comes out)

``read_sheet`` is exported lazily (``boggle_cv.read_sheet``); importing this package
loads OpenCV but not the handwriting model.
"""
from __future__ import annotations

from .read import read_sheet
from .reread import Reread, reread_sheet, reread_words
from .types import SheetReading, SheetWord

__all__ = ["Reread", "SheetReading", "SheetWord", "read_sheet", "reread_sheet", "reread_words"]
