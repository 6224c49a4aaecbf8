"""The dictionaries of one server: one per edition, each loaded on first use and kept.

A room plays in its edition (its settings' `lang`); `/api/score` and `/api/rounds`
name theirs in `rules.lang`. The server loads an edition's shipped dictionary
(`dictionary.load_default(lang)`) the first time a round of that edition is scored
and keeps it for the server's life; a dictionary given to the server (a test's, a
library caller's) stands for its edition (English unless said otherwise).
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Mapping

from ..game.dictionary import Dictionary
from ..game.editions import get_edition


class Dictionaries:
    """lang -> Dictionary, loaded lazily (thread-safe: scoring runs in worker threads).

    given: dictionaries that stand for their edition; load(lang): the loader of the
    others (default: the shipped ones). UsageError for an unknown edition."""

    def __init__(self, given: Mapping[str, Dictionary] | None = None,
                 load: Callable[[str], Dictionary] | None = None) -> None:
        self._held: dict[str, Dictionary] = {get_edition(k).code: d for k, d in (given or {}).items()}
        self._load = load
        self._lock = threading.Lock()

    def get(self, lang: str) -> Dictionary:
        code = get_edition(lang).code
        with self._lock:
            d = self._held.get(code)
            if d is None:
                if self._load is None:
                    from ..game.dictionary import load_default
                    d = load_default(code)
                else:
                    d = self._load(code)
                self._held[code] = d
            return d

    def loaded(self) -> tuple[str, ...]:
        """The editions loaded so far (tests: each is loaded once, when first needed)."""
        with self._lock:
            return tuple(sorted(self._held))

    @classmethod
    def of(cls, dictionary: Dictionary | Dictionaries) -> Dictionaries:
        """A Dictionaries from a single (English) dictionary, or the one given."""
        return dictionary if isinstance(dictionary, Dictionaries) else cls({"en": dictionary})
