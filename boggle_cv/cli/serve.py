"""`boggle-cv serve`: the web page for the game table (see docs/web.md).

Starts a small web server (Starlette on uvicorn, the optional extra ``web``) whose
page players open on their phones: photo in, board checked and corrected, words
typed, referee's report and standings out. Binds to 127.0.0.1 unless --host says
otherwise; 0.0.0.0 (every network interface) prints a warning.
"""
from __future__ import annotations

import dataclasses
import signal
import socket
from pathlib import Path
from types import FrameType
from typing import Annotated, Optional

import typer

from ..errors import EngineMissingError, StorageError, UsageError
from ..vision.engines import Engine

EXTRA_HINT = "install the web extra: pip install 'boggle-cv[web]'"
_ANY_HOST = ("0.0.0.0", "::", "")
#: Seconds Ctrl-C waits for requests still running (a photo being read); the rooms' live streams end at once.
SHUTDOWN_GRACE_S = 5


def check_web_extra() -> None:
    """EngineMissingError (exit 3) when Starlette, uvicorn or python-multipart is missing."""
    missing = []
    for module, package in (("starlette", "starlette"), ("uvicorn", "uvicorn"), ("multipart", "python-multipart")):
        try:
            __import__(module)
        except ImportError:
            missing.append(package)
    if missing:
        raise EngineMissingError(f"`serve` needs {', '.join(missing)}, which is not installed", EXTRA_HINT)


def open_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port (UsageError, exit 2, when that is impossible)."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise UsageError(f"--host {host!r} is not an address of this machine ({e.strerror})",
                         "use 127.0.0.1, 0.0.0.0 or one of this machine's addresses") from None
    family, _, _, _, addr = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
        sock.listen(128)
    except OSError as e:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {e.strerror or e}",
                         "choose another --port, or stop the program using it") from None
    sock.set_inheritable(True)
    return sock


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return str(s.getsockname()[0])
    except OSError:
        return None
    finally:
        s.close()


def _exit_on_sigterm() -> None:
    """SIGTERM ends the command through SystemExit(143), so that `finally` blocks run
    (the photo readers are stopped): uvicorn shuts down gracefully on SIGTERM, puts
    back this handler and raises the signal again."""
    def stop(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, stop)


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_cmd(
        host: Annotated[str, typer.Option("--host", help="Address to listen on; 0.0.0.0 shares the page with the local network.")] = "127.0.0.1",
        port: Annotated[int, typer.Option("--port", min=0, max=65535, help="TCP port (0: any free port).")] = 8765,
        db: Annotated[Optional[Path], typer.Option("--db", help="Games database (default: the user's data folder, as for scan).")] = None,
        engine: Annotated[Engine, typer.Option("--engine", help="Reader for photos: classifier, tesseract or both.")] = Engine.classifier,
    ) -> None:
        """Serve the web page: players take the photo and type their words on their phones."""
        check_web_extra()
        from .. import store
        db_path = db or store.default_db_path()
        if db_path.is_dir():
            raise StorageError(f"games database {db_path} is a directory", "pass a file path with --db")

        from ..web.app import create_app
        from ..web.config import ServeConfig, serve_workers
        from ..web.limits import uvicorn_config
        from ..web.live import server_ending_streams
        sock = open_socket(host, port)
        bound = sock.getsockname()[1]
        lan = lan_address() if host in _ANY_HOST else None
        # join links and QR codes name the LAN address, even when the host's page was opened on 127.0.0.1
        config = ServeConfig(db_path=db_path, engine=engine.value, public_url=f"http://{lan}:{bound}" if lan else None)
        config = dataclasses.replace(config, scan_workers=serve_workers(
            held_photos_mb=config.max_photo_requests * config.max_upload_bytes // (1024 * 1024)))
        web = create_app(config)
        state = web.state.web
        try:
            try:  # start the readers now, so that the first photo is quick and a missing model is said at once
                if state.pool is not None:
                    state.pool.start()
                    state.pool.check()
            except EngineMissingError as err:
                typer.echo(f"boggle-cv: warning: photos cannot be read: {err.one_line()}; "
                           "boards can still be typed on the page", err=True)
            if host in _ANY_HOST:
                typer.echo("boggle-cv: warning: --host 0.0.0.0 lets anyone on this network open the page and "
                           "store rounds (there is no password); use it only on a network you trust", err=True)
                where = f"http://{lan}:{bound}/" if lan else f"port {bound} of this machine's address"
                typer.echo(f"boggle-cv: serving on {where} (and http://127.0.0.1:{bound}/); Ctrl-C stops",
                           err=True)
            else:
                shown = f"[{host}]" if ":" in host else host
                typer.echo(f"boggle-cv: serving on http://{shown}:{bound}/ (Ctrl-C stops)", err=True)
            typer.echo(f"boggle-cv: games database {db_path}; {config.scan_workers} photo reader(s)", err=True)
            settings = uvicorn_config(web, config)
            settings.timeout_graceful_shutdown = SHUTDOWN_GRACE_S
            server = server_ending_streams(settings, web.state.room_hub)
            _exit_on_sigterm()
            try:
                server.run(sockets=[sock])
            finally:
                sock.close()
        finally:
            state.close()
