"""What to ask the table: the doubts whose answer can change a player's score.

A round's open doubts are a doubtful cell of the board read (`CellDoubt`: the face
read and its runner-up, with their probabilities) and a doubtful entry of a player's
list (`WordDoubt`: a sheet word's alternatives, "" for "no word here": junk read as a
word, or a crossed-out line that may be a word). `decide(doubts, dictionary)` scores
the round under the doubts' options and returns the `Decision`:

  * questions: the doubts one of whose options changes the points of some entry of
    some list (a word valid or not, its points, crossed off or not because another
    list has it), the cells first (one cell often decides several words), then by
    what rides on each (the points expected to change, most first);
  * settled: every other doubt, shown as it stands with what else it may be
    ("slab (or slob, no word)"): its answer would change no score.

After an answer (`RoundDoubts.answered`) the caller decides again: one answer often
settles others (a cell read as L makes its runner-up's words moot).

The search (every option counts whatever its probability, but those under
`MIN_P`): the board's variants are every combination of the doubtful cells' options
while they are at most `MAX_BOARDS`, else each cell's options alone with the other
cells as read. Word doubts interact only through a word they could share (crossed
off, or repeated in one list): those linked so are a group, whose combinations are
all scored while at most `MAX_COMBINATIONS`, else each doubt alone with the others
as read. Each board variant is solved once (scoring.board_words).
"""
from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from .board import Board, Cell, cell_label
from .dictionary import Dictionary
from .folding import fold_word
from .scoring import Rules, board_words

#: An option under this probability (after the doubt's options are made to sum to 1)
#: is not considered: a cell's runner-up at 0.4% or a word's fifth alternative at 0.2%.
MIN_P = 0.005
#: The most board variants scored together (2 options each: 4 doubtful cells).
MAX_BOARDS = 16
#: The most combinations of one group of linked word doubts scored together.
MAX_COMBINATIONS = 256

Option = tuple[str, float]


@dataclass(frozen=True)
class CellDoubt:
    """A doubtful cell: the faces it may show, the one read first, with probabilities."""

    cell: Cell
    options: tuple[Option, ...]

    @property
    def key(self) -> str:
        return cell_label(self.cell)

    @property
    def kind(self) -> str:
        return "cell"


@dataclass(frozen=True)
class WordDoubt:
    """A doubtful entry of `player`'s list, at `index` (0-based, as the list is given):
    the words it may be, the one read first ("" = no word: dropped); kind "word" (a
    reading) or "crossed" (a line its writer may have struck out, read as options[1]);
    source: the word's place on its sheet (SheetReading.words), for showing its ink."""

    player: str
    index: int
    options: tuple[Option, ...]
    kind: str = "word"
    source: int | None = None  # its place among its sheet's words read (SheetReading.words), when from a sheet

    @property
    def key(self) -> str:
        return f"{self.player}#{self.index + 1}"


Doubt = Union[CellDoubt, WordDoubt]


@dataclass(frozen=True)
class RoundDoubts:
    """A round as read, with its open doubts. board: the board with each doubtful cell
    showing its first option; lists: name -> entries, each doubtful entry holding its
    first option ("" for a dropped one: no word)."""

    board: Board
    rules: Rules
    lists: Mapping[str, Sequence[str]]
    cells: tuple[CellDoubt, ...] = ()
    words: tuple[WordDoubt, ...] = ()

    @property
    def doubts(self) -> tuple[Doubt, ...]:
        return (*self.cells, *self.words)

    def answered(self, key: str, value: str) -> RoundDoubts:
        """The round once doubt `key` is answered `value` (a face, or a word; "" drops
        the entry): the doubt leaves, its cell or entry holds the answer."""
        cells, words = list(self.cells), list(self.words)
        board, lists = self.board, {n: list(w) for n, w in self.lists.items()}
        for c in self.cells:
            if c.key == key:
                rows = board.to_rows()
                rows[c.cell[0]][c.cell[1]] = value
                board = Board.from_rows(rows)
                cells.remove(c)
        for w in self.words:
            if w.key == key:
                lists[w.player][w.index] = value
                words.remove(w)
        return dataclasses.replace(self, board=board, lists=lists, cells=tuple(cells), words=tuple(words))

    def scored_lists(self) -> dict[str, list[str]]:
        """The lists as they stand, without the dropped entries: what the referee scores."""
        return {n: [w for w in ws if w] for n, ws in self.lists.items()}


