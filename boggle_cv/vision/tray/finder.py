"""Find the Boggle tray in a photo: board size N and the outer corners of the cube grid.

``find_tray(image_bgr, size=None, *, config=TrayConfig(), debug=None) -> TrayResult``
(a ``stages.TrayFinder``, offered as ``boggle_cv.vision.tray.find_tray``).
``search`` below is the one function that searches an image (:mod:`.image_search`)
and then tries its fallbacks (:mod:`.fallbacks`) in turn; the fallbacks call it back
(through their SearchContext) on their views.

Raises NoBoardError when there is no complete 4x4, 5x5 or 6x6 grid (the reason is
the first one the search of the whole photo gave).
Coordinates: (x, y) pixels of the image passed in; corners ordered r0c0, r0c(N-1),
r(N-1)c(N-1), r(N-1)c0, clockwise on screen, r0c0 the corner nearest the top-left.
See docs/tray.md.
"""
from __future__ import annotations

import time
from functools import partial
from typing import Hashable

from ...errors import ArgumentTypeError, NoBoardError, UsageError
from ..stages import DebugSink, ImageU8, TrayResult
from .board import Refusal
from .config import SIZES, TrayConfig
from .debug import LastLattice, grid_image, refused_image
from .image_search import look, search_image
from .plan import MIN_VIEW_PX, Evidence, Plan, SearchContext, Seen

__all__ = ["SIZES", "TrayConfig", "TrayResult", "find_tray", "search"]

#: The refusal of an image too small to search, or not a colour image.
TOO_SMALL = "the image is too small or not a colour photo"
#: The refusal when no source grew a lattice worth judging.
NO_GRID = "no grid of cube tops was seen"
#: What the user can do about a refusal.
HINT = "photograph the whole tray from above, in focus"


def find_tray(image_bgr: ImageU8, size: int | None = None, *,
              config: TrayConfig = TrayConfig(), debug: DebugSink | None = None) -> TrayResult:
    """Find the N x N grid of cube tops in a BGR uint8 (H, W, 3) photo.

    size: force N (4, 5 or 6) instead of inferring it (UsageError otherwise).
    debug: receives the stage images as they are made (:mod:`.debug`), also those of a
    refusal (then ``5_refused`` last). Raises NoBoardError when no complete board is
    seen.
    """
    if size is not None and size not in SIZES:
        raise UsageError(f"size must be one of {SIZES}, got {size}")
    if debug is not None and not callable(debug):
        raise ArgumentTypeError(f"debug must be a DebugSink (a callable sink(name, image)), "
                                f"not {type(debug).__name__}", "pass stages.DebugImages() to collect them")
    t0 = time.perf_counter()
    timings: dict[str, float] = {}
    sink = LastLattice(debug) if debug is not None else None
    res = search(image_bgr, size, config, Plan(None, config.fallbacks), timings, sink)
    if isinstance(res, Refusal):
        if sink is not None and sink.image is not None:
            sink("5_refused", refused_image(sink.image, res.reason))
        raise NoBoardError(f"no board found: {res.reason}", HINT)
    timings["total"] = time.perf_counter() - t0
    return TrayResult(res.size, res.corners, res.confidence, res.cell_centres, timings)


def search(image: ImageU8, size: int | None, config: TrayConfig, plan: Plan,
           timings: dict[str, float], debug: DebugSink | None = None,
           explain: bool = True, seen: Seen | None = None,
           looked: tuple[dict[Hashable, Evidence], Hashable] | None = None) -> TrayResult | Refusal:
    """Search ``image`` with the plan's sources, then try the plan's fallbacks in
    order until one finds a board: the board in the image's pixels, or the Refusal
    of the image's own search (its first reason; explain=False: a fallback's view,
    whose reasons nobody reads: see image_search.search_image). seen: what another
    view's search saw, handed to the fallbacks (plan.SearchContext). looked: (what
    the detector saw in the views of the image this one is a view of, by key; this
    view's key): the detector's evidence is kept there, or taken from there."""
    if image is None or image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < MIN_VIEW_PX:
        return Refusal(TOO_SMALL)
    sources = config.sources if plan.sources is None else plan.sources
    found = search_image(image, size, config, sources, timings, debug, explain) if sources else None
    res = found.found if found is not None else None
    if res is None:
        evidence = found.evidence if found is not None else None
        if found is None and plan.fallbacks and "detector" in config.sources:
            # not searched itself: its fallbacks still know where to look
            evidence = looked[0].get(looked[1]) if looked is not None else None
            evidence = evidence if evidence is not None else look(image, config)
        if looked is not None and evidence is not None:
            looked[0][looked[1]] = evidence
        views: dict[Hashable, Evidence] = {}
        ctx = SearchContext(partial(_inner, config=config, looked=views), evidence, timings, seen, views, {})
        for fallback in plan.fallbacks:
            res = fallback.attempt(image, size, ctx)
            if res is not None:
                break
        else:
            reasons = found.reasons if found is not None else []
            return Refusal(reasons[0] if reasons else NO_GRID)
    if debug is not None and found is not None:
        debug("5_grid", grid_image(found.work, found.scale, res))
    return res


def _inner(image: ImageU8, size: int | None, plan: Plan, seen: Seen | None = None,
           key: Hashable | None = None, *, config: TrayConfig,
           looked: dict[Hashable, Evidence]) -> TrayResult | None:
    """A fallback's search of one of its views (own timings, no debug images);
    looked: what the detector saw in the image's views so far, by key."""
    res = search(image, size, config, plan, {}, explain=False, seen=seen,
                 looked=None if key is None else (looked, key))
    return None if isinstance(res, Refusal) else res
