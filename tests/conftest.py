"""Settings every test shares."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def shared_dir() -> Path:
    """../shared next to the repo (or $BOGGLE_CV_SHARED)."""
    return Path(os.environ.get("BOGGLE_CV_SHARED", REPO.parent / "shared"))


@pytest.fixture(autouse=True, scope="session")
def _own_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The tests' own cache folder ($BOGGLE_CV_CACHE, inherited by the programs they
    run): nothing a test does depends on, or changes, the user's cache."""
    import os
    os.environ["BOGGLE_CV_CACHE"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(params=["sqlite", "postgresql"])
def games_db(request: pytest.FixtureRequest, tmp_path):
    """A new, empty games database of each backend: a SQLite file in tmp_path, and a
    PostgreSQL database made for the test on the server $BOGGLE_CV_TEST_PG names
    (scripts/with-postgres.sh starts one; the PostgreSQL case skips without it)."""
    if request.param == "sqlite":
        yield tmp_path / "games.sqlite3"
        return
    from pg_server import fresh_database
    with fresh_database() as url:
        yield url


@pytest.fixture
def pg_db():
    """A new, empty PostgreSQL database (skips without $BOGGLE_CV_TEST_PG)."""
    from pg_server import fresh_database
    with fresh_database() as url:
        yield url


@pytest.fixture(scope="session")
def enable2k():
    """ENABLE2K as a Dictionary, read from ../shared (skipped when absent)."""
    p = shared_dir() / "words" / "enable2k.txt"
    if not p.exists():
        pytest.skip(f"{p} not available")
    from boggle_cv.game.dictionary import load_word_list
    return load_word_list(p)


@pytest.fixture(scope="session")
def default_dict():
    """The shipped English dictionary."""
    from boggle_cv.game.dictionary import load_default
    return load_default()
