"""Crops cut from whole synthetic tray photos: labels follow the reader's conventions."""
import numpy as np
import pytest

pytest.importorskip("PIL")
from boggle_cv.train import scenedata  # noqa: E402
from boggle_cv.vision.reader import ClassifierReader  # noqa: E402
from boggle_cv.vision.reader_model import FACES  # noqa: E402

SYMMETRIC = {FACES.index(f) for f in ("S", "I", "H", "N", "O", "X", "Z", "#")}


def test_photo_crops_shapes_and_seeding():
    a = scenedata.photo_crops(11, 3, 0.0, 0.0)
    b = scenedata.photo_crops(11, 3, 0.0, 0.0)
    x, f, t = a
    assert x.dtype == np.uint8 and x.shape[1:] == (64, 64, 3)
    assert len(x) == len(f) == len(t) and len(x) in (0, 16, 25, 36)
    assert all(np.array_equal(u, v) for u, v in zip(a, b))
    assert ((0 <= t) & (t < 4)).all() and ((0 <= f) & (f < len(FACES))).all()


def test_labels_agree_with_the_shipped_reader():
    """Faces and quarter turns (clockwise, the reader's convention) of clean crops cut
    from the truth corners are what the shipped reader sees in them."""
    x, f, t = scenedata.build(12, 4242, jitter_frac=0.0, degrade_share=0.0)
    assert len(x) >= 100
    reader = ClassifierReader()
    logits = reader._logits(x)
    faces = logits[:, :len(FACES)].argmax(1)
    turns = logits[:, len(FACES):].argmax(1)
    assert (faces == f).mean() > 0.9
    keep = ~np.isin(f, list(SYMMETRIC))
    assert (turns[keep] == t[keep]).mean() > 0.9


def test_lone_q_renders_keep_the_qu_label():
    """A render drawn with its Qu faces printed as a lone Q (some French dice) gives
    the same labels; only its Qu cells look different (photo 1 of seed 11 is a 6x6
    with a Qu, 90 px a pitch)."""
    xq, fq, tq = scenedata.photo_crops(11, 1, 0.0, 0.0, lone_q_p=1.0)
    x0, f0, t0 = scenedata.photo_crops(11, 1, 0.0, 0.0, lone_q_p=0.0)
    qu = f0 == FACES.index("Qu")
    assert qu.any() and np.array_equal(fq, f0) and np.array_equal(tq, t0)
    diff = np.abs(xq.astype(np.float32) - x0.astype(np.float32)).mean(axis=(1, 2, 3))
    assert diff[qu].min() > 3 * max(float(np.median(diff[~qu])), 0.3)

