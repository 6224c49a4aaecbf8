"""Red marks: a ring around a letter, a red cube, and no false marks on orange trays."""
import cv2
import numpy as np

from boggle_cv.vision.marks import find_marks


def _cell(cube=(235, 238, 240), tray=(30, 110, 230), ring=False, letter=(30, 30, 30)):
    s = 64
    img = np.zeros((s, s, 3), np.uint8)
    img[:] = tray
    cv2.rectangle(img, (5, 5), (58, 58), cube, -1)
    if ring:
        cv2.circle(img, (32, 32), 22, (30, 30, 210), 4)
    cv2.putText(img, "E", (20, 44), cv2.FONT_HERSHEY_SIMPLEX, 1.1, letter, 3)
    return img


def test_ring_cube_and_plain():
    crops = np.stack([np.stack([_cell(), _cell(ring=True)]),
                      np.stack([_cell(cube=(40, 40, 200), letter=(250, 250, 250)), _cell(letter=(40, 40, 200))])])
    m = find_marks(crops)
    assert not m[0][0].bonus and not m[0][0].challenge
    assert m[0][1].bonus and not m[0][1].challenge
    assert m[1][0].challenge and not m[1][0].bonus
    # a red letter is neither a ring nor a red cube
    assert not m[1][1].bonus and not m[1][1].challenge


def test_orange_tray_is_not_red():
    crops = np.stack([np.stack([_cell(tray=(0, 90, 255))])])
    m = find_marks(crops)
    assert not m[0][0].bonus and not m[0][0].challenge
