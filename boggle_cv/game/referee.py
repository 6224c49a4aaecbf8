"""One round, refereed: the one place that decides a round's rules and board.

    RoundRequest  ->  referee_round(request, dictionary)  ->  RoundResult

A request holds the board's source (a photo's reading, game.photo_reading.PhotoReading: a vision ScanResult, or a board
given as text), the players' corrections, the marks policy (do red rings and the
red challenge cube seen in the photo count?), the rules options the players chose
and the players' lists. The result holds the board as read and as corrected, the
rules in force and where each came from, the cells still doubtful, the score
sheet and notes for the table. `scan`, `score`, the page and the room all call
`referee_round`; they only parse, format and store.

`RoundResult.to_dict()` is the JSON document of `scan --json` / `score --json`
(docs/json.md) and `RoundResult.from_dict()` rebuilds the result from it.
Cells are (row, col) from 0 in the reported board's orientation.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .board import Board, Cell, cell_label
from .dictionary import Dictionary
from .wording import counted
from ..errors import UsageError
from .photo_reading import PhotoReading, scan_from_dict
from .scoring import Rules, ScoreSheet, check_players, score_round

if TYPE_CHECKING:  # the questions are imported only where a round has doubts, the store where one is kept
    from ..store.sql import DbLocation
    from .questions import Decision, Doubt, Question, WordDoubt

SCHEMA_VERSION = 1


class MarksPolicy(str, Enum):
    """Whether red marks seen in the photo change the rules."""

    use = "use"          # red rings double words, the red cube means challenge scoring
    ignore = "ignore"    # only the options count (`--no-marks`)


@dataclass(frozen=True)
class RulesOptions:
    """The rules the players asked for; None means "decide from the board and photo".

    variant: "standard", "challenge", or None (challenge when a challenge cube's cell
    is known, from the options or the photo). min_length: None = by board size and
    edition. bonus_cells / challenge_cell: (row, col) cells, added to what the photo
    shows. lang: the edition (boggle_cv.game.editions; "en" the default): its dictionary
    when none is given, its folding of the players' words, its shortest word.
    """

    variant: str | None = None
    min_length: int | None = None
    long_words: str = "per-letter"
    bonus_cells: frozenset[Cell] = frozenset()
    challenge_cell: Cell | None = None
    lang: str = "en"


@dataclass(frozen=True)
class Corrections:
    """The players' corrections: a whole board (replaces the reading) and/or single
    cells {(row, col): face} applied on top of it; marks: their answers about red
    marks the photo shows {(row, col): True (it counts) or False (it does not)}."""

    board: Board | None = None
    cells: Mapping[Cell, str] = field(default_factory=dict)
    marks: Mapping[Cell, bool] = field(default_factory=dict)


@dataclass(frozen=True)
class GameRef:
    """Where a stored round lives: the game's name and the round's number (from 1);
    replaced: it took the place of the same round stored before (`scan --replace`)."""

    name: str
    round: int
    replaced: bool = False


@dataclass(frozen=True)
class RoundRequest:
    """Everything one round needs besides the dictionary.

    scan: the photo's reading, or None when the board is given (corrections.board).
    photo: the photo's label for reports (a path), kept even when no scan was made.
    players: name -> words as written, in the table's order.
    doubts: the doubtful entries of those lists (questions.WordDoubt: a sheet word's
        alternatives; an entry "" at a doubt's place is no word and is not scored).
    timings: stage -> seconds measured so far (reported in timings_ms).
    """

    scan: PhotoReading | None = None
    corrections: Corrections = Corrections()
    marks: MarksPolicy = MarksPolicy.use
    options: RulesOptions = RulesOptions()
    players: Mapping[str, Sequence[str]] = field(default_factory=dict)
    photo: str | None = None
    timings: Mapping[str, float] = field(default_factory=dict)
    doubts: tuple[WordDoubt, ...] = ()


@dataclass(frozen=True)
class RoundResult:
    """A refereed round.

    board: the board scored (the reading with the corrections); read_board: as read
    (None when the board was given); corrected: cells that differ from the reading;
    unresolved: cells flagged as doubtful that no correction touched;
    rules_why: rule -> where it came from ("option", "photo", "board size",
    "default"); notes: one line each for the table; game: set once stored;
    doubtful_marks: (kind, cell) of red marks seen faintly ("bonus" ring, "challenge"
    cube) that nobody answered and no option settled: not counted, to be checked;
    decision: the doubts still open whose answer changes a score (questions.decide),
    in the order to ask them, and those settled (None: the round had no doubt).
    """

    board: Board
    read_board: Board | None
    sheet: ScoreSheet
    rules_why: Mapping[str, str]
    corrected: tuple[Cell, ...] = ()
    unresolved: tuple[Cell, ...] = ()
    notes: tuple[str, ...] = ()
    scan: PhotoReading | None = None
    photo: str | None = None
    timings: Mapping[str, float] = field(default_factory=dict)
    game: GameRef | None = None
    doubtful_marks: tuple[tuple[str, Cell], ...] = ()
    decision: Decision | None = None

    @property
    def asked(self) -> tuple[Question, ...]:
        """The questions still open, first to ask first."""
        return self.decision.questions if self.decision is not None else ()

    @property
    def questions(self) -> tuple[str, ...]:
        """The keys of the questions still open ("r2c3", "ann#4"), first to ask first."""
        return tuple(q.doubt.key for q in self.asked)

    @property
    def rules(self) -> Rules:
        return self.sheet.rules

    @property
    def given(self) -> bool:
        """True when the board was given, not read from the photo."""
        return self.scan is None

    def stored_as(self, game: GameRef) -> RoundResult:
        """This result, recorded as stored in `game`."""
        return dataclasses.replace(self, game=game)

    def to_dict(self) -> dict[str, Any]:
        """The round's JSON document (docs/json.md, schema_version 1)."""
        doc: dict[str, Any] = {"schema_version": SCHEMA_VERSION}
        if self.photo is not None:
            doc["photo"] = self.photo
        faces, text = self.board.to_rows(), self.board.to_text()
        if self.scan is not None:
            scan_doc = self.scan.to_dict()
            scan_doc.pop("photo", None)
            read = scan_doc["board"]
            scan_doc["board"] = {**read, "faces": faces, "text": text, "read_faces": read["faces"]}
            doc.update(scan_doc)
        elif self.photo is not None:
            doc["board"] = {"size": self.board.size, "faces": faces, "text": text, "given": True}
            doc["tray"] = None
        else:
            doc["board"] = {"size": self.board.size, "faces": faces, "text": text}
        sheet = self.sheet.to_dict()
        for key in ("rules", "dictionary", "words", "word_count", "max_points", "players", "winners", "missed"):
            doc[key] = sheet[key]
        doc["rules_why"] = dict(self.rules_why)
        doc["corrected"] = [list(c) for c in self.corrected]
        doc["unresolved"] = [list(c) for c in self.unresolved]
        doc["doubtful_marks"] = [{"kind": k, "cell": list(c)} for k, c in self.doubtful_marks]
        doc["notes"] = list(self.notes)
        doc.update(self.decision.to_dict() if self.decision is not None else {"questions": [], "settled": []})
        if self.timings:
            doc["timings_ms"] = {k: round(v * 1000, 1) for k, v in self.timings.items()}
        if self.game is not None:
            doc["game"] = {"name": self.game.name, "round": self.game.round}
            if self.game.replaced:
                doc["game"]["replaced"] = True
        return doc

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> RoundResult:
        """Rebuild a result from its to_dict() document (UsageError if malformed)."""
        try:
            sheet = ScoreSheet.from_dict(doc)
            b = doc["board"]
            scan = None
            if "cells" in b:
                scan = scan_from_dict({**doc, "board": {**b, "faces": b["read_faces"]}})
            read_board = scan.board if scan is not None else None
            timings = {k: float(v) / 1000 for k, v in doc.get("timings_ms", {}).items()}
            g = doc.get("game")
            game = GameRef(str(g["name"]), int(g["round"]), bool(g.get("replaced", False))) if g else None
            return cls(board=sheet.board, read_board=read_board, sheet=sheet,
                       rules_why={str(k): str(v) for k, v in doc.get("rules_why", {}).items()},
                       corrected=tuple(_cells(doc.get("corrected", []))),
                       unresolved=tuple(_cells(doc.get("unresolved", []))),
                       doubtful_marks=tuple((str(m["kind"]), (int(m["cell"][0]), int(m["cell"][1])))
                                            for m in doc.get("doubtful_marks", [])),
                       notes=tuple(str(n) for n in doc.get("notes", [])), scan=scan,
                       photo=doc.get("photo"), timings=timings, game=game,
                       decision=_decision_of(doc))
        except (KeyError, TypeError, ValueError, IndexError) as e:
            why = e.message if isinstance(e, UsageError) else f"{type(e).__name__}: {e}"
            raise UsageError(f"not a boggle-cv round document: {why}") from None


def _decision_of(doc: Mapping[str, Any]) -> Decision | None:
    """The decision of a round document (None when it lists no doubt)."""
    if not (doc.get("questions") or doc.get("settled")):
        return None
    from .questions import Decision
    return Decision.from_dict(doc)


def _cells(items: Iterable[Sequence[int]]) -> list[Cell]:
    return [(int(c[0]), int(c[1])) for c in items]


def apply_fixes(board: Board, fixes: Mapping[Cell, str]) -> Board:
    """The board with the fixed cells replaced (faces in any accepted spelling);
    UsageError for a cell off the board or a face that is not one."""
    rows = board.to_rows()
    for (r, c), face in fixes.items():
        if not (0 <= r < board.size and 0 <= c < board.size):
            raise UsageError(f"the fix of {cell_label((r, c))} is outside the {board.size}x{board.size} board")
        rows[r][c] = face
    return Board.from_rows(rows)


def doubtful_cells(scan: PhotoReading, board: Board, fixed: Iterable[Cell] = ()) -> list[Cell]:
    """Cells the reader flagged that still show what was read and were not fixed."""
    fixed_set = set(fixed)
    return [(c.row, c.col) for row in scan.reading.cells for c in row
            if c.flagged and board.faces[c.row][c.col] == c.face and (c.row, c.col) not in fixed_set]


def seen_marks(scan: PhotoReading | None, answers: Mapping[Cell, bool], options: RulesOptions
               ) -> tuple[list[Cell], Cell | None, tuple[tuple[str, Cell], ...]]:
    """The photo's red marks that count: (bonus cells, challenge cell or None), and
    the doubtful ones left, (kind, cell). The sure marks count and a faint one does not,
    unless the players answered otherwise (answers: cell -> counts); a faint mark is
    doubtful unless answered or settled by the options (its cell given as a bonus
    cell; a challenge cell given, or the standard variant chosen). scan None: none."""
    if scan is None:
        return [], None, ()
    bonus = [c for c in scan.bonus_cells if answers.get(c, True)]
    challenge = scan.challenge_cell if scan.challenge_cell is not None and answers.get(
        scan.challenge_cell, True) else None
    doubted: list[tuple[str, Cell]] = []
    for m in scan.marks:
        if m.sure:
            continue
        if answers.get(m.cell):
            if m.kind == "bonus":
                bonus.append(m.cell)
            else:
                challenge = m.cell
        elif m.cell not in answers and not (m.kind == "bonus" and m.cell in options.bonus_cells) and not (
                m.kind == "challenge" and (options.challenge_cell is not None or options.variant == "standard")):
            doubted.append((m.kind, m.cell))
    return sorted(set(bonus)), challenge, tuple(doubted)


def decide_rules(board: Board, options: RulesOptions, seen_bonus: Sequence[Cell] = (),
                 seen_challenge: Cell | None = None) -> tuple[Rules, dict[str, str], list[str]]:
    """The rules in force, where each came from, and notes for the table.

    seen_*: red marks found in the photo (already empty under MarksPolicy.ignore).
    A challenge cube's cell comes from the options, else from the photo (unless the
    players chose the standard variant); the variant is challenge when such a cell
    is known, unless chosen. Bonus cells are the union of both sources.
    """
    why: dict[str, str] = {}
    notes: list[str] = []
    challenge = options.challenge_cell
    why["challenge_cell"] = "option" if challenge is not None else "none"
    if challenge is None and seen_challenge is not None and options.variant in (None, "challenge"):
        challenge = seen_challenge
        why["challenge_cell"] = "photo"
        notes.append(f"red challenge cube seen at {cell_label(challenge)}: challenge scoring (+5 through it)")
    variant = options.variant
    why["variant"] = "option"
    if variant is None:
        variant = "challenge" if challenge is not None else "standard"
        why["variant"] = why["challenge_cell"] if challenge is not None else "default"
    if variant == "challenge" and challenge is None:
        raise UsageError("the challenge variant needs the challenge cube's cell and none was "
                         + ("seen in the photo" if seen_challenge is None and options.variant else "given"),
                         "name the red cube's cell, e.g. r2c3")
    if variant == "standard" and options.challenge_cell is not None:
        raise UsageError("a challenge cell was given but the variant is standard",
                         "choose the challenge variant (--variant challenge) or drop the cell")
    bonus = set(options.bonus_cells) | set(seen_bonus)
    from_photo = set(seen_bonus) - set(options.bonus_cells)
    why["bonus_cells"] = ("option+photo" if options.bonus_cells and from_photo
                          else "photo" if from_photo else "option" if options.bonus_cells else "none")
    if from_photo:
        notes.append("red bonus rings seen at " + ", ".join(cell_label(c) for c in sorted(from_photo))
                     + ": words through them score double")
    why["min_length"] = "option" if options.min_length is not None else "board size"
    why["long_words"] = "option" if options.long_words != "per-letter" else "default"
    if options.lang != "en":  # English rounds keep the keys they always had
        why["lang"] = "option"
    rules = Rules(size=board.size, variant=variant, min_length=options.min_length,
                  long_words=options.long_words, bonus_cells=frozenset(bonus), challenge_cell=challenge,
                  lang=options.lang)
    return rules, why, notes


def referee_round(request: RoundRequest, dictionary: Dictionary | None = None) -> RoundResult:
    """Referee one round (see the module docstring). Raises UsageError (a ValueError)
    for a request that cannot be scored: no board, a fix off the board, a challenge
    variant without its cell, bad rules, lists that are not lists of words."""
    scan, corr = request.scan, request.corrections
    players = check_players(request.players)
    if corr.board is not None:
        base = corr.board
    elif scan is not None:
        base = scan.board
    else:
        raise UsageError("a round needs a board: a photo's reading or a given board")
    board = apply_fixes(base, corr.cells)
    read_board = scan.board if scan is not None and corr.board is None else None
    corrected: tuple[Cell, ...] = ()
    unresolved: tuple[Cell, ...] = ()
    if read_board is not None and scan is not None:
        corrected = tuple((r, c) for r, c in board.cells() if board.faces[r][c] != read_board.faces[r][c])
        unresolved = tuple(doubtful_cells(scan, board, corr.cells))
    use_marks = scan is not None and request.marks is MarksPolicy.use and read_board is not None
    bonus, challenge, doubted = seen_marks(scan if use_marks else None, corr.marks, request.options)
    rules, why, notes = decide_rules(board, request.options, bonus, challenge)
    decision = None
    if unresolved or request.doubts:
        from .questions import RoundDoubts, cell_doubts, decide, shown
        cells = cell_doubts((c for row in scan.reading.cells for c in row), board, corr.cells) if scan else ()
        decision = decide(RoundDoubts(board, rules, players, cells, request.doubts), dictionary)
        asked = [c for c in unresolved if cell_label(c) in decision.keys]
        if asked:
            notes.append(f"{counted(len(asked), 'doubtful cell')} to check: " + ", ".join(cell_label(c) for c in asked))
        if len(asked) < len(unresolved):
            notes.append(f"{counted(len(unresolved) - len(asked), 'doubtful cell')} no score depends on: "
                         + ", ".join(shown(d) for d in decision.settled if d.kind == "cell"))
    for kind, cell in doubted:
        what = "a red bonus ring" if kind == "bonus" else "the red challenge cube"
        notes.append(f"{what} seen too faintly at {cell_label(cell)}: not counted unless confirmed")
    players = {n: [w for w in ws if w] for n, ws in players.items()}  # "": a word dropped, struck or still open
    sheet = score_round(board, players, dictionary, rules)
    return RoundResult(board=board, read_board=read_board, sheet=sheet, rules_why=why, corrected=corrected,
                       unresolved=unresolved, notes=tuple(notes), doubtful_marks=doubted,
                       scan=scan if read_board is not None else None, photo=request.photo,
                       timings=dict(request.timings), decision=decision)


def answer(request: RoundRequest, doubt: Doubt, value: str) -> RoundRequest:
    """The request once `doubt` (a question of its result) is answered `value`: a
    cell's face becomes a correction (its reading confirmed when it is the same), a
    word doubt's entry holds the word ("" drops it) and the doubt leaves."""
    from .questions import CellDoubt
    if isinstance(doubt, CellDoubt):
        cells = {**request.corrections.cells, doubt.cell: value}
        return dataclasses.replace(request, corrections=dataclasses.replace(request.corrections, cells=cells))
    lists = {n: list(ws) for n, ws in request.players.items()}
    lists[doubt.player][doubt.index] = value
    return dataclasses.replace(request, players=lists, doubts=tuple(d for d in request.doubts if d != doubt))


def round_record(result: RoundResult) -> dict[str, Any]:
    """What the games database keeps of a round (store.save_round's keyword arguments
    besides the database and the game): board text, scores, words, the report, photo,
    the edition."""
    sheet = result.sheet
    return {"board_text": result.board.to_text(), "scores": {p.name: p.score for p in sheet.players},
            "words": {p.name: [w.to_dict() for w in p.words] for p in sheet.players},
            "report": result.to_dict(), "photo": result.photo, "lang": sheet.rules.lang}


def store_round(db_path: DbLocation | None, game: str, result: RoundResult, fingerprint: str | None = None,
                replace: bool = False) -> RoundResult:
    """Store the round in `game` of the games database (default location when
    db_path is None), one transaction; the result, recorded as stored. A round of
    the game stored with the same `fingerprint` is refused (RepeatedRoundError), or
    replaced in place with `replace`."""
    from ..store import database as store
    from ..store.rounds import stored_round
    path = db_path or store.default_db_path()
    replaced = replace and fingerprint is not None and stored_round(path, game, fingerprint) is not None
    number = store.save_round(path, game, **round_record(result), fingerprint=fingerprint, replace=replace)
    return result.stored_as(GameRef(game, number, replaced))
