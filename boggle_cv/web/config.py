"""Settings of the web server (one frozen dataclass; no module-level state)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

MB = 1024 * 1024


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
    scan_threads: photos read at the same time (the rest wait their turn).
    max_players / max_words: per request, to keep one request's work bounded.
    public_url: the address players' phones use (e.g. http://192.168.1.20:8765) for
        join links; None: the address the request came to.
    """

    db_path: Path
    engine: str = "classifier"
    max_upload_bytes: int = 25 * MB
    max_json_bytes: int = 1 * MB
    preview_max_side: int = 1600
    preview_quality: int = 85
    recent_scans: int = 32
    scan_threads: int = 1
    max_players: int = 12
    max_words: int = 2000
    public_url: str | None = None
