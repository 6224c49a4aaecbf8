"""Shared pieces of the web tests.

`RecordedReader` stands in for the reader model while models/reader.onnx is not
there (ARCHITECTURE.md: "recorded engine outputs let tests run without the engine"):
it returns fixed probabilities per crop, in the order the crops come (row-major
photo grid), with chosen cells made doubtful. The tray finder, the cell cutter, the
decoder, the solver and the scorer are the real ones. When the real model exists,
`scanner_factory` uses it instead.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from boggle_cv.vision.reader import default_model_path
from boggle_cv.vision.stages import Reading
from boggle_cv.vision.reader_model import FACES

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
SAMPLE = SAMPLES / "sample-4x4-a.jpg"


class RecordedReader:
    """read(crops) -> Reading with `faces` (row-major, one face per crop) at
    `sure` probability, except `doubtful` cells {index: (face, runner_up, p)}; all turns 0."""

    name = "recorded"

    def __init__(self, faces: list[str], doubtful: dict[int, tuple[str, str, float]] | None = None,
                 sure: float = 0.97):
        self.faces = faces
        self.doubtful = doubtful or {}
        self.sure = sure

    def read(self, crops: np.ndarray) -> Reading:
        k = len(crops)
        assert k == len(self.faces), f"recorded reading has {len(self.faces)} cells, photo gave {k}"
        f = np.full((k, len(FACES)), 0.0, np.float32)
        for i, face in enumerate(self.faces):
            if i in self.doubtful:
                top, second, p = self.doubtful[i]
                rest = (1.0 - p - 0.9 * (1.0 - p)) / (len(FACES) - 2)
                f[i, :] = rest
                f[i, FACES.index(top)] = p
                f[i, FACES.index(second)] = 0.9 * (1.0 - p)
            else:
                f[i, :] = (1.0 - self.sure) / (len(FACES) - 1)
                f[i, FACES.index(face)] = self.sure
        t = np.zeros((k, 4), np.float32)
        t[:, 0] = 1.0
        return Reading(f, t)


def sample_truth(name: str = SAMPLE.name) -> dict:
    doc = json.loads((SAMPLES / "truth.json").read_text())
    return next(p for p in doc["photos"] if p["file"] == name)


def recorded_reader_for_sample() -> RecordedReader:
    """The sample's faces (truth.json, row-major), cell 5 doubtful (read 'O', runner-up truth)."""
    faces = [f for row in sample_truth()["faces"] for f in row]
    true5 = faces[5]
    wrong = "O" if true5 != "O" else "A"
    faces[5] = wrong
    return RecordedReader(faces, {5: (wrong, true5, 0.55)})


def real_model_available() -> bool:
    return default_model_path().is_file()


@pytest.fixture(scope="session")
def scanner_factory():
    """() -> Scanner: the real model when present, else the recorded reading."""
    from boggle_cv.vision.pipeline import Scanner
    if real_model_available():
        return lambda: Scanner("classifier")
    reader = recorded_reader_for_sample()
    return lambda: Scanner(reader=reader)


@pytest.fixture(scope="session")
def photo_ready(scanner_factory):
    """Skip a photo test when the vision pipeline cannot run here (a model it needs,
    such as the tray finder's or the reader's, is not installed: EngineMissingError)."""
    from boggle_cv.errors import EngineMissingError
    from boggle_cv.vision.imageio import load_image
    try:
        scanner_factory().scan_image(load_image(SAMPLE), None)
    except EngineMissingError as err:
        pytest.skip(f"photo pipeline not ready here: {err.one_line()}")
    return True


@pytest.fixture(scope="session")
def dictionary():
    from boggle_cv.game.dictionary import load_default
    return load_default()


class LiveServer:
    """A uvicorn server for `app` on 127.0.0.1 and a free port (or `port`: the same
    one again, to restart a server), in a thread. At shutdown the rooms' live
    streams end, as with `boggle-cv serve`."""

    def __init__(self, app, port: int = 0, grace_s: int = 5) -> None:
        import socket
        import threading

        import uvicorn
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        from boggle_cv.web.server import server_ending_streams
        self.server = server_ending_streams(uvicorn.Config(app, log_level="warning", access_log=False,
                                                           timeout_graceful_shutdown=grace_s), app.state.room_hub)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> "LiveServer":
        import time
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()
