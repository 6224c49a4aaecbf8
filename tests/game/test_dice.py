"""Cube sets, matching, rolls (boggle_cv/game/dice.py)."""
import pytest

from boggle_cv.game.board import Board
from boggle_cv.game.dice import (CHALLENGE_CUBE, CUBE_SETS, can_produce, get_set, max_matching, roll, sets_for_board, unmatched_cells)
from boggle_cv.errors import UsageError


def test_every_set_has_n_squared_cubes_of_six_faces():
    assert set(CUBE_SETS) >= {"classic-4", "modern-4", "big-1979", "big-deluxe", "super-big-6"}
    for cs in CUBE_SETS.values():
        assert len(cs.cubes) == cs.size ** 2
        assert all(len(c) == 6 for c in cs.cubes)
    assert CHALLENGE_CUBE == ("I", "K", "L", "M", "Qu", "U")


def test_deluxe_differs_from_1979_by_four_cubes():
    a, b = sorted(get_set("big-1979").cubes), sorted(get_set("big-deluxe").cubes)
    only_a = [c for c in a if c not in b or a.count(c) > b.count(c)]
    assert {"".join(c) for c in only_a} == {"CCENST", "DDHNOT", "DHLNOR", "IPRRRY"}


def test_super_big_has_two_letter_and_blank_cubes():
    cubes = get_set("super-big-6").cubes
    assert ("An", "Er", "He", "In", "Qu", "Th") in cubes
    assert ("E", "I", "O", "#", "#", "#") in cubes


@pytest.mark.parametrize("name", list(CUBE_SETS))
@pytest.mark.parametrize("seed", range(5))
def test_rolled_board_is_producible_by_its_set(name, seed):
    b = roll(name, seed)
    assert b.size == get_set(name).size
    assert can_produce(b, name)
    assert name in sets_for_board(b)
    assert roll(name, seed) == b  # seeded


def test_modern_set_has_one_qu():
    b = Board.parse("QQAB/CDEF/GHIJ/KLMN")
    assert not can_produce(b, "modern-4")
    assert unmatched_cells(b, "modern-4") >= 1


def test_unmatched_counts_cells_no_cube_explains():
    # modern-4 has exactly one J cube (ABBJOO) and one Qu cube: three J -> 2 unmatched
    b = Board.parse("JJJA/EEIO/SSTT/RNLD")
    assert unmatched_cells(b, "modern-4") == 2
    m = max_matching(b, get_set("modern-4"))
    assert len(m) == 14 and len(set(m.values())) == 14


def test_other_size_matches_nothing():
    assert unmatched_cells(Board.parse("ABC/DEF/GHI"), "modern-4") == 9


def test_challenge_cube_adds_a_candidate():
    # K and M: modern-4 has K only on AFFKPS and M on CIMOTU/HIMNQU; two K's need the challenge cube
    b = Board.parse("KKAE/EEIO/SSTT/RNLD")
    assert not can_produce(b, "modern-4")
    assert can_produce(b, "modern-4", challenge=True)
    rb = roll("big-deluxe", 7, challenge=True)
    assert can_produce(rb, "big-deluxe", challenge=True)


def test_unknown_set_is_a_usage_error():
    with pytest.raises(UsageError):
        get_set("mega-7")
