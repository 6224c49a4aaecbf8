"""No sheet, no words: every photo of a tray in ../shared (the real photos and the
boggle-boards set), given as a sheet, is NoWritingError (exit 5, 422 in the room)
before a word is read; sheets with writing are not taken for trays."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from boggle_cv.errors import NoWritingError
from boggle_cv.vision.sheet import read_sheet

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("BOGGLE_CV_SHARED", REPO.parent / "shared"))
PHOTOS = ("*.jpg", "*.jpeg", "*.png")


def trays() -> list[Path]:
    return sorted(p for d in ("real-photos", "boggle-boards") for pattern in PHOTOS
                  for p in (SHARED / d).glob(pattern))


def no_reading(crops, lexicon):
    raise AssertionError("a tray's photo reached the word reader")


@pytest.mark.skipif(not trays(), reason="../shared's tray photos are not available")
def test_every_tray_photo_given_as_a_sheet_is_no_writing():
    read = []
    for photo in trays():
        try:
            read_sheet(photo, ["word"], reader=no_reading)
        except NoWritingError as e:
            assert "no writing found" in e.message
        except AssertionError:
            read.append(photo.name)
    assert not read, f"{len(read)} of {len(trays())} tray photos read as sheets: {read[:5]}"


def test_the_sample_sheet_is_not_taken_for_a_tray():
    reading = read_sheet(REPO / "samples" / "sheets" / "sheet-4x4-a.jpg",
                         reader=lambda crops, lexicon: [_Word()] * len(crops))
    assert len(reading.words) == 11


class _Word:
    word, confidence, alternatives, flagged, free, p_right, evidence = "word", 0.99, (("word", 0.99),), False, "word", None, None
