"""Running the app on uvicorn for `boggle-cv serve`: the listening socket, the
start-up messages, and a shutdown that ends the rooms' live streams at once.

Stopping: SIGTERM or Ctrl-C (SIGINT) ends every live stream (the hub closes), lets
requests still running finish for up to SHUTDOWN_GRACE_S seconds (a photo being
read), stops the photo readers (the app's lifespan) and leaves: SIGTERM through
SystemExit(143) (128 + 15, as a shell reports a process ended by SIGTERM), Ctrl-C
through KeyboardInterrupt (the command line's exit code 130, "interrupted"). With
no photo being read the server is gone well within 2 s, phones connected or not.

uvicorn is imported where it is used: importing this module is cheap and needs no
web extra.
"""
from __future__ import annotations

import dataclasses
import signal
import socket
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from ..errors import EngineMissingError, StorageError, UsageError
from .config import ServeConfig, serve_workers

if TYPE_CHECKING:
    import uvicorn

    from .live import RoomHub

#: Seconds a stopping server waits for requests still running (a photo being read);
#: the rooms' live streams end at once.
SHUTDOWN_GRACE_S = 5
#: --host values that listen on every interface (the page is then shared with the network).
ANY_HOST = ("0.0.0.0", "::", "")


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


def server_ending_streams(config: uvicorn.Config, hub: RoomHub) -> uvicorn.Server:
    """A uvicorn server that ends the rooms' live streams as soon as it starts to stop
    (uvicorn waits for open responses, and a phone's stream never ends by itself).
    hub.close() is a plain call: nothing a listener does can hold it up."""
    import uvicorn

    class _Server(uvicorn.Server):
        async def shutdown(self, sockets: list[Any] | None = None) -> None:
            hub.close()
            await super().shutdown(sockets)

    return _Server(config)


def _exit_on_sigterm() -> None:
    """SIGTERM ends the server through SystemExit(143), so that `finally` blocks run:
    uvicorn shuts down gracefully on SIGTERM, puts back this handler and raises the
    signal again."""
    def stop(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, stop)


def run_server(config: ServeConfig, host: str, port: int, say: Callable[[str], None], workers: int = 1) -> None:
    """Serve the page on host:port (0: any free port) until SIGTERM or Ctrl-C.

    config: the server's settings; its public_url (the LAN address when host is one
    of ANY_HOST) and scan_workers are chosen here. say(line): where the start-up
    messages go (the command line's stderr). workers: server processes on the one
    socket (web.workers; more than one needs a PostgreSQL database), the photo
    readers shared out among them. Raises StorageError when the database path is a
    folder, UsageError when the socket cannot be opened or several processes are
    asked of a SQLite file, SystemExit(143) on SIGTERM and KeyboardInterrupt on
    Ctrl-C (see the module docstring).
    """
    if isinstance(config.db_path, Path) and config.db_path.is_dir():
        raise StorageError(f"games database {config.db_path} is a directory", "pass a file path with --db")
    if not isinstance(config.db_path, Path):
        from ..store.postgres import check
        check(config.db_path)  # one line at once for a server away, a foreign database, psycopg missing
    if workers > 1 and isinstance(config.db_path, Path):
        raise UsageError(f"--workers {workers} needs a PostgreSQL database: with a SQLite file, a change made in "
                         "one process would not reach the phones whose live streams another one holds",
                         "give --db postgresql://..., or serve with one process")
    sock = open_socket(host, port)
    try:
        bound = sock.getsockname()[1]
        lan = lan_address() if host in ANY_HOST else None
        # join links and QR codes name the LAN address, even when the host's page was opened on 127.0.0.1
        config = dataclasses.replace(
            config, public_url=f"http://{lan}:{bound}" if lan else None,
            scan_workers=max(1, serve_workers(held_photos_mb=config.held_photos_mb) // workers))
        if workers == 1:
            _serve(config, sock, say, lambda: _say_where(say, host, bound, lan))
            return
        from .workers import run_workers

        # said once, by the command, before any process starts: the socket is listening
        # already (connections wait in its queue), and a process started again says it no more
        _say_where(say, host, bound, lan, workers)

        def one(index: int) -> None:
            _serve(config, sock, say if index == 0 else _quiet, lambda: None)
        run_workers(workers, one, say)
    finally:
        sock.close()


def _quiet(_line: str) -> None:
    """The start-up messages of every server process but the first."""


def _serve(config: ServeConfig, sock: socket.socket, say: Callable[[str], None], where: Callable[[], None]) -> None:
    """One server process: the app, its photo readers, uvicorn on `sock` until it stops."""
    from .app import create_app
    from .limits import uvicorn_config
    web = create_app(config)
    state = web.state.web
    try:
        try:  # start the readers now, so that the first photo is quick and a missing model is said at once
            state.start_readers()
        except EngineMissingError as err:
            say(f"boggle-cv: warning: photos cannot be read: {err.one_line()}; "
                "boards can still be typed on the page")
        where()
        say(f"boggle-cv: games database {config.db_path}; {config.scan_workers} photo reader(s)")
        settings = uvicorn_config(web, config)
        settings.timeout_graceful_shutdown = SHUTDOWN_GRACE_S
        server = server_ending_streams(settings, web.state.room_hub)
        _exit_on_sigterm()
        server.run(sockets=[sock])
    finally:
        state.close()  # the lifespan has done it, unless a second Ctrl-C cut the shutdown short


def _say_where(say: Callable[[str], None], host: str, port: int, lan: str | None, workers: int = 1) -> None:
    if workers > 1:
        say(f"boggle-cv: {workers} server processes share this port, each with the photo readers below")
    if host in ANY_HOST:
        say("boggle-cv: warning: --host 0.0.0.0 lets anyone on this network open the page and "
            "store rounds (there is no password); use it only on a network you trust")
        where = f"http://{lan}:{port}/" if lan else f"port {port} of this machine's address"
        say(f"boggle-cv: serving on {where} (and http://127.0.0.1:{port}/); Ctrl-C stops")
    else:
        shown = f"[{host}]" if ":" in host else host
        say(f"boggle-cv: serving on http://{shown}:{port}/ (Ctrl-C stops)")
