"""The room API's request bodies as typed commands, read strictly at the edge.

Each body (a JSON object, already parsed by api.parse_json_object, which refuses lone
surrogates and deep nesting) becomes one frozen dataclass through a few readers:

  text(doc, key, max_len)   a JSON string of at most max_len characters
  flag(doc, key)            JSON true or false only ({"discard": "no"} is 400, not true)
  int_in(doc, key, lo, hi)  a JSON integer in [lo, hi] (true/false and 3.0 refused)

Every reader raises UsageError (400) naming the key. Names go through
names.clean_name (the service checks them against the room's other names). Keys
a body does not know are ignored, except in settings (400, "unknown setting(s)").
Word lists are split here (wordlists.iter_tokens) and counted up to max_words + 1 only;
PutWords.read runs in a worker thread (a 1 MB list is CPU work).
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..game.editions import get_edition
from ..errors import LimitReached, UsageError
from ..game.names import clean_name
from ..room.service import NOT_GIVEN, ROOM_TIMER, NotGiven, RoomLimits, RoomTimer
from ..game.wordlists import iter_tokens

#: Longest free text in a room body by default (rule names), in characters.
MAX_TEXT = 200
#: Longest board text (a 6x6 board of two-letter faces, spaced, fits 4 times over).
MAX_BOARD_TEXT = 800
#: Largest list revision a phone may name (a 31-bit integer).
MAX_REVISION = 2**31 - 1

MISSING = NOT_GIVEN


def text(doc: Mapping[str, Any], key: str, max_len: int = MAX_TEXT) -> str:
    """doc[key], a string of at most max_len characters."""
    value = doc.get(key)
    if not isinstance(value, str):
        raise UsageError(f"'{key}' must be text")
    if len(value) > max_len:
        raise UsageError(f"'{key}' is longer than {max_len} characters")
    return value


def flag(doc: Mapping[str, Any], key: str, default: bool = False) -> bool:
    """doc[key] as JSON true/false (absent: default); anything else is 400."""
    value = doc.get(key, default)
    if not isinstance(value, bool):
        raise UsageError(f"'{key}' must be true or false, not {value!r}"[:120])
    return value


def int_in(doc: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    """doc[key], a JSON integer from lo to hi (bool and floats refused)."""
    value = doc.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise UsageError(f"'{key}' must be a whole number from {lo} to {hi}")
    return value


def _timer(doc: Mapping[str, Any], limits: RoomLimits) -> int | None:
    """doc["seconds"]: the timer in seconds, or null for none."""
    if doc.get("seconds") is None:
        return None
    lo, hi = limits.seconds
    if isinstance(doc["seconds"], bool) or not isinstance(doc["seconds"], int) or not lo <= doc["seconds"] <= hi:
        raise UsageError(f"the timer must be {lo} to {hi} seconds, or off (null)", code="settings.timer",
                         params={"min": lo, "max": hi})
    value: int = doc["seconds"]
    return value


@dataclass(frozen=True)
class CreateRoom:
    """POST /api/rooms: game (None: "room CODE"), timer seconds (None: no timer), target,
    lang: the room's edition (None: the server's, serve --lang)."""

    game: str | None = None
    seconds: int | None = 180
    target: int | None = 50
    lang: str | None = None

    @classmethod
    def read(cls, doc: Mapping[str, Any], limits: RoomLimits) -> CreateRoom:
        game = clean_name(doc["game"], "game name", limits.max_name) if doc.get("game") is not None else None
        seconds = _timer(doc, limits) if "seconds" in doc else cls.seconds
        target = (None if doc["target"] is None else int_in(doc, "target", *limits.target)) if "target" in doc \
            else cls.target
        lang = get_edition(text(doc, "lang", 8)).code if doc.get("lang") is not None else None
        return cls(game, seconds, target, lang)


@dataclass(frozen=True)
class Join:
    """POST .../players: the new player's name (clean_name's rule); hosted: a player
    without a phone, added by the host on the host's device (the host's token)."""

    name: str
    hosted: bool = False

    @classmethod
    def read(cls, doc: Mapping[str, Any], limits: RoomLimits) -> Join:
        return cls(clean_name(doc.get("name"), "name", limits.max_name), flag(doc, "hosted"))


@dataclass(frozen=True)
class Rename:
    """PUT .../players/{id}: that player's new name."""

    name: str

    @classmethod
    def read(cls, doc: Mapping[str, Any], limits: RoomLimits) -> Rename:
        return cls(clean_name(doc.get("name"), "name", limits.max_name))


