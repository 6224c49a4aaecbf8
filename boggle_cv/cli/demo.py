"""`boggle-cv demo`: the shipped sample round refereed, from any folder.

The sample (a photo of a 4x4 tray and the lists of alice, bob and carol) ships inside
the package (resources.sample_file), so the demo runs from an installed wheel. It is
`scan` of that photo with those three lists, word for word: the report on stdout,
and on stderr the `scan` command that gives it, to try on your own photos.
"""
from __future__ import annotations

import json
import os

import typer

from boggle_cv.cli.options import JsonOption
from boggle_cv.errors import EngineMissingError
from .terminal import echo

SAMPLE = "sample-4x4-a.jpg"
PLAYERS = ("alice", "bob", "carol")


def sample_round() -> tuple[str, list[str]]:
    """The sample photo's path and its --player NAME=FILE options; EngineMissingError
    (exit 3) when the package's copy is missing (a damaged install)."""
    from ..files.resources import sample_file
    photo = sample_file(SAMPLE)
    players = [f"{name}={sample_file(SAMPLE.replace('.jpg', f'.{name}.txt'))}" for name in PLAYERS]
    missing = [p for p in [str(photo), *(p.split("=", 1)[1] for p in players)] if not os.path.isfile(p)]
    if missing:
        raise EngineMissingError(f"the demo's sample round is missing ({missing[0]})", "reinstall boggle-cv")
    return str(photo), players


def register(app: typer.Typer) -> None:
    @app.command("demo")
    def demo_cmd(as_json: JsonOption = False) -> None:
        """Referee the shipped sample round: a photo of a 4x4 tray and three players' lists.

        The sample ships inside the package, so this runs from any folder. It is the
        report of boggle-cv scan on the sample photo with the lists of alice, bob and
        carol; that command is printed on stderr, to try on your own photos.

        Example: boggle-cv demo --json
        """
        from ..game.dictionary import load_default
        from ..game.referee import RoundRequest, referee_round
        from ..game.report import round_text
        from boggle_cv.vision.pipeline import Scanner
        from .options import read_player_lists
        photo, players = sample_round()
        typer.echo("boggle-cv scan " + " ".join([photo, *(f"--player {p}" for p in players)]), err=True)
        scan, _ = Scanner("classifier").scan_file(photo)
        result = referee_round(RoundRequest(scan, players=read_player_lists(players), photo=photo), load_default())
        echo(json.dumps(result.to_dict()) if as_json else round_text(result))
