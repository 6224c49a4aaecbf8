"""Tesseract engine: clear failure when missing; reads a clean printed letter."""
import shutil

import cv2
import numpy as np
import pytest

from boggle_cv.errors import EngineMissingError
from boggle_cv.vision.reader_model import FACES


def test_missing_tesseract_is_exit_3(monkeypatch):
    pytesseract = pytest.importorskip("pytesseract")
    from boggle_cv.vision.reader_tesseract import TesseractReader
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    with pytest.raises(EngineMissingError) as e:
        TesseractReader()
    assert e.value.exit_code == 3 and "tesseract" in e.value.message


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract not installed")
def test_reads_a_clean_letter_and_its_turn():
    from boggle_cv.vision.reader_tesseract import TesseractReader
    img = np.full((96, 96, 3), 235, np.uint8)
    cv2.putText(img, "K", (26, 70), cv2.FONT_HERSHEY_DUPLEX, 2.0, (20, 20, 20), 5)
    sideways = np.ascontiguousarray(np.rot90(img, -1))  # letter turned 90 degrees clockwise
    rd = TesseractReader().read(np.stack([img, sideways]))
    assert FACES[int(rd.faces[0].argmax())] == "K"
    assert FACES[int(rd.faces[1].argmax())] == "K"
    assert int(rd.turns[1].argmax()) == 1
