"""The tray finder: board size N and the outer corners of the cube grid in a photo.

``find_tray(image_bgr, size=None, *, config=TrayConfig(), debug=None) -> TrayResult``
(a ``stages.TrayFinder``); raises NoBoardError when there is no complete 4x4, 5x5 or
6x6 grid. The finder in stages, one module each, in the order a photo meets them:
  finder        find_tray, and search: the search of an image, then its fallbacks;
  config        the settings (TrayConfig and its groups);
  image_search  the search of one image: a working copy, candidates per source,
                lattices, the board window, snapping onto blobs;
  detector      learned candidates: cube-top peaks of a small heatmap network;
  blobs         classical candidates: bright, compact blobs at many thresholds;
  lattice       a square lattice grown over the candidates;
  board         the best N x N window of a lattice, or the reason there is none;
  plan          what a fallback is: Plan, the Fallback protocol, SearchContext;
  fallbacks     the fallbacks: a zoomed crop, stretched copies, windows, windows of
                stretched copies (default_fallbacks);
  debug         the debug images (handed to the caller's DebugSink as made).
This package offers the finder's names; a stage's other names are imported from
its module (``boggle_cv.vision.tray.plan.without``). See docs/tray.md.
"""
from __future__ import annotations

from .finder import HINT as HINT
from .finder import NO_GRID as NO_GRID
from .finder import SIZES, TrayConfig, TrayResult, find_tray, search
from .finder import TOO_SMALL as TOO_SMALL

__all__ = ["SIZES", "TrayConfig", "TrayResult", "find_tray", "search"]
