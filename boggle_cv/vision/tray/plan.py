"""The contract of the tray finder's fallbacks (the strategies themselves are in
:mod:`.fallbacks`).

A search of an image follows a ``Plan``: its candidate sources, then its fallbacks
in order. A ``Fallback`` has a ``name`` (its key in ``TrayResult.timings``) and
``attempt(image_bgr, size, ctx) -> TrayResult | None``; it searches its views of the
image with ``ctx.search(view, size, plan)`` (``tray.search``, handed in so that this
module needs no import of it) and maps a board found back into the image's pixels.

Coordinates: (x, y) pixels of the image handed to ``attempt``.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Collection, Hashable, Protocol

import numpy as np
import numpy.typing as npt

from ..stages import FloatArray, ImageU8, TrayResult
from .blobs import Blobs
from .lattice import Lattice

#: Views smaller than this (px, either side) are not searched.
MIN_VIEW_PX = 16


@dataclass(frozen=True)
class Seen:
    """Candidate cube tops that the search of another view of the same photo saw:
    centres (K, 2) (x, y) and sides (K,), in pixels of the image being searched."""

    centres: FloatArray
    sides: FloatArray

    def covers(self, centres: FloatArray, sides: FloatArray) -> npt.NDArray[np.bool_]:
        """(K,) True for each candidate (centres (K, 2), sides (K,)) lying within the
        larger of the two sides of one seen here: the same cube top (or none)."""
        if not len(self.centres) or not len(centres):
            return np.zeros(len(centres), bool)
        d = np.hypot(*(centres[:, None, :] - self.centres[None, :, :]).transpose(2, 0, 1))
        return np.asarray((d < np.maximum(sides[:, None], self.sides[None, :])).any(axis=1))


@dataclass(frozen=True)
class Evidence:
    """What the detector saw in the search of an image: its candidates and lattices
    (working px), the working image's (H, W), and scale (working px per image px)."""

    blobs: Blobs
    lattices: list[Lattice]
    work_shape: tuple[int, int]
    scale: float

    def seen(self) -> Seen:
        """The candidates in the image's pixels."""
        return Seen(self.blobs.centres / self.scale, self.blobs.sides / self.scale)


@dataclass(frozen=True)
class Plan:
    """A search of one image: the candidate sources in order (None: the config's
    ``sources``; ``()``: none, only the fallbacks), then the fallbacks in order."""

    sources: tuple[str, ...] | None = None
    fallbacks: tuple[Fallback, ...] = ()

    def without(self, names: Collection[str]) -> Plan:
        """This plan with the fallbacks named ``names`` left out, at every depth."""
        kept = (f.without(names) for f in self.fallbacks)
        return Plan(self.sources, tuple(f for f in kept if f is not None))

    def is_empty(self) -> bool:
        """True when the plan can find nothing (no sources, no fallbacks)."""
        return self.sources == () and not self.fallbacks


class Search(Protocol):
    """``search(image_bgr, size, plan, seen, key) -> TrayResult | None``: the board
    found in an image (its pixels) by the plan's sources and fallbacks, or None;
    ``seen``: what the search of another view saw, in the image's pixels
    (SearchContext.seen); ``key``: names the view among the views of the image whose
    fallbacks search it (the same key, the same view: what the detector saw in it the
    first time serves the second, e.g. a stretched copy of steps 2 and 4)."""

    def __call__(self, image: ImageU8, size: int | None, plan: Plan, seen: Seen | None = None,
                 key: Hashable | None = None, /) -> TrayResult | None: ...


@dataclass(frozen=True)
class SearchContext:
    """What a fallback gets besides the image: ``search`` (see Search), the
    detector's ``evidence`` from the search of this image (None when the detector
    did not run), ``timings`` (stage -> seconds) of this search, ``seen``: the
    candidates the search of another view of the photo already saw (None: no other
    view), so that a fallback can look where this view shows something new, and
    ``looked``: what the detector saw in the views of this image searched so far, by
    their key (Search); ``copies``: the views of this image made so far, by their
    key, for a later fallback that searches the same view again (a stretched copy of
    steps 2 and 4)."""

    search: Search
    evidence: Evidence | None
    timings: dict[str, float]
    seen: Seen | None = None
    looked: dict[Hashable, Evidence] = field(default_factory=dict)
    copies: dict[Hashable, ImageU8] = field(default_factory=dict)


class Fallback(Protocol):
    """A strategy tried when the search of an image found no board."""

    @property
    def name(self) -> str: ...

    def attempt(self, image: ImageU8, size: int | None, ctx: SearchContext) -> TrayResult | None:
        """The board found in other views of ``image`` (in its pixels), or None."""
        ...

    def without(self, names: Collection[str]) -> Fallback | None:
        """This fallback with the named ones left out (None: itself is left out, or
        nothing is left for it to search)."""
        ...


@dataclass(frozen=True)
class Nested:
    """Base of the fallbacks that search their views with an ``inner`` Plan."""

    inner: Plan

    @property
    def name(self) -> str:
        raise NotImplementedError

    def attempt(self, image: ImageU8, size: int | None, ctx: SearchContext) -> TrayResult | None:
        raise NotImplementedError

    def without(self, names: Collection[str]) -> Nested | None:
        if self.name in names:
            return None
        inner = self.inner.without(names)
        return None if inner.is_empty() else replace(self, inner=inner)


def without(fallbacks: tuple[Fallback, ...], *names: str) -> tuple[Fallback, ...]:
    """The fallbacks with those named ``names`` left out at every depth (e.g.
    ``without(default_fallbacks(), "window_retry")``: no windows, also none inside
    the zoom, and no stretched windows)."""
    return Plan(None, fallbacks).without(names).fallbacks


def shifted(sub: TrayResult, x0: int, y0: int) -> TrayResult:
    """A result found in a crop whose top-left is (x0, y0) of the image, in the
    image's pixels (corners and centres moved; no timings)."""
    off = np.array([x0, y0], np.float64)
    return TrayResult(sub.size, sub.corners + off, sub.confidence, sub.cell_centres + off)
