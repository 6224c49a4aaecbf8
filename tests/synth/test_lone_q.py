"""The French and Italian sets in the renderer, and the Qu face printed as a lone Q
(some French dice): the truth says "Qu" either way, the reader must read it so."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PIL")

from boggle_cv.synth import render_photo, set_names
from boggle_cv.synth.cubesets import edition_of
from boggle_cv.synth.fonts import find_fonts
from boggle_cv.synth.tiles import FaceStyle, face_tile

SMALL = 480


def _tile(face: str, lone_q: bool) -> np.ndarray:
    style = FaceStyle(font_path=find_fonts(())[0], letter_jitter=0.0, lone_q=lone_q)
    return face_tile(96, face, 0, style, np.random.default_rng(0))


def test_lone_q_prints_only_the_q():
    qu, lone = _tile("Qu", False), _tile("Qu", True)
    assert not np.array_equal(qu, lone)
    ink = lambda t: int((t[..., :3].mean(axis=2) < 128).sum())  # noqa: E731
    assert ink(lone) < ink(qu)  # one glyph, not two
    assert np.array_equal(_tile("A", True), _tile("A", False))  # other faces unchanged


def test_the_french_and_italian_sets_are_drawn():
    assert {"fr-4", "it-4"} <= set(set_names())
    assert edition_of("fr-4") == "fr" and edition_of("it-4") == "it" and edition_of("pocket") == "en"
    for name in ("fr-4", "it-4"):
        _, truth = render_photo(np.random.default_rng(3), set_name=name, kind="tray", long_side=SMALL)
        assert truth["set"] == name and truth["size"] == 4


def test_a_lone_q_render_keeps_qu_in_its_truth():
    for seed in range(40):  # fr-4 has one Qu face among 96: find a render that shows it
        rng = np.random.default_rng(seed)
        img, truth = render_photo(rng, set_name="fr-4", kind="tray", long_side=SMALL, lone_q=True)
        if any("Qu" in row for row in truth["faces"]):
            plain, _ = render_photo(np.random.default_rng(seed), set_name="fr-4", kind="tray",
                                    long_side=SMALL, lone_q=False)
            assert not np.array_equal(img, plain)
            return
    pytest.fail("no render of fr-4 showed its Qu face")


def test_renders_of_other_editions_draw_nothing_more_for_the_option():
    a, ta = render_photo(np.random.default_rng(7), set_name="modern-4", long_side=SMALL)
    b, tb = render_photo(np.random.default_rng(7), set_name="modern-4", long_side=SMALL, lone_q=False)
    assert np.array_equal(a, b) and ta == tb
