"""Settings of the web server (one frozen dataclass; no module-level state).

The limits bound what any client can make the server hold (docs/web.md):
  * connections: at most `max_connections` at once (more are answered 503 by
    uvicorn), `max_connections_per_client` from one address (more are answered 429
    and closed); request headers must arrive within `header_timeout_s` of the
    connection (or of the previous response), a whole request body within
    `body_timeout_s` (408);
  * photos: at most `max_photo_requests` uploads held at once, at most
    `max_photo_requests_per_client` of them from one address; a further upload waits
    for a slot (its bytes wait in the kernel's buffers) up to `photo_wait_s`, then
    503; each is at most `max_upload_bytes` (413); they are read by `scan_workers`
    worker processes (serve_workers picks the number).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

MB = 1024 * 1024

#: Measured peak of one worker process reading the largest photo it decodes at full
#: size (24 MP, image_header.LoadConfig.max_pixels): 230 MiB resident, of which about
#: 50 MiB are NumPy/OpenCV pages shared with the other workers (forkserver).
WORKER_PEAK_MB = 230
#: The server process itself: Python, Starlette, uvicorn, the dictionary (measured
#: about 110 MiB), plus the photos it may hold (max_photo_requests x max_upload_bytes).
SERVER_BASE_MB = 110


@dataclass(frozen=True)
class ServeConfig:
    """Limits and places for one server.

    db_path: the games database (same file as the command line's --db).
    engine: reader engine for photos (classifier, tesseract, both).
    max_upload_bytes: largest photo accepted (bytes); bigger bodies get 413 while
        they stream in, before they are held in full.
    max_json_bytes: largest JSON request body (word lists, boards), bytes.
    preview_max_side: the photo sent back to the page is scaled down so that its
        longer side is at most this many pixels (coordinates stay in photo pixels).
    preview_quality: JPEG quality (0-100) of that preview.
    recent_scans: how many scans (preview + reading) the server keeps in memory
        for the page; older ones are forgotten (never written to disk).
    scan_workers: worker processes reading photos side by side; 0 reads them in the
        server process, one at a time, with the scanner the app was given.
    max_players / max_words: per request, to keep one request's work bounded.
    public_url: the address players' phones use (e.g. http://192.168.1.20:8765) for
        join links; None: the address the request came to.
    max_connections: open connections at once (uvicorn's limit_concurrency: 503 above).
    max_connections_per_client: open connections from one address (429 above).
    header_timeout_s: seconds for a request's headers to arrive (the connection is
        closed after that), counted from the connection or the previous response.
    body_timeout_s: seconds for a whole request body to arrive (408 after that).
    keep_alive_s: an idle connection is closed after this many seconds.
    max_header_bytes: most bytes of a request head h11 buffers while it is incomplete
        (400 above).
    max_photo_requests: photo uploads held at once, server-wide (body, reading).
    max_photo_requests_per_client: of those, at most this many from one address (its
        further uploads wait their turn).
    photo_wait_s: how long an upload waits for a slot (503 after).
    backlog: connections the kernel queues before the server accepts them.
    """

    db_path: Path
    engine: str = "classifier"
    max_upload_bytes: int = 25 * MB
    max_json_bytes: int = 1 * MB
    preview_max_side: int = 1600
    preview_quality: int = 85
    recent_scans: int = 32
    scan_workers: int = 0
    max_players: int = 12
    max_words: int = 2000
    public_url: str | None = None
    max_connections: int = 128
    max_connections_per_client: int = 64
    header_timeout_s: float = 10.0
    body_timeout_s: float = 120.0
    keep_alive_s: int = 5
    max_header_bytes: int = 16 * 1024
    max_photo_requests: int = 4
    max_photo_requests_per_client: int = 2
    photo_wait_s: float = 120.0
    backlog: int = 128


def serve_workers(memory_mb: int = 600, cpus: int | None = None,
                  held_photos_mb: int = 4 * 25) -> int:
    """Photo-reading worker processes for `boggle-cv serve`: as many as the cores, as far
    as the memory budget allows (at least 1).

    memory_mb: what the whole server may use; held_photos_mb: the uploads it may hold
    (ServeConfig.max_photo_requests x max_upload_bytes). Each worker is budgeted at
    WORKER_PEAK_MB less the pages it shares with the others.
    """
    cores = cpus if cpus is not None else len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else (os.cpu_count() or 1)
    unique = WORKER_PEAK_MB - 50
    fit = (memory_mb - SERVER_BASE_MB - held_photos_mb) // unique
    return max(1, min(cores, fit))