@dataclass(frozen=True)
class Question:
    """A doubt whose answer can change a score: `points`, the most points one answer
    moves (summed over the entries it changes); `expected`, the points expected to
    move (each other option's probability times what it moves); `players` whose
    score it can change."""

    doubt: Doubt
    points: int
    expected: float
    players: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {**doubt_dict(self.doubt), "rides": {"points": self.points, "expected": round(self.expected, 3),
                                                    "players": list(self.players)}}


@dataclass(frozen=True)
class Decision:
    """The questions in the order to ask them, and the doubts settled (no answer of
    theirs changes a score); exhaustive: False when a bound cut the search (MAX_*)."""

    questions: tuple[Question, ...] = ()
    settled: tuple[Doubt, ...] = ()
    exhaustive: bool = True

    @property
    def keys(self) -> list[str]:
        return [q.doubt.key for q in self.questions]

    def to_dict(self) -> dict[str, Any]:
        """"questions": each doubt with what rides on it, in order; "settled": each doubt
        no answer of which changes a score, with how it is "shown"."""
        return {"questions": [q.to_dict() for q in self.questions],
                "settled": [{**doubt_dict(d), "shown": shown(d)} for d in self.settled]}

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> Decision:
        """Inverse of to_dict (a document without the keys: nothing open)."""
        questions = tuple(Question(doubt_from_dict(q), int(q["rides"]["points"]), float(q["rides"]["expected"]),
                                   tuple(str(n) for n in q["rides"]["players"])) for q in doc.get("questions", []))
        return cls(questions, tuple(doubt_from_dict(d) for d in doc.get("settled", [])))


def doubt_dict(d: Doubt) -> dict[str, Any]:
    """A doubt as JSON: kind, key, its cell or player and index (from 0), options."""
    where: dict[str, Any] = ({"cell": list(d.cell)} if isinstance(d, CellDoubt)
                             else {"player": d.player, "index": d.index})
    if isinstance(d, WordDoubt) and d.source is not None:
        where["sheet_word"] = d.source
    return {"kind": d.kind, "key": d.key, **where, "options": [[v, round(p, 4)] for v, p in d.options]}


def doubt_from_dict(d: Mapping[str, Any]) -> Doubt:
    """Inverse of doubt_dict."""
    options = tuple((str(v), float(p)) for v, p in d["options"])
    if d["kind"] == "cell":
        return CellDoubt((int(d["cell"][0]), int(d["cell"][1])), options)
    source = d.get("sheet_word")
    return WordDoubt(str(d["player"]), int(d["index"]), options, str(d["kind"]),
                     int(source) if source is not None else None)


def shown(d: Doubt) -> str:
    """A settled doubt as it is shown: its first option and what else it may be
    ("slab (or slob, no word)", "r2c3 L (or I)")."""
    first = d.options[0][0] or "no word"
    others = [v or "no word" for v, _ in d.options[1:]]
    text = f"{first} (or {', '.join(others)})" if others else first
    return f"{d.key} {text}" if isinstance(d, CellDoubt) else text


def considered(options: Iterable[Option], min_p: float = MIN_P) -> tuple[Option, ...]:
    """The options worth considering: distinct values, probabilities made to sum to 1,
    the first always kept, the others from min_p."""
    seen: dict[str, float] = {}
    for v, p in options:
        seen[v] = seen.get(v, 0.0) + max(float(p), 0.0)
    total = sum(seen.values()) or 1.0
    items = [(v, p / total) for v, p in seen.items()]
    return tuple(o for i, o in enumerate(items) if i == 0 or o[1] >= min_p)


