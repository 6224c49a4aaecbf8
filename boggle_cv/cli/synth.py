"""`boggle-cv synth OUT_DIR`: render synthetic tray photos with their truth."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..errors import UsageError
from .progress import progress_bar
from .terminal import echo


class SynthSize(str, Enum):
    """--size: one board size, or a mix of 4x4, 5x5 and 6x6."""

    four = "4"
    five = "5"
    six = "6"
    mixed = "mixed"

    @property
    def size(self) -> int | None:
        return None if self is SynthSize.mixed else int(self.value)


def register(app: typer.Typer) -> None:
    @app.command("synth")
    def synth_cmd(
        out_dir: Annotated[Path, typer.Argument(metavar="FOLDER", help="Folder to write the photos and truth.json into.")],
        count: Annotated[int, typer.Option("--count", "-n", min=1, max=1_000_000, metavar="N", help="How many photos.")] = 20,
        seed: Annotated[int, typer.Option("--seed", metavar="N", help="Random seed: same seed, same photos.")] = 0,
        size: Annotated[SynthSize, typer.Option("--size", help="Board size: 4, 5, 6 or mixed.")] = SynthSize.mixed,
        set_name: Annotated[Optional[str], typer.Option("--set", metavar="SET", help="Cube set: classic-4, modern-4, big-1979, big-deluxe, super-big-6, fr-4, it-4, pocket.")] = None,
        long_side: Annotated[int, typer.Option("--long-side", min=400, max=4000, metavar="PIXELS", help="Pixels on the photo's long side.")] = 1000,
        kind: Annotated[Optional[str], typer.Option("--kind", metavar="KIND", help="Only this kind: tray, pocket, empty-tray, incomplete, spilled.")] = None,
        players: Annotated[int, typer.Option("--players", min=0, max=6, metavar="N", help="Also write this many players' word lists per board.")] = 0,
        sheet: Annotated[bool, typer.Option("--contact-sheet", help="Also write sheet.jpg: thumbnails with the truth drawn on.")] = False,
        lone_q: Annotated[Optional[bool], typer.Option("--lone-q/--no-lone-q", help="Print the Qu face as a lone Q in every photo, or in none (default: half the French set's photos, as some French dice do).")] = None,
    ) -> None:
        """Render synthetic photos of trays with their truth, for training and tests.

        OUT_DIR receives COUNT photos and truth.json, in the format of the real
        photos' truth (size, faces, corners) plus each cube's turn and centre, the
        cube set and the red marks. The same seed renders the same photos.

        Example: boggle-cv synth /tmp/synth --count 20 --seed 7
        """
        from ..synth import KINDS, set_names, write_dataset
        if set_name is not None and set_name not in set_names():
            raise UsageError(f"unknown cube set {set_name!r}", "choose one of " + ", ".join(set_names()))
        if kind is not None and kind not in KINDS:
            raise UsageError(f"unknown --kind {kind!r}", "choose one of " + ", ".join(KINDS))
        with progress_bar("rendering", count) as progress:
            doc = write_dataset(out_dir, count, seed, size=size.size, set_name=set_name,
                                long_side=long_side, sheet=sheet, progress=progress, kind=kind,
                                players=players, lone_q=lone_q)
        echo(f"wrote {len(doc['photos'])} photos and truth.json to {out_dir}"
                   + (" (and sheet.jpg)" if sheet else ""))
