"""Settings every test shares."""
from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def _own_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The tests' own cache folder ($BOGGLE_CV_CACHE, inherited by the programs they
    run): nothing a test does depends on, or changes, the user's cache."""
    import os
    os.environ["BOGGLE_CV_CACHE"] = str(tmp_path_factory.mktemp("cache"))
