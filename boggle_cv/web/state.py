"""What one server holds between requests: the dictionary, the reader (loaded once,
on first use) and the recent scans (in memory only, oldest forgotten first)."""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from ..dictionary import Dictionary
from .config import ServeConfig


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


class WebState:
    """Per-app state. scanner_factory() -> object with scan_image(image, size) (a Scanner);
    it is called once, on the first photo, and again after a failure (e.g. the model
    was missing and has since been installed)."""

    def __init__(self, config: ServeConfig, dictionary: Dictionary,
                 scanner_factory: Callable[[], Any]) -> None:
        self.config = config
        self.dictionary = dictionary
        self.scans = RecentScans(config.recent_scans)
        self._scanner_factory = scanner_factory
        self._scanner = None
        self._lock = threading.Lock()

    def scanner(self):
        """The reader pipeline, made on first use (raises EngineMissingError)."""
        with self._lock:
            if self._scanner is None:
                self._scanner = self._scanner_factory()
            return self._scanner
