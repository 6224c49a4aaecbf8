"""`boggle-cv synth OUT_DIR`: render synthetic tray photos with their truth."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..errors import UsageError

SIZES = {"4": 4, "5": 5, "6": 6, "mixed": None}


def register(app: typer.Typer) -> None:
    @app.command("synth")
    def synth_cmd(
        out_dir: Annotated[Path, typer.Argument(help="Folder to write the photos and truth.json into.")],
        count: Annotated[int, typer.Option("--count", "-n", help="How many photos.")] = 20,
        seed: Annotated[int, typer.Option("--seed", help="Random seed: same seed, same photos.")] = 0,
        size: Annotated[str, typer.Option("--size", help="Board size: 4, 5, 6 or mixed.")] = "mixed",
        set_name: Annotated[Optional[str], typer.Option("--set", help="Cube set: classic-4, modern-4, big-1979, big-deluxe, super-big-6, pocket.")] = None,
        long_side: Annotated[int, typer.Option("--long-side", help="Pixels on the photo's long side (400-4000).")] = 1000,
        kind: Annotated[Optional[str], typer.Option("--kind", help="Only this kind: tray, pocket, empty-tray, incomplete, spilled.")] = None,
        players: Annotated[int, typer.Option("--players", help="Also write this many players' word lists per board (0-6).")] = 0,
        sheet: Annotated[bool, typer.Option("--sheet", help="Also write sheet.jpg: thumbnails with the truth drawn on.")] = False,
    ) -> None:
        """Render COUNT synthetic tray photos into OUT_DIR with truth.json (the format of the
        real photos' truth: size, faces, corners, plus turns, centres, set, marks)."""
        from ..synth import KINDS, set_names, write_dataset
        if size not in SIZES:
            raise UsageError(f"--size {size} is not a board size", "use 4, 5, 6 or mixed")
        if not 1 <= count <= 1_000_000:
            raise UsageError(f"--count {count} is out of range", "give 1 to 1000000")
        if not 400 <= long_side <= 4000:
            raise UsageError(f"--long-side {long_side} is out of range", "give 400 to 4000")
        if not 0 <= players <= 6:
            raise UsageError(f"--players {players} is out of range", "give 0 to 6")
        if set_name is not None and set_name not in set_names():
            raise UsageError(f"unknown cube set {set_name!r}", "choose one of " + ", ".join(set_names()))
        if kind is not None and kind not in KINDS:
            raise UsageError(f"unknown --kind {kind!r}", "choose one of " + ", ".join(KINDS))
        tty = sys.stderr.isatty()

        def progress(i: int, n: int) -> None:
            if tty:
                typer.echo(f"\rrendered {i}/{n}", err=True, nl=i == n)

        doc = write_dataset(out_dir, count, seed, size=SIZES[size], set_name=set_name,
                            long_side=long_side, sheet=sheet, progress=progress, kind=kind,
                            players=players)
        typer.echo(f"wrote {len(doc['photos'])} photos and truth.json to {out_dir}"
                   + (" (and sheet.jpg)" if sheet else ""))
