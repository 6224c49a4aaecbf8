"""`boggle-cv serve`: the web page for the game table (see docs/web.md).

Starts a small web server (Starlette on uvicorn, the optional extra ``web``) whose
page players open on their phones: photo in, board checked and corrected, words
typed, referee's report and standings out. Binds to 127.0.0.1 unless --host says
otherwise; 0.0.0.0 (every network interface) prints a warning. This module only
parses the options; web/server.py runs the server (and says how it stops).
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..errors import EngineMissingError
from ..vision.engines import Engine
from .options import Lang, LangOption



def check_web_extra() -> None:
    """EngineMissingError (exit 3) when Starlette, uvicorn or python-multipart is missing."""
    missing = []
    for module, package in (("starlette", "starlette"), ("uvicorn", "uvicorn"), ("multipart", "python-multipart")):
        try:
            __import__(module)
        except ImportError:
            missing.append(package)
    if missing:
        names = ", ".join(missing[:-1]) + " and " + missing[-1] if len(missing) > 1 else missing[0]
        which, them = ("which are", "them") if len(missing) > 1 else ("which is", "it")
        raise EngineMissingError(f"`serve` needs {names}, {which} not installed",
                                 f"install {them} with the web extra: pip install 'boggle-cv[web]'")


def _say(line: str) -> None:
    typer.echo(line, err=True)


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_cmd(
        host: Annotated[str, typer.Option("--host", metavar="ADDRESS", help="Address to listen on; 0.0.0.0 shares the page with the local network.")] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", min=0, max=65535, metavar="PORT", help="TCP port (0: any free port).")] = 8765,
        db: Annotated[Optional[str], typer.Option("--db", metavar="FILE|URL", help="Games database: a file (default: $BOGGLE_CV_DB, else games.sqlite3 in the user's data folder) or a postgresql:// URL.")] = None,
        engine: Annotated[Engine, typer.Option("--engine", help="Reader for photos: classifier, tesseract or both.")] = Engine.classifier,
        lang: LangOption = Lang.en,
        proxy: Annotated[Optional[str], typer.Option("--proxy", metavar="ADDRESS", help="Address of a reverse proxy in front (e.g. 127.0.0.1): its X-Forwarded-For names each phone.")] = None,
        workers: Annotated[int, typer.Option("--workers", min=1, max=64, metavar="N", help="Server processes sharing the port (more than 1 needs a postgresql:// --db).")] = 1,
    ) -> None:
        """Serve the room page: every player joins on their own phone and types their words.

        The host's screen shows a join link and a QR code; the photo of the tray is
        read on the server and every phone sees the board, the corrections and the
        scores. --host 0.0.0.0 opens the page to phones on the same network.
        --workers N runs N processes on the port (a PostgreSQL --db: docs/hosting.md).

        Example: boggle-cv serve --host 0.0.0.0
        """
        check_web_extra()
        from ..store import database as store
        from ..store.sql import optional_location
        from ..web.config import ServeConfig
        from ..web.live_pg import catch_up_seconds
        from ..web.server import run_server
        catch_up_seconds()  # a wrong $BOGGLE_CV_CATCH_UP_S is one line before anything starts
        run_server(ServeConfig(db_path=optional_location(db) or store.default_db_path(), engine=engine.value,
                               lang=lang.value, proxy=proxy),
                   host, port, _say, workers)