class _Scorer:
    """Points of every entry of every list on a board variant (each variant solved once)."""

    def __init__(self, doubts: RoundDoubts, dictionary: Dictionary | None,
                 table: Mapping[str, int] | None = None) -> None:
        self.rules, self.dictionary, self.table = doubts.rules, dictionary, table
        self.names = list(doubts.lists)
        self._boards: dict[str, dict[str, int]] = {}

    def on_board(self, board: Board) -> Mapping[str, int]:
        if self.table is not None:
            return self.table
        key = board.to_text()
        if key not in self._boards:
            self._boards[key] = {w.word: w.points for w in board_words(board, self.dictionary, self.rules)}
        return self._boards[key]

    def points(self, board: Board, lists: Mapping[str, Sequence[str]]) -> tuple[tuple[int, ...], ...]:
        """Per player, per entry: its points (0 for a word not valid, repeated or crossed off)."""
        table = self.on_board(board)
        folded = {n: [fold_word(w, self.rules.lang) if w else "" for w in lists[n]] for n in self.names}
        by: dict[str, set[str]] = {}
        firsts: dict[str, list[bool]] = {}
        for n in self.names:
            seen: set[str] = set()
            firsts[n] = []
            for w in folded[n]:
                first = bool(w) and w not in seen
                seen.add(w)
                firsts[n].append(first)
                if first and w in table:
                    by.setdefault(w, set()).add(n)
        return tuple(tuple(table[w] if first and w in table and len(by[w]) == 1 else 0
                           for w, first in zip(folded[n], firsts[n])) for n in self.names)


def _board_variants(doubts: RoundDoubts) -> tuple[list[tuple[Board, float, dict[str, str]]], bool]:
    """(board, probability, {cell key: face}) for each variant of the doubtful cells,
    and whether they are every combination (False: each cell alone, MAX_BOARDS)."""
    cells = doubts.cells
    combos = 1
    for c in cells:
        combos *= len(c.options)
    if combos <= MAX_BOARDS:
        choices = list(itertools.product(*[c.options for c in cells]))
        exhaustive = True
    else:
        first = [c.options[0] for c in cells]
        choices = [tuple(first)] + [tuple(first[:i] + [o] + first[i + 1:])
                                    for i, c in enumerate(cells) for o in c.options[1:]]
        exhaustive = False
    out = []
    for choice in choices:
        rows = doubts.board.to_rows()
        prob = 1.0
        for c, (face, p) in zip(cells, choice):
            rows[c.cell[0]][c.cell[1]] = face
            prob *= p
        out.append((Board.from_rows(rows), prob, {c.key: face for c, (face, _) in zip(cells, choice)}))
    return out, exhaustive


