"""Boards and faces.

A board is an N x N grid (N in 3..6) of faces, indexed (row, col) from the top-left.
A face is one of:
  * a single upper-case letter "A".."Z" except "Q",
  * "Qu" (the Q face; counts as two letters),
  * a two-letter face of Super Big Boggle: "An", "Er", "He", "In", "Th",
  * BLANK ("#"), a blank cube that blocks every path.

Board text (ARCHITECTURE.md): rows joined by "/", one character per face, "Q" or
"Qu" for the Qu face, a two-letter face in brackets ("[Th]"), "#" for a blank.
Case-insensitive on input. Example: "PERS/LATG/SINE/TERS".
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Iterator, Sequence

from ..errors import BoardTextError

BLANK = "#"
TWO_LETTER_FACES = ("An", "Er", "He", "In", "Qu", "Th")
SINGLE_LETTERS = tuple(c for c in "ABCDEFGHIJKLMNOPRSTUVWXYZ")  # no lone Q
ALL_FACES = SINGLE_LETTERS + TWO_LETTER_FACES + (BLANK,)
MIN_SIZE, MAX_SIZE = 3, 6
#: The most letters a word on any board can have: every cell of a 6x6 board used,
#: each a two-letter face. Word-length limits (minimum length, list tokens) use it.
MAX_WORD_LETTERS = 2 * MAX_SIZE * MAX_SIZE

#: A cell: (row, col), counted from 0 at the top-left of the reported board.
Cell = tuple[int, int]
_CELL_TEXT = re.compile(r"r(\d+)c(\d+)\Z", re.IGNORECASE)


def cell_label(cell: Cell) -> str:
    """(1, 2) -> "r2c3": the cell as players write it (rows and columns from 1)."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def parse_cell(text: str) -> Cell:
    """"r2c3" (rows and columns from 1, any case) -> (1, 2). ValueError otherwise."""
    m = _CELL_TEXT.match(text.strip())
    if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise ValueError(f"{text.strip()!r} is not a cell: write r<row>c<col> from 1, e.g. r2c3")
    return int(m.group(1)) - 1, int(m.group(2)) - 1


def describe_char(ch: str) -> str:
    """A character as an error line shows it: "'1'" for ASCII; else its code point and
    name, and why it is no face: "'\u0415' (U+0415 CYRILLIC CAPITAL LETTER IE, not a
    Latin letter)", "'\u00c9' (U+00C9 LATIN CAPITAL LETTER E WITH ACUTE, an accented letter)".
    """
    if ch.isascii():
        return repr(ch)
    name = unicodedata.name(ch, "unnamed character")
    why = ("an accented letter" if "LATIN" in name else "not a Latin letter") if ch.isalpha() else "not a letter"
    return f"'{ch}' (U+{ord(ch):04X} {name}, {why})"


def describe_text(text: str) -> str:
    """repr-like form of a face given by the user, with the first non-ASCII character
    explained (see describe_char)."""
    odd = next((ch for ch in text if not ch.isascii()), None)
    return describe_char(text) if len(text) == 1 else repr(text) + (f": {describe_char(odd)}" if odd else "")


def normalise_face(text: str) -> str:
    """Return the canonical spelling of one face ("q" -> "Qu", "th" -> "Th", "" -> "#").

    Raises ValueError for anything that is not a face.
    """
    t = text.strip()
    if t in ("", BLANK, ".") or t.lower() == "blank":
        return BLANK
    if t.upper() == "Q":
        return "Qu"
    if len(t) == 1 and t.isascii() and t.isalpha():
        return t.upper()
    canon = t[:1].upper() + t[1:].lower()
    if canon in TWO_LETTER_FACES:
        return canon
    raise ValueError(f"not a Boggle face: {describe_text(text)}")


def face_letters(face: str) -> str:
    """The lower-case letters a face contributes to a word ("" for a blank)."""
    return "" if face == BLANK else face.lower()


