"""A room's state: one table playing one game of rounds, as plain data.

A room holds its players (each with a secret token, kept only as a hash), the
settings the host chose (timer, rules, target), and the current round: its phase,
every player's list, the board (a photo's reading and/or typed text) with the
players' corrections, and, once scored, the referee's report. The whole state
is one JSON document (``Room.to_dict`` / ``Room.from_dict``) stored in SQLite, so a
restarted server resumes every room where it was.

Round phases (`Phase`, moves in `TRANSITIONS`):  waiting -> playing -> locked -> scored
(the host starts the clock, the timer or the host locks, the host may reopen a locked
round, the host scores). A new round (waiting for the host, or playing at once) follows
a scored one, or replaces one the host discards. Times are Unix seconds; cells are
stored as the API's labels "r2c3" (rows and columns from 1), except corrections, kept
under "r,c" (from 0) as before.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from ..errors import RoundStateError

from ..game.names import scrub_surrogates
from .sheets import SheetEntry

#: Room codes: 7 characters from an alphabet without look-alikes (0/O, 1/I/L):
#: 31**7 = 2.75e10 codes, so a guess on a LAN (rate-limited) finds nothing.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 7


class Phase(str, Enum):
    """Where a round is (a str, so the JSON and comparisons with "playing" stay as they were)."""

    waiting = "waiting"    # opened, no clock yet (the tray is being shaken, the timer chosen)
    playing = "playing"    # the clock runs (or no timer); players save their lists
    locked = "locked"      # lists closed (timer or host); the board is checked
    scored = "scored"      # refereed and stored in the game


#: The one table of a round's moves: phase -> the phases it may move to.
TRANSITIONS: dict[Phase, frozenset[Phase]] = {
    Phase.waiting: frozenset({Phase.playing}),
    Phase.playing: frozenset({Phase.locked}),
    Phase.locked: frozenset({Phase.playing, Phase.scored}),   # reopen, score
    Phase.scored: frozenset(),                                # only a new round follows
}


def _utf8_json(d: dict[str, Any]) -> bool:
    """True if every string of the document encodes as UTF-8 (checked in C: one dump)."""
    try:
        json.dumps(d, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    """A bearer token: 192 random bits, URL-safe text."""
    return secrets.token_urlsafe(24)


def new_image_id() -> str:
    """A word image's id: 96 random bits, URL-safe text (16 characters)."""
    return secrets.token_urlsafe(12)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def screen_key(host_digest: str) -> str:
    """The table screen's pass: it reads the room as a viewer (never a member who may
    change it); derived from the host's token digest, so only the host is given it."""
    return hmac.new(host_digest.encode("ascii"), b"boggle-cv table screen", hashlib.sha256).hexdigest()[:32]


def token_matches(token: str | None, digest: str) -> bool:
    return token is not None and hmac.compare_digest(token_hash(token), digest)


def normalise_code(text: str) -> str:
    """What a player typed as a code ("kq7 m2xp") -> "KQ7M2XP"."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


@dataclass
class Player:
    """A player of the room. id: public (in URLs); token_digest: SHA-256 of the token;
    hosted: a player without a phone, added on the host's device: the host acts for
    them (their words, their sheet) and no token of their own exists."""

    id: str
    name: str
    token_digest: str
    joined_at: float
    hosted: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "token_digest": self.token_digest, "joined_at": self.joined_at,
                "hosted": self.hosted}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Player:
        return cls(str(d["id"]), str(d["name"]), str(d["token_digest"]), float(d["joined_at"]),
                   bool(d.get("hosted", False)))


@dataclass
class Correction:
    """One player's correction of one board cell: the face and who made it, when."""

    face: str
    by: str
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"face": self.face, "by": self.by, "at": self.at}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Correction:
        return cls(str(d["face"]), str(d["by"]), float(d["at"]))


