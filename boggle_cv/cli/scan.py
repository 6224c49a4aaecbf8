"""`boggle-cv scan PHOTO ...`: photo and players' lists in, referee's report out.

Chains (through the library) load -> find tray -> read cubes -> decode -> corrections
(--board, --fix, questions on a terminal) -> solve and score -> report, annotated
photo, stored round. This module only parses, calls, formats and picks the exit code.
"""
from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from ..board import Board, normalise_face
from ..errors import BoggleError, LowConfidenceError, UsageError
from .score import parse_cells, read_player_lists
from .solve import DictOption, JsonOption, MinLengthOption, check_min_length, load_dictionary

SCAN_SCHEMA_VERSION = 1
PROGRESS_MIN_PHOTOS = 4


@dataclass
class RoundOptions:
    """Everything one photo's round needs besides the photo (parsed command line)."""

    forced_size: int | None
    corrections: "Corrections"
    lists: dict[str, list[str]]
    dictionary: Any
    variant: str | None
    min_length: int | None
    long_words: str
    bonus_cells: list[tuple[int, int]]
    challenge_cell: tuple[int, int] | None
    use_marks: bool
    as_json: bool
    annotate: Path | None
    debug_dir: Path | None
    game: str | None
    db: Path | None
    timings: bool
    strict: bool
    ask: bool
    compact: bool
    dictionary_s: float
    start: float


@dataclass
class Corrections:
    """User corrections of the reading: a whole board and/or single cells (0-based)."""

    board: Board | None = None
    cells: dict[tuple[int, int], str] = field(default_factory=dict)


def parse_fixes(items: list[str]) -> dict[tuple[int, int], str]:
    """["r2c3=W", "r1c1=qu"] -> {(1, 2): "W", (0, 0): "Qu"} (rows and columns from 1); board.parse_fixes."""
    from ..board import parse_fixes as board_fixes
    return board_fixes(items)


def apply_fixes(board: Board, fixes: dict[tuple[int, int], str]) -> Board:
    """The board with the fixed cells replaced; UsageError for a cell off the board."""
    rows = board.to_rows()
    for (r, c), face in fixes.items():
        if not (0 <= r < board.size and 0 <= c < board.size):
            raise UsageError(f"--fix r{r + 1}c{c + 1} is outside the {board.size}x{board.size} board")
        rows[r][c] = face
    return Board.from_rows(rows)


def ask_doubtful(board: Board, scan) -> Board:
    """On a terminal: ask about each flagged cell ("row 2, col 3: M (62%) or W (35%)? [M]")."""
    rows = board.to_rows()
    for row in scan.reading.cells:
        for c in row:
            if not c.flagged or rows[c.row][c.col] != c.face:
                continue
            prompt = (f"row {c.row + 1}, col {c.col + 1}: {c.face} ({c.confidence:.0%}) or "
                      f"{c.runner_up} ({c.runner_up_confidence:.0%})? [{c.face}] ")
            while True:
                typer.echo(prompt, err=True, nl=False)
                answer = sys.stdin.readline()
                if answer == "":  # end of input: keep the reading
                    answer = "\n"
                answer = answer.strip()
                if not answer:
                    break
                try:
                    rows[c.row][c.col] = normalise_face(answer)
                    break
                except ValueError:
                    typer.echo("  a letter, Qu, An Er He In Th, or # for a blank", err=True)
    return Board.from_rows(rows)


