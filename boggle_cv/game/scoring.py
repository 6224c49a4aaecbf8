"""Rules and the referee's ScoreSheet for one round (RULES.md).

Letters are counted as the word is spelled: Qu and two-letter faces count two.
A path is a tuple of (row, col). Points per word:
  * standard 4x4 table from 3 letters: 3-4 -> 1, 5 -> 2, 6 -> 3, 7 -> 5, 8+ -> 11;
    the 5x5 and 6x6 tables are the same from 4 letters;
  * 6x6 above 8 letters (`long_words`): "per-letter" (default, 2 points a letter:
    9 -> 18, 10 -> 20), "eleven-plus" (11 + 2 per letter past 8: 9 -> 13), or "flat" (11);
  * variant "challenge": 3 -> 1, 4 -> 2, 5 -> 3, 6 -> 4, 7 -> 5, 8+ -> 6, and +5 for a word
    whose path goes through the challenge cube's cell (`challenge_cell`);
  * every bonus cell on the word's path doubles its points (two bonus cells: x4).
When a word has several paths, the one worth most is used.

`Rules.lang` is the edition (boggle_cv.game.editions: "en" the default, "fr", "de",
"es", "it", "nl"): it picks the shipped dictionary, the folding of the players'
words (boggle_cv.game.folding) and the shortest word by board size (Italian: 4 on 4x4).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .board import MAX_SIZE, MAX_WORD_LETTERS, MIN_SIZE, Board, Cell
from .dictionary import Dictionary, load_default
from .editions import DEFAULT_LANG, LANGS, default_min_length
from ..errors import ArgumentTypeError, UsageError
from .folding import fold_word
from .solver import FoundWord, find_paths, find_words

SCHEMA_VERSION = 1


class Variant(str, Enum):
    """The scoring table: the standard one, or the challenge cube's (+5 through it)."""

    standard = "standard"
    challenge = "challenge"


class LongWords(str, Enum):
    """How 6x6 words above 8 letters score (RULES.md: sources disagree)."""

    per_letter = "per-letter"     # 2 points a letter: 9 -> 18
    eleven_plus = "eleven-plus"   # 11 + 2 per letter past 8: 9 -> 13
    flat = "flat"                 # 11


VARIANTS = tuple(v.value for v in Variant)
LONG_WORD_RULES = tuple(v.value for v in LongWords)
CHALLENGE_BONUS = 5
#: Points by length under the challenge cube's table (8 or more letters: 6).
CHALLENGE_TABLE: dict[int, int] = {3: 1, 4: 2, 5: 3, 6: 4, 7: 5}

STATUSES = ("scored", "crossed_off", "not_on_board", "not_in_dictionary", "too_short", "repeated", "not_a_word")
_LETTERS_ONLY = re.compile(r"[a-z]+\Z")
#: The shortest-word option's range (letters); the longest a board can spell.
MIN_LENGTH_RANGE = (1, MAX_WORD_LETTERS)


