"""The legend of the annotated photo: every drawn path numbered at its start and
named under the photo (word, points, who found it), readable at phone size."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boggle_cv.game.board import Board
from boggle_cv.game.dictionary import load_default
from boggle_cv.game.referee import Corrections, RoundRequest, referee_round
from boggle_cv.vision.legend import PathLabel, apart, legend_band, spelled_by, text_px, with_legend
from boggle_cv.vision.round_photo import draw_round, drawn_words, round_labels
from boggle_cv.vision.overlay import OverlayStyle, draw_scan

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "samples" / "sample-4x4-a.jpg"


def test_label_texts():
    assert PathLabel("quest").text() == "QUEST"
    assert PathLabel("quest", 2, ()).text() == "QUEST · 2 points · missed"
    assert PathLabel("tale", 1, ("Ann",)).text() == "TALE · 1 point · found by Ann"
    assert PathLabel("tales", 2, ("Ann", "Bob", "Cy"), True).text() == \
        "TALES · 2 points · found by Ann, Bob and Cy (crossed off)"


def test_a_path_spells_its_word():
    faces = Board.parse("QABC/[Th]ERS/#EIO/ABCD").to_rows()
    assert spelled_by(faces, [(0, 0), (0, 1)]) == "qua"
    assert spelled_by(faces, [(1, 0), (1, 1), (2, 0)]) == "the"


def test_the_band_is_sized_by_the_width_and_holds_one_line_a_label():
    labels = [PathLabel("quest", 2, ()), PathLabel("tale", 1, ("Zoë",)), PathLabel("李雷", 1, ("Łukasz 🦊",))]
    colours = OverlayStyle().path_colours
    for width in (400, 1400, 4000):
        band = legend_band(width, labels, colours)
        px = text_px(width)
        assert band.shape[1] == width and band.dtype == np.uint8
        assert band.shape[0] >= int(px * 1.6) * 3
        assert px >= 0.04 * width or px == 16  # about 16 CSS px on a phone 390 px wide
        assert (band < 128).any()  # text drawn
        for k in range(3):  # each line's disc is its path's colour
            y = px // 2 + k * int(round(px * 1.6)) + int(round(px * 1.6)) // 2
            x = px // 2 + int(round(px * 0.62)) // 3
            assert np.abs(band[y, x].astype(int) - np.array(colours[k])).max() < 40, (k, band[y, x])


def test_a_long_line_is_cut_to_the_width():
    band = legend_band(300, [PathLabel("x" * 200, 11, ("someone",))], OverlayStyle().path_colours)
    assert band.shape[1] == 300 and (band[:, -3:] > 200).all()  # nothing drawn past the right margin


def test_no_labels_leave_the_photo_as_it_is():
    img = np.zeros((10, 20, 3), np.uint8)
    assert with_legend(img, [], OverlayStyle().path_colours) is img


def test_numbers_of_paths_that_start_together_do_not_overlap():
    pts = apart([(100.0, 100.0), (100.0, 100.0), (101.0, 99.0), (300.0, 300.0)], 10.0)
    for i in range(len(pts)):
        for j in range(i):
            assert (pts[i][0] - pts[j][0]) ** 2 + (pts[i][1] - pts[j][1]) ** 2 >= (2 * 10.0) ** 2
    assert pts[0] == (100.0, 100.0) and pts[3] == (300.0, 300.0)


@pytest.fixture(scope="module")
def scanned():
    from boggle_cv.errors import EngineMissingError
    from boggle_cv.vision.pipeline import Scanner
    try:
        scan, image = Scanner("classifier").scan_file(SAMPLE)
    except EngineMissingError as err:
        pytest.skip(err.one_line())
    return scan, image


def test_a_round_is_drawn_with_its_found_and_missed_words(scanned):
    scan, image = scanned
    d = load_default()
    best = [w.word for w in referee_round(RoundRequest(scan), d).sheet.words[:3]]
    result = referee_round(RoundRequest(scan, Corrections(), players={"ann": [best[0], best[2]], "bob": [best[0]],
                                                                      "Zoë": [best[1]]}), d)
    words = drawn_words(result, missed=2, found=2)
    assert [w.word for w in words[:2]] == best[:2] and all(w.word not in best for w in words[2:])
    labels = round_labels(result, words)
    assert labels[0] == PathLabel(best[0], words[0].points, ("ann", "bob"), True)
    assert labels[1] == PathLabel(best[1], words[1].points, ("Zoë",), False)
    assert labels[2].found_by == () and "missed" in labels[2].text()
    out = draw_round(image, scan, result, missed=2, found=2)
    plain = draw_round(image, scan, result, missed=0, found=0)  # the photo as drawn, without paths or legend
    assert out.shape[1] == plain.shape[1] and out.shape[0] == plain.shape[0] + legend_band(
        plain.shape[1], labels, OverlayStyle().path_colours).shape[0]
    assert np.abs(out[:plain.shape[0]].astype(int) - plain.astype(int)).mean() > 0.5


def named_labels(result):
    return [PathLabel(w.word) for w in result.sheet.missed[:3]]


def test_the_scan_overlay_names_the_words_of_its_paths(scanned):
    """draw_scan without labels (the scan command's missed words) names each path by
    the word its cells spell."""
    scan, image = scanned
    result = referee_round(RoundRequest(scan), load_default())
    paths = [w.path for w in result.sheet.missed[:3]]
    out = draw_scan(image, scan, result.board.to_rows(), paths)
    named = draw_scan(image, scan, result.board.to_rows(), paths,
                      labels=[PathLabel(w.word) for w in result.sheet.missed[:3]])
    assert np.array_equal(out, named)
    bare = draw_scan(image, scan)  # no path, no legend
    assert out.shape[0] == bare.shape[0] + legend_band(bare.shape[1], named_labels(result), OverlayStyle().path_colours).shape[0]
