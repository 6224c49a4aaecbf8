"""The one loader of the shipped ONNX networks (run with cv2.dnn; no torch at run time).

    READER    models/reader.onnx          ($BOGGLE_CV_MODEL overrides the path)
    DETECTOR  models/cube_detector.onnx   ($BOGGLE_CV_DETECTOR overrides the path)
    WORD_READER models/word_reader.onnx   ($BOGGLE_CV_WORD_READER overrides the path;
              handwritten words, PP-OCRv6 small recogniser, Apache-2.0)

``load_net(spec, path=None)`` finds the file (the environment variable, else
``resources.model_file``), checks its SHA-256 against the first word of
``<model>.sha256`` beside it and loads it. A verified network is cached on the
model's resolved path, inode, size and mtime_ns (and the hash file's size and
mtime_ns): a second Scanner or ``read_board`` call reuses it without hashing the file
again, and a changed or replaced file is checked again. Callers share the cached
network object (one cv2.dnn.Net per model file), except on a thread that called
``own_networks()`` (the tray finder's view threads: ``tray.views``), which gets
networks of its own, read once per thread from the file the cache verified.

Across processes, a passed check is remembered in the user's cache folder
(``resources.cache_dir()/verified-models.json``), keyed on the model's resolved
path, inode, size and mtime_ns and the expected hash: a new process loading an
unchanged model skips hashing it (about 7 ms of a cold scan for reader.onnx). The
check guards against a damaged or half-copied file, which changes size or time; a
cache that cannot be read or written is ignored.

Raises EngineMissingError (exit 3) when the model or its hash file is missing, the
hash does not match, or cv2.dnn cannot load the file.
"""
from __future__ import annotations

import contextlib
import json
import os
import tempfile
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2

from ..errors import EngineMissingError


@dataclass(frozen=True)
class ModelSpec:
    """A shipped model: ``what`` names it in error messages ("reader model"),
    ``file_name`` in models/, ``env`` the variable that overrides its path, ``hint``
    what the user can do when it is missing or corrupt."""

    what: str
    file_name: str
    env: str
    hint: str


READER = ModelSpec("reader model", "reader.onnx", "BOGGLE_CV_MODEL",
                   "reinstall boggle-cv or retrain: python -m boggle_cv.train --boards BOARDS --out models/")
DETECTOR = ModelSpec("cube detector model", "cube_detector.onnx", "BOGGLE_CV_DETECTOR",
                     "reinstall boggle-cv, or retrain: python -m boggle_cv.train.detector")

WORD_READER = ModelSpec("handwriting model", "word_reader.onnx", "BOGGLE_CV_WORD_READER",
                        "reinstall boggle-cv (models/README.md says where the file comes from)")

#: How many verified networks stay cached (both shipped models plus a few others).
CACHE_SIZE = 4


def model_path(spec: ModelSpec) -> Path:
    """$<spec.env> if set, else the shipped file (``resources.model_file``); the path
    may not exist (``load_net`` reports it)."""
    env = os.environ.get(spec.env)
    if env:
        return Path(env)
    from ..files.resources import model_file
    return model_file(spec.file_name)


def hash_path(path: Path) -> Path:
    """The ``<model>.sha256`` file beside a model."""
    return path.with_name(path.name + ".sha256")


def load_net(spec: ModelSpec, path: str | Path | None = None) -> cv2.dnn.Net:
    """The verified cv2.dnn network of ``path`` (default ``model_path(spec)``), from
    the cache when the file has not changed since it was checked."""
    p = Path(path) if path else model_path(spec)
    sha = hash_path(p)
    if not p.is_file():
        raise EngineMissingError(f"{spec.what} not found: {p}", spec.hint)
    if not sha.is_file():
        raise EngineMissingError(f"{spec.what} hash not found: {sha}", spec.hint)
    st, sst = p.stat(), sha.stat()
    key = (str(p.resolve()), st.st_ino, st.st_size, st.st_mtime_ns, sst.st_size, sst.st_mtime_ns)
    net = _verified_net(spec, str(p), key)
    own: dict[tuple[str, int, int, int, int, int], cv2.dnn.Net] | None = getattr(_thread_nets, "nets", None)
    if own is None:
        return net
    if key not in own:
        own[key] = _read_net(spec, p)
    return own[key]


#: The networks of a thread that runs them beside others (a cv2.dnn.Net holds its input
#: and layer buffers: two threads must not run one at once), read from the file that
#: the shared cache verified; only on threads that asked (``own_networks``).
_thread_nets = threading.local()


def own_networks() -> None:
    """From now on this thread loads networks of its own instead of the shared ones
    (the tray finder's view threads, which run the detector side by side: ``tray.views``).
    A bounded pool's threads call it: each keeps one network per model file."""
    if getattr(_thread_nets, "nets", None) is None:
        _thread_nets.nets = {}


def _read_net(spec: ModelSpec, path: Path) -> cv2.dnn.Net:
    """cv2.dnn's network of a model file (EngineMissingError when it cannot load it)."""
    try:
        return cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as e:
        raise EngineMissingError(f"{spec.what} cannot be loaded: {path}: {str(e).strip()[:120]}",
                                 spec.hint) from None


@lru_cache(maxsize=CACHE_SIZE)
def _verified_net(spec: ModelSpec, path_str: str,
                  key: tuple[str, int, int, int, int, int]) -> cv2.dnn.Net:
    """Hash-check and load; cached on ``key`` (a failure raises and is not cached).
    path_str is the path as the caller gave it (for messages); key identifies the file."""
    path = Path(path_str)
    words = hash_path(path).read_text().split()
    want = words[0].strip().lower() if words else ""
    seen = [key[0], key[1], key[2], key[3], want]
    if not _checked_before(seen):
        import hashlib  # here, not at the top: OpenSSL's load (~5 ms) only when a file is hashed
        if hashlib.sha256(path.read_bytes()).hexdigest() != want:
            raise EngineMissingError(f"{spec.what} is corrupt (SHA-256 mismatch): {path}", spec.hint)
        _remember_checked(seen)
    return _read_net(spec, path)


VERIFIED_FILE = "verified-models.json"


def _verified_records() -> list[list[object]]:
    from ..files.resources import cache_dir
    try:
        records = json.loads((cache_dir() / VERIFIED_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [r for r in records if isinstance(r, list)] if isinstance(records, list) else []


def _checked_before(record: list[object]) -> bool:
    """True when a file with this resolved path, inode, size, mtime_ns and expected
    hash passed the check in an earlier process."""
    return record in _verified_records()


def _remember_checked(record: list[object]) -> None:
    """Add a passed check to the cache file (atomically; errors ignored: the cache is
    only a shortcut)."""
    from ..files.resources import cache_dir
    folder = cache_dir()
    records = [r for r in _verified_records() if r[:1] != record[:1]] + [record]
    tmp = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".verified-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(records[-16:], f)
        os.replace(tmp, folder / VERIFIED_FILE)
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def cache_clear() -> None:
    """Forget every verified network (tests; a long-running process never needs it)."""
    _verified_net.cache_clear()