@dataclass(frozen=True)
class Rules:
    """How a round is scored. size: board side; min_length None -> by size and
    edition (3 / 4; Italian 4 on 4x4); lang: the edition (editions.LANGS)."""

    size: int = 4
    variant: str = "standard"
    min_length: int | None = None
    long_words: str = "per-letter"
    bonus_cells: frozenset[Cell] = frozenset()
    challenge_cell: Cell | None = None
    lang: str = DEFAULT_LANG

    def __post_init__(self) -> None:
        if self.lang not in LANGS:
            raise UsageError(f"unknown edition {self.lang!r}", "editions: " + ", ".join(LANGS))
        if isinstance(self.size, bool) or not isinstance(self.size, int) or not MIN_SIZE <= self.size <= MAX_SIZE:
            raise UsageError(f"rules for a board of size {self.size!r}: boards are {MIN_SIZE}x{MIN_SIZE} "
                             f"to {MAX_SIZE}x{MAX_SIZE}")
        if self.variant not in VARIANTS:
            raise UsageError(f"unknown variant {self.variant!r}", "use " + " or ".join(VARIANTS))
        if self.long_words not in LONG_WORD_RULES:
            raise UsageError(f"unknown long-word rule {self.long_words!r}", "use " + ", ".join(LONG_WORD_RULES))
        lo, hi = MIN_LENGTH_RANGE
        if self.min_length is not None and (isinstance(self.min_length, bool) or not isinstance(self.min_length, int)
                                            or not lo <= self.min_length <= hi):
            raise UsageError(f"min_length {self.min_length!r} is out of range",
                             f"the shortest word that counts: a whole number from {lo} to {hi}")
        for r, c in set(self.bonus_cells) | ({self.challenge_cell} if self.challenge_cell else set()):
            if not (0 <= r < self.size and 0 <= c < self.size):
                raise UsageError(f"cell r{r + 1}c{c + 1} is outside a {self.size}x{self.size} board",
                                 "rows and columns count from 1")

    @property
    def min_letters(self) -> int:
        return default_min_length(self.size, self.lang) if self.min_length is None else self.min_length

    @classmethod
    def for_board(cls, board: Board, **kw: Any) -> Rules:
        return cls(size=board.size, **kw)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: size, variant, min_length (in force), long_words, bonus_cells,
        challenge_cell, lang (the edition)."""
        return {
            "size": self.size, "variant": self.variant, "min_length": self.min_letters,
            "long_words": self.long_words,
            "bonus_cells": [list(c) for c in sorted(self.bonus_cells)],
            "challenge_cell": list(self.challenge_cell) if self.challenge_cell else None,
            "lang": self.lang,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rules:
        """Inverse of to_dict (a min_length equal to the size's default comes back as
        None; a document without "lang", written before editions, is English)."""
        cc = d.get("challenge_cell")
        size, min_length = int(d["size"]), int(d["min_length"])
        lang = str(d.get("lang", DEFAULT_LANG))
        if lang not in LANGS:
            raise UsageError(f"unknown edition {lang!r}", "editions: " + ", ".join(LANGS))
        return cls(size=size, variant=str(d["variant"]),
                   min_length=None if min_length == default_min_length(size, lang) else min_length,
                   long_words=str(d["long_words"]),
                   bonus_cells=frozenset((int(r), int(c)) for r, c in d.get("bonus_cells", [])),
                   challenge_cell=(int(cc[0]), int(cc[1])) if cc else None, lang=lang)


def table_points(length: int, rules: Rules) -> int:
    """Points of a word of `length` letters from the table alone (0 if too short)."""
    if length < rules.min_letters:
        return 0
    if rules.variant == "challenge":
        return CHALLENGE_TABLE.get(length, 6 if length >= 8 else 1)
    if length <= 4:
        return 1
    if length <= 7:
        return {5: 2, 6: 3, 7: 5}[length]
    if length == 8 or rules.size < 6 or rules.long_words == "flat":
        return 11
    if rules.long_words == "per-letter":
        return 2 * length
    return 11 + 2 * (length - 8)


def path_points(word: str, path: Iterable[Cell], rules: Rules) -> int:
    """Points of `word` formed along `path` (bonus cells double, challenge cell +5)."""
    pts = table_points(len(word), rules)
    if pts == 0:
        return 0
    cells = set(path)
    if rules.variant == "challenge" and rules.challenge_cell in cells:
        pts += CHALLENGE_BONUS
    return pts * (1 << len(cells & set(rules.bonus_cells)))


def best_path(board: Board, word: str, rules: Rules,
              path: tuple[Cell, ...] | None = None) -> tuple[tuple[Cell, ...] | None, int]:
    """The path of `word` worth most and its points. `path`: one known path (skips the
    search when no cell is special). (None, 0) if the word is not on the board."""
    special = bool(rules.bonus_cells) or (rules.variant == "challenge" and rules.challenge_cell)
    if path is not None and not special:
        return path, path_points(word, path, rules)
    paths = find_paths(board, word) if special or path is None else [path]
    if not paths:
        return None, 0
    best = max(paths, key=lambda p: path_points(word, p, rules))
    return best, path_points(word, best, rules)


@dataclass
class WordResult:
    """One word of a player's list: as written, normalised (folded by the edition:
    the form it was judged by), status, points, path. The JSON form adds "written"
    when folding changed more than the case ("Été" judged as "ete")."""

    written: str
    word: str
    status: str
    points: int = 0
    path: tuple[Cell, ...] | None = None
    crossed_with: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"word": self.word or self.written, "status": self.status, "points": self.points}
        if self.word and self.written.strip().lower() != self.word:
            d["written"] = self.written
        if self.path is not None:
            d["path"] = [list(c) for c in self.path]
        if self.crossed_with:
            d["crossed_off_by"] = list(self.crossed_with)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> WordResult:
        """Inverse of to_dict (the word as written comes back when folding changed it,
        else normalised)."""
        path = tuple((int(r), int(c)) for r, c in d["path"]) if d.get("path") is not None else None
        return cls(str(d.get("written", d["word"])), str(d["word"]), str(d["status"]), int(d["points"]), path,
                   tuple(str(n) for n in d.get("crossed_off_by", ())))


@dataclass
class PlayerResult:
    name: str
    words: list[WordResult]

    @property
    def score(self) -> int:
        return sum(w.points for w in self.words)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "score": self.score, "words": [w.to_dict() for w in self.words]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PlayerResult:
        return cls(str(d["name"]), [WordResult.from_dict(w) for w in d["words"]])


@dataclass
class ScoredWord:
    """A word on the board (solver result) with its best points."""

    word: str
    points: int
    path: tuple[Cell, ...]
    common: bool

    def to_dict(self) -> dict[str, Any]:
        return {"word": self.word, "points": self.points, "path": [list(c) for c in self.path],
                "common": self.common}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ScoredWord:
        return cls(str(d["word"]), int(d["points"]), tuple((int(r), int(c)) for r, c in d["path"]),
                   bool(d["common"]))


@dataclass
class ScoreSheet:
    """The referee's report of one round.

    words: every word on the board, best first; players: in the order given;
    winners: names with the top score (several on a tie; [] without players, and []
        when nobody scored a point: a table all at 0 has no winner);
    missed: words on the board nobody listed, best first.
    """

    board: Board
    rules: Rules
    words: list[ScoredWord]
    players: list[PlayerResult]
    missed: list[ScoredWord]
    dictionary_source: str = "default"
    winners: list[str] = field(default_factory=list)

    @property
    def max_points(self) -> int:
        return sum(w.points for w in self.words)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "board": {"size": self.board.size, "faces": self.board.to_rows(), "text": self.board.to_text()},
            "rules": self.rules.to_dict(),
            "dictionary": self.dictionary_source,
            "words": [w.to_dict() for w in self.words],
            "word_count": len(self.words),
            "max_points": self.max_points,
            "players": [p.to_dict() for p in self.players],
            "winners": list(self.winners),
            "missed": [w.to_dict() for w in self.missed],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ScoreSheet:
        """Rebuild a sheet from to_dict()'s document (extra keys are ignored); a
        document without "players" (the solve document of a round without players)
        has no winners and every word missed."""
        words = [ScoredWord.from_dict(w) for w in d["words"]]
        if "players" not in d:
            return cls(Board.from_rows(d["board"]["faces"]), Rules.from_dict(d["rules"]), words, [], list(words),
                       str(d["dictionary"]), [])
        return cls(Board.from_rows(d["board"]["faces"]), Rules.from_dict(d["rules"]), words,
                   [PlayerResult.from_dict(p) for p in d["players"]],
                   [ScoredWord.from_dict(w) for w in d["missed"]],
                   str(d["dictionary"]), [str(w) for w in d["winners"]])


def round_winners(players: list[PlayerResult]) -> list[str]:
    """The names with the top score, in the players' order (several on a tie); none
    when nobody scored a point (no players, or everyone at 0: "Nobody scored")."""
    top = max((p.score for p in players), default=0)
    return [p.name for p in players if p.score == top] if top > 0 else []


def best_first(words: list[ScoredWord]) -> list[ScoredWord]:
    """Most points first, then longer words, then alphabetical."""
    return sorted(words, key=lambda w: (-w.points, -len(w.word), w.word))


def solve(board: Board, dictionary: Dictionary | None = None, *, rules: Rules | None = None,
          min_length: int | None = None) -> list[ScoredWord]:
    """Every word on the board, best first (most points, then longest, then A-Z), each
    with its points and the path worth most under `rules` (default: the board size's
    standard rules; `min_length` overrides the shortest word). The public solver."""
    if rules is None:
        rules = Rules.for_board(board, min_length=min_length)
    elif min_length is not None:
        raise ArgumentTypeError("give rules or min_length, not both", "put min_length in the Rules")
    return board_words(board, dictionary, rules)


def board_words(board: Board, dictionary: Dictionary | None = None,
                rules: Rules | None = None) -> list[ScoredWord]:
    """Every word on the board with its best points under `rules`, best first."""
    rules = rules or Rules.for_board(board)
    d = dictionary if dictionary is not None else load_default(rules.lang)
    found: list[FoundWord] = find_words(board, d, rules.min_letters)
    out = []
    for f in found:
        path, pts = best_path(board, f.word, rules, f.path)
        out.append(ScoredWord(f.word, pts, path or f.path, f.common))
    return best_first(out)


def spelled(written: str, lang: str = DEFAULT_LANG) -> str:
    """A player's entry as it is compared: trimmed, lower case, and folded by the
    edition (boggle_cv.game.folding). English folds accents when that leaves only
    letters a-z ("Élan" -> "elan", "naïve" -> "naive": what players mean; the board
    has no accents); French "Été" -> "ete", German "Straße" -> "strasse"."""
    return fold_word(written, lang)


def check_players(players: object) -> dict[str, list[str]]:
    """The players' lists as {name: [word, ...]} in order; ArgumentTypeError (a
    TypeError) for anything else: a list given as one string ("pert last") would be
    scored letter by letter, so it is refused with a hint."""
    if not isinstance(players, Mapping):
        raise ArgumentTypeError(f"players must be a mapping of name -> list of words, not {type(players).__name__}")
    out: dict[str, list[str]] = {}
    for name, words in players.items():
        if not isinstance(name, str):
            raise ArgumentTypeError(f"player names must be text, not {type(name).__name__}")
        if isinstance(words, (str, bytes)):
            raise ArgumentTypeError(f"{name}'s words are one string, not a list of words",
                                    "split it first, e.g. boggle_cv.game.wordlists.parse_words(text.splitlines(), name)")
        if not isinstance(words, Iterable):
            raise ArgumentTypeError(f"{name}'s words must be a list of words, not {type(words).__name__}")
        items = list(words)
        bad = next((w for w in items if not isinstance(w, str)), None)
        if bad is not None:
            raise ArgumentTypeError(f"{name}'s words must be text, found {type(bad).__name__}")
        out[name] = items
    return out


def score_round(board: Board, players: Mapping[str, Sequence[str]],
                dictionary: Dictionary | None = None, rules: Rules | None = None) -> ScoreSheet:
    """Referee one round: each player's words get a status and points.

    players: name -> words as written (any case; folded by rules.lang, see `spelled`).
    dictionary: default the shipped dictionary of rules.lang.
    Order of checks per word: repeated (second time in the same list), not_a_word
    (not only letters A-Z), too_short, then not_on_board for a word no path on the
    board spells (what players check first, whether or not it is a word),
    not_in_dictionary, not_on_board (a word whose only paths are shorter than the
    rules allow cannot happen: the length check came first), crossed_off (a valid
    word on 2+ lists: off every list), scored.
    """
    if not isinstance(board, Board):
        raise ArgumentTypeError(f"board must be a Board (Board.parse('PERS/LATG/SINE/TERS')), not {type(board).__name__}")
    lists = check_players(players)
    rules = rules or Rules.for_board(board)
    d = dictionary if dictionary is not None else load_default(rules.lang)
    if rules.size != board.size:
        raise UsageError(f"rules are for {rules.size}x{rules.size} but the board is {board.size}x{board.size}")
    words = board_words(board, d, rules)
    on_board = {w.word: w for w in words}
    results: list[PlayerResult] = []
    valid_by: dict[str, list[str]] = {}
    for name, written_list in lists.items():
        seen: set[str] = set()
        res: list[WordResult] = []
        for written in written_list:
            w = spelled(written, rules.lang)
            if w in seen:
                res.append(WordResult(written, w, "repeated"))
                continue
            seen.add(w)
            if not _LETTERS_ONLY.match(w):  # digits, apostrophes, hyphens, accents
                res.append(WordResult(written, w, "not_a_word"))
            elif len(w) < rules.min_letters:
                res.append(WordResult(written, w, "too_short"))
            elif w not in on_board and not find_paths(board, w, limit=1):
                res.append(WordResult(written, w, "not_on_board"))
            elif w not in d:
                res.append(WordResult(written, w, "not_in_dictionary"))
            elif w not in on_board:
                # in the dictionary but not formed (or below min length already handled)
                res.append(WordResult(written, w, "not_on_board"))
            else:
                sw = on_board[w]
                res.append(WordResult(written, w, "scored", sw.points, sw.path))
                valid_by.setdefault(w, []).append(name)
        results.append(PlayerResult(name, res))
    for p in results:
        for r in p.words:
            if r.status == "scored" and len(valid_by[r.word]) > 1:
                r.status = "crossed_off"
                r.points = 0
                r.crossed_with = tuple(n for n in valid_by[r.word] if n != p.name)
    winners = round_winners(results)
    missed = [w for w in words if w.word not in valid_by]
    return ScoreSheet(board, rules, words, results, missed, d.source, winners)