def _interactive() -> bool:
    try:
        return sys.stdin.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _board_lines(board: Board, scan) -> str:
    """The board as read: doubtful cells marked with '?' and their runner-up below."""
    if scan is None:
        from ..report import board_text
        return board_text(board)
    lines, notes = [], []
    for row in scan.reading.cells:
        parts = []
        for c in row:
            face = board.faces[c.row][c.col]
            fixed = face != c.face
            mark = "!" if fixed else ("?" if c.flagged else " ")
            parts.append(f"{face:<2}{mark}")
            if fixed:
                notes.append(f"  r{c.row + 1}c{c.col + 1}: {face} (corrected; read {c.face} {c.confidence:.0%})")
            elif c.flagged:
                cut = " (partly outside the photo)" if c.outside_photo > 0.1 else ""
                notes.append(f"  r{c.row + 1}c{c.col + 1}: {c.face} {c.confidence:.0%}, "
                             f"or {c.runner_up} {c.runner_up_confidence:.0%}{cut}")
        lines.append(" ".join(parts).rstrip())
    if notes:
        lines.append("Check these cells (fix with --fix rRcC=FACE):")
        lines.extend(notes)
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    @app.command("scan")
    def scan_cmd(
        photos: Annotated[list[Path], typer.Argument(help="Photo(s) of the tray (JPEG, PNG, WebP, TIFF, BMP).")],
        player: Annotated[Optional[list[str]], typer.Option("--player", "-p", help="NAME=FILE, one word per line; FILE '-' reads stdin. Repeat per player.")] = None,
        size: Annotated[str, typer.Option("--size", help="Board size: auto, 4, 5 or 6.")] = "auto",
        dict_path: DictOption = None,
        min_length: MinLengthOption = None,
        variant: Annotated[Optional[str], typer.Option("--variant", help="standard or challenge (default: challenge when the red challenge cube is seen).")] = None,
        challenge_cell: Annotated[Optional[str], typer.Option("--challenge-cell", help="Cell of the red challenge cube, e.g. r2c3.")] = None,
        bonus: Annotated[Optional[str], typer.Option("--bonus", help="Bonus cells that double a word, e.g. r1c1,r3c4.")] = None,
        long_words: Annotated[str, typer.Option("--long-words", help="6x6 words above 8 letters: per-letter, eleven-plus, flat.")] = "per-letter",
        board_text_opt: Annotated[Optional[str], typer.Option("--board", help="The board as text: replaces the reading (e.g. PERS/LATG/SINE/TERS).")] = None,
        fix: Annotated[Optional[list[str]], typer.Option("--fix", help="Correct one cell of the reading: r2c3=W (rows, cols from 1). Repeatable.")] = None,
        engine: Annotated[str, typer.Option("--engine", help="classifier, tesseract or both.")] = "classifier",
        as_json: JsonOption = False,
        annotate: Annotated[Optional[Path], typer.Option("--annotate", help="Write the photo with the reading and best missed words drawn (PNG/JPEG).")] = None,
        debug_dir: Annotated[Optional[Path], typer.Option("--debug-dir", help="Write each stage's image into this folder.")] = None,
        game: Annotated[Optional[str], typer.Option("--game", help="Store the round in this game (see `standings`).")] = None,
        db: Annotated[Optional[Path], typer.Option("--db", help="Games database (default: the user's data folder).")] = None,
        timings: Annotated[bool, typer.Option("--timings", help="Print stage times on stderr.")] = False,
        strict: Annotated[bool, typer.Option("--strict", help="Exit 6 when a cell reads below the confidence bar (and was not fixed).")] = False,
        no_ask: Annotated[bool, typer.Option("--no-ask", help="Never ask about doubtful cells, even on a terminal.")] = False,
        no_marks: Annotated[bool, typer.Option("--no-marks", help="Ignore red bonus rings and the red challenge cube seen in the photo.")] = False,
    ) -> None:
        """Read the board in a photo, then solve it and score the players' lists."""
        t_start = time.perf_counter()
        check_min_length(min_length)
        if size not in ("auto", "4", "5", "6"):
            raise UsageError(f"--size {size!r} is not auto, 4, 5 or 6")
        forced = None if size == "auto" else int(size)
        from ..vision.engines import ENGINES
        if engine not in ENGINES:
            raise UsageError(f"unknown engine {engine!r}", "use one of: " + ", ".join(ENGINES))
        corr = Corrections(Board.parse(board_text_opt) if board_text_opt else None, parse_fixes(fix or []))
        if corr.board is not None and forced is not None and corr.board.size != forced:
            raise UsageError(f"--board is {corr.board.size}x{corr.board.size} but --size is {forced}")
        if len(photos) > 1 and (annotate or corr.board or corr.cells):
            raise UsageError("--annotate, --board and --fix apply to one photo", "scan the photos one at a time")
        from ..outputs import refuse_overwriting_inputs
        from ..wordlists import parse_player_option
        refuse_overwriting_inputs({"--annotate": annotate, "--db": db}, [*photos, dict_path, *(
            parse_player_option(p)[1] for p in player or [])], debug_dir, [p.stem for p in photos])
        lists = read_player_lists(player or [])
        if variant is not None and variant not in ("standard", "challenge"):
            raise UsageError(f"unknown variant {variant!r}", "use standard or challenge")
        bonus_cells = parse_cells(bonus, "--bonus") if bonus is not None else []
        cc = parse_cells(challenge_cell, "--challenge-cell") if challenge_cell is not None else None
        if cc is not None and len(cc) != 1:
            raise UsageError("--challenge-cell takes one cell", "e.g. --challenge-cell r2c3")
        t0 = time.perf_counter()
        dictionary = load_dictionary(dict_path)
        dict_s = time.perf_counter() - t0
        scanner = None
        if corr.board is None or annotate is not None:
            from ..vision.pipeline import Scanner
            scanner = Scanner(engine)
        opts = RoundOptions(forced, corr, lists, dictionary, variant, min_length, long_words, bonus_cells,
                            cc[0] if cc else None, not no_marks, as_json, annotate, debug_dir, game, db,
                            timings, strict, not (as_json or no_ask) and _interactive() and len(photos) == 1,
                            len(photos) > 1, dict_s, t_start)
        show_progress = len(photos) >= PROGRESS_MIN_PHOTOS and _interactive_stderr()
        failures: list[tuple[Path, BoggleError]] = []
        done = 0
        for i, photo in enumerate(photos):
            if show_progress:
                _progress(i, len(photos), photo)
            try:
                _scan_one(photo, scanner, opts)
                done += 1
            except BoggleError as err:
                if len(photos) == 1:
                    raise
                typer.echo(f"boggle-cv: error: {photo}: {err.one_line()}", err=True)
                failures.append((photo, err))
        if show_progress:
            _progress(len(photos), len(photos), None)
        if len(photos) > 1:
            typer.echo(f"{len(photos)} photos: {done} read, {len(failures)} failed"
                       + "".join(f"\n  {p}: exit {e.exit_code}" for p, e in failures), err=True)
            if failures:
                raise typer.Exit(failures[0][1].exit_code)


