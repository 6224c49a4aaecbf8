"""Players' sheets on the command line, shared by `sheet` and `scan --sheet`: the
lexicon of a board, the questions about doubtful words (asked first, each beside its
handwriting drawn in the terminal), the text of a reading (the doubtful words first).

Nothing here loads the sheet reader or its model until a sheet is read.
"""
from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO


from ..errors import UsageError
from ..game.questions import WordDoubt, shown
from ..room.sheets import MAX_ALTERNATIVES
from ..game.sheet_lexicon import SheetLexicon, sheet_lexicon

__all__ = ["SheetLexicon", "sheet_lexicon"]

#: The name a lone sheet's words go under when the referee decides what to ask of it.
SHEET_PLAYER = "sheet"

if TYPE_CHECKING:
    from ..game.questions import Decision
    from ..game.board import Board
    from ..game.dictionary import Dictionary
    from ..vision.sheet.types import SheetReading


def parse_sheet_options(options: Iterable[str]) -> list[tuple[str, Path]]:
    """--sheet NAME=PHOTO options -> [(name, photo), ...] in order; names checked as
    --player names are (names.py), each once."""
    from ..game.wordlists import parse_player_option
    from ..game.names import name_key
    specs = [parse_player_option(o) for o in options]
    out: list[tuple[str, Path]] = []
    for name, file in specs:
        if file == "-":
            raise UsageError(f"--sheet {name}=-: a sheet is a photo file", "give the photo's path")
        out.append((name, Path(file)))
    keys = [name_key(n) for n, _ in out]
    if len(set(keys)) != len(keys):
        raise UsageError("two --sheet options have the same name", "give each player a different NAME")
    return out


def sheet_annotation_path(annotate: Path, name: str) -> Path:
    """Where `scan --annotate OUT --sheet NAME=PHOTO` draws that sheet: beside OUT,
    OUT's stem + "-sheet-" + the name (letters, digits, - and _ kept; others "_") +
    OUT's suffix (board.png, ann -> board-sheet-ann.png)."""
    slug = "".join(c if c.isalnum() or c in "-_" else "_" for c in name) or "_"
    return annotate.with_name(f"{annotate.stem}-sheet-{slug}{annotate.suffix}")


def draw_sheets(annotate: Path, sheets: dict[str, SheetReading], photos: Iterable[tuple[str, Path]]) -> list[tuple[Path, bytes]]:
    """Each sheet's photo with its words' boxes and readings drawn (vision.sheet.draw),
    encoded by `annotate`'s extension: [(sheet_annotation_path, bytes), ...] for the
    caller to write (outputs.write_bytes_atomic) once everything is drawn."""
    import cv2
    from ..errors import OutputError
    from ..files.outputs import check_image_path
    from ..vision.imageio import load_image
    from ..vision.sheet.draw import draw_sheet
    ext = check_image_path(annotate)
    encoded: list[tuple[Path, bytes]] = []
    for name, photo in photos:
        if name not in sheets:
            continue
        out = sheet_annotation_path(annotate, name)
        ok, buf = cv2.imencode(ext, draw_sheet(load_image(photo), sheets[name]))
        if not ok:
            raise OutputError(f"cannot encode the image as {annotate.suffix}", "use .png or .jpg")
        encoded.append((out, buf.tobytes()))
    return encoded


def read_one_sheet(photo: Path, lexicon: SheetLexicon | None, lang: str = "en",
                   dictionary: Dictionary | None = None) -> SheetReading:
    """read_sheet on a photo file (ImageReadError exit 4, NoWritingError exit 5); lang
    "de" also matches the lexicon's words as written with ä, ö, ü, ß; with no lexicon,
    the words are read against `dictionary` when given, else freely."""
    from ..vision.sheet import read_sheet
    from .options import existing_photo
    existing_photo(photo)
    if lexicon is None:
        return read_sheet(photo, None, lang=lang, dictionary=dictionary)
    return read_sheet(photo, list(lexicon.words), lang=lang, dictionary=dictionary, board_words=lexicon.board_words)


