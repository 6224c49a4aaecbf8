"""read_sheet: the chain, its result's contract and the bad inputs (a fake word
reader; the real one is tested end to end in tests/cli/test_sheet.py)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

import boggle_cv
from boggle_cv.errors import ArgumentTypeError, BoggleError, ImageReadError, NoWritingError
from boggle_cv.vision.sheet import SheetReading, read_sheet
from boggle_cv.vision.stages import DebugImages

from sheet_helpers import WORDS, fake_reader, photo_of, sheet

REPO_SAMPLE = __import__("pathlib").Path(__file__).resolve().parents[2] / "samples" / "sample-4x4-a.jpg"


def test_words_in_order_with_boxes_in_photo_pixels():
    paper, boxes = sheet(0, struck=("tale",))
    photo, corners = photo_of(paper, 0, angle=6.0, turn=90)
    sink = DebugImages()
    got = read_sheet(photo, reader=fake_reader, debug=sink)
    assert isinstance(got, SheetReading) and got.turn == 270
    assert len(got.words) == len(WORDS)
    assert [w.crossed_out for w in got.words] == [w == "tale" for w in WORDS]
    assert np.abs(np.asarray(got.corners) - corners).max() < 12
    # each box: 4 (x, y) points inside the paper's outline in the photo
    outline = np.asarray(corners, np.float32)
    for w in got.words:
        assert len(w.box) == 4
        for x, y in w.box:
            assert cv2.pointPolygonTest(outline, (x, y), False) >= 0
    # writing order: down the page, that is leftwards in a photo turned 90 degrees clockwise
    xs = [np.mean([x for x, _ in w.box]) for w in got.words]
    assert xs == sorted(xs, reverse=True)
    assert {"s1_paper", "s2_flat", "s3_words"} <= set(sink.images)
    assert got.scored_words == ["w"] * (len(WORDS) - 1)


def test_exported_lazily_from_the_package():
    assert boggle_cv.read_sheet is read_sheet
    assert issubclass(boggle_cv.NoWritingError, BoggleError) and boggle_cv.NoWritingError.exit_code == 5


def test_blank_page_is_no_writing():
    paper, _ = sheet(1, lines=[])
    photo, _ = photo_of(paper, 1)
    with pytest.raises(NoWritingError, match="no writing found"):
        read_sheet(photo, reader=fake_reader)


@pytest.mark.parametrize("shape", [(1, 1, 3), (8, 8, 3), (15, 400, 3), (400, 15, 3)])
def test_an_image_under_the_smallest_side_is_no_writing(shape):
    with pytest.raises(NoWritingError, match="too small to hold a word"):
        read_sheet(np.zeros(shape, np.uint8), reader=fake_reader)


def test_an_image_at_the_smallest_side_is_read():
    """MIN_SIDE_PX itself is still read (here: a blank strip, so no writing, for that reason)."""
    from boggle_cv.vision.sheet.read import MIN_SIDE_PX
    with pytest.raises(NoWritingError) as err:
        read_sheet(np.full((MIN_SIDE_PX, 400, 3), 255, np.uint8), reader=fake_reader)
    assert "too small" not in str(err.value)


def test_the_tray_photo_is_no_writing():
    with pytest.raises(NoWritingError):
        read_sheet(str(REPO_SAMPLE), reader=fake_reader)


def test_a_sheet_with_only_scores_has_no_words():
    paper, _ = sheet(2, lines=[], margin_marks=("3", "1", "2"))
    photo, _ = photo_of(paper, 2)
    assert read_sheet(photo, reader=fake_reader).words == ()


def test_another_script_is_read_as_written_no_crash():
    """Cyrillic-like strokes: drawn shapes that are not Latin letters still come out
    as words (the reader's free reading), nothing raised."""
    paper = np.full((1400, 1100, 3), 245, np.uint8)
    rng = np.random.default_rng(3)
    for i in range(8):
        y = 120 + 90 * i
        x = 120
        for _ in range(5):  # letter-like loops and hooks
            cv2.ellipse(paper, (x, y), (12, 18), float(rng.uniform(0, 180)), 0, 300, (40, 30, 30), 3)
            cv2.line(paper, (x + 14, y - 20), (x + 14, y + 18), (40, 30, 30), 3)
            x += 34
    photo, _ = photo_of(paper, 3)
    got = read_sheet(photo, reader=fake_reader)
    assert len(got.words) == 8


def test_bad_arguments():
    with pytest.raises(ArgumentTypeError):
        read_sheet(12, reader=fake_reader)  # type: ignore[arg-type]
    with pytest.raises(ImageReadError):
        read_sheet("/nonexistent/sheet.jpg", reader=fake_reader)


def _png_bomb(w: int, h: int) -> bytes:
    """A valid 1-bit grey PNG of w x h zeros (small on disk, huge decoded)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = b"\x00" + bytes((w + 7) // 8)
    z = zlib.compressobj(9)
    body = b"".join(z.compress(row) for _ in range(h)) + z.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def test_over_the_pixel_cap_is_an_image_error(tmp_path):
    p = tmp_path / "bomb.png"
    p.write_bytes(_png_bomb(20_000, 20_000))
    with pytest.raises(ImageReadError, match="too large"):
        read_sheet(p, reader=fake_reader)


def test_all_words_are_read_in_one_call():
    # read_words batches like widths itself (recogniser.MAX_PAD_PX), so the sheet
    # hands it every crop at once, in writing order
    paper, _ = sheet(0)
    photo, _ = photo_of(paper, 0, angle=3.0)
    calls = []

    def reader(images, lexicon=None):
        calls.append(len(images))
        return fake_reader(images, lexicon)

    got = read_sheet(photo, reader=reader)
    assert calls == [len(WORDS)] and len(got.words) == len(WORDS)


def _pieces_page(gap: int):
    """A page of six 4-letter scrawls; the first written as two 2-letter pieces
    `gap` px apart (wider than a gap inside a word, narrower than JOIN_GAP)."""
    page = np.full((900, 700, 3), 235, np.uint8)

    def scrawl(x, y, n):
        for k in range(n):
            cv2.ellipse(page, (x + 8, y - 9), (6, 9), 0, 90, 360, (30, 30, 30), 3)
            x += 20
        return x

    x = scrawl(120, 200, 2)
    scrawl(x - 4 + gap, 200, 2)
    for y in (270, 340, 410, 480, 550):
        scrawl(120, y, 4)
    return photo_of(page, 5, angle=2.0)[0]


def _piece_reader(pieces_flagged: tuple[bool, bool], joined_free: str):
    """A reader that reads a crop as 'come' when it is a whole word's width, else as a
    piece 'co' (the first and second piece flagged or not); the joined reading's free
    reading is `joined_free`."""
    from types import SimpleNamespace

    def read(images, lexicon=None):
        out = []
        flags = iter(pieces_flagged)
        for c in images:
            whole = c.shape[1] > 2 * c.shape[0]
            word, flagged = ("come", False) if whole else ("co", next(flags))
            out.append(SimpleNamespace(word=word, confidence=0.95, alternatives=((word, 0.95),), flagged=flagged,
                                       free=joined_free if whole else word))
        return out
    return read


def test_a_word_in_two_pieces_is_read_as_one_when_a_piece_is_doubtful():
    got = read_sheet(_pieces_page(19), reader=_piece_reader((True, True), "come"))
    assert [w.word for w in got.words] == ["come"] * 6 and not got.words[0].flagged
    left, right = got.words[0].box[0][0], got.words[0].box[1][0]
    assert right - left > 60  # the box spans both pieces


def test_two_clearly_read_words_stay_two():
    got = read_sheet(_pieces_page(19), reader=_piece_reader((False, False), "come"))
    assert [w.word for w in got.words[:2]] == ["co", "co"] and len(got.words) == 7


def test_a_piece_that_does_not_make_a_word_stays_and_is_flagged():
    # joined, the network reads far more than the lexicon word: two words; the one read
    # clearly is a piece beside a doubtful one, so doubtful too
    got = read_sheet(_pieces_page(19), reader=_piece_reader((False, True), "cocomecome"))
    assert [w.word for w in got.words[:2]] == ["co", "co"] and got.words[0].flagged and got.words[1].flagged


@pytest.mark.parametrize("confidence, lexicon, flagged", [(0.93, ["w"], True), (0.99, ["w"], False), (0.93, None, False)])
def test_a_word_read_not_quite_surely_against_the_lexicon_is_asked(confidence, lexicon, flagged):
    """Words cut from a photo of a page read less surely than the word reader's own
    crops: against a lexicon, one under read.SHEET_SURE is flagged even where the
    reader did not flag it (a free reading's confidence is left as it is)."""
    from types import SimpleNamespace
    from boggle_cv.vision.sheet.read import SHEET_SURE
    assert 0.93 < SHEET_SURE < 0.99

    def reader(images, lex=None):
        return [SimpleNamespace(word="w", confidence=confidence, alternatives=(("w", confidence),), flagged=False,
                                free="w") for _ in images]

    paper, _ = sheet(0)
    got = read_sheet(photo_of(paper, 0)[0], lexicon=lexicon, reader=reader)
    assert len(got.words) == len(WORDS) and all(w.flagged == flagged for w in got.words)


@pytest.mark.parametrize("word, free, lexicon, flagged", [("eatings", "ening", ["eatings"], True),
                                                          ("eatings", "eating", ["eatings"], False),
                                                          ("ening", "ening", None, False)])
def test_a_sure_reading_that_does_not_fit_the_ink_is_asked(word, free, lexicon, flagged):
    """Against a lexicon, a word read surely but far from what the network reads freely
    (more than a third of its letters edited: read._fits) is flagged; one a letter off
    is not, nor a free reading."""
    from types import SimpleNamespace

    def reader(images, lex=None):
        return [SimpleNamespace(word=word, confidence=0.999, alternatives=((word, 0.999),), flagged=False,
                                free=free) for _ in images]

    paper, _ = sheet(0)
    got = read_sheet(photo_of(paper, 0)[0], lexicon=lexicon, reader=reader)
    assert got.words and all(w.flagged == flagged for w in got.words)