def _interactive_stderr() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _progress(i: int, total: int, photo: Optional[Path]) -> None:
    width = 30
    filled = int(width * i / total)
    name = f" {photo.name}" if photo else ""
    end = "\n" if i == total else ""
    typer.echo(f"\r[{'#' * filled}{'.' * (width - filled)}] {i}/{total}{name[:40]:<41}", err=True, nl=False)
    if end:
        typer.echo("", err=True)


def _scan_one(photo: Path, scanner, o: RoundOptions) -> None:
    """Read one photo (unless --board replaces it), correct, score, report, store."""
    from ..report import sheet_text, solve_text
    from ..scoring import Rules, score_round
    forced, corr, lists, dictionary, variant = o.forced_size, o.corrections, o.lists, o.dictionary, o.variant
    min_length, long_words, bonus_cells, challenge_cell = o.min_length, o.long_words, o.bonus_cells, o.challenge_cell
    as_json, annotate, debug_dir, game, db = o.as_json, o.annotate, o.debug_dir, o.game, o.db
    timings, strict, ask, compact = o.timings, o.strict, o.ask, o.compact
    scan = image = None
    stage: dict[str, float] = {"dictionary": o.dictionary_s}
    if scanner is None and not photo.is_file():  # --board alone does not decode the photo
        from ..errors import ImageReadError
        raise ImageReadError(f"cannot read image {photo}: " + ("it is a directory" if photo.is_dir() else "no such file"),
                             "give the photo of this round (or use `boggle-cv score` with the board text)")
    if scanner is not None:
        try:
            scan, image = scanner.scan_file(photo, forced, debug=debug_dir is not None)
            stage.update(scan.timings)
        except BoggleError as err:
            if debug_dir is not None and getattr(err, "debug", None):
                _write_debug(debug_dir, photo, err.debug)  # show the stages that led to a refusal
            if corr.board is None:
                raise
        if debug_dir is not None and scan is not None:
            _write_debug(debug_dir, photo, scan.tray.debug)
    board = corr.board if corr.board is not None else scan.board
    board = apply_fixes(board, corr.cells)
    if ask and scan is not None and corr.board is None and scan.reading.flagged:
        board = ask_doubtful(board, scan)
    unresolved = []
    if scan is not None and corr.board is None:
        unresolved = [(c.row, c.col) for row in scan.reading.cells for c in row
                      if c.flagged and board.faces[c.row][c.col] == c.face and (c.row, c.col) not in corr.cells]
    seen_bonus, seen_challenge = [], None
    if scan is not None and o.use_marks:
        seen_bonus, seen_challenge = scan.bonus_cells, scan.challenge_cell
    challenge_cell = challenge_cell or (seen_challenge if variant in (None, "challenge") else None)
    if variant is None:
        variant = "challenge" if challenge_cell is not None else "standard"
    if variant == "challenge" and challenge_cell is None:
        raise UsageError("--variant challenge needs the challenge cube's cell and none was seen in the photo",
                         "add --challenge-cell r2c3")
    bonus_cells = sorted(set(bonus_cells) | set(seen_bonus))
    rules = Rules(size=board.size, variant=variant, min_length=min_length, long_words=long_words,
                  bonus_cells=frozenset(bonus_cells), challenge_cell=challenge_cell)
    t0 = time.perf_counter()
    sheet = score_round(board, lists, dictionary, rules)
    stage["solve+score"] = time.perf_counter() - t0
    if annotate is not None and scan is not None and image is not None:
        from ..outputs import write_image_atomic
        from ..vision.overlay import draw_scan
        t0 = time.perf_counter()
        paths = [w.path for w in sheet.missed[:3]]
        write_image_atomic(annotate, draw_scan(image, scan, board.to_rows(), paths))
        stage["annotate"] = time.perf_counter() - t0
    elif annotate is not None:
        raise UsageError(f"cannot annotate {photo}: no board was found in it")
    round_no = None
    if game is not None:
        from .. import store
        round_no = store.save_round(db or store.default_db_path(), game, board.to_text(),
                                    {p.name: p.score for p in sheet.players},
                                    {p.name: [w.to_dict() for w in p.words] for p in sheet.players},
                                    _document(photo, scan, sheet, board, stage), photo=str(photo))
    stage["total"] = time.perf_counter() - o.start
    if as_json:
        doc = _document(photo, scan, sheet, board, stage)
        if round_no is not None:
            doc["game"] = {"name": game, "round": round_no}
        typer.echo(json.dumps(doc, separators=(",", ":")) if compact else json.dumps(doc))
    else:
        out = [f"== {photo}" if compact else ""]
        out = [o for o in out if o]
        out.append(_header(scan, board))
        out.append(_board_lines(board, scan))
        out.append("")
        out.append(sheet_text(sheet, with_board=False) if sheet.players
                   else solve_text(board, sheet.words, with_board=False))
        if round_no is not None:
            out.append(f"\nStored as round {round_no} of game {game!r}.")
        typer.echo("\n".join(out))
    if timings:
        typer.echo("timings (ms): " + ", ".join(f"{k} {v * 1000:.0f}" for k, v in stage.items()), err=True)
    if strict and unresolved:
        cells = ", ".join(f"r{r + 1}c{c + 1}" for r, c in unresolved)
        raise LowConfidenceError(f"{photo}: {len(unresolved)} cell(s) read below the confidence bar: {cells}",
                                 "check them and pass --fix rRcC=FACE")


