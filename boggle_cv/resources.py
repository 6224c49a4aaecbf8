"""Where the shipped model files are.

The trained models live in `models/` at the top of the repository, next to their model
cards. A wheel installs them as the package data of `boggle_cv.models` (see
pyproject.toml, `package-dir`); an editable install reads them from the source tree.
"""
from __future__ import annotations

from pathlib import Path

SOURCE_MODELS = Path(__file__).resolve().parent.parent / "models"


def model_file(name: str) -> Path:
    """Path of a shipped model file: the installed package data if present, else the
    source tree's models/ folder (the path may not exist: callers check and report)."""
    try:
        from importlib.resources import files

        installed = files("boggle_cv.models") / name
        if installed.is_file():
            return Path(str(installed))
    except (ModuleNotFoundError, TypeError, ValueError):
        pass
    return SOURCE_MODELS / name
