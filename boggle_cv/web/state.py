"""What one server holds between requests: the dictionary, the photo readers and the
recent scans (in memory only, oldest forgotten first).

Photos are read (decoded, scanned, previewed: `read_photo_bytes`; a player's sheet:
decoded and read, `read_sheet_bytes`) either
  * in this process, one at a time, by the scanner the app was given (tests, a
    library caller's own Scanner): `ServeConfig.scan_workers` 0; or
  * by a pool of `scan_workers` worker processes (`boggle-cv serve`), each with its
    own reader: photos are read side by side on as many cores, a slow photo holds
    one worker only, and a worker that dies (out of memory) is replaced without
    taking the server down. The photo bytes go to the worker and the ScanResult
    and preview come back (a few KB) through the pool's pipes.
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import secrets
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Callable

import anyio

from ..game.dictionary import Dictionary
from ..room.dictionaries import Dictionaries
from ..game.sheet_lexicon import SheetLexicon
from ..errors import EngineMissingError
from .config import ServeConfig

log = logging.getLogger("boggle_cv.web")


@dataclass
class StoredScan:
    """A scan kept for the page: the preview JPEG and the ScanResult."""

    preview: bytes
    scan: Any


class RecentScans:
    """Thread-safe LRU of scans keyed by random server-chosen ids (hex)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = max(1, int(capacity))
        self._items: OrderedDict[str, StoredScan] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, item: StoredScan) -> str:
        key = secrets.token_hex(12)
        with self._lock:
            self._items[key] = item
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)
        return key

    def get(self, key: str) -> StoredScan | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item


def read_photo_bytes(scanner: Callable[[], Any], data: bytes, size: int | None, preview_max_side: int,
                     preview_quality: int) -> tuple[StoredScan, dict[str, float]]:
    """Decode a photo (bounded: imageio), read its board, make the page's preview.

    scanner: () -> object with scan_image(decoded, size, photo=None) -> ScanResult (a
    vision.imageio.DecodedPhoto: the result in the photo's own pixels), called only
    once the photo has decoded (an unreadable photo is told as such even
    when the reader is missing).
    Returns (StoredScan, stage -> seconds). Raises our errors (ImageReadError,
    NoBoardError, ...).
    """
    from ..vision.imageio import load_photo_bytes
    from .geometry import preview_jpeg
    t0 = time.perf_counter()
    photo = load_photo_bytes(data, "the uploaded photo")
    t1 = time.perf_counter()
    result = scanner().scan_image(photo, size, photo=None)
    t2 = time.perf_counter()
    preview = preview_jpeg(photo.pixels, preview_max_side, preview_quality)
    t3 = time.perf_counter()
    timings = {"decode": t1 - t0, **getattr(result, "timings", {}), "scan": t2 - t1, "preview": t3 - t2}
    return StoredScan(preview, result), timings


def read_sheet_bytes(data: bytes, lexicon: SheetLexicon | None, lang: str = "en") -> dict[str, Any]:
    """Decode a sheet photo (bounded: imageio) and read its words (vision.sheet.read_sheet)
    against `lexicon` (its board's words weighed up; None: no board yet, against the
    edition's whole dictionary,
    handwriting.read_words(dictionary=...)) in the room's language `lang` (its prior of
    common words, German written forms): SheetReading.to_dict() (corners, turn, words
    in writing order) and "images": each word's handwriting as a small WebP, or None
    (web.word_images: a few hundred bytes a word). Raises ImageReadError,
    NoWritingError, EngineMissingError."""
    from ..vision.imageio import load_image_bytes
    from ..vision.sheet import read_sheet
    from .word_images import word_images
    image = load_image_bytes(data, "the uploaded sheet")
    dictionary = None
    if lexicon is None:  # no board yet: read against the edition's whole dictionary
        from ..game.dictionary import load_default
        dictionary = load_default(lang)
    words = list(lexicon) if lexicon is not None else None
    board = lexicon.board_words if lexicon is not None else None
    doc: dict[str, Any] = read_sheet(image, words, lang=lang, dictionary=dictionary, board_words=board).to_dict()
    doc["images"] = word_images(image, doc["words"])
    return doc


WordAlternatives = list[tuple[str, float]]


