"""The virtual shake: the real cubes of each size and edition, each cube once, a
random face of each, the cubes shuffled; the same seed gives the same board."""
from __future__ import annotations

from collections import Counter

import pytest

from boggle_cv.game.board import face_letters
from boggle_cv.game.dice import CUBE_SETS, max_matching
from boggle_cv.errors import UsageError
from boggle_cv.practice.shake import dice_for, shake


@pytest.mark.parametrize("size, lang, expected", [
    (4, "en", "modern-4"), (5, "en", "big-1979"), (6, "en", "super-big-6"), (4, "fr", "fr-4"), (4, "it", "it-4"),
])
def test_each_size_and_edition_shakes_its_own_box(size, lang, expected):
    assert dice_for(size, lang).name == expected
    deal = shake(size, lang, seed=5)
    assert deal.dice == expected and deal.board.size == size


@pytest.mark.parametrize("name", list(CUBE_SETS))
def test_every_cube_of_the_set_shows_once(name):
    """A board of a shake is one face of each cube of the set: a perfect matching
    between the cells and the cubes (every cube used, none twice)."""
    cs = CUBE_SETS[name]
    for seed in range(25):
        board = shake(cs.size, cs.lang, dice=name, seed=seed).board
        assert len(max_matching(board, cs)) == cs.size * cs.size, (name, seed, board.to_text())


def test_the_same_seed_gives_the_same_board_and_others_differ():
    a, b = shake(4, seed=42), shake(4, seed=42)
    assert a.board == b.board and a.seed == 42
    boards = {shake(4, seed=s).board.to_text() for s in range(50)}
    assert len(boards) == 50
    unseeded = {shake(4).board.to_text() for _ in range(20)}
    assert len(unseeded) == 20


def test_the_letters_come_as_often_as_the_cubes_say():
    """Over many shakes each letter shows as often as the set's faces say (a sixth of
    each face of each cube a board): face choice and shuffle are not biased. A
    deterministic run of seeds; the bound is six standard deviations."""
    cs = CUBE_SETS["modern-4"]
    expected = Counter()
    for cube in cs.cubes:
        for f in cube:
            expected[f] += 1 / 6
    shakes = 3000
    seen: Counter[str] = Counter()
    corner: Counter[str] = Counter()
    for seed in range(shakes):
        board = shake(4, dice="modern-4", seed=seed).board
        seen.update(f for row in board.faces for f in row)
        corner[board.faces[0][0]] += 1
    for face, per_board in expected.items():
        mean = per_board * shakes
        sd = (shakes * per_board * (1 - per_board / 16)) ** 0.5
        assert abs(seen[face] - mean) < 6 * sd + 1, (face, seen[face], mean)
    # the cubes are shuffled: the top-left cell shows every letter of the set, as often
    for face, per_board in expected.items():
        mean = shakes * per_board / 16
        assert abs(corner[face] - mean) < 6 * (mean ** 0.5) + 2, (face, corner[face], mean)


def test_the_6x6_set_gives_two_letter_faces_and_blanks():
    faces = Counter(f for s in range(400) for row in shake(6, seed=s).board.faces for f in row)
    assert faces["#"] > 0 and faces["Th"] > 0 and faces["Qu"] > 0
    assert "".join(face_letters(f) for f in ("Qu", "#")) == "qu"


@pytest.mark.parametrize("size, lang, dice, fragment", [
    (3, "en", None, "unknown size 3"),
    (7, "en", None, "unknown size 7"),
    (4, "xx", None, "unknown edition 'xx'"),
    (4, "de", None, "cubes of the German edition's 4x4 box are not known"),
    (5, "fr", None, "French edition's 5x5"),
    (4, "en", "big-1979", "is for a 5x5 tray, not 4x4"),
    (4, "en", "nope-4", "unknown cube set 'nope-4'"),
])
def test_unknown_sizes_editions_and_sets_are_usage_errors(size, lang, dice, fragment):
    with pytest.raises(UsageError) as err:
        shake(size, lang, dice)
    assert fragment in err.value.one_line()


def test_an_edition_without_cubes_can_shake_another_editions_dice():
    """German words on English dice: the hint of the refusal names the way."""
    with pytest.raises(UsageError) as err:
        shake(4, "de")
    assert "--dice" in err.value.one_line() and "--tray" in err.value.one_line()
    assert shake(4, "de", dice="classic-4", seed=1).dice == "classic-4"


@pytest.mark.parametrize("seed", [-1, 2**63, True, 1.5])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(UsageError):
        shake(4, seed=seed)
