"""tray.views.first_found: a fallback's views searched side by side give the answer of
a search in turn; and the detector network of each view thread is its own."""
from __future__ import annotations

import os
import threading
import time

import cv2
import numpy as np
import pytest

from boggle_cv.errors import NoBoardError
from boggle_cv.synth import render_photo
from boggle_cv.vision import onnx_models
from boggle_cv.vision.tray import find_tray, image_search, views
from boggle_cv.vision.tray.views import first_found


@pytest.fixture
def opencv_threads():
    """Set OpenCV's thread count for one test (the views follow it), then restore it."""
    before = cv2.getNumThreads()
    yield cv2.setNumThreads
    cv2.setNumThreads(before)


def test_the_first_view_in_order_wins_not_the_first_search_to_end(opencv_threads):
    opencv_threads(4)
    running: list[int] = []

    def search(k: int) -> str | None:
        running.append(k)
        time.sleep(0.3 if k == 1 else 0.01)  # view 1 ends last, views 2 and 3 first
        running.remove(k)
        return None if k == 0 else f"board in view {k}"

    assert first_found(search, [0, 1, 2, 3]) == "board in view 1"
    assert running == []  # it returns once no search it started is still running


def test_nothing_found_searches_every_view(opencv_threads):
    opencv_threads(3)
    seen: list[int] = []
    assert first_found(lambda k: seen.append(k), list(range(7))) is None
    assert sorted(seen) == list(range(7))


def test_an_error_is_raised_only_where_a_search_in_turn_would_reach_it(opencv_threads):
    opencv_threads(2)

    def search(k: int) -> str | None:
        if k == 2:
            raise ValueError("view 2 failed")
        return "board" if k == 1 else None

    assert first_found(search, [0, 1, 2]) == "board"  # view 2 comes after the board
    with pytest.raises(ValueError, match="view 2 failed"):
        first_found(search, [0, 2, 1])


def test_one_opencv_thread_searches_the_views_in_turn_on_the_calling_thread(opencv_threads):
    opencv_threads(1)
    names: list[str] = []
    order: list[int] = []

    def search(k: int) -> int | None:
        names.append(threading.current_thread().name)
        order.append(k)
        return k if k == 2 else None

    assert first_found(search, [0, 1, 2, 3]) == 2
    assert order == [0, 1, 2] and set(names) == {threading.current_thread().name}


def test_views_are_searched_on_view_threads_and_a_nested_search_in_turn(opencv_threads):
    """With several OpenCV threads the views go to the view threads; a search there
    that has views of its own (a stretched copy's windows) searches them in turn on
    its thread, so the pool never waits on itself."""
    opencv_threads(2)
    inner_threads: list[set[str]] = []

    def outer(k: int) -> str | None:
        here = threading.current_thread().name
        names: set[str] = set()

        def inner_search(j: int) -> None:
            names.add(threading.current_thread().name)
            return None

        first_found(inner_search, list(range(5)))
        inner_threads.append(names | {here})
        return None

    assert first_found(outer, list(range(6))) is None
    assert len(inner_threads) == 6
    for names in inner_threads:
        assert len(names) == 1 and next(iter(names)).startswith(views.THREAD_PREFIX)


def test_a_view_thread_has_its_own_network_and_other_threads_share_one(opencv_threads):
    """A cv2.dnn.Net must not run on two threads at once: the view threads, which run
    the detector side by side, each load their own; any other thread (a server's
    worker thread reading one photo at a time) shares the cached one, so their number
    does not multiply the networks in memory."""
    shared = onnx_models.load_net(onnx_models.DETECTOR)
    assert onnx_models.load_net(onnx_models.DETECTOR) is shared
    other: list[object] = []
    worker = threading.Thread(target=lambda: other.append(onnx_models.load_net(onnx_models.DETECTOR)))
    worker.start()
    worker.join()
    assert other == [shared]
    opencv_threads(2)

    def load_twice(_: int) -> tuple[str, object, object]:
        time.sleep(0.05)  # both view threads take a view
        net = onnx_models.load_net(onnx_models.DETECTOR)
        return threading.current_thread().name, net, onnx_models.load_net(onnx_models.DETECTOR)

    got: list[tuple[str, object, object]] = []
    first_found(lambda k: got.append(load_twice(k)), [0, 1])
    assert len(got) == 2
    for name, net, again in got:
        assert name.startswith(views.THREAD_PREFIX) and net is again and net is not shared
    (name_a, net_a, _), (name_b, net_b, _) = got
    assert (net_a is net_b) == (name_a == name_b)  # one network per view thread


def _photos() -> dict[str, np.ndarray]:
    """Synthetic trays the first pass cannot read: squashed (a grazing view: found by
    a stretched copy) and small in a big mirrored frame (refused after every window
    and stretched window is searched)."""
    out = {}
    for seed in (0, 2):
        img, _ = render_photo(np.random.default_rng(seed), size=4, long_side=800, kind="tray")
        h, w = img.shape[:2]
        out[f"squashed {seed}"] = cv2.resize(img, (w, int(h * 0.35)), interpolation=cv2.INTER_AREA)
        small = cv2.resize(img, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
        out[f"small {seed}"] = cv2.copyMakeBorder(small, h, h, w, w, cv2.BORDER_REFLECT)
    return out


def _answer(photo: np.ndarray) -> tuple[object, ...]:
    try:
        res = find_tray(photo)
    except NoBoardError as err:
        return ("refused", err.message)
    return (res.size, res.corners.tolist(), res.confidence, sorted(k for k in res.timings if k.endswith("retry")))


def test_find_tray_answers_the_same_side_by_side_as_in_turn(opencv_threads, monkeypatch):
    threads: set[str] = set()
    real = image_search.run_detector

    def spy(*args: object, **kwargs: object) -> object:
        threads.add(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(image_search, "run_detector", spy)
    photos = _photos()
    opencv_threads(1)
    in_turn = {name: _answer(p) for name, p in photos.items()}
    assert threads == {threading.current_thread().name}
    opencv_threads(4)
    side_by_side = {name: _answer(p) for name, p in photos.items()}
    assert side_by_side == in_turn
    assert any(n.startswith(views.THREAD_PREFIX) for n in threads)
    assert in_turn["squashed 0"][0] == 4 and "stretch_retry" in in_turn["squashed 0"][3]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_searches_views_with_threads_of_its_own(opencv_threads):
    """A process forked after the view threads started (multiprocessing's default on
    Linux) has none of them: its searches still end, on a pool of its own."""
    opencv_threads(2)
    assert first_found(lambda k: k if k == 1 else None, [0, 1, 2]) == 1  # the pool exists now
    pid = os.fork()
    if pid == 0:  # the child: answer through the exit code, never return into pytest
        code = 1
        try:
            code = 0 if first_found(lambda k: k if k == 2 else None, [0, 1, 2, 3]) == 2 else 1
        finally:
            os._exit(code)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.waitstatus_to_exitcode(status) == 0
            return
        time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    pytest.fail("the forked child's search never ended")