def read_word_readings(images: Sequence[bytes | None], lexicon: SheetLexicon, lang: str = "en",
                       reader: Callable[..., Sequence[Any]] | None = None) -> list[dict[str, Any] | None]:
    """Sheet words read again from their stored handwriting (the room's small grey
    WebP of each word, web.word_images) against `lexicon` (a board's: web.sheets.Lexicons)
    in edition `lang`: for each image {"alternatives": [(word, p), ...] best first,
    "flagged": the reader doubts it (None when the reader does not say), "free": the
    open reading, as written}, or None for an image that does not decode.
    reader(images, lexicon, lang=...) -> WordReadings: boggle_cv.read_words, with the
    board's words weighed up (tests may give their own). German: a word's written
    forms (ä as ae, ...) are read too and counted as the word, as a sheet is
    (vision.sheet.written)."""
    import cv2
    import numpy as np
    grey = [cv2.imdecode(np.frombuffer(d, np.uint8), cv2.IMREAD_GRAYSCALE) if d else None for d in images]
    ok = [g for g in grey if g is not None and g.size]
    from ..vision.sheet.written import as_lexicon_words, with_written_forms
    words_in, back = list(lexicon), dict[str, str]()
    if lang == "de":
        words_in, back = with_written_forms(words_in)
    if reader is None:
        import functools

        from ..vision.handwriting import read_words
        board = getattr(lexicon, "board_words", None)
        on_board = {w for w in words_in if back.get(w, w) in board} if board is not None else None
        reader = functools.partial(read_words, board_words=on_board)
    readings = iter(reader(ok, words_in, lang=lang) if ok else [])
    out: list[dict[str, Any] | None] = []
    for g in grey:
        if g is None or not g.size:
            out.append(None)
            continue
        got = next(readings)
        flagged = getattr(got, "flagged", None)
        out.append({"alternatives": as_lexicon_words(got.alternatives, back),
                    "flagged": bool(flagged) if flagged is not None else None,
                    "free": str(getattr(got, "free", "") or "")})
    return out


def read_word_images(images: Sequence[bytes | None], lexicon: SheetLexicon, lang: str = "en",
                     reader: Callable[..., Sequence[Any]] | None = None) -> list[WordAlternatives | None]:
    """read_word_readings' alternatives alone: for each image [(word, p), ...] best
    first, or None for an image that does not decode."""
    return [r["alternatives"] if r is not None else None for r in read_word_readings(images, lexicon, lang, reader)]


# ---- worker processes ---------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _worker_scanner(engine: str) -> Any:
    """The reader of this worker process, made once (not cached when it fails: a model
    installed later is found by the next photo)."""
    from ..vision.pipeline import Scanner
    return Scanner(engine)


def _init_worker(engine: str, cv_threads: int) -> None:
    """Runs once in each worker: it ends with its parent (Linux), ignores Ctrl-C (a
    terminal sends it to the whole process group; the server stops its workers
    itself, without their tracebacks), OpenCV's threads are shared out between the
    workers, the reader is loaded before the first photo (a missing model is
    reported per photo)."""
    _end_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import cv2
    cv2.setNumThreads(max(1, cv_threads))
    try:
        _worker_scanner(engine)
    except EngineMissingError:
        pass


_PR_SET_PDEATHSIG = 1


def _end_with_parent() -> None:
    """Linux: SIGTERM this process when its parent (the server) dies, so that no worker
    outlives a server killed with SIGKILL."""
    if sys.platform.startswith("linux"):
        import ctypes
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM))
        except (OSError, AttributeError):
            pass


def _read_in_worker(engine: str, data: bytes, size: int | None, preview_max_side: int,
                    preview_quality: int) -> tuple[StoredScan, dict[str, float]]:
    return read_photo_bytes(functools.partial(_worker_scanner, engine), data, size, preview_max_side,
                            preview_quality)


def _ready(hold_s: float) -> int:
    time.sleep(hold_s)  # long enough for the other workers to take the other tasks
    return os.getpid()


def _check_reader(engine: str) -> None:
    _worker_scanner(engine)


class ReaderStopped(EngineMissingError):
    """A worker process died while reading a photo: the reader is missing for a moment
    (answered 503 like a missing model; the pool is renewed on the next photo)."""


class ReadingPool:
    """`workers` processes reading photos with their own Scanner(engine).

    Workers are spawned (fresh interpreters, children of the server: never forked
    from a process that runs threads) and end with the server (_end_with_parent). A
    worker that dies breaks the executor: the next read makes a new one.
    """

    def __init__(self, workers: int, engine: str, cv_threads: int = 1) -> None:
        self.workers = max(1, int(workers))
        self.engine = engine
        self.cv_threads = cv_threads
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                ctx = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_init_worker,
                                                 initargs=(self.engine, self.cv_threads))
            return self._pool

    def start(self, timeout_s: float = 120.0) -> list[int]:
        """Start every worker now and wait until each has loaded its reader (each has
        answered a task, which it takes only after its initializer); their pids."""
        pool = self._executor()
        seen: set[int] = set()
        end = time.monotonic() + timeout_s
        while len(seen) < self.workers and time.monotonic() < end:
            futures = [pool.submit(_ready, 0.2) for _ in range(self.workers)]
            seen.update(f.result() for f in futures)
        return sorted(seen)

    def check(self) -> None:
        """EngineMissingError when the workers cannot load their reader (the model)."""
        self._executor().submit(_check_reader, self.engine).result()

    async def read(self, data: bytes, size: int | None, config: ServeConfig) -> tuple[StoredScan, dict[str, float]]:
        result: tuple[StoredScan, dict[str, float]] = await self.run(
            _read_in_worker, self.engine, data, size, config.preview_max_side, config.preview_quality)
        return result

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """fn(*args) in a worker (a module-level function: it travels by name); its
        errors propagate; ReaderStopped when the worker dies meanwhile."""
        pool = self._executor()
        try:
            future = pool.submit(fn, *args)
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            raise ReaderStopped("the photo reader stopped while reading a photo (out of memory?)",
                                "try again; a fresh reader has been started", code="reader.stopped") from None

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


