"""The renderer draws boggle_cv.game.dice's cube sets: no second copy of the cubes."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PIL")

from boggle_cv.game import dice  # noqa: E402
from boggle_cv.game.board import Board  # noqa: E402
from boggle_cv.synth import render_photo, set_names  # noqa: E402
from boggle_cv.synth.cubesets import POCKET_CUBES, POCKET_SET, cubes_of, roll, sets_of_size, size_of  # noqa: E402


def test_set_names_are_dice_sets_plus_pocket():
    assert set(set_names()) == set(dice.CUBE_SETS) | {POCKET_SET}
    for name in dice.CUBE_SETS:
        assert cubes_of(name) == dice.get_set(name).cubes
        assert size_of(name) == dice.get_set(name).size
    assert cubes_of(POCKET_SET) == dice.get_set(POCKET_CUBES).cubes and size_of(POCKET_SET) == 4
    for n in (4, 5, 6):
        assert sets_of_size(n) == tuple(k for k, cs in dice.CUBE_SETS.items() if cs.size == n)


@pytest.mark.parametrize("name", sorted(dice.CUBE_SETS))
def test_a_roll_uses_each_cube_of_the_set_once(name):
    cubes, ch = roll(np.random.default_rng(3), name, challenge=True)
    assert ch is not None
    used = sorted(tuple(sorted((rc.face,) + rc.others)) for i, rc in enumerate(cubes) if i != ch)
    pool = sorted(tuple(sorted(c)) for c in dice.get_set(name).cubes)
    assert all(pool.count(c) >= used.count(c) for c in used)
    assert len(used) == len(pool) - 1
    assert sorted((cubes[ch].face,) + cubes[ch].others) == sorted(dice.CHALLENGE_CUBE)


def test_every_rendered_board_comes_from_the_set_named_in_its_truth():
    seen = set()
    for seed in range(24):
        _, t = render_photo(np.random.default_rng([31337, seed]), long_side=400, kind="tray"
                            if seed % 6 else "pocket")
        board = Board.from_rows(t["faces"])
        name = POCKET_CUBES if t["set"] == POCKET_SET else t["set"]
        seen.add(t["set"])
        assert dice.can_produce(board, name, challenge=t["challenge"] is not None), (seed, t["set"], t["faces"])
    assert len(seen) >= 4  # sets of several sizes were drawn


def test_a_set_added_to_dice_is_drawn(monkeypatch):
    extra = dice.CubeSet("test-4", 4, tuple(("A", "B", "C", "D", "E", "F") for _ in range(16)))
    monkeypatch.setitem(dice.CUBE_SETS, "test-4", extra)
    assert "test-4" in set_names() and "test-4" in sets_of_size(4)
    _, t = render_photo(np.random.default_rng(5), set_name="test-4", kind="tray", long_side=400)
    assert t["set"] == "test-4"
    assert {f for row in t["faces"] for f in row} <= set("ABCDEF") | set(dice.CHALLENGE_CUBE)