def doubtful(reading: SheetReading) -> list[int]:
    """The positions (0-based, writing order) of the words that count and are doubtful."""
    return [i for i, w in enumerate(reading.words) if w.flagged and not w.crossed_out and (w.word or w.free)]


def ink_of(photo: Path | None, reading: SheetReading) -> dict[int, list[str]]:
    """Each doubtful word's handwriting drawn as terminal lines (cli.ink_preview), cut
    from `photo` along its box; {} without a photo or when it cannot be read again."""
    if photo is None or not doubtful(reading):
        return {}
    from ..errors import BoggleError
    from ..vision.imageio import load_image
    from ..vision.sheet.word_crop import flat_word
    from .ink_preview import ink_lines
    try:
        image = load_image(photo)
    except BoggleError:
        return {}
    out: dict[int, list[str]] = {}
    for i in doubtful(reading):
        crop = flat_word(image, reading.words[i].box)
        out[i] = ink_lines(crop) if crop is not None else []
    return out


def terminal_ink(photo: Path, reading: SheetReading) -> dict[int, list[str]]:
    """ink_of when the words go to a terminal (stdout is one), else {}: a pipe or a
    file gets the text alone."""
    return ink_of(photo, reading) if sys.stdout.isatty() else {}


def question_lines(name: str, i: int, reading: SheetReading, width: int = 80) -> list[str]:
    """A doubtful word's question, every line within `width` columns: which word it
    is, its readings and what the ink says without the board, and that any word may
    be typed (wrapped: `ann, word 3 of 20: "mates" (54%), "makes" (20%), as written
    "methods", or type the word`), then the prompt with the default in brackets
    (`type it, Enter keeps it, - drops it [mates] `)."""
    import textwrap
    w = reading.words[i]
    keep = "\u00a0"  # a word stays on one line with its share: "lest" (8%), never "lest" | (8%)
    shown = [a for a, _ in w.alternatives[:MAX_ALTERNATIVES]]
    options = ", ".join(f'"{a}"{keep}({p:.0%})' for a, p in w.alternatives[:MAX_ALTERNATIVES]) or f'"{w.word or w.free}"'
    written = w.as_written
    if written and written not in shown and written != (w.word or w.free):
        options += f', as{keep}written{keep}"{written}"'
    lines = [line.replace(keep, " ") for line in textwrap.wrap(
        f"{name}, word {i + 1} of {len(reading.words)}: {options}, or type the word", width,
        subsequent_indent="    ", break_long_words=True)]
    default = w.word or w.free
    prompt = f"type it, Enter keeps it, - drops it [{default}] "
    if len(prompt) > width:
        prompt = f"[{default[:width - 3]}] "
    return [*lines, prompt]


def ask_words(name: str, reading: SheetReading, photo: Path | None = None,
              answers: TextIO | None = None, out: TextIO | None = None) -> list[str]:
    """On a terminal: the doubtful words that count are asked about first, each with
    its handwriting drawn above the question (question_lines); an answer replaces the
    reading, "-" drops the word, an empty line keeps it. Returns the player's words as
    confirmed, in writing order. `answers`: where the answers are read (stdin by
    default); `out`: where the questions are written (stdout by default)."""
    from .questions import say
    source = answers if answers is not None else sys.stdin
    asked = doubtful(reading)
    if asked:
        say(f"{name}'s sheet: {len(reading.words)} words read, {len(asked)} to confirm", out)
    ink = ink_of(photo, reading)
    chosen = {i: ask_word(name, i, reading, ink.get(i, []), source, out=out) for i in asked}
    out_words: list[str] = []
    for i, w in enumerate(reading.words):
        if w.crossed_out or not (w.word or w.free):
            continue
        word = chosen.get(i, w.word or w.free)
        if word:
            out_words.append(word)
    return out_words


