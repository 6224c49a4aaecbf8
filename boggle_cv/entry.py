"""The console script's entry point: imports the command line inside a guard, so a
Ctrl-C while the program is still starting (importing typer, numpy, OpenCV) ends with
the same one line and exit code 130 as a Ctrl-C later on, not a traceback."""
from __future__ import annotations

import sys


def main() -> None:
    try:
        from .cli import main as cli_main
    except KeyboardInterrupt:
        sys.stderr.write("boggle-cv: interrupted\n")
        sys.exit(130)
    cli_main()