def _groups(words: Sequence[WordDoubt]) -> list[list[WordDoubt]]:
    """The word doubts linked by a word two of them may both be (union by shared words)."""
    parent = list(range(len(words)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    owner: dict[str, int] = {}
    for i, w in enumerate(words):
        for v, _ in w.options:
            if v:
                j = owner.setdefault(v.lower(), i)
                parent[root(i)] = root(j)
    out: dict[int, list[WordDoubt]] = {}
    for i, w in enumerate(words):
        out.setdefault(root(i), []).append(w)
    return list(out.values())


def _assignments(group: Sequence[WordDoubt]) -> tuple[list[tuple[Option, ...]], bool]:
    combos = 1
    for w in group:
        combos *= len(w.options)
    if combos <= MAX_COMBINATIONS:
        return list(itertools.product(*[w.options for w in group])), True
    first = [w.options[0] for w in group]
    return [tuple(first)] + [tuple(first[:i] + [o] + first[i + 1:]) for i, w in enumerate(group)
                             for o in w.options[1:]], False


@dataclass
class _Stake:
    points: int = 0
    expected: float = 0.0
    players: set[str] = field(default_factory=set)

    def add(self, names: Sequence[str], a: tuple[tuple[int, ...], ...], b: tuple[tuple[int, ...], ...],
            weight: float) -> None:
        moved = 0
        for name, pa, pb in zip(names, a, b):
            d = sum(abs(x - y) for x, y in zip(pa, pb))
            if d:
                self.players.add(name)
                moved += d
        self.points = max(self.points, moved)
        self.expected += weight * moved


def _with(lists: Mapping[str, Sequence[str]], group: Sequence[WordDoubt],
          choice: Sequence[Option]) -> dict[str, list[str]]:
    out = {n: list(ws) for n, ws in lists.items()}
    for w, (v, _) in zip(group, choice):
        out[w.player][w.index] = v
    return out


def decide(doubts: RoundDoubts, dictionary: Dictionary | None = None, *,
           table: Mapping[str, int] | None = None) -> Decision:
    """The round's questions, in the order to ask them, and its settled doubts (module
    doc). dictionary: the round's (default: the edition's); table: the board's words and
    their points, when they are known without solving it (then no cell may be doubtful)."""
    if table is not None and doubts.cells:
        raise ValueError("a board given as a table of words has no cells to doubt")
    if not doubts.doubts:
        return Decision()
    scorer = _Scorer(doubts, dictionary, table)
    names = scorer.names
    boards, exhaustive = _board_variants(doubts)
    stakes: dict[str, _Stake] = {d.key: _Stake() for d in doubts.doubts}
    by_choice = {tuple(sorted(f.items())): (b, p) for b, p, f in boards}
    for board, prob, faces in boards:  # each cell against its first option, the rest as in the variant
        base = scorer.points(board, doubts.lists)
        for c in doubts.cells:
            if faces[c.key] == c.options[0][0]:
                continue
            other = by_choice.get(tuple(sorted({**faces, c.key: c.options[0][0]}.items())))
            if other is not None:
                stakes[c.key].add(names, base, scorer.points(other[0], doubts.lists), prob)
    for group in _groups(doubts.words):
        choices, whole = _assignments(group)
        exhaustive = exhaustive and whole
        for board, b_prob, _ in boards:
            scored = {choice: scorer.points(board, _with(doubts.lists, group, choice)) for choice in choices}
            for choice, pts in scored.items():
                weight = b_prob
                for _, p in choice:
                    weight *= p
                for i, w in enumerate(group):
                    if choice[i] == w.options[0]:
                        continue
                    ref = scored.get(tuple(choice[:i]) + (w.options[0],) + tuple(choice[i + 1:]))
                    if ref is not None:
                        stakes[w.key].add(names, pts, ref, weight)
    asked = [Question(d, stakes[d.key].points, stakes[d.key].expected, tuple(n for n in names if n in stakes[d.key].players))
             for d in doubts.doubts if stakes[d.key].points > 0]
    asked.sort(key=lambda q: (q.doubt.kind != "cell", -q.expected, -q.points, q.doubt.key))
    settled = tuple(d for d in doubts.doubts if stakes[d.key].points == 0)
    return Decision(tuple(asked), settled, exhaustive)


def cell_doubts(cells: Iterable[Any], board: Board, fixed: Iterable[Cell] = ()) -> tuple[CellDoubt, ...]:
    """The doubts of a scan's flagged cells (vision.decode.CellReading: face,
    confidence, runner_up, runner_up_confidence) that still show what was read and were
    not fixed. A flagged cell keeps its runner-up however unlikely the reader finds it:
    the flag says its probabilities are not to be trusted (a cube partly outside the
    photo is read at 99%)."""
    fixed_set = set(fixed)
    out = []
    for c in cells:
        if not c.flagged or (c.row, c.col) in fixed_set or board.faces[c.row][c.col] != c.face:
            continue
        options = [(c.face, c.confidence)] + ([(c.runner_up, c.runner_up_confidence)] if c.runner_up else [])
        out.append(CellDoubt((c.row, c.col), considered(options, 0.0)))
    return tuple(out)
