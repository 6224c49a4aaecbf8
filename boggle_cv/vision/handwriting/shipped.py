"""The word reader's small shipped data files (the adapted head, the calibration of
which words are asked): where the one in use is, and its bytes checked against the
``<file>.sha256`` beside it.

Each file can be replaced through an environment variable (a path, or ``none`` for
no file at all); otherwise the shipped one (``resources.model_file``) is used when
present. Callers cache what they load on ``(path, mtime_ns)``, the key ``in_use``
gives, so a file changed on disk is read again.
"""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

from ...errors import EngineMissingError


def data_path(env: str, file_name: str) -> Path | None:
    """$``env`` ('none': no file), else the shipped ``file_name`` if present, else None."""
    value = os.environ.get(env)
    if value:
        return None if value.lower() == "none" else Path(value)
    p = _shipped(file_name)
    return p if p.is_file() else None


@lru_cache(maxsize=8)
def _shipped(file_name: str) -> Path:
    """Where the shipped ``file_name`` is (``resources.model_file``, ~0.15 ms through
    importlib.resources): looked up once a process, since the head is applied to every
    crop and the calibration to every word."""
    from ...files.resources import model_file
    return model_file(file_name)


def in_use(env: str, file_name: str, what: str) -> tuple[str, int] | None:
    """(path, mtime_ns) of the file in use (``data_path``), or None for no file;
    EngineMissingError (exit 3) when $``env`` names a file that is not there."""
    p = data_path(env, file_name)
    if p is None:
        return None
    if not p.is_file():
        raise EngineMissingError(f"{what} not found: {p}", f"unset {env}")
    return str(p), p.stat().st_mtime_ns


def verified_bytes(path: Path, what: str) -> bytes:
    """A shipped file's bytes, checked against the `<file>.sha256` beside it
    (EngineMissingError, exit 3, when the hash is missing or differs)."""
    sha = path.with_name(path.name + ".sha256")
    if not sha.is_file():
        raise EngineMissingError(f"{what} hash not found: {sha}", "reinstall boggle-cv")
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != sha.read_text().split()[0].strip().lower():
        raise EngineMissingError(f"{what} is corrupt (SHA-256 mismatch): {path}", "reinstall boggle-cv")
    return data
