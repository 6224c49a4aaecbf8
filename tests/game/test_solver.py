"""Solver: words, paths, lengths, faces (boggle_cv/game/solver.py)."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boggle_cv.game.board import ALL_FACES, BLANK, Board, SINGLE_LETTERS, TWO_LETTER_FACES
from boggle_cv.game.dice import CUBE_SETS, roll
from boggle_cv.game.dictionary import COMMON, ROOT, TERMINAL, WIDTH, from_words
from boggle_cv.game.scoring import Rules, table_points
from boggle_cv.game.solver import find_paths
from boggle_cv.game.solver import find_words as solve


def spelled(board, path):
    return "".join(board.face(r, c).lower() for r, c in path)


def check_path(board, fw):
    path = fw.path
    assert len(set(path)) == len(path), "a cell used twice"
    for (r1, c1), (r2, c2) in zip(path, path[1:]):
        assert max(abs(r1 - r2), abs(c1 - c2)) == 1, "cells not adjoining"
    assert all(board.face(r, c) != "#" for r, c in path), "path through a blank"
    assert spelled(board, path) == fw.word


def test_known_answer_enable2k(enable2k):
    b = Board.parse("PERS/LATG/SINE/TERS")
    words = solve(b, enable2k)
    assert len(words) == 1045
    assert sum(table_points(len(w.word), Rules(size=4)) for w in words) == 3625


def test_small_board_exact_words():
    d = from_words(["cat", "act", "tac", "cab", "at", "taco", "dog"])
    b = Board.parse("CAT/XYZ/XYZ")
    assert [w.word for w in solve(b, d)] == ["cat", "tac"]  # "act": C and T do not adjoin
    assert [w.word for w in solve(b, d, min_length=2)] == ["at", "cat", "tac"]


def test_no_cell_twice_and_no_skipping():
    d = from_words(["aaa", "aba", "ac"])
    b = Board.parse("ABC/XXX/XXX")   # one A: "aaa" impossible; "ac" skips B
    assert solve(b, d, min_length=2) == []


def test_qu_counts_two_letters_and_q_alone_never():
    d = from_words(["quit", "qui", "quits", "suq"])
    b = Board.parse("QIT/SXX/XXX")
    ws = {w.word: w for w in solve(b, d, min_length=4)}
    assert set(ws) == {"quit"}
    assert len(ws["quit"].path) == 3 and ws["quit"].length == 4


def test_two_letter_faces_and_blank_blocks():
    d = from_words(["the", "then", "ten", "hen", "net"])
    b = Board.parse("[Th]E#/#N#/###")
    assert {w.word for w in solve(b, d)} == {"the", "then"}
    b2 = Board.parse("T#E/HXN/###")  # blank between T and E
    assert {w.word for w in solve(b2, d)} == set()


def test_default_min_length_by_size(default_dict):
    b5 = roll("big-1979", 3)
    assert min(len(w.word) for w in solve(b5, default_dict)) >= 4
    b4 = roll("modern-4", 3)
    assert min(len(w.word) for w in solve(b4, default_dict)) == 3


def test_find_paths_enumerates_all():
    b = Board.parse("AAA/AAA/AAA")
    assert len(find_paths(b, "a")) == 9
    assert find_paths(b, "ab") == []
    assert all(spelled(b, p) == "aa" for p in find_paths(b, "aa"))


letters = st.sampled_from(SINGLE_LETTERS + ("A", "E", "I", "O", "S", "T", "R", "N") * 3)
faces = st.one_of(letters, letters, letters, letters, letters, letters, st.sampled_from(ALL_FACES))


@st.composite
def boards(draw):
    n = draw(st.sampled_from([3, 4, 5]))
    return Board(tuple(tuple(draw(faces) for _ in range(n)) for _ in range(n)))




@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(boards())
def test_paths_are_valid(default_dict, board):
    for fw in solve(board, default_dict):
        check_path(board, fw)
        assert fw.word in default_dict


@settings(deadline=None, max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(boards(), st.integers(0, 3), st.booleans())
def test_turns_and_mirror_give_same_words(default_dict, board, turns, mirror):
    other = board.rotated(turns)
    if mirror:
        other = other.mirrored()
    assert [w.word for w in solve(board, default_dict)] == [w.word for w in solve(other, default_dict)]


@settings(deadline=None, max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(boards())
def test_solver_agrees_with_brute_force(default_dict, board):
    words = {w.word for w in solve(board, default_dict, min_length=3)}
    # every word found has a path by the independent path finder, and a sample of
    # dictionary words not found truly has none
    for w in list(words)[:20]:
        assert find_paths(board, w, limit=1)
    probe = ["tea", "eat", "rate", "stone", "notes", "tin", "sit", "ran", "quit", "the", "inert"]
    for w in probe:
        assert (w in words) == (bool(find_paths(board, w, limit=1)) and w in default_dict)


def reference_solve(board, dictionary, min_len):
    """The plain depth-first search: start cells and neighbours in flat-index order,
    one letter of a face at a time through the dictionary table; a word keeps the
    path on which it is first met. Returns [(word, path, common)], alphabetical."""
    n = board.size
    letters = [board.face(r, c).lower() if board.face(r, c) != BLANK else "" for r in range(n) for c in range(n)]
    table = dictionary.table
    found = {}

    def step(row, face):
        v = -1
        for ch in face:
            v = int(table[row + ord(ch) - 97])
            if v < 0:
                return None
            row = v >> 2
        return v

    def visit(i, v, path, word):
        if v & TERMINAL and len(word) >= min_len and word not in found:
            found[word] = (tuple(divmod(k, n) for k in path), bool(v & COMMON))
        r, c = divmod(i, n)
        for rr in range(r - 1, r + 2):
            for cc in range(c - 1, c + 2):
                j = rr * n + cc
                if 0 <= rr < n and 0 <= cc < n and j not in path and letters[j] and v >> 2:
                    w = step(v >> 2, letters[j])
                    if w is not None:
                        visit(j, w, path + [j], word + letters[j])

    for i in range(n * n):
        if letters[i]:
            v = step(ROOT * WIDTH, letters[i])
            if v is not None:
                visit(i, v, [i], letters[i])
    return [(w, p, c) for w, (p, c) in sorted(found.items())]


def random_boards(seed, count):
    """Boards of 3..6 with many two-letter faces and blanks (the dice rarely show two)."""
    rng = random.Random(seed)
    pool = SINGLE_LETTERS + ("A", "E", "I", "O", "S", "T", "R", "N") * 2 + TWO_LETTER_FACES * 3 + (BLANK,) * 2
    for _ in range(count):
        n = rng.randint(3, 6)
        yield Board(tuple(tuple(rng.choice(pool) for _ in range(n)) for _ in range(n)))


@pytest.mark.parametrize("cube_set", sorted(CUBE_SETS))
def test_same_words_paths_and_flags_as_plain_depth_first_search(default_dict, cube_set):
    """The vectorised search returns exactly what the plain search returns: the same
    words, common flags and, for each word, the first path in flat-index order."""
    for seed in range(12):
        for challenge in (False, True):
            board = roll(cube_set, seed, challenge=challenge)
            got = [tuple(w) for w in solve(board, default_dict)]
            assert got == reference_solve(board, default_dict, 3 if board.size <= 4 else 4), board


def test_same_as_plain_search_with_two_letter_faces_and_blanks(default_dict):
    for board in random_boards(2024, 40):
        for min_len in (1, 3):
            got = [tuple(w) for w in solve(board, default_dict, min_length=min_len)]
            assert got == reference_solve(board, default_dict, min_len), board


def test_a_word_spelt_by_a_face_and_by_two_cells_keeps_the_first_path():
    # "then" by [Th]+E+N (cells 0, 1, 4) and by T+H+E+N (cells 2, 5, 1, 4): the first in index order wins
    d = from_words(["then", "the"])
    b = Board.parse("[Th]ET/NHX/XXX")
    ws = {w.word: w.path for w in solve(b, d)}
    assert ws["then"] == ((0, 0), (0, 1), (1, 0))
    b2 = Board.parse("TE[Th]/HNX/XXX")   # the split spelling comes first now
    ws2 = {w.word: w.path for w in solve(b2, d)}
    assert ws2["then"] == ((0, 0), (1, 0), (0, 1), (1, 1))
