"""decode: orientation from turn probabilities, soft cube-set prior, flags, to_dict."""
import json

import numpy as np

from boggle_cv.game import dice
from boggle_cv.game.board import Board
from boggle_cv.vision.decode import DecodeConfig, choose_rotation, decode
from boggle_cv.vision.stages import Reading
from boggle_cv.vision.reader_model import FACES


def _reading(board: Board, turn: int, conf: float = 0.95) -> Reading:
    n = board.size
    f = np.full((n * n, len(FACES)), (1 - conf) / (len(FACES) - 1), np.float32)
    t = np.full((n * n, 4), 0.02, np.float32)
    for k, (r, c) in enumerate(board.cells()):
        f[k, FACES.index(board.face(r, c))] = conf
        t[k, turn] = 0.94
    return Reading(f, t)


def test_upright_board_is_kept():
    b = Board.parse("PERS/LATG/SINE/TERS")
    br = decode(_reading(b, 0), 4)
    assert br.board == b and br.rotation == 0
    assert all(c.turn == 0 for row in br.cells for c in row)


def test_board_photographed_sideways_is_turned_upright():
    upright = Board.parse("PERS/LATG/SINE/TERS")
    # the photo shows the board turned 90 degrees clockwise: every letter has turn 90
    photo = upright.rotated(1)
    br = decode(_reading(photo, 1), 4)
    assert br.board == upright
    assert br.rotation == 3
    assert all(c.turn == 0 for row in br.cells for c in row)
    # photo_cell maps back into the photo's grid
    c = br.cells[0][0]
    assert photo.face(*c.photo_cell) == upright.face(0, 0)


def test_choose_rotation_majority():
    t = np.zeros((3, 3, 4))
    t[..., 2] = 1.0
    assert choose_rotation(t) == 2


def _x_board():
    """A modern-4 roll without X, and the same board with an X at (1, 1)."""
    for seed in range(100):
        b = dice.roll("modern-4", seed=seed)
        faces = [f for row in b.faces for f in row]
        if "X" in faces or b.face(0, 0) == "X":
            continue
        other = Board(tuple(tuple(("X" if (r, c) == (1, 1) else f) for c, f in enumerate(row))
                            for r, row in enumerate(b.faces)))
        if all(dice.unmatched_cells(other, s) == 0 or s != "modern-4" for s in ["modern-4"]):
            return b, other
    raise AssertionError("no suitable roll")


def test_prior_breaks_a_near_tie_but_not_a_confident_reading():
    b, other = _x_board()
    assert dice.can_produce(other, "modern-4")
    fx, k0 = FACES.index("X"), FACES.index(b.face(0, 0))
    rd = _reading(other, 0)
    # cell (0,0) reads as a second X (one X cube in the set) by a small margin
    rd.faces[0] = 0.001
    rd.faces[0, fx] = 0.5
    rd.faces[0, k0] = 0.45
    br = decode(rd, 4)
    assert br.cells[0][0].face == b.face(0, 0)
    assert br.cells[0][0].changed_by_prior and br.cells[0][0].flagged
    assert "modern-4" in br.sets
    # the same reading at high confidence is left alone, and no set fits
    rd.faces[0] = 0.001
    rd.faces[0, fx] = 0.97
    rd.faces[0, k0] = 0.02
    br2 = decode(rd, 4)
    assert br2.cells[0][0].face == "X" and not br2.cells[0][0].changed_by_prior
    assert "modern-4" not in br2.sets


def test_flags_and_runner_up_and_json():
    b = Board.parse("PERS/LATG/SINE/TERS")
    rd = _reading(b, 0)
    rd.faces[5] = 0.0
    rd.faces[5, FACES.index("A")] = 0.55
    rd.faces[5, FACES.index("R")] = 0.45
    br = decode(rd, 4, DecodeConfig(flag_below=0.8), use_prior=False)
    c = br.cells[1][1]
    assert c.flagged and c.runner_up == "R" and abs(c.runner_up_confidence - 0.45) < 1e-6
    assert (1, 1) in br.flagged
    d = json.loads(json.dumps(br.to_dict()))
    assert d["faces"][0] == ["P", "E", "R", "S"] and d["size"] == 4
    assert d["cells"][1][1]["flagged"] is True


