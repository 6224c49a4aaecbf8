"""layout (and ink): the words of a flat sheet, in writing order."""
from __future__ import annotations

import numpy as np

from boggle_cv.vision.sheet.ink import ink_mask
from boggle_cv.vision.sheet.layout import crop_word, find_words

from sheet_helpers import WORDS, sheet


def _centre_in(word, box) -> bool:
    cx, cy = (word.x0 + word.x1) / 2, (word.y0 + word.y1) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


def _match(found, boxes) -> None:
    assert len(found) == len(boxes), (len(found), len(boxes))
    for f, b in zip(found, boxes):
        assert _centre_in(f, b), (f, b)


def test_ruled_sheet_one_word_a_line_in_order():
    paper, boxes = sheet(0, ruled=True)
    ink = ink_mask(paper)
    assert ink.lines.any()  # the ruling was found and taken out
    _match(find_words(ink), boxes)


def test_plain_sheet_two_columns_read_down_then_across():
    paper, boxes = sheet(1, ruled=False, columns=2)
    found = find_words(ink_mask(paper))
    _match(found, boxes)
    assert [w.column for w in found] == [0] * 6 + [1] * 6


def test_several_words_a_line_split_by_spaces_and_commas():
    lines = [["seat", "sat"], ["eats"], ["rate", "tears", "stare"]]
    for sep in ("   ", ", "):
        paper, boxes = sheet(2, lines=lines, separator=sep)
        _match(find_words(ink_mask(paper)), boxes)


def test_crossed_out_word_kept_and_marked():
    paper, boxes = sheet(3, struck=("tale", "sat"))
    found = find_words(ink_mask(paper))
    _match(found, boxes)
    assert [WORDS[i] for i, w in enumerate(found) if w.crossed_out] == ["sat", "tale"]


def test_scores_in_the_margin_are_not_words():
    paper, boxes = sheet(4, margin_marks=("1", "2", "11", "3", "5"))
    _match(find_words(ink_mask(paper)), boxes)


def test_blank_paper_has_no_words():
    paper, _ = sheet(5, lines=[])
    assert find_words(ink_mask(paper)) == []


def test_crop_holds_the_word_and_no_ruling():
    paper, boxes = sheet(6, ruled=True)
    ink = ink_mask(paper)
    words = find_words(ink)
    crop = crop_word(paper, ink, words[0])
    assert crop.dtype == np.uint8 and crop.ndim == 3
    assert crop.shape[1] >= words[0].x1 - words[0].x0
    # no long light-blue stroke left across the crop
    blue = (crop[:, :, 0].astype(int) - crop[:, :, 2].astype(int)) > 40
    assert blue.sum(axis=1).max() < crop.shape[1] * 0.5


