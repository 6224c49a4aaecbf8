"""The tray finder: board size N and the outer corners of the cube grid in a photo.

``find_tray(image_bgr, size=None, *, config=TrayConfig(), debug=None) -> TrayResult``
(a ``stages.TrayFinder``; it lives in :mod:`.finder`). See docs/tray.md.
"""
from __future__ import annotations

from .finder import HINT as HINT
from .finder import NO_GRID as NO_GRID
from .finder import SIZES, TrayConfig, TrayResult, find_tray, search
from .finder import TOO_SMALL as TOO_SMALL

__all__ = ["SIZES", "TrayConfig", "TrayResult", "find_tray", "search"]
