"""`scan --jobs N`: photos read and refereed in N worker processes.

Each worker is a Python process of its own (`python -c ... worker_main`), started in
a session of its own: a Ctrl-C at the terminal, sent to the command's process group,
never reaches it. It gets the shared settings once (the parsed command line, the
dictionary) and loads the reader once (its own Scanner); photos go out one at a time
on its request pipe and each reply comes back on its reply pipe, so the report, the
stored rounds' numbers and the exit code are the same as one photo after another.
Drawing, storing, printing and writing the stage images (--debug-dir) stay in the
command: a worker writes no file, and prints nothing (its stdout and stderr go to
/dev/null; with --debug, its stderr is the command's).

Stopping is the command's alone, and at once: when it leaves read_in_workers (a
Ctrl-C, an error, or the end) it kills every worker, even one halfway through a
photo or a reply, and reaps it. A worker whose command is gone (killed outright)
ends when its request pipe closes.
"""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import BoggleError

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from ..vision.pipeline import Scanner
    from ..vision.stages import ImageU8
    from .scan_round import Outcome, ScanJob

#: What a worker sends back for a photo: its outcome (or the error that stopped it)
#: and its stage images (--debug-dir), which the command writes.
Reply = tuple["Outcome | BoggleError", "dict[str, ImageU8]"]
#: A worker's program: its two pipes' file descriptors follow on its command line
#: (`scan` makes the command line register only that command).
WORKER_CODE = ("import sys; fds = sys.argv[1:]; sys.argv = ['boggle-cv', 'scan']; "
               "from boggle_cv.cli.scan_jobs import worker_main; worker_main(*map(int, fds))")


@dataclass(frozen=True)
class WorkerFailed:
    """A worker's reply when reading a photo raised something other than a
    BoggleError (a bug): the traceback, as text."""

    text: str


class WorkerError(RuntimeError):
    """A worker failed (a bug: its traceback is the __cause__) or stopped (killed,
    out of memory) while it held a photo."""


class RemoteTraceback(Exception):
    """A worker's traceback, as the cause of its WorkerError (shown with --debug)."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass
class Worker:
    """One worker process and the command's ends of its pipes."""

    process: subprocess.Popen[bytes]
    requests: Connection
    replies: Connection


def _start(job: ScanJob) -> Scanner | None:
    """A worker's reader (None with --board), on one OpenCV thread."""
    import cv2
    cv2.setNumThreads(1)  # one photo per core: the processes are the parallelism
    from ..vision.decode import DecodeConfig
    from ..vision.pipeline import Scanner
    return (Scanner(job.engine, decode_config=DecodeConfig(edition=job.options.lang))
            if job.corrections.board is None else None)


def _one(photo: Path, scanner: Scanner | None, job: ScanJob, setup: dict[str, float]) -> Reply:
    """A photo's outcome (or the error that stopped it) and its stage images."""
    from .scan_round import referee_photo
    images: dict[str, ImageU8] = {}
    debug_out = (lambda _photo, stages: images.update(stages)) if job.debug_dir is not None else None
    try:
        result, scan, _image, sheets = referee_photo(photo, scanner, job, setup, debug_out=debug_out)
        return (result, scan, None, sheets), images  # the image stays here: --annotate takes one photo
    except BoggleError as err:
        return err, images


def worker_main(requests_fd: int, replies_fd: int) -> None:
    """A worker's life: the settings (job, setup), then a reply to each photo until
    None or the end of the request pipe."""
    from multiprocessing.connection import Connection
    requests, replies = Connection(requests_fd, writable=False), Connection(replies_fd, readable=False)
    try:
        job, setup = requests.recv()
        scanner = _start(job)
        while (photo := requests.recv()) is not None:
            try:
                reply: Reply | WorkerFailed = _one(photo, scanner, job, setup)
            except Exception:
                reply = WorkerFailed(traceback.format_exc())
            replies.send(reply)
    except (EOFError, BrokenPipeError):
        return  # the command is gone


def _spawn(debug: bool) -> Worker:
    """A worker process in a session of its own, with its two pipes."""
    from multiprocessing.connection import Connection
    request_r, request_w = os.pipe()
    reply_r, reply_w = os.pipe()
    try:
        process = subprocess.Popen([sys.executable, "-c", WORKER_CODE, str(request_r), str(reply_w)],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=None if debug else subprocess.DEVNULL,
                                   pass_fds=(request_r, reply_w), start_new_session=True)
    except BaseException:
        os.close(request_w)
        os.close(reply_r)
        raise
    finally:
        os.close(request_r)
        os.close(reply_w)
    return Worker(process, Connection(request_w, readable=False), Connection(reply_r, writable=False))


@contextmanager
def read_in_workers(photos: list[Path], job: ScanJob, setup: dict[str, float], jobs: int
                    ) -> Iterator[Iterator[tuple[Path, Outcome | BoggleError, dict[str, ImageU8]]]]:
    """(photo, its outcome, its stage images) in the order of `photos`, read by `jobs`
    processes. When the block is left, early or not, the workers are killed and gone."""
    debug = os.environ.get("BOGGLE_CV_DEBUG") == "1"
    workers: list[Worker] = []
    try:
        for _ in range(min(jobs, len(photos))):
            workers.append(_spawn(debug))
        settings = pickle.dumps((job, setup), protocol=pickle.HIGHEST_PROTOCOL)
        for worker in workers:
            worker.requests.send_bytes(settings)
        yield _in_order(photos, workers)
    finally:
        _end(workers)


def _in_order(photos: list[Path], workers: list[Worker]
              ) -> Iterator[tuple[Path, Outcome | BoggleError, dict[str, ImageU8]]]:
    """Send each idle worker the next photo; give the replies in the photos' order."""
    from multiprocessing.connection import wait
    queue = iter(range(len(photos)))
    holding: dict[Connection, tuple[int, Worker]] = {}  # a worker's reply pipe -> (its photo, the worker)
    replies: dict[int, Reply] = {}

    def send_next(worker: Worker) -> None:
        i = next(queue, None)
        if i is not None:
            worker.requests.send(photos[i])
            holding[worker.replies] = (i, worker)

    for worker in workers:
        send_next(worker)
    for want, photo in enumerate(photos):
        while want not in replies:
            if not holding:  # not reached: a photo is sent, or its reply kept, until it is given
                raise WorkerError(f"no process holds {photo}")
            for conn in wait(list(holding)):
                i, worker = holding.pop(conn)  # type: ignore[call-overload]
                replies[i] = _reply(worker, photos[i])
                send_next(worker)
        outcome, images = replies.pop(want)
        yield photo, outcome, images


def _reply(worker: Worker, photo: Path) -> Reply:
    """The worker's reply for `photo`; WorkerError when it failed or stopped."""
    try:
        reply: Reply | WorkerFailed = worker.replies.recv()
    except EOFError:
        code = worker.process.wait()
        raise WorkerError(f"the process reading {photo} stopped (exit {code})") from None
    if isinstance(reply, WorkerFailed):
        last = reply.text.strip().splitlines()[-1]
        raise WorkerError(f"reading {photo}: {last}") from RemoteTraceback(reply.text)
    return reply


def _end(workers: list[Worker]) -> None:
    """Kill every worker now, whatever it is doing (it writes no file), reap it and
    close its pipes."""
    for worker in workers:
        if worker.process.poll() is None:
            worker.process.kill()
    for worker in workers:
        worker.process.wait()
        worker.requests.close()
        worker.replies.close()