def _scrawl(page, x, y, n, h, rise=0):
    """n letter-like loops (h px high, ~0.8 h wide) from (x, y) on the baseline y,
    each raised `rise` px more than the last (a word written on a slope); returns the
    x after the last."""
    import cv2
    for k in range(n):
        cx, cy = x + int(0.45 * h), y - h // 2 - k * rise
        cv2.ellipse(page, (cx, cy), (int(0.35 * h), h // 2), 0, 20, 340, (30, 30, 30), 3)
        x += int(1.1 * h)
    return x


def test_a_sloped_word_and_a_tall_letter_stay_one_word():
    """Pieces of one word whose core bands do not meet (a word on a slope, a 't'
    beside short letters) are one line and one word; the next line stays apart."""
    import cv2
    page = np.full((700, 900, 3), 235, np.uint8)
    # line 1: "uni" + a tall 't' whose middle lies above the short letters' band
    x = _scrawl(page, 100, 200, 3, 16)
    cv2.line(page, (x + 2, 164), (x + 2, 190), (30, 30, 30), 3)
    cv2.line(page, (x + 2, 190), (x + 10, 184), (30, 30, 30), 3)
    # line 2: a word on a slope, its second half raised by half a letter height
    x = _scrawl(page, 100, 300, 2, 18)
    _scrawl(page, x, 286, 2, 18)
    # line 3, a line pitch lower: its own word
    _scrawl(page, 100, 370, 4, 18)
    # lines 4-6: a few plain words, so the page's letter height is the writing's
    for k, y in enumerate((440, 510, 580)):
        _scrawl(page, 100, y, 4 + k % 2, 18)
    found = find_words(ink_mask(page))
    assert len(found) == 6, found
    assert found[0].x0 < 110 and found[0].x1 > 150 and found[0].y0 < 168  # "unit" whole
    assert found[1].x0 < 110 and found[1].x1 > 170 and found[1].y1 > 295 and found[1].y0 < 275
    assert found[2].y0 > 330  # the next line is not taken into the sloped word


def test_a_heavy_letter_at_the_word_edge_is_no_strike():
    """A run of ink touching the box's edge counts as long as it is, not half the
    strike kernel longer (the opening's border): a heavy letter at a word's start,
    half the word wide, is no strike-through; a stroke across the whole word is."""
    import cv2
    from boggle_cv.vision.sheet.layout import _struck
    for k in range(0, 10, 2):
        d = np.zeros((40, 70), np.float32)
        cv2.ellipse(d, (16, 20), (16, 7), 0, 0, 360, 0.8, -1)
        cv2.line(d, (40 + k, 34), (60, 6), 0.8, 7)
        assert not _struck(d, 0, 2, 70, 38)
        cv2.line(d, (0, 21), (69, 19), 0.8, 2)
        assert _struck(d, 0, 2, 70, 38)


def test_lines_joined_side_by_side_stay_one_line_high():
    """Two lines whose blobs sit side by side are joined only while the joined line
    is at most SIDE_SPAN letter heights tall: on a page flattened askew, a line's
    hanging last letter sits beside the next line's tall first letter."""
    from boggle_cv.vision.sheet.layout import _Blob, _join_side_by_side
    pen = 23.0
    # a word on a slope: its two halves, side by side, half a letter apart in height
    sloped = _join_side_by_side([[_Blob(100, 281, 137, 304)], [_Blob(139, 269, 175, 292)]], pen)
    assert len(sloped) == 1
    # line 1 ends in a 'g' hanging low; line 2 starts beside it with a tall letter
    line1 = [_Blob(100, 181, 175, 204), _Blob(177, 190, 181, 230)]
    line2 = [_Blob(184, 208, 189, 240), _Blob(195, 222, 267, 244)]
    assert len(_join_side_by_side([line1, line2], pen)) == 2


def test_a_joining_stroke_along_the_baseline_is_no_strike():
    """Fast cursive joins its letters by one long stroke along the baseline (Jeremy's
    "node"): a long straight run, but with the letters all above it. A strike goes
    through the letters: ink on both sides of it."""
    import cv2
    from boggle_cv.vision.sheet.layout import _struck
    d = np.zeros((44, 110), np.float32)
    cv2.line(d, (0, 30), (96, 30), 0.8, 3)                       # the joining stroke
    for x in (18, 42, 66):                                        # three humps on it
        cv2.ellipse(d, (x, 24), (9, 9), 0, 180, 360, 0.8, 3)
    cv2.line(d, (96, 4), (96, 31), 0.8, 3)                        # a tall last letter
    assert not _struck(d, 0, 2, 110, 42)
    e = np.zeros((44, 110), np.float32)
    for x in (14, 38, 62, 86):                                    # letters above and below the middle
        cv2.ellipse(e, (x, 24), (9, 11), 0, 0, 360, 0.8, 3)
    cv2.line(e, (0, 24), (109, 22), 0.8, 3)                       # a strike through them
    assert _struck(e, 0, 2, 110, 42)


def test_a_descender_cut_from_its_letter_stays_in_its_word():
    """A fast pen leaves a 'g' or 'y' tail apart from its letter, below the line's
    middle band: it joins the line it touches, so "using" stays one word (not "usin"
    plus a word "j" on a line of its own); a short word on the next line does not."""
    import cv2
    page = np.full((700, 900, 3), 235, np.uint8)
    x = _scrawl(page, 100, 200, 4, 20)
    cv2.ellipse(page, (x - 10, 209), (6, 9), 0, 0, 180, (30, 30, 30), 2)   # the tail, apart
    _scrawl(page, 100, 290, 2, 20)                                         # "an" on the next line
    for y in (380, 460, 540):
        _scrawl(page, 100, y, 5, 20)
    found = find_words(ink_mask(page))
    assert len(found) == 5, found
    assert found[0].y1 >= 220 and found[0].y0 < 185           # the tail inside the first word
    assert found[1].y0 > 255 and found[1].x1 < 160             # "an" its own word, below


def test_specks_on_the_paper_edge_do_not_shrink_the_letter_height():
    """A sliver of table or shadow along the flat paper's edge leaves specks there;
    they are not ink (the BORDER band), so the letter height is the writing's and
    a widely spaced word is not cut at its letters' gaps."""
    import cv2
    page = np.full((800, 600, 3), 235, np.uint8)
    for y in range(20, 780, 12):
        cv2.rectangle(page, (0, y), (3, y + 4), (40, 40, 40), -1)   # specks on the left edge
    for y in (200, 280, 360, 440):
        _scrawl(page, 100, y, 5, 24)
    ink = ink_mask(page)
    assert not ink.mask[:, :4].any()
    assert 20 <= ink.pen <= 30, ink.pen
    assert len(find_words(ink)) == 4


def test_a_ruled_line_through_a_word_is_no_strike():
    """The paper's ruling (ink.lines, not ink) crossing a word is left out of the
    strike test: a word sitting on a line is not crossed out."""
    import cv2
    from boggle_cv.vision.sheet.layout import _struck
    d = np.zeros((44, 110), np.float32)
    for x in (14, 38, 62, 86):
        cv2.ellipse(d, (x, 24), (9, 11), 0, 0, 360, 0.8, 3)
    ruling = np.zeros((44, 110), np.uint8)
    ruling[23:26] = 255
    d[ruling > 0] = np.maximum(d[ruling > 0], 0.8)
    assert _struck(d, 0, 2, 110, 42)
    assert not _struck(d, 0, 2, 110, 42, ruling)


def _comma_page(kind: str):
    """A line "word, word" (kind "touching": the comma written on the first word's
    last letter; "apart": a comma of its own) or "wo.rd" (kind "piece": a low speck
    inside a word, as close to the letters after it as before it), above three
    plain lines (the page's letter height)."""
    import cv2
    page = np.full((700, 900, 3), 235, np.uint8)
    x = _scrawl(page, 100, 200, 4, 22)
    if kind == "touching":
        cv2.line(page, (x - 4, 198), (x - 6, 208), (30, 30, 30), 3)
        _scrawl(page, x + 12, 200, 4, 22)
    elif kind == "apart":
        cv2.line(page, (x + 1, 197), (x - 1, 204), (30, 30, 30), 2)
        _scrawl(page, x + 17, 200, 4, 22)
    else:
        cv2.circle(page, (x + 1, 199), 2, (30, 30, 30), -1)
        _scrawl(page, x + 3, 200, 4, 22)
    for y in (300, 380, 460):
        _scrawl(page, 100, y, 6, 22)
    return find_words(ink_mask(page))


def test_a_comma_splits_two_words_even_at_a_narrow_space():
    """A list written "seat, tears": a comma hanging below its word's own baseline
    (though the line's other word has no tail) or a comma of its own just after the
    word splits the line at the narrow space after it. After a tail the second word
    is kept joinable (read both ways: a scrawl's last letter may hang so); after a
    comma of its own, never."""
    for kind in ("touching", "apart"):
        found = _comma_page(kind)
        first = [w for w in found if w.line == 0]
        assert len(first) == 2, (kind, found)
        assert first[1].joinable == (kind == "touching")


def test_a_low_speck_inside_a_word_does_not_split_it():
    found = _comma_page("piece")
    assert len([w for w in found if w.line == 0]) == 1, found


def test_a_strike_at_a_slight_slant_is_found():
    """A strike drawn 2 degrees off the line (or left so by the flattening) drifts
    off any one pixel row of a thin stroke; it is looked for at 2.5 degrees too."""
    import cv2
    from boggle_cv.vision.sheet.layout import _struck
    d = np.zeros((44, 220), np.float32)
    for x in range(16, 200, 24):
        cv2.ellipse(d, (x, 24), (9, 11), 0, 0, 360, 0.8, 3)
    cv2.line(d, (0, 27), (219, 19), 0.8, 2)
    assert _struck(d, 0, 2, 220, 42)


def _faint_pencil(paper: np.ndarray, seed: int = 0) -> np.ndarray:
    """The paper's writing as faint pencil on an overexposed photo: white paper (255)
    and strokes 0.1-0.32 dark, the pressure varying along them (a smooth random field)."""
    import cv2
    grey = cv2.cvtColor(paper, cv2.COLOR_BGR2GRAY).astype(np.float32)
    alpha = np.clip((246 - grey) / 216, 0, 1)
    field = np.random.default_rng(seed).uniform(0, 1, (40, 30)).astype(np.float32)
    pressure = 0.3 + 0.7 * np.clip(cv2.resize(field, (paper.shape[1], paper.shape[0]), interpolation=cv2.INTER_CUBIC), 0, 1)
    faint = np.clip(255 * (1 - 0.32 * alpha * pressure), 0, 255).astype(np.uint8)
    return np.asarray(cv2.cvtColor(faint, cv2.COLOR_GRAY2BGR))


def test_faint_pencil_on_an_overexposed_page_is_ink_whole():
    """Faint pencil, the paper clipped to white: the strokes' lighter stretches are under
    the usual ink cut, so letters would break into pieces; the cut comes down with the
    page's darkest ink and the strokes stay whole, every word found."""
    import cv2
    from boggle_cv.vision.sheet.ink import INK_DARKNESS, darkness_of, ink_cut
    paper, boxes = sheet(0, ruled=False)
    faint = _faint_pencil(paper)
    assert ink_cut(darkness_of(faint)) < INK_DARKNESS
    ink = ink_mask(faint)
    strokes = cv2.cvtColor(paper, cv2.COLOR_BGR2GRAY) < 120
    assert (ink.mask[strokes] > 0).mean() > 0.7  # (0.52 at the usual cut)
    _match(find_words(ink), boxes)
    assert ink_cut(darkness_of(paper)) == INK_DARKNESS  # a page of dark ink keeps the usual cut


def test_a_blank_overexposed_page_with_sensor_noise_has_no_words():
    from boggle_cv.vision.sheet.ink import INK_DARKNESS, darkness_of, ink_cut
    blank, _ = sheet(5, lines=[], ruled=False)
    noisy = np.clip(np.full(blank.shape, 250, np.float32)
                    + np.random.default_rng(0).normal(0, 6, blank.shape), 0, 255).astype(np.uint8)
    assert ink_cut(darkness_of(noisy)) == INK_DARKNESS  # no ink to scale the cut by
    assert find_words(ink_mask(noisy)) == []