@dataclass(frozen=True)
class Board:
    """An N x N grid of canonical faces, rows top to bottom, columns left to right."""

    faces: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        n = len(self.faces)
        if not MIN_SIZE <= n <= MAX_SIZE or any(len(r) != n for r in self.faces):
            raise BoardTextError(f"a board must be N x N with N from {MIN_SIZE} to {MAX_SIZE}")
        for row in self.faces:
            for f in row:
                if f not in ALL_FACES:
                    raise BoardTextError(f"not a canonical face: {f!r}")

    @property
    def size(self) -> int:
        return len(self.faces)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[str]]) -> Board:
        """Build from rows of face strings in any accepted spelling."""
        try:
            return cls(tuple(tuple(normalise_face(f) for f in r) for r in rows))
        except ValueError as e:
            raise BoardTextError(str(e), "faces are letters, Qu, An Er He In Th, or # for a blank") from None

    @classmethod
    def parse(cls, text: str) -> "Board":
        """Parse board text such as "PERS/LATG/SINE/TERS" or "[Th]AB#/...".

        Raises BoardTextError naming the bad row and character.
        """
        hint = "write rows joined by '/', e.g. PERS/LATG/SINE/TERS; Q for Qu, [Th] for two-letter faces, # for a blank"
        if not isinstance(text, str) or not text.strip():
            raise BoardTextError("empty board text", hint)
        raw_rows = [r.strip() for r in text.strip().split("/")]
        rows: list[list[str]] = []
        for ri, raw in enumerate(raw_rows, start=1):
            if not raw:
                raise BoardTextError(f"row {ri} of {len(raw_rows)} is empty", "remove the extra '/'")
            faces: list[str] = []
            i = 0
            while i < len(raw):
                ch = raw[i]
                col = len(faces) + 1
                if ch == "[":
                    end = raw.find("]", i)
                    if end < 0:
                        raise BoardTextError(f"row {ri}: '[' at character {i + 1} is never closed", hint)
                    inner = raw[i + 1:end]
                    try:
                        face = normalise_face(inner)
                    except ValueError:
                        raise BoardTextError(f"row {ri}, column {col}: unknown face {'[' + inner + ']'!r}", hint) from None
                    if face == BLANK and inner.strip() == "":
                        raise BoardTextError(f"row {ri}, column {col}: empty brackets", hint)
                    faces.append(face)
                    i = end + 1
                    continue
                if ch in "#.":
                    faces.append(BLANK)
                    i += 1
                    continue
                if ch.isascii() and ch.isalpha():
                    if ch in "Qq":
                        nxt = raw[i + 1:i + 2]
                        faces.append("Qu")
                        i += 2 if nxt in ("u", "U") else 1
                        continue
                    faces.append(ch.upper())
                    i += 1
                    continue
                raise BoardTextError(f"row {ri}, character {i + 1}: {describe_char(ch)} is not a face", hint)
            rows.append(faces)
        n = len(rows)
        if not MIN_SIZE <= n <= MAX_SIZE:
            raise BoardTextError(f"board has {n} rows; a board has {MIN_SIZE} to {MAX_SIZE}", hint)
        for ri, faces in enumerate(rows, start=1):
            if len(faces) != n:
                if "qu" in raw_rows[ri - 1].lower() and len(faces) < n:
                    hint = "Q already stands for the Qu face, so QU is one face; write QUU (or [Qu]U) for a Qu next to a U"
                raise BoardTextError(f"row {ri} has {len(faces)} faces; every row needs {n}", hint)
        return cls(tuple(tuple(r) for r in rows))

    def to_text(self) -> str:
        """Board text that `parse` reads back: "Qu" as Q, two-letter faces in brackets."""
        def one(f: str, nxt: str) -> str:
            if f == "Qu":  # "QU" would read back as one Qu face: bracket it before a U
                return "[Qu]" if nxt == "U" else "Q"
            return f"[{f}]" if len(f) == 2 else f
        return "/".join("".join(one(f, row[i + 1] if i + 1 < len(row) else "") for i, f in enumerate(row))
                        for row in self.faces)

    def __str__(self) -> str:
        return self.to_text()

    def cells(self) -> Iterator[tuple[int, int]]:
        """Every (row, col), row-major."""
        n = self.size
        for r in range(n):
            for c in range(n):
                yield r, c

    def face(self, row: int, col: int) -> str:
        return self.faces[row][col]

    def neighbours(self, row: int, col: int) -> list[tuple[int, int]]:
        """The up-to-8 cells adjoining (row, col), row-major order."""
        n = self.size
        return [(r, c) for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                if (r, c) != (row, col) and 0 <= r < n and 0 <= c < n]

    def rotated(self, quarter_turns: int = 1) -> "Board":
        """The board turned clockwise by quarter_turns x 90 degrees."""
        g = self.faces
        for _ in range(quarter_turns % 4):
            g = tuple(tuple(r) for r in zip(*g[::-1]))
        return Board(g)

    def mirrored(self) -> "Board":
        """The board flipped left to right."""
        return Board(tuple(tuple(reversed(r)) for r in self.faces))

    def to_rows(self) -> list[list[str]]:
        """Rows of face strings (JSON form)."""
        return [list(r) for r in self.faces]