def _header(scan, board: Board) -> str:
    if scan is None:
        return f"Board (given): {board.size}x{board.size}"
    r = scan.reading
    fits = ", ".join(r.sets) if r.sets else "no known cube set (check the doubtful cells)"
    text = (f"Board read: {board.size}x{board.size}, mean confidence {r.mean_confidence:.0%}, "
            f"{len(r.flagged)} doubtful cell(s); cube sets that fit: {fits}")
    if scan.bonus_cells:
        text += "\nRed bonus rings seen at " + ", ".join(f"r{a + 1}c{b + 1}" for a, b in scan.bonus_cells) \
            + " (words through them score double; --no-marks ignores them)"
    if scan.challenge_cell:
        a, b = scan.challenge_cell
        text += f"\nRed challenge cube seen at r{a + 1}c{b + 1}: challenge scoring (+5 through it)"
    return text


def _document(photo: Path, scan, sheet, board: Board, stage: dict[str, float]) -> dict[str, Any]:
    """The scan's JSON document (schema in the README)."""
    doc: dict[str, Any] = {"schema_version": SCAN_SCHEMA_VERSION, "photo": str(photo)}
    sd = sheet.to_dict()
    if scan is not None:
        s = scan.to_dict()
        s["board"]["faces"] = board.to_rows()
        s["board"]["text"] = board.to_text()
        s["board"]["read_faces"] = scan.board.to_rows()
        doc.update({k: v for k, v in s.items() if k != "photo"})
    else:
        doc["board"] = {"size": board.size, "faces": board.to_rows(), "text": board.to_text(), "given": True}
        doc["tray"] = None
    for k in ("rules", "dictionary", "words", "word_count", "max_points", "players", "winners", "missed"):
        doc[k] = sd[k]
    doc["timings_ms"] = {k: round(v * 1000, 1) for k, v in stage.items()}
    return doc


def _write_debug(folder: Path, photo: Path, images: dict[str, Any]) -> None:
    """Write each stage's image (name -> BGR array) as PHOTO-STEM_NAME.png in folder."""
    from ..outputs import write_images_into
    write_images_into(folder, {f"{photo.stem}_{name}.png": img for name, img in sorted(images.items())})