class WebState:
    """Per-app state.

    scanner_factory() -> object with scan_image(image, size, photo=None) (a Scanner);
    used when config.scan_workers is 0: called once, on the first photo, and again
    after a failure (e.g. the model was missing and has since been installed); photos
    are then read one at a time in a worker thread. With scan_workers > 0 the photos
    go to a ReadingPool of that many processes (the factory is not used).
    sheet_reader(data, lexicon, lang) -> SheetReading.to_dict(): how a sheet photo is read
    in process (read_sheet_bytes; tests may give their own); the pool always reads
    with read_sheet_bytes. word_reader: the word reader read_word_images uses in
    process (None: boggle_cv.read_words; tests may give their own).
    """

    def __init__(self, config: ServeConfig, dictionary: Dictionary,
                 scanner_factory: Callable[[], Any], dictionaries: Dictionaries | None = None) -> None:
        self.config = config
        self.dictionary = dictionary
        self.dictionaries = dictionaries or Dictionaries({"en": dictionary})
        self.scans = RecentScans(config.recent_scans)
        self._scanner_factory = scanner_factory
        self._scanner: Any = None
        self._lock = threading.Lock()
        self._one_at_a_time = anyio.Semaphore(1)
        self.pool: ReadingPool | None = None
        self.sheet_reader: Callable[[bytes, SheetLexicon | None, str], dict[str, Any]] = read_sheet_bytes
        self.word_reader: Callable[..., Sequence[Any]] | None = None
        self._readers_started = False
        if config.scan_workers > 0:
            threads = max(1, (os.cpu_count() or 1) // config.scan_workers)
            self.pool = ReadingPool(config.scan_workers, config.engine, threads)

    def scanner(self) -> Any:
        """The in-process reader pipeline, made on first use (raises EngineMissingError)."""
        with self._lock:
            if self._scanner is None:
                self._scanner = self._scanner_factory()
            return self._scanner

    async def read(self, data: bytes, size: int | None) -> tuple[StoredScan, dict[str, float]]:
        """Read one uploaded photo (see module docstring); our errors propagate."""
        c = self.config
        if self.pool is not None:
            return await self.pool.read(data, size, c)
        async with self._one_at_a_time:
            return await anyio.to_thread.run_sync(
                lambda: read_photo_bytes(self.scanner, data, size, c.preview_max_side, c.preview_quality))

    async def read_sheet(self, data: bytes, lexicon: SheetLexicon | None, lang: str = "en") -> dict[str, Any]:
        """Read one uploaded sheet photo (read_sheet_bytes) in the photo readers, as a
        tray photo is read: in a worker process, or one at a time in a thread."""
        if self.pool is not None:
            doc: dict[str, Any] = await self.pool.run(read_sheet_bytes, data, lexicon, lang)
            return doc
        async with self._one_at_a_time:
            result: dict[str, Any] = await anyio.to_thread.run_sync(self.sheet_reader, data, lexicon, lang)
            return result

    async def read_words(self, images: Sequence[bytes | None], lexicon: SheetLexicon,
                         lang: str = "en") -> list[dict[str, Any] | None]:
        """Words read again from their stored images (read_word_readings) in the photo
        readers, as a sheet is: in a worker process, or one at a time in a thread."""
        if self.pool is not None:
            out: list[dict[str, Any] | None] = await self.pool.run(read_word_readings, list(images), lexicon, lang)
            return out
        async with self._one_at_a_time:
            read = functools.partial(read_word_readings, reader=self.word_reader)
            got: list[dict[str, Any] | None] = await anyio.to_thread.run_sync(read, list(images), lexicon, lang)
            return got

    def start_readers(self) -> None:
        """Start the worker processes now (once; nothing without a pool) and check that
        they can load their reader: EngineMissingError when they cannot (photos are
        then answered 503, boards can still be typed)."""
        if self.pool is None or self._readers_started:
            return
        self._readers_started = True
        self.pool.start()
        self.pool.check()

    def close(self) -> None:
        """Stop the worker processes (if any); again is harmless."""
        if self.pool is not None:
            self.pool.close()

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """The app's lifespan: the photo readers start with the server and stop with
        it, whichever server hosts the app (both in a worker thread: the event loop
        stays free). A missing reader is logged, not raised: the page still works."""
        try:
            await anyio.to_thread.run_sync(self.start_readers)
        except EngineMissingError as err:
            log.warning("photos cannot be read: %s; boards can still be typed on the page", err.one_line())
        try:
            yield
        finally:
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(self.close)