def ask_word(name: str, i: int, reading: SheetReading, ink: list[str], source: TextIO,
             crossed: bool = False, out: TextIO | None = None) -> str:
    """Word i of a sheet asked on the terminal, its handwriting (`ink`) above the
    question (question_lines: every line within 80 columns): the answer typed, "" for
    "-" (no word), the reading for an empty line. crossed: a crossed-out word, asked
    whether it counts (Enter leaves it out). `out`: where the question is written
    (stdout by default)."""
    from .questions import say
    for line in ink:
        say("    " + line, out)
    w = reading.words[i]
    if crossed:
        say(f'{name}, word {i + 1} of {len(reading.words)} is crossed out: "{w.word or w.free}"', out)
        say("counts if you type it, Enter leaves it out [-] ", out, end="")
        answer = source.readline().strip().lower()
        return "" if answer in ("", "-") else answer
    *lines, prompt = question_lines(name, i, reading)
    for line in lines:
        say(line, out)
    say(prompt, out, end="")
    answer = source.readline().strip().lower()
    return "" if answer == "-" else (answer or w.word or w.free)


def sheet_words(reading: SheetReading) -> list[str]:
    """The words that count without asking: read and not crossed out (the free
    reading where no lexicon word was given)."""
    return [w.word or w.free for w in reading.words if not w.crossed_out and (w.word or w.free)]


def sheet_decision(reading: SheetReading, board: Board, dictionary: Dictionary, lang: str = "en") -> Decision:
    """What the referee asks of this sheet alone on `board` (questions.decide): its
    doubtful words whose answer changes its score; the others are settled."""
    from ..game.questions import RoundDoubts, decide
    from ..game.sheet_doubts import sheet_entries
    from ..game.scoring import Rules
    entries, doubts = sheet_entries(SHEET_PLAYER, reading.words)
    rules = Rules.for_board(board, lang=lang)
    return decide(RoundDoubts(board, rules, {SHEET_PLAYER: entries}, (), tuple(doubts)), dictionary)


def asked_words(reading: SheetReading, decision: Decision | None) -> list[int]:
    """The positions of the words asked about: the decision's questions (in its order),
    or every doubtful word without one (no board: every answer may change the score)."""
    if decision is None:
        return doubtful(reading)
    at = [i for i, w in enumerate(reading.words) if w.word or w.free]
    return [at[q.doubt.index] for q in decision.questions if isinstance(q.doubt, WordDoubt)]


def sheet_text(reading: SheetReading, ink: dict[int, list[str]] | None = None,
               decision: Decision | None = None) -> str:
    """The words asked about first (each with its runners-up and, given `ink`, its
    handwriting drawn: ink_of), then one line a word: number, reading, confidence,
    runners-up, ? when asked about, (crossed out); a doubtful word the decision settled
    shows what else it may be ("five (or fire)")."""
    lines = []
    asked = asked_words(reading, decision)
    at = [i for i, w in enumerate(reading.words) if w.word or w.free]
    settled = {at[d.index]: shown(d) for d in (decision.settled if decision else ()) if isinstance(d, WordDoubt)}
    if asked:
        lines.append(f"to confirm: {len(asked)} of {len(reading.words)} word(s)")
        for i in asked:
            w = reading.words[i]
            options = ", ".join(f"{a} {p:.0%}" for a, p in w.alternatives[:MAX_ALTERNATIVES]) or (w.word or w.free)
            if w.as_written and w.as_written not in {a for a, _ in w.alternatives[:MAX_ALTERNATIVES]}:
                options += f", as written {w.as_written}"
            lines.append(f"{i + 1:3d}  {options}")
            lines += ["       " + line for line in (ink or {}).get(i, [])]
        lines.append("")
    for i, w in enumerate(reading.words):
        word = w.word or w.free or "?"
        runners = ", ".join(f"{a} {p:.0%}" for a, p in w.alternatives[1:3])
        tail = (" (crossed out)" if w.crossed_out else "") + ("  ?" if i in asked else "")
        if i in settled:
            tail += f"  settled: {settled[i]}"
        lines.append(f"{i + 1:3d}  {word:<16} {w.confidence:4.0%}" + (f"  ({runners})" if runners else "") + tail)
    counted = len([w for w in reading.words if not w.crossed_out])
    lines.append(f"{len(reading.words)} word(s) read, {counted} counted"
                 + (f", the sheet turned {reading.turn} degrees" if reading.turn else ""))
    return "\n".join(lines)
