"""What `boggle-cv scan --json` / `--jsonl` writes (docs/json.md, checked against
docs/json.schema.json by tests/cli/test_json_schema.py): a round's document, the
error record of a photo that failed, and the exit code of several photos.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from ..errors import BoggleError
from ..game.referee import SCHEMA_VERSION, RoundResult

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..vision.sheet.types import SheetReading
    from .scan_round import ScanJob

#: Exit codes of failed photos, the worst first: what stops every photo (a bug, a
#: missing engine, an output or database that cannot be written, a usage error)
#: before what one photo alone meets (unreadable, no board, doubtful with --strict).
SEVERITY = (1, 3, 7, 2, 4, 5, 6)

#: Keys of the score document that a round without players leaves out (it is then
#: the solve document: `missed` would be every word again).
PLAYER_KEYS = ("players", "winners", "missed")


def scan_document(result: RoundResult, sheets: dict[str, tuple[Path, SheetReading]]) -> dict[str, Any]:
    """The round's document: RoundResult.to_dict(), without the players' keys when
    there are no players, with each --sheet reading under "sheets"."""
    doc = result.to_dict()
    if not result.sheet.players:
        for key in PLAYER_KEYS:
            doc.pop(key, None)
    if sheets:
        doc["sheets"] = {name: {"photo": str(path), **reading.to_dict()} for name, (path, reading) in sheets.items()}
    return doc


def error_record(photo: Path, err: BoggleError, doc: dict[str, Any] | None = None) -> dict[str, Any]:
    """A failed photo's entry among several: its path, exit code and message; a
    round refused by --strict keeps its document, with the error added."""
    error = {"exit_code": err.exit_code, "message": err.one_line()}
    if doc is not None:
        return {**doc, "error": error}
    return {"schema_version": SCHEMA_VERSION, "photo": str(photo), "error": error}


def worst_exit_code(codes: Iterable[int]) -> int:
    """The exit code of several photos that failed: the worst of theirs (SEVERITY)."""
    return min(codes, key=lambda c: SEVERITY.index(c) if c in SEVERITY else -1)


def emit(doc: dict[str, Any], job: ScanJob, collected: list[dict[str, Any]]) -> None:
    """Write one photo's document: a line now with --jsonl, the whole document now
    for one photo, else kept for the list written at the end."""
    if job.jsonl:
        typer.echo(json.dumps(doc, separators=(",", ":")))
    elif job.several:
        collected.append(doc)
    else:
        typer.echo(json.dumps(doc))
