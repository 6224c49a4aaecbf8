"""A fallback's views searched side by side, with the answer of a search in turn.

``first_found(search_one, views)`` returns what ``search_one`` gives for the first
view, in order, for which it gives something (not None): the same as searching the
views one after the other and stopping at the first board, only with the views
searched on up to ``workers()`` threads at once (OpenCV and the detector network
release the GIL while they work). A view after the one that found the board may have
been searched too; its answer is dropped, and the call returns only when no search
it started is still running.

``workers()`` follows OpenCV's own thread count (``cv2.getNumThreads()``): a process
that gives OpenCV one thread (``scan --jobs`` workers, the room server's readers,
``cv2.setNumThreads(1)``) searches its views in turn, on its own thread. A search
already running on a view thread searches its own views in turn (no nesting: a
stretched copy's windows are searched by the thread that searches the copy). Each
view thread runs networks of its own (``onnx_models.own_networks``).
"""
from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import TypeVar

import cv2

from ..onnx_models import own_networks

V = TypeVar("V")
R = TypeVar("R")

#: Thread names of the view searches (a test can tell them from others).
THREAD_PREFIX = "tray-view"

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_pool_size = 0
_on_view_thread = threading.local()


def workers() -> int:
    """How many views are searched at once: OpenCV's thread count (at least 1)."""
    return max(1, int(cv2.getNumThreads()))


def on_view_thread() -> bool:
    """True on a thread that searches a view for ``first_found``."""
    return bool(getattr(_on_view_thread, "yes", False))


def _mark_view_thread() -> None:
    """A view thread's start: it runs the detector beside the others, so with networks
    of its own (``onnx_models.own_networks``)."""
    _on_view_thread.yes = True
    own_networks()


def _forget_pool() -> None:
    """In a forked child: the parent's view threads are not there, so the pool is made
    anew on first use (a pool copied from the parent would never run its work)."""
    global _pool, _pool_size, _lock
    _pool, _pool_size, _lock = None, 0, threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def _shared_pool(size: int) -> ThreadPoolExecutor:
    """The process's pool of ``size`` view threads (threads start as work comes; the pool
    is made again only when OpenCV's thread count changes, the old one ending once its
    work is done)."""
    global _pool, _pool_size
    with _lock:
        if _pool is None or _pool_size != size:
            if _pool is not None:
                _pool.shutdown(wait=False)
            _pool = ThreadPoolExecutor(size, thread_name_prefix=THREAD_PREFIX, initializer=_mark_view_thread)
            _pool_size = size
        return _pool


def first_found(search_one: Callable[[V], R | None], views: Sequence[V]) -> R | None:
    """The first non-None ``search_one(view)`` in the order of ``views``, or None (see
    the module docstring). An exception raised by the search of a view is raised here
    when every view before it found nothing, as a search in turn would."""
    size = workers()
    if size <= 1 or len(views) <= 1 or on_view_thread():
        for view in views:
            found = search_one(view)
            if found is not None:
                return found
        return None
    futures: list[Future[R | None]] = [_shared_pool(size).submit(search_one, view) for view in views]
    try:
        for future in futures:
            found = future.result()
            if found is not None:
                return found
        return None
    finally:
        for future in futures:
            future.cancel()
        wait(futures)
