"""Words drawn in handwriting fonts (train/word_renders.py): training data only; the
fonts are Debian packages installed at training time, so these skip without them."""
from __future__ import annotations

import numpy as np
import pytest

from boggle_cv.train import word_renders

FONTS = word_renders.handwriting_fonts()
pytestmark = pytest.mark.skipif(not FONTS, reason="no handwriting fonts installed (training-time packages)")


def test_renders_are_dark_ink_on_paper_with_folded_labels():
    got = word_renders.renders(12, seed=5)
    assert len(got) == 12
    for image, label in got:
        assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
        assert 20 <= image.shape[0] <= 160 and image.shape[1] > image.shape[0] // 2
        grey = image[:, :, 0]
        assert grey.min() < 120 < np.median(grey)  # ink darker than the paper around it
        assert label.isascii() and label.isalpha() and label == label.lower() and len(label) >= 3


def test_same_seed_same_renders():
    a = word_renders.renders(4, seed=9)
    b = word_renders.renders(4, seed=9)
    assert [w for _, w in a] == [w for _, w in b]
    assert all(np.array_equal(x, y) for (x, _), (y, _) in zip(a, b))


def test_has_glyphs_tells_a_character_the_font_lacks():
    for font in FONTS:
        if word_renders.has_glyphs(font, "abc"):
            assert word_renders.has_glyphs(font, "abc ")
    assert any(not word_renders.has_glyphs(f, "\u4e00") for f in FONTS)  # no CJK in these faces
