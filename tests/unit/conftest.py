"""Shared fixtures of the referee-core unit tests."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def shared_dir() -> Path:
    """../shared next to the repo (or $BOGGLE_CV_SHARED)."""
    return Path(os.environ.get("BOGGLE_CV_SHARED", REPO.parent / "shared"))


@pytest.fixture(scope="session")
def enable2k():
    """ENABLE2K as a Dictionary, read from ../shared (skipped when absent)."""
    p = shared_dir() / "words" / "enable2k.txt"
    if not p.exists():
        pytest.skip(f"{p} not available")
    from boggle_cv.dictionary import load_word_list
    return load_word_list(p)


@pytest.fixture(scope="session")
def default_dict():
    from boggle_cv.dictionary import load_default
    return load_default()
