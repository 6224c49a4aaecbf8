"""Training data: the camera damage shared by synthetic and real crops, real crops."""
from pathlib import Path

import numpy as np
import pytest

crops = pytest.importorskip("boggle_cv.train.crops")
from boggle_cv.train import realdata  # noqa: E402

SHARED = Path(__file__).resolve().parents[2].parent / "shared"


def _cube(px=64):
    """A white cube top with a black bar on a brown tray, (px, px, 3) uint8."""
    img = np.full((px, px, 3), (40, 60, 120), np.uint8)
    img[8:-8, 8:-8] = 235
    img[px // 2 - 4:px // 2 + 4, 16:-16] = 20
    return img


def test_degrade_keeps_shape_and_type():
    rng = np.random.default_rng(0)
    for _ in range(50):
        out = crops.degrade(_cube(), rng)
        assert out.shape == (64, 64, 3) and out.dtype == np.uint8


def test_degrade_is_seeded():
    a = crops.degrade(_cube(), np.random.default_rng(7))
    b = crops.degrade(_cube(), np.random.default_rng(7))
    assert np.array_equal(a, b)


def test_dim_room_darkens_and_adds_noise():
    cube = _cube()
    dim = [crops.degrade(cube, np.random.default_rng(s), p_dim=1.0) for s in range(20)]
    lit = [crops.degrade(cube, np.random.default_rng(s), p_dim=0.0) for s in range(20)]
    assert np.mean([d.mean() for d in dim]) < 0.6 * np.mean([d.mean() for d in lit])
    # the cube still shows: its centre bar is darker than the cube around it
    assert np.mean([d[28:36, 24:40].mean() < d[14:22, 24:40].mean() for d in dim]) > 0.8


def test_renderer_crops_include_dim_ones():
    x, f, t = crops.CropRenderer(3).batch(200)
    means = x.reshape(len(x), -1).mean(1)
    assert (means < 60).sum() >= 5


@pytest.mark.skipif(not (SHARED / "boggle-boards" / "truth.json").exists(), reason="needs ../shared/boggle-boards")
def test_real_crops_degrade_share():
    photos = realdata.load_truth(SHARED / "boggle-boards")
    one = {photos[0]["layout"]}
    clean, fc = realdata.build(SHARED / "boggle-boards", one, 64, 1, 0.0, 5, degrade_share=0.0)
    half, fh = realdata.build(SHARED / "boggle-boards", one, 64, 1, 0.0, 5, degrade_share=0.5)
    assert np.array_equal(fc, fh) and clean.shape == half.shape
    changed = np.mean([not np.array_equal(a, b) for a, b in zip(clean, half)])
    assert 0.2 < changed < 0.8


def _centre_glyphs(renderer, n):
    """(drawn glyph of the centre cube, label) of n samples: the last glyph painted is
    the centre cube's (its neighbours are painted first); None for a blank."""
    drawn = []
    paint = renderer._paint_glyph

    def spy(img, centre, height_px, face, *args):
        drawn.append(face)
        return paint(img, centre, height_px, face, *args)

    renderer._paint_glyph = spy
    out = []
    for _ in range(n):
        drawn.clear()
        _, f, _ = renderer.sample()
        face = crops.FACES[f]
        out.append((drawn[-1] if face != "#" and drawn else None, face))
    return out


def test_a_share_of_qu_crops_is_a_lone_q_labelled_qu():
    """Some French dice print the Qu face as a lone Q: a share of the Qu crops draws
    the Q alone, labelled Qu; no other class draws a lone Q."""
    pairs = _centre_glyphs(crops.CropRenderer(4), 1500)
    qu = [g for g, f in pairs if f == "Qu"]
    assert len(qu) >= 40
    assert 0.2 < qu.count("Q") / len(qu) < 0.6 and qu.count("Qu") > 0
    assert all(g != "Q" for g, f in pairs if f != "Qu")
    none = _centre_glyphs(crops.CropRenderer(4, crops.RenderConfig(p_lone_q=0.0)), 300)
    assert all(g != "Q" for g, _ in none)


def test_the_o_class_outnumbers_the_lone_q():
    r = crops.CropRenderer(0)
    p = dict(zip(crops.FACES, r.p_face))
    assert p["O"] >= 2 * p["Qu"] * r.cfg.p_lone_q
    assert p["O"] > p["A"]


def test_keep_tail_spares_the_lone_q_the_worst_damage(monkeypatch):
    """A lone Q differs from an O by its tail: its crops are never shrunk below 22 px
    a pitch nor blurred beyond sigma 1.4 px (at 64 px), which the other crops are."""
    seen = {"px": [], "sigma": []}
    resize, blur = crops.cv2.resize, crops.cv2.GaussianBlur

    def spy_resize(img, size, **kw):
        seen["px"].append(min(size))
        return resize(img, size, **kw)

    def spy_blur(img, k, sigma, *a, **kw):
        seen["sigma"].append(sigma)
        return blur(img, k, sigma, *a, **kw)

    monkeypatch.setattr(crops.cv2, "resize", spy_resize)
    monkeypatch.setattr(crops.cv2, "GaussianBlur", spy_blur)
    for keep in (True, False):
        seen["px"].clear(), seen["sigma"].clear()
        rng = np.random.default_rng(1)
        for _ in range(300):
            crops.degrade(_cube(), rng, keep_tail=keep)
        if keep:
            assert min(seen["px"]) >= 22 and max(seen["sigma"]) <= 1.4
        else:
            assert min(seen["px"]) < 16 and max(seen["sigma"]) > 2.0
