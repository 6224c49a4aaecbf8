"""`scan --jobs N`: photos read and refereed in N worker processes.

Each worker loads the reader once (its own Scanner) and gets the shared settings
once (the parsed command line, the dictionary); photos go out one at a time and
their rounds come back in the order given, so the report, the stored rounds'
numbers and the exit code are the same as one photo after another. Drawing,
storing and printing stay in the parent. Workers ignore Ctrl-C: the parent stops
them and exits 130 alone.
"""
from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import BoggleError

if TYPE_CHECKING:
    from ..vision.pipeline import Scanner
    from .scan_round import Outcome, ScanJob

_worker: dict[str, object] = {}  # per worker process: its Scanner, job and setup times


def _start(job: ScanJob, setup: dict[str, float]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import cv2
    cv2.setNumThreads(1)  # one photo per core: the processes are the parallelism
    from ..vision.decode import DecodeConfig
    from ..vision.pipeline import Scanner
    scanner = (Scanner(job.engine, decode_config=DecodeConfig(edition=job.options.lang))
               if job.corrections.board is None else None)
    _worker.update(scanner=scanner, job=job, setup=setup)


def _one(photo: Path) -> Outcome | BoggleError:
    from .scan_round import referee_photo
    scanner: Scanner | None = _worker["scanner"]  # type: ignore[assignment]
    job: ScanJob = _worker["job"]  # type: ignore[assignment]
    setup: dict[str, float] = _worker["setup"]  # type: ignore[assignment]
    try:
        result, scan, _image, sheets = referee_photo(photo, scanner, job, setup)
        return result, scan, None, sheets  # the image stays here: --annotate takes one photo
    except BoggleError as err:
        return err


def read_in_workers(photos: list[Path], job: ScanJob, setup: dict[str, float],
                    jobs: int) -> Iterator[tuple[Path, Outcome | BoggleError]]:
    """(photo, its outcome) in the order of `photos`, read by `jobs` processes."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["boggle_cv.vision.pipeline", "boggle_cv.cli.scan_round"])
    with ProcessPoolExecutor(max_workers=min(jobs, len(photos)), mp_context=context,
                             initializer=_start, initargs=(job, setup)) as pool:
        try:
            yield from zip(photos, pool.map(_one, photos))
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
