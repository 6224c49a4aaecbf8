"""The learned cube-top detector: model integrity checks, peaks on a synthetic render,
and find_tray combining it with the classical blobs."""
from __future__ import annotations

import shutil

import numpy as np
import pytest

from boggle_cv.errors import EngineMissingError, NoBoardError
from boggle_cv.vision.tray import TrayConfig, find_tray
from boggle_cv.vision.tray.blobs import whiteness_map
from boggle_cv.vision.tray.detector import default_model_path, load_detector, run_detector


def _render(seed: int, size: int, long_side: int = 900):
    synth = pytest.importorskip("boggle_cv.synth")
    try:
        return synth.render_photo(np.random.default_rng(seed), size=size, long_side=long_side,
                                  kind="tray")
    except EngineMissingError as exc:  # no Pillow or fonts
        pytest.skip(str(exc))


def test_shipped_model_loads():
    assert default_model_path().is_file()
    assert load_detector() is not None


def test_missing_model_is_engine_error(tmp_path):
    with pytest.raises(EngineMissingError) as e:
        load_detector(tmp_path / "nope.onnx")
    assert e.value.exit_code == 3


def test_corrupt_model_is_engine_error(tmp_path):
    src = default_model_path()
    dst = tmp_path / "cube_detector.onnx"
    shutil.copy(src, dst)
    shutil.copy(src.with_name(src.name + ".sha256"), tmp_path / "cube_detector.onnx.sha256")
    data = bytearray(dst.read_bytes())
    data[len(data) // 2] ^= 0xFF
    dst.write_bytes(bytes(data))
    with pytest.raises(EngineMissingError, match="corrupt"):
        load_detector(dst)


@pytest.mark.parametrize("seed,size", [(31337, 4), (4242, 5), (777, 6)])
def test_peaks_on_cube_centres(seed, size):
    """Most cube-top centres of a held-out render get a detector peak within a
    quarter pitch, and few confident peaks (probability >= 0.4) are far from every
    cube (weak peaks are allowed: the lattice fit sorts them out)."""
    img, truth = _render(seed, size, long_side=800)
    centres = np.array(truth["centres"], np.float64).reshape(-1, 2)
    visible = (centres[:, 0] >= 0) & (centres[:, 0] < img.shape[1]) & (
        centres[:, 1] >= 0) & (centres[:, 1] < img.shape[0])
    centres = centres[visible]
    det = run_detector(img, whiteness_map(img))
    pitch = truth["camera"]["px_per_pitch"]
    d = np.hypot(*(det.blobs.centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    hit = (d.min(axis=0) < 0.25 * pitch).mean()
    stray = ((d.min(axis=1) > 0.5 * pitch) & (det.blobs.quality >= 0.4)).sum()
    assert hit >= 0.8, hit
    assert stray <= 3, stray
    assert det.heat.shape == img.shape[:2]


@pytest.mark.parametrize("seed,size", [(2024, 4), (99, 5), (5150, 6)])
def test_find_tray_on_held_out_render(seed, size):
    img, truth = _render(seed, size)
    res = find_tray(img)
    assert res.size == size
    corners = np.array(truth["corners"])
    side = np.mean([np.hypot(*(corners[i] - corners[(i + 1) % 4])) for i in range(4)])
    err = min(np.mean(np.hypot(*(np.roll(f, k, 0) - corners).T)) / side
              for f in (res.corners, res.corners[::-1]) for k in range(4))
    assert err < 0.05


def test_detector_only_still_refuses_empty_tray():
    synth = pytest.importorskip("boggle_cv.synth")
    try:
        img, _ = synth.render_photo(np.random.default_rng(11), size=5, long_side=800,
                                    kind="empty-tray")
    except EngineMissingError as exc:
        pytest.skip(str(exc))
    with pytest.raises(NoBoardError):
        find_tray(img, config=TrayConfig(sources=("detector",)))


def test_unknown_source_rejected():
    img = np.full((200, 200, 3), 90, np.uint8)
    with pytest.raises(ValueError):
        find_tray(img, config=TrayConfig(sources=("magic",)))


def test_training_targets_and_split():
    """Heatmap targets peak at 1 on each cube centre (1/4 resolution); the layout
    split holds out about a fifth of the layouts and is fixed."""
    from boggle_cv.train.detector_data import is_val_layout, targets
    heat, size, mask = targets(np.array([[42.0, 18.0]]), np.array([24.0]), 64)
    assert heat.shape == (16, 16)
    y, x = np.unravel_index(heat.argmax(), heat.shape)
    assert (x, y) == (10, 4) and heat.max() > 0.9
    assert np.isclose(size[y, x], np.log(24.0)) and mask.sum() == 9
    names = [f"RFB4-{i:03d}" for i in range(200)]
    share = np.mean([is_val_layout(n) for n in names])
    assert 0.1 < share < 0.3
    assert is_val_layout("RFB4-002") == is_val_layout("RFB4-002")


def test_fine_tune_loads_shipped_weights():
    """--init: the shipped ONNX (Conv+BatchNorm fused) loads into the training network
    and gives the same maps as cv2.dnn."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from boggle_cv.train.detector import build_model, load_onnx_weights
    model = build_model()
    load_onnx_weights(model, default_model_path())
    model.eval()
    x = np.random.default_rng(3).uniform(0, 255, (1, 3, 320, 320)).astype(np.float32)
    net = load_detector()
    net.setInput(x)
    want = net.forward()
    with torch.no_grad():
        got = model(torch.from_numpy(x)).numpy()
    assert got.shape == want.shape == (1, 2, 80, 80)
    assert np.abs(got - want).max() < 1e-3


def test_steep_augmentation_moves_labels_with_the_image():
    """A strong keystone view: each cube-centre label lands on the marked pixel."""
    from boggle_cv.train.detector_data import AugConfig, augment
    img = np.zeros((300, 400, 3), np.uint8)
    centres = np.array([[100.0, 80.0], [300.0, 220.0], [200.0, 150.0]])
    for x, y in centres:
        img[int(y) - 3:int(y) + 4, int(x) - 3:int(x) + 4] = 255
    cfg = AugConfig(steep_p=1.0, scale=(1.0, 1.0), shift=0.0)
    for seed in range(5):
        view, pts, sd = augment(np.random.default_rng(seed), img, centres, np.full(3, 20.0), cfg)
        assert view.shape == (320, 320, 3) and len(pts) == 3 and (sd > 0).all()
        grey = view.max(axis=2).astype(int)
        background = np.median(grey)
        for x, y in pts:
            xi, yi = int(round(x)), int(round(y))
            assert grey[max(0, yi - 2):yi + 3, max(0, xi - 2):xi + 3].max() > background + 30