def test_implausible_board_of_blanks():
    """Five blank faces of 16: no cube set has that many (one cube with blank faces
    at most), so the grid lies over an empty tray or a tray with cubes missing."""
    from boggle_cv.vision.decode import implausible
    ok = decode(_reading(Board.parse("PERS/LATG/SINE/TER#"), 0), 4, use_prior=False)
    assert implausible(ok) is None
    two = decode(_reading(Board.parse("PERS/LATG/SIN#/TER#"), 0), 4, use_prior=False)
    assert implausible(two) is None
    four = decode(_reading(Board.parse("PERS/LA#G/SIN#/T#R#"), 0), 4, use_prior=False)
    assert implausible(four) is None  # a blurred full tray may read a few cubes as blank
    five = decode(_reading(Board.parse("PERS/#A#G/SIN#/T#R#"), 0), 4, use_prior=False)
    why = implausible(five)
    assert why and "5 of the 4x4 cells read as blank" in why


def test_implausible_board_read_without_confidence():
    from boggle_cv.vision.decode import implausible
    b = Board.parse("PERS/LATG/SINE/TERS")
    unsure = decode(_reading(b, 0, conf=0.2), 4, use_prior=False)
    assert implausible(unsure) is None  # no bar by default
    why = implausible(unsure, min_mean_confidence=0.3)
    assert why and "could not be read" in why
    sure = decode(_reading(b, 0, conf=0.9), 4, use_prior=False)
    assert implausible(sure, min_mean_confidence=0.3) is None


def test_cells_cut_by_the_photo_edge_are_flagged():
    from boggle_cv.vision.decode import mark_cut_cells
    b = Board.parse("PERS/LATG/SINE/TERS")
    br = decode(_reading(b, 0), 4, use_prior=False)
    outside = np.zeros((4, 4))
    outside[2, 3] = 0.4
    outside[0, 0] = 0.05
    mark_cut_cells(br, outside)
    cut = {(c.row, c.col): c for row in br.cells for c in row}
    assert cut[(2, 3)].flagged and cut[(2, 3)].outside_photo == 0.4
    assert not cut[(0, 0)].flagged
    assert br.flagged == [(2, 3)]
    assert br.to_dict()["cells"][2][3]["outside_photo"] == 0.4


def test_decode_weighs_a_cut_cell_less():
    """A cube half outside the photo: its probabilities are flattened (conf drops,
    the runner-up gains) and the cell is flagged; other cells are untouched."""
    b = Board.parse("PERS/LATG/SINE/TERS")
    rd = _reading(b, 0, conf=0.95)
    outside = np.zeros((4, 4))
    outside[1, 2] = 0.5
    plain = decode(rd, 4, use_prior=False)
    cut = decode(rd, 4, use_prior=False, outside=outside)
    assert cut.board == plain.board
    c, p = cut.cells[1][2], plain.cells[1][2]
    assert c.confidence < p.confidence and c.runner_up_confidence > p.runner_up_confidence
    assert c.flagged and c.outside_photo == 0.5
    assert np.isclose(cut.cells[0][0].confidence, plain.cells[0][0].confidence)


def test_implausible_board_no_cube_set_can_show():
    """A pattern taken for a tray (a cross-stitch tablecloth read as a 4x4 board of
    N's) shows letters no known cube set of its size can: refused; a shaken board,
    and one with a cube or two misread, still reads."""
    from boggle_cv.vision.decode import implausible
    pattern = decode(_reading(Board.parse("MNNW/NNNN/NMNN/NNNN"), 0), 4, use_prior=False)
    assert dice.fewest_unmatched(pattern.board) == 7
    why = implausible(pattern)
    assert why and "no cube set shows these letters (9 of the 16 cells at most" in why
    for size, name in ((4, "modern-4"), (5, "big-1979"), (6, "super-big-6")):
        shaken = dice.roll(name, seed=3)
        assert dice.fewest_unmatched(shaken) == 0
        assert implausible(decode(_reading(shaken, 0), size, use_prior=False)) is None
    misread = Board.parse("PERS/LATG/SINE/ZZZZ")
    assert 0 < dice.fewest_unmatched(misread) <= 4
    assert implausible(decode(_reading(misread, 0), 4, use_prior=False)) is None
