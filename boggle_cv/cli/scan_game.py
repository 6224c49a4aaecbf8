"""`scan --game NAME`: a round is stored in its game once. It is the same round when
its photo's content and its players' lists are the same (round_fingerprint); a
repeat is refused before anything is drawn or stored (exit 7, one line), or with
--replace takes the place of the round it repeats (and keeps its number).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..errors import ImageReadError
from ..game.names import name_key
from ..game.referee import RoundResult
from ..store.sql import DbLocation


def round_fingerprint(photo: Path, result: RoundResult) -> str:
    """SHA-256 of the photo's bytes and of each player's words as written (players
    by name, words sorted: the same list in another order is the same list)."""
    digest = hashlib.sha256()
    try:
        with open(photo, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
    except OSError as e:
        raise ImageReadError(f"cannot read image {photo}: {e.strerror or e}") from None
    lists = sorted((name_key(p.name), sorted(w.written for w in p.words)) for p in result.sheet.players)
    digest.update(json.dumps(lists, ensure_ascii=False).encode())
    return digest.hexdigest()


def refuse_repeat(photo: Path, result: RoundResult, game: str, db: DbLocation | None, replace: bool) -> str:
    """Before the round is drawn or stored: its fingerprint; RepeatedRoundError when
    `game` holds it already and `replace` is not set (store_round checks again, in
    its transaction)."""
    from ..store import database as store
    from ..store.rounds import stored_round
    fingerprint = round_fingerprint(photo, result)
    if not replace:
        number = stored_round(db or store.default_db_path(), game, fingerprint)
        if number is not None:
            raise store.repeated_round(game, number)
    return fingerprint
