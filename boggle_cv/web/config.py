"""Settings of the web server (one frozen dataclass; no module-level state).

The limits bound what any client can make the server hold (docs/web.md, "Limits"):
  * connections: at most `max_connections` at once (more are answered 503 by
    uvicorn), `max_connections_per_client` from one address (at the cap its
    longest-idle keep-alive connection makes way; 429 and closed when none is idle);
    request headers must arrive within `header_timeout_s` of the
    connection (or of the previous response), a whole request body within
    `body_timeout_s` and, after `body_grace_s`, at `min_body_rate` on average (408);
  * photos: a body is received first (at most `max_photo_requests_per_client` at once
    from one address, `max_photo_bodies` held server-wide, half of them at most for
    anonymous /api/scan), and only then queued for one of `max_photo_requests`
    reading slots, a room's photo ahead of /api/scan; a wait for a place or a slot
    ends after `photo_wait_s` (503); each is at most `max_upload_bytes` (413); they
    are read by `scan_workers` worker processes (serve_workers picks the number);
  * state: rooms expire after `room_idle_s` without a change, at most `max_rooms`
    live at once; creating rooms and the anonymous writes are rate-limited per
    address (429 with Retry-After); a stored round is at most `max_round_bytes`.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..store.sql import DbLocation

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
        4096 holds a club night (180 phones, each with its live stream and a keep-alive
        connection) and 16 addresses at their own cap; an idle connection costs about
        5 KB. The server raises its open-file limit to fit (limits.fit_open_files) or
        lowers this to what the system allows.
    max_connections_per_client: open connections from one address. A family or a club
        behind one public address (NAT) shares it: a browser opens at most 6 to one
        server (its live stream among them), so 256 holds 42 devices at their most and
        five tables of ten (measured: docs/hosting.md). At the cap a new connection
        takes the place of the address's longest-idle keep-alive connection; 429 and
        closed when none is idle (every one busy, or a flood of slow heads, each held
        header_timeout_s at most).
    header_timeout_s: seconds for a request's headers to arrive (the connection is
        closed after that), counted from the connection or the previous response.
    body_timeout_s: seconds for a whole request body to arrive (408 after that).
    body_grace_s / min_body_rate: a body still arriving body_grace_s seconds after it
        began must have come at min_body_rate bytes a second on average, and keep that
        pace (408 otherwise): a phone on a weak Wi-Fi sends 50 KB/s and more.
    keep_alive_s: an idle connection is closed after this many seconds.
    max_header_bytes: most bytes of a request head h11 buffers while it is incomplete
        (400 above).
    max_photo_requests: photos read at once, server-wide (reading slots). A slot is
        taken only once the whole body is in; a room's photo goes ahead of /api/scan.
    max_photo_requests_per_client: photo bodies one address sends at once (its further
        uploads wait their turn, their bytes in the kernel's buffers).
    max_photo_bodies: photo bodies held at once, server-wide (arriving, waiting for a
        slot, or being read); anonymous /api/scan may hold at most half of them, so a
        room's photo always finds a place. Memory: held_photos_mb.
    photo_wait_s: how long an upload waits for a place or a slot (503 after).
    backlog: connections the kernel queues before the server accepts them.
    room_idle_s: a room with no change for this many seconds (24 h) is deleted with its
        photos; the rounds it scored stay in the games tables (standings survive).
    max_rooms: live rooms at once (409 LimitReached above; expired ones do not count).
    rooms_burst / rooms_per_hour: rooms one address may create at once, then per hour.
    anon_burst / anon_per_hour: /api/scan and /api/score requests one address may send
        at once, then per hour (together).
    rounds_burst / rounds_per_hour: rounds one address may store through /api/rounds
        at once, then per hour.
    practice_burst / practice_per_hour: practice rounds one address may record at once,
        then per hour: a club's players practising side by side on one Wi-Fi (30 of them,
        a 3-minute round each: 600 an hour) share it.
    max_round_bytes: the most a round stored through /api/rounds may take in the games
        database (its words and report as JSON, bytes; 413 above).
    lang: the edition (boggle_cv.game.editions) of a new room and of /api/score and
        /api/rounds requests that name none (`serve --lang`; rooms change theirs).
    proxy: the address of a reverse proxy in front of the server (`serve --proxy`,
        docs/hosting.md): its X-Forwarded-For names the phone each request comes
        from (the limits per address apply to that), and its own connections are not
        capped per address (the proxy caps the phones' connections itself).
    guess_limit / guess_window_s: unknown room codes one address may ask for within
        the window (seconds) before it gets 429 for the rest of it (a request with a
        valid token for its room is still served).
    """

    db_path: DbLocation
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
    max_connections: int = 4096
    max_connections_per_client: int = 256
    header_timeout_s: float = 10.0
    body_timeout_s: float = 120.0
    body_grace_s: float = 10.0
    min_body_rate: int = 8 * 1024
    keep_alive_s: int = 5
    max_header_bytes: int = 16 * 1024
    max_photo_requests: int = 4
    max_photo_requests_per_client: int = 2
    max_photo_bodies: int = 6
    photo_wait_s: float = 120.0
    backlog: int = 128
    room_idle_s: float = 24 * 3600.0
    max_rooms: int = 200
    rooms_burst: int = 10
    rooms_per_hour: float = 30.0
    anon_burst: int = 120
    anon_per_hour: float = 2400.0
    rounds_burst: int = 10
    rounds_per_hour: float = 30.0
    practice_burst: int = 30
    practice_per_hour: float = 600.0
    max_round_bytes: int = 1 * MB
    guess_limit: int = 30
    guess_window_s: float = 600.0
    lang: str = "en"
    proxy: str | None = None

    @property
    def held_photos_mb(self) -> int:
        """The most photo bodies the server holds in memory at once (MiB): for
        serve_workers' memory budget."""
        return self.max_photo_bodies * self.max_upload_bytes // MB


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
