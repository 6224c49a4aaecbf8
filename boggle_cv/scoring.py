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
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from .board import Board
from .dictionary import Dictionary, load_default, normalise_word
from .errors import UsageError
from .solver import FoundWord, default_min_length, find_paths, solve

SCHEMA_VERSION = 1
VARIANTS = ("standard", "challenge")
LONG_WORD_RULES = ("per-letter", "eleven-plus", "flat")
CHALLENGE_BONUS = 5

STATUSES = ("scored", "crossed_off", "not_on_board", "not_in_dictionary", "too_short", "repeated", "not_a_word")
_LETTERS_ONLY = re.compile(r"[a-z]+\Z")

Cell = tuple[int, int]


@dataclass(frozen=True)
class Rules:
    """How a round is scored. size: board side; min_length None -> by size (3 / 4)."""

    size: int = 4
    variant: str = "standard"
    min_length: int | None = None
    long_words: str = "per-letter"
    bonus_cells: frozenset[Cell] = frozenset()
    challenge_cell: Cell | None = None

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise UsageError(f"unknown variant {self.variant!r}", "use " + " or ".join(VARIANTS))
        if self.long_words not in LONG_WORD_RULES:
            raise UsageError(f"unknown long-word rule {self.long_words!r}", "use " + ", ".join(LONG_WORD_RULES))
        for r, c in set(self.bonus_cells) | ({self.challenge_cell} if self.challenge_cell else set()):
            if not (0 <= r < self.size and 0 <= c < self.size):
                raise UsageError(f"cell r{r + 1}c{c + 1} is outside a {self.size}x{self.size} board",
                                 "rows and columns count from 1")

    @property
    def min_letters(self) -> int:
        return default_min_length(self.size) if self.min_length is None else self.min_length

    @classmethod
    def for_board(cls, board: Board, **kw) -> "Rules":
        return cls(size=board.size, **kw)


def table_points(length: int, rules: Rules) -> int:
    """Points of a word of `length` letters from the table alone (0 if too short)."""
    if length < rules.min_letters:
        return 0
    if rules.variant == "challenge":
        return {3: 1, 4: 2, 5: 3, 6: 4, 7: 5}.get(length, 6 if length >= 8 else 1)
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
    return pts * (2 ** len(cells & set(rules.bonus_cells)))


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
    """One word of a player's list: as written, normalised, status, points, path."""

    written: str
    word: str
    status: str
    points: int = 0
    path: tuple[Cell, ...] | None = None
    crossed_with: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        d = {"word": self.word or self.written, "status": self.status, "points": self.points}
        if self.path is not None:
            d["path"] = [list(c) for c in self.path]
        if self.crossed_with:
            d["crossed_off_by"] = list(self.crossed_with)
        return d


@dataclass
class PlayerResult:
    name: str
    words: list[WordResult]

    @property
    def score(self) -> int:
        return sum(w.points for w in self.words)

    def to_dict(self) -> dict:
        return {"name": self.name, "score": self.score, "words": [w.to_dict() for w in self.words]}


@dataclass
class ScoredWord:
    """A word on the board (solver result) with its best points."""

    word: str
    points: int
    path: tuple[Cell, ...]
    common: bool

    def to_dict(self) -> dict:
        return {"word": self.word, "points": self.points, "path": [list(c) for c in self.path],
                "common": self.common}


@dataclass
class ScoreSheet:
    """The referee's report of one round.

    words: every word on the board, best first; players: in the order given;
    winners: names with the top score (several on a tie, [] without players);
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

    def to_dict(self) -> dict:
        return {
            "schema_version": SCHEMA_VERSION,
            "board": {"size": self.board.size, "faces": self.board.to_rows(), "text": self.board.to_text()},
            "rules": rules_to_dict(self.rules),
            "dictionary": self.dictionary_source,
            "words": [w.to_dict() for w in self.words],
            "word_count": len(self.words),
            "max_points": self.max_points,
            "players": [p.to_dict() for p in self.players],
            "winners": list(self.winners),
            "missed": [w.to_dict() for w in self.missed],
        }


def rules_to_dict(rules: Rules) -> dict:
    return {
        "size": rules.size, "variant": rules.variant, "min_length": rules.min_letters,
        "long_words": rules.long_words,
        "bonus_cells": [list(c) for c in sorted(rules.bonus_cells)],
        "challenge_cell": list(rules.challenge_cell) if rules.challenge_cell else None,
    }


def best_first(words: list[ScoredWord]) -> list[ScoredWord]:
    return sorted(words, key=lambda w: (-w.points, -len(w.word), w.word))


def board_words(board: Board, dictionary: Dictionary | None = None,
                rules: Rules | None = None) -> list[ScoredWord]:
    """Every word on the board with its best points under `rules`, best first."""
    rules = rules or Rules.for_board(board)
    found: list[FoundWord] = solve(board, dictionary, rules.min_letters)
    out = []
    for f in found:
        path, pts = best_path(board, f.word, rules, f.path)
        out.append(ScoredWord(f.word, pts, path or f.path, f.common))
    return best_first(out)


def score_round(board: Board, players: Mapping[str, Iterable[str]],
                dictionary: Dictionary | None = None, rules: Rules | None = None) -> ScoreSheet:
    """Referee one round: each player's words get a status and points.

    players: name -> words as written (any case). Order of checks per word:
    repeated (second time in the same list), not_a_word (not only letters A-Z), too_short, not_in_dictionary,
    not_on_board, crossed_off (a valid word on 2+ lists: off every list), scored.
    """
    d = dictionary if dictionary is not None else load_default()
    rules = rules or Rules.for_board(board)
    if rules.size != board.size:
        raise UsageError(f"rules are for {rules.size}x{rules.size} but the board is {board.size}x{board.size}")
    words = board_words(board, d, rules)
    on_board = {w.word: w for w in words}
    results: list[PlayerResult] = []
    valid_by: dict[str, list[str]] = {}
    for name, written_list in players.items():
        seen: set[str] = set()
        res: list[WordResult] = []
        for written in written_list:
            w = normalise_word(written) or written.strip().lower()
            if w in seen:
                res.append(WordResult(written, w, "repeated"))
                continue
            seen.add(w)
            if not _LETTERS_ONLY.match(w):  # digits, apostrophes, hyphens, accents
                res.append(WordResult(written, w, "not_a_word"))
            elif len(w) < rules.min_letters:
                res.append(WordResult(written, w, "too_short"))
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
    top = max((p.score for p in results), default=None)
    winners = [p.name for p in results if p.score == top] if results else []
    missed = [w for w in words if w.word not in valid_by]
    return ScoreSheet(board, rules, words, results, missed, d.source, winners)
