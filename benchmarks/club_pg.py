"""For bench_club_night.py: a throwaway PostgreSQL database for one run, and the CPU
time the server's processes and PostgreSQL's backends spend (Linux /proc)."""
from __future__ import annotations

import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def fresh_database(server_url: str) -> tuple[str, str]:
    """A new database on the server `server_url` names: (its URL, its name)."""
    import psycopg
    name = "club_" + secrets.token_hex(4)
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(server_url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment)), name


def drop_database(server_url: str, name: str) -> None:
    import psycopg
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _cpu_s(pid: int, reaped: bool = False) -> float:
    """utime + stime of a process (and, `reaped`, of its waited-for children), seconds."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12]) + ((int(fields[13]) + int(fields[14])) if reaped else 0)
    return ticks / TICKS


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def server_cpu(root: int) -> dict[str, float]:
    """CPU seconds so far of `boggle-cv serve` (pid `root`) and its descendants:
    "server" the processes that answer requests (and a supervisor), "readers" the
    photo readers (multiprocessing's spawned workers)."""
    out = {"server": 0.0, "readers": 0.0}
    todo = [root]
    while todo:
        pid = todo.pop()
        kind = "readers" if "multiprocessing" in _cmdline(pid) else "server"
        out[kind] += _cpu_s(pid)
        todo += _children(pid)
    return out


def postgres_cpu(database: str) -> float:
    """CPU seconds so far of the PostgreSQL backends connected to `database` (their
    process title names it: "postgres: USER DATABASE HOST(PORT) ...")."""
    total = 0.0
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            line = _cmdline(int(proc.name))
            if line.startswith("postgres: ") and f" {database} " in line:
                total += _cpu_s(int(proc.name))
    return total
