"""Where the shipped model files and the demo's sample round are, and the user's
cache folder.

The trained models live in `models/` at the top of the repository, next to their model
cards, and the sample round in `samples/`. A wheel installs them as the package data
of `boggle_cv.models` and `boggle_cv.samples` (see pyproject.toml, `package-dir`;
of the samples, only the demo's photo and lists); an editable install reads them
from the source tree.
"""
from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

SOURCE_MODELS = Path(__file__).resolve().parents[2] / "models"
SOURCE_SAMPLES = Path(__file__).resolve().parents[2] / "samples"


@lru_cache(maxsize=64)
def _shipped(package: str, name: str, source: Path) -> Path:
    """`name` in the installed package data of `package` if present, else in the
    source tree's folder `source` (the path may not exist: callers check and report).
    Found once per process: the tray finder asks for its model in every view it
    searches, and the package's place does not change while it runs."""
    try:
        from importlib.resources import files

        installed = files(package) / name
        if installed.is_file():
            return Path(str(installed))
    except (ModuleNotFoundError, TypeError, ValueError):
        pass
    return source / name


def model_file(name: str) -> Path:
    """Path of a shipped model file (boggle_cv.models, else models/)."""
    return _shipped("boggle_cv.models", name, SOURCE_MODELS)


def sample_file(name: str) -> Path:
    """Path of a file of the demo's sample round (boggle_cv.samples, else samples/)."""
    return _shipped("boggle_cv.samples", name, SOURCE_SAMPLES)


def cache_dir(platform: str = sys.platform) -> Path:
    """The user's cache folder for boggle-cv: $BOGGLE_CV_CACHE, else
    $XDG_CACHE_HOME/boggle-cv (~/.cache/boggle-cv) on Linux, ~/Library/Caches/boggle-cv
    on macOS, %LOCALAPPDATA%\\boggle-cv\\Cache on Windows. Only what can be made again
    goes there (the folder may be deleted at any time)."""
    env = os.environ.get("BOGGLE_CV_CACHE", "").strip()
    if env:
        return Path(env)
    home = Path(os.path.expanduser("~"))
    if platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or str(home / "AppData" / "Local")) / "boggle-cv" / "Cache"
    if platform == "darwin":
        return home / "Library" / "Caches" / "boggle-cv"
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(xdg) if xdg and os.path.isabs(xdg) else home / ".cache") / "boggle-cv"