@dataclass
class BoardState:
    """The round's board: a photo's scan document (ScanResult.to_dict plus the
    overlay geometry) and/or a typed board, and the corrections keyed "r,c"
    (0-based). A typed board replaces the reading; corrections apply on top.

    bonus / challenge: the red bonus cells and the challenge cube's cell as the table
    chose them on the page ("r2c3" labels); bonus None and challenge_chosen False
    mean "not chosen": the photo's red marks count (settings marks "use")."""

    scan: dict[str, Any] | None = None
    text: str | None = None
    set_by: str | None = None
    corrections: dict[str, Correction] = field(default_factory=dict)
    photo_version: int = 0      # bumps with each new photo (the preview's cache key)
    bonus: list[str] | None = None
    challenge: str | None = None
    challenge_chosen: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"scan": self.scan, "text": self.text, "set_by": self.set_by, "photo_version": self.photo_version,
                "corrections": {k: c.to_dict() for k, c in self.corrections.items()},
                "bonus": self.bonus, "challenge": self.challenge, "challenge_chosen": self.challenge_chosen}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BoardState:
        bonus = d.get("bonus")
        return cls(d.get("scan"), d.get("text"), d.get("set_by"),
                   {k: Correction.from_dict(v) for k, v in d.get("corrections", {}).items()},
                   int(d.get("photo_version", 0)), [str(c) for c in bonus] if bonus is not None else None,
                   d.get("challenge"), bool(d.get("challenge_chosen", False)))


@dataclass
class Round:
    """One round. lists: player id -> words as typed (in order); revisions: player id
    -> how many times that list was saved this round (0 or absent: never; a save names
    the revision it was made from); deadline: when the timer ends (None: no timer);
    settings: the room's settings as they were when the clock started (None before:
    scoring uses this copy, so a change applies from the next round); report: the
    referee's document once scored; game_round: its number in the games database;
    doubtful: player id -> {word of that list: its alternatives [(word, p), ...] best
    first}, the words a sheet photo read with doubt and nobody has confirmed or fixed
    yet (room.sheets); images: player id -> {word of that list: the id of its
    handwriting's image}, for the words a sheet photo added (the image itself is in
    the database's ``room_word_images``: room.db; docs/web.md, "Handwriting");
    read_against: player id -> {doubtful word of that list: the board (its text) it
    was read against, "" the edition's whole dictionary}, so that a word is read
    again from its image when the board becomes known or changes, and only then
    (a round stored before has none: its doubtful words are read again once);
    read_against holds every word a sheet added that is still the reader's (sure or
    doubtful), none that a person confirmed or typed; sheet_words: player id -> {word
    of that list: its room.sheets.SheetEntry}, every word a sheet added (the word as
    first read, its open reading, who confirmed or typed it)."""

    number: int
    phase: Phase = Phase.waiting
    seconds: int | None = None
    started_at: float | None = None
    deadline: float | None = None
    locked_at: float | None = None
    locked_by: str | None = None
    lists: dict[str, list[str]] = field(default_factory=dict)
    board: BoardState = field(default_factory=BoardState)
    report: dict[str, Any] | None = None
    game_round: int | None = None
    revisions: dict[str, int] = field(default_factory=dict)
    settings: Settings | None = None
    doubtful: dict[str, dict[str, list[tuple[str, float]]]] = field(default_factory=dict)
    images: dict[str, dict[str, str]] = field(default_factory=dict)
    read_against: dict[str, dict[str, str]] = field(default_factory=dict)
    sheet_words: dict[str, dict[str, SheetEntry]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.phase = Phase(self.phase)  # Round(1, "playing") works as before

    def move(self, to: Phase) -> None:
        """Change phase along TRANSITIONS; RoundStateError (409) for any other move."""
        if to not in TRANSITIONS[self.phase]:
            raise RoundStateError(f"round {self.number} cannot go from {self.phase.value} to {to.value}")
        self.phase = to

    def revision(self, player_id: str) -> int:
        return self.revisions.get(player_id, 0)

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "phase": self.phase.value, "seconds": self.seconds,
                "started_at": self.started_at, "deadline": self.deadline, "locked_at": self.locked_at,
                "locked_by": self.locked_by, "lists": self.lists, "board": self.board.to_dict(),
                "report": self.report, "game_round": self.game_round, "revisions": self.revisions,
                "settings": self.settings.to_dict() if self.settings is not None else None,
                "doubtful": {pid: {w: [[a, p] for a, p in alts] for w, alts in marks.items()}
                             for pid, marks in self.doubtful.items() if marks},
                "images": {pid: dict(refs) for pid, refs in self.images.items() if refs},
                "read_against": {pid: dict(boards) for pid, boards in self.read_against.items() if boards},
                "sheet_words": {pid: {w: e.to_dict() for w, e in entries.items()}
                                for pid, entries in self.sheet_words.items() if entries}}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Round:
        snap = d.get("settings")
        return cls(int(d["number"]), Phase(d["phase"]), d.get("seconds"), d.get("started_at"), d.get("deadline"),
                   d.get("locked_at"), d.get("locked_by"), {k: list(v) for k, v in d.get("lists", {}).items()},
                   BoardState.from_dict(d.get("board") or {}), d.get("report"), d.get("game_round"),
                   {k: int(v) for k, v in (d.get("revisions") or {}).items()},
                   Settings.from_dict(snap) if snap is not None else None,
                   {str(pid): {str(w): [(str(a), float(p)) for a, p in alts] for w, alts in marks.items()}
                    for pid, marks in (d.get("doubtful") or {}).items()},
                   {str(pid): {str(w): str(i) for w, i in refs.items()} for pid, refs in (d.get("images") or {}).items()},
                   {str(pid): {str(w): str(b) for w, b in boards.items()}
                    for pid, boards in (d.get("read_against") or {}).items()},
                   {str(pid): {str(w): SheetEntry.from_dict(e) for w, e in entries.items()}
                    for pid, entries in (d.get("sheet_words") or {}).items()})