def _tokens(value: object) -> Iterator[str]:
    if isinstance(value, str):
        return iter_tokens(value)
    if isinstance(value, list) and all(isinstance(w, str) for w in value):
        return itertools.chain.from_iterable(iter_tokens(w) for w in value)
    raise UsageError("'words' must be a list of words (or text, one word per line)")


@dataclass(frozen=True)
class PutWords:
    """PUT .../players/{id}/words: the whole list (tokens as typed, in order) and the
    revision it was made from (`base`: the player's `revision` in the last view seen)."""

    words: tuple[str, ...]
    base: int

    @classmethod
    def read(cls, doc: Mapping[str, Any], max_words: int) -> PutWords:
        """Runs in a worker thread: splits the list, stopping at max_words + 1 tokens."""
        if "base" not in doc:
            raise UsageError("'base' is missing: the revision of the list this save was made from",
                             "send the player's revision from the room (0 before the first save)")
        base = int_in(doc, "base", 0, MAX_REVISION)
        if "words" not in doc:
            raise UsageError("'words' is missing", "send {\"words\": [...], \"base\": N}")
        words = tuple(itertools.islice(_tokens(doc["words"]), max_words + 1))
        if len(words) > max_words:
            raise LimitReached(f"the list has more than {max_words} words; at most {max_words}", code="list.too_long",
                               params={"max": max_words})
        return cls(words, base)


@dataclass(frozen=True)
class BoardChange:
    """PUT .../rounds/current/board: any of a typed board, fixes {"r2c3": "W"}, the
    bonus cells ["r1c2", ...] and the challenge cell ("r2c3", or None: there is none;
    MISSING: not sent, left as it is)."""

    text: str | None = None
    fixes: Mapping[str, str] | None = None
    bonus: tuple[str, ...] | None = None
    challenge: str | None | NotGiven = MISSING

    @classmethod
    def read(cls, doc: Mapping[str, Any]) -> BoardChange:
        keys = ("board", "fix", "bonus", "challenge")
        if not any(doc.get(k) is not None for k in keys[:3]) and "challenge" not in doc:
            raise UsageError("send {\"board\": \"TEXT\"}, {\"fix\": {\"r2c3\": \"W\"}}, "
                             "{\"bonus\": [\"r1c2\"]} or {\"challenge\": \"r2c3\"}")
        board = doc.get("board")
        if board is not None and not isinstance(board, str):
            raise UsageError("'board' must be board text such as PERS/LATG/SINE/TERS")
        if board is not None:
            board = text(doc, "board", MAX_BOARD_TEXT)
        fixes = doc.get("fix")
        if fixes is not None and not (isinstance(fixes, dict) and len(fixes) <= 64
                                      and all(isinstance(v, str) and len(v) <= 8 and len(k) <= 16
                                              for k, v in fixes.items())):
            raise UsageError("'fix' must map cells to faces, e.g. {\"r2c3\": \"W\"}")
        bonus = doc.get("bonus")
        if bonus is not None and not (isinstance(bonus, list) and len(bonus) <= 36
                                      and all(isinstance(c, str) and len(c) <= 16 for c in bonus)):
            raise UsageError("'bonus' must be a list of cells, e.g. [\"r1c2\", \"r3c4\"]")
        challenge: str | None | NotGiven = MISSING
        if "challenge" in doc:
            challenge = None if doc["challenge"] is None else text(doc, "challenge", 16)
        return cls(board, dict(fixes) if fixes is not None else None,
                   tuple(bonus) if bonus is not None else None, challenge)


