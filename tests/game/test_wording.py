"""Counts in English prose take the noun's number (game/wording.py)."""
from boggle_cv.game.wording import counted


def test_one_is_singular_and_every_other_count_plural():
    assert counted(1, "doubtful cell") == "1 doubtful cell"
    assert [counted(n, "doubtful cell") for n in (0, 2, 25)] == ["0 doubtful cells", "2 doubtful cells", "25 doubtful cells"]


def test_an_irregular_plural_is_given():
    assert counted(1, "cell lies", "cells lie") == "1 cell lies"
    assert counted(3, "cell lies", "cells lie") == "3 cells lie"