@dataclass
class Settings:
    """The host's choices. seconds: the timer (None: off); rules: the referee's
    RulesOptions as JSON (variant, min_length, long_words); marks: "use" or
    "ignore" red marks seen in photos; target: points that win the game (None: no
    target, the game goes on until the table stops); lang: the
    room's edition (boggle_cv.game.editions: its dictionary, folding and shortest word;
    a room stored before editions is English)."""

    seconds: int | None = 180
    target: int | None = 50
    variant: str | None = None
    min_length: int | None = None
    long_words: str = "per-letter"
    marks: str = "use"
    lang: str = "en"

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Settings:
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})


@dataclass
class Room:
    """A table. version: bumps with every change (the live stream's cursor).
    The game being played: game_number (1, 2, ... as the host starts new games with
    the same players), totals (player id -> points this game, from each scored
    round) and game_over ({winners: names, target, round}: someone reached the
    target; None while it goes on)."""

    code: str
    game: str
    host_digest: str
    created_at: float
    settings: Settings = field(default_factory=Settings)
    players: list[Player] = field(default_factory=list)
    round: Round = field(default_factory=lambda: Round(1))
    version: int = 1
    last_change: dict[str, Any] = field(default_factory=dict)
    game_number: int = 1
    totals: dict[str, int] = field(default_factory=dict)
    game_over: dict[str, Any] | None = None

    def player(self, player_id: str) -> Player | None:
        return next((p for p in self.players if p.id == player_id), None)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "game": self.game, "host_digest": self.host_digest,
                "created_at": self.created_at, "settings": self.settings.to_dict(),
                "players": [p.to_dict() for p in self.players], "round": self.round.to_dict(),
                "version": self.version, "last_change": self.last_change, "game_number": self.game_number,
                "totals": self.totals, "game_over": self.game_over}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Room:
        """The room from its stored document. Lone surrogates that an older version let
        in (a name "Eve\\ud800") become U+FFFD, so such a room is shown, not 500 forever."""
        if not _utf8_json(d):
            d = scrub_surrogates(d)
        return cls(str(d["code"]), str(d["game"]), str(d["host_digest"]), float(d["created_at"]),
                   Settings.from_dict(d.get("settings") or {}), [Player.from_dict(p) for p in d.get("players", [])],
                   Round.from_dict(d["round"]), int(d.get("version", 1)), dict(d.get("last_change") or {}),
                   int(d.get("game_number", 1)), {str(k): int(v) for k, v in (d.get("totals") or {}).items()},
                   dict(d["game_over"]) if d.get("game_over") else None)