@dataclass(frozen=True)
class StartRound:
    """POST .../rounds: start the waiting round's clock or open the next round.
    seconds: the timer (None: none; ROOM_TIMER: the room's setting); discard: drop
    an unscored round; wait: open the next round without a clock (phase waiting)."""

    seconds: int | None | RoomTimer = ROOM_TIMER
    discard: bool = False
    wait: bool = False

    @classmethod
    def read(cls, doc: Mapping[str, Any], limits: RoomLimits) -> StartRound:
        seconds = _timer(doc, limits) if "seconds" in doc else ROOM_TIMER
        return cls(seconds, flag(doc, "discard"), flag(doc, "wait"))


#: Settings a host may change, and how each is read (values are checked again by the service).
_SETTINGS = ("seconds", "target", "variant", "min_length", "long_words", "marks", "lang")


@dataclass(frozen=True)
class SettingsChange:
    """PUT .../settings: the settings to change (any of _SETTINGS), typed."""

    changes: Mapping[str, Any]

    @classmethod
    def read(cls, doc: Mapping[str, Any], limits: RoomLimits) -> SettingsChange:
        unknown = set(doc) - set(_SETTINGS)
        if unknown:
            raise UsageError(f"unknown setting(s): {', '.join(sorted(unknown))[:200]}",
                             "settings are " + ", ".join(_SETTINGS))
        out: dict[str, Any] = {}
        if "seconds" in doc:
            out["seconds"] = _timer(doc, limits)
        if doc.get("target", 0) is None:
            out["target"] = None  # no target
        elif "target" in doc:
            lo, hi = limits.target
            if isinstance(doc["target"], bool) or not isinstance(doc["target"], int) or not lo <= doc["target"] <= hi:
                raise UsageError(f"the target must be a whole number from {lo} to {hi}", code="settings.target",
                                 params={"min": lo, "max": hi})
            out["target"] = doc["target"]
        if "variant" in doc:
            out["variant"] = None if doc["variant"] is None else text(doc, "variant", 32)
        if "min_length" in doc:
            out["min_length"] = None if doc["min_length"] is None else int_in(doc, "min_length", 1, 36)
        for key in ("long_words", "marks"):
            if key in doc:
                out[key] = text(doc, key, 32)
        if "lang" in doc:
            out["lang"] = get_edition(text(doc, "lang", 8)).code
        return cls(out)


@dataclass(frozen=True)
class SettleWord:
    """POST .../players/{id}/doubtful (a question about a sheet's word answered) and
    .../entry (any word a sheet added, typed over): the word as the phone showed it
    (`word`) and what it is (`choice`): the same word (confirmed), another (an
    alternative, as written, or typed), or null (not a word: dropped); `image`: the id
    of that word's handwriting, if the phone knows it (it finds the word a re-read
    renamed meanwhile). A word is one token as a list splits them."""

    word: str
    choice: str | None
    image: str | None = None

    @classmethod
    def read(cls, doc: Mapping[str, Any]) -> SettleWord:
        if "choice" not in doc:
            raise UsageError("'choice' is missing", "send {\"word\": \"seat\", \"choice\": \"seat\" | \"sat\" | null}")
        word = _one_word(doc, "word")
        image = text(doc, "image", 64) if doc.get("image") is not None else None
        return cls(word, _one_word(doc, "choice") if doc["choice"] is not None else None, image)


def _one_word(doc: Mapping[str, Any], key: str) -> str:
    words = list(itertools.islice(iter_tokens(text(doc, key)), 2))
    if len(words) != 1:
        raise UsageError(f"'{key}' must be one word")
    return words[0]
