"""Red marks need evidence: a ring must be round, its strength travels with the scan,
and a faint mark is doubtful, not counted."""
from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from boggle_cv.vision.marks import MarkEvidence, find_marks

SHARED = Path(os.environ.get("BOGGLE_CV_SHARED", Path(__file__).resolve().parents[2].parent / "shared"))
OVERLAY = SHARED / "real-photos" / "bogglecv-5x5-blue-overlay.png"


def _cell(draw=None, s=96):
    img = np.zeros((s, s, 3), np.uint8)
    img[:] = (30, 110, 230)
    cv2.rectangle(img, (6, 6), (89, 89), (235, 238, 240), -1)
    cv2.putText(img, "E", (33, 62), cv2.FONT_HERSHEY_SIMPLEX, 1.3, (30, 30, 30), 3)
    if draw is not None:
        draw(img)
    return img


def _marks(*cells):
    return find_marks(np.stack([np.stack(list(cells))]))[0]


def test_a_round_ring_is_sure_and_a_red_square_frame_is_doubtful():
    ring, frame, plain = _marks(_cell(lambda im: cv2.circle(im, (48, 48), 33, (30, 30, 210), 4)),
                                _cell(lambda im: cv2.rectangle(im, (22, 22), (74, 74), (0, 0, 255), 2)),
                                _cell())
    assert ring.bonus and ring.sure and ring.strength > 0.95
    assert frame.bonus and not frame.sure and 0.6 <= frame.strength < 0.85
    assert not plain.bonus and not plain.sure


def test_a_red_cube_is_a_sure_challenge_cube():
    red = _marks(_cell(lambda im: cv2.rectangle(im, (6, 6), (89, 89), (45, 45, 190), -1)))[0]
    assert red.challenge and red.sure and red.strength > 0.9


@pytest.mark.skipif(not OVERLAY.exists(), reason=f"{OVERLAY} not available")
def test_red_debug_lines_drawn_on_a_real_photo_make_no_ring():
    """Another app's red contours round each letter and lines along the tray's edges
    covered eight annuli: they lie on no circle."""
    from boggle_cv.vision.pipeline import Scanner
    res, _ = Scanner().scan_file(OVERLAY)
    assert res.bonus_cells == [] and res.challenge_cell is None and res.marks == []


def _scan():
    """A 4x4 scan of Es (a fake reader and tray finder)."""
    from boggle_cv.vision.pipeline import Scanner
    from boggle_cv.vision.reader_model import FACES
    from boggle_cv.vision.stages import Reading
    from boggle_cv.vision.tray import TrayResult

    class Reader:
        def read(self, crops):
            f = np.full((len(crops), len(FACES)), 0.1 / (len(FACES) - 1), np.float32)
            f[:, FACES.index("E")] = 0.9
            t = np.full((len(crops), 4), 0.01, np.float32)
            t[:, 0] = 0.97
            return Reading(f, t)

    def tray(image, size=None, *, debug=None):
        c = 20.0 + 20 * np.arange(4)
        corners = np.array([[10, 10], [90, 10], [90, 90], [10, 90]], float)
        return TrayResult(4, corners, 0.9, np.stack(np.meshgrid(c, c), -1))
    return Scanner(reader=Reader(), tray_finder=tray).scan_image(np.full((100, 100, 3), 200, np.uint8))


def test_the_evidence_travels_with_the_scan_document():
    from boggle_cv.vision.pipeline import ScanResult
    scan = _scan()
    scan.marks = [MarkEvidence("bonus", (1, 2), 0.7, False), MarkEvidence("challenge", (3, 0), 0.95, True)]
    scan.challenge_cell = (3, 0)
    doc = json.loads(json.dumps(scan.to_dict()))
    cell = next(c for c in doc["board"]["cells"] if (c["row"], c["col"]) == (1, 2))
    assert cell["mark"] == {"kind": "bonus", "strength": 0.7, "sure": False}
    assert ScanResult.from_dict(doc).marks == scan.marks


def test_a_faint_mark_is_doubtful_and_not_counted_until_answered():
    from boggle_cv.game.referee import Corrections, RoundRequest, RoundResult, RulesOptions, referee_round
    scan = _scan()
    scan.marks = [MarkEvidence("bonus", (1, 2), 0.7, False), MarkEvidence("bonus", (0, 0), 0.97, True)]
    scan.bonus_cells = [(0, 0)]
    res = referee_round(RoundRequest(scan))
    assert res.rules.bonus_cells == {(0, 0)} and res.doubtful_marks == (("bonus", (1, 2)),)
    assert any("r2c3" in n and "not counted" in n for n in res.notes)
    assert RoundResult.from_dict(json.loads(json.dumps(res.to_dict()))).doubtful_marks == res.doubtful_marks
    yes = referee_round(RoundRequest(scan, Corrections(marks={(1, 2): True, (0, 0): False})))
    assert yes.rules.bonus_cells == {(1, 2)} and yes.doubtful_marks == ()
    settled = referee_round(RoundRequest(scan, options=RulesOptions(bonus_cells=frozenset({(1, 2)}))))
    assert settled.rules.bonus_cells == {(0, 0), (1, 2)} and settled.doubtful_marks == ()


def test_the_annotated_photo_marks_every_special_cell_the_score_used():
    from boggle_cv.game.referee import RoundRequest, RulesOptions, referee_round
    from boggle_cv.vision.round_photo import draw_round
    from boggle_cv.vision.overlay import OverlayStyle
    scan = _scan()
    scan.marks = [MarkEvidence("bonus", (3, 3), 0.7, False)]
    options = RulesOptions(bonus_cells=frozenset({(0, 0)}), challenge_cell=(2, 1))
    res = referee_round(RoundRequest(scan, options=options))
    drawn = draw_round(np.full((100, 100, 3), 200, np.uint8), scan, res)
    b, g, r = OverlayStyle().mark
    assert (b, g, r) == (255, 0, 255)
    magenta = (drawn[..., 0] > 180) & (drawn[..., 1] < 120) & (drawn[..., 2] > 180)

    def near(cell):
        x, y = scan.tray.cell_centres[cell]
        return magenta[int(y) - 10:int(y) + 11, int(x) - 10:int(x) + 11].sum()
    for cell in [(0, 0), (2, 1), (3, 3)]:  # the bonus, the challenge cube, the doubtful ring
        photo = next(c.photo_cell for row in scan.reading.cells for c in row if (c.row, c.col) == cell)
        assert near(photo) > 10, cell
    scan.marks = []
    plain = referee_round(RoundRequest(scan))
    assert not ((lambda d: (d[..., 0] > 180) & (d[..., 1] < 120) & (d[..., 2] > 180))(
        draw_round(np.full((100, 100, 3), 200, np.uint8), scan, plain))).any()
