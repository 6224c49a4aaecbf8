"""Learned cube-top detector: candidate cube tops from a small heatmap network.

The network (trained by ``python -m boggle_cv.train.detector``, shipped as
models/cube_detector.onnx, run with cv2.dnn: no torch at run time) takes the working
image letterboxed into a DetectorConfig.in_side square (BGR, 0..255 float) and
returns two maps at 1/4 of that resolution: a heatmap logit of "a cube top's centre
is here" and log(cube side in input px). Peaks of the heatmap become candidate cube
tops in the same form as the classical blobs (:class:`.blobs.Blobs`), so the
lattice fit (:mod:`.lattice`) takes either.

Coordinates: (x, y) working-image pixels.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from .. import onnx_models
from ..quantiles import median, percentile
from ..stages import FloatArray, ImageU8
from .blobs import Blobs

MODEL_NAME = onnx_models.DETECTOR.file_name
MODEL_ENV = onnx_models.DETECTOR.env
STRIDE = 4


@dataclass(frozen=True)
class DetectorConfig:
    """in_side: network input side (px, letterboxed square; the ONNX input is fixed).
    min_peak: heatmap probability a local maximum needs to become a candidate.
    box_frac: a candidate's square box side as a fraction of its predicted cube side.
    zoom_below: when the median predicted cube side of the confident peaks
        (probability >= zoom_peak) is below this many network-input px, the detector
        runs again on a crop around them (small boards in a big frame).
    zoom_margin: the crop extends this many median cube sides beyond those peaks.
    """

    in_side: int = 320
    min_peak: float = 0.15
    box_frac: float = 1.0
    zoom_below: float = 16.0
    zoom_peak: float = 0.3
    zoom_margin: float = 2.5


@dataclass
class Detection:
    """Detector output on a working image.

    blobs: candidate cube tops (Blobs, quality = peak probability). heat: float32
    (H, W) of the working image, probability of a cube-top centre, resized from the
    network's 1/4 grid (for the per-cell checks of the board window).
    """

    blobs: Blobs
    heat: npt.NDArray[np.float32]


def default_model_path() -> Path:
    """$BOGGLE_CV_DETECTOR if set, else the shipped models/cube_detector.onnx."""
    return onnx_models.model_path(onnx_models.DETECTOR)


def load_detector(path: Path | None = None) -> cv2.dnn.Net:
    """The cv2.dnn network (``onnx_models.load_net``: hash-checked once per file, then
    cached). Raises EngineMissingError when the model or its .sha256 side file is
    missing, or the hash does not match."""
    return onnx_models.load_net(onnx_models.DETECTOR, path)


def _pass(net: cv2.dnn.Net, img: ImageU8, cfg: DetectorConfig) -> tuple[
        FloatArray, FloatArray, FloatArray, npt.NDArray[np.float32], float]:
    """One network pass on img (H, W, 3) uint8 BGR letterboxed into the input.

    Returns (peaks (K, 2) (x, y) img px, sides (K,) img px, probability (K,),
    heat float32 (H, W), scale input px per img px)."""
    h, w = img.shape[:2]
    S = cfg.in_side
    s = S / max(h, w)
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    ox, oy = (S - nw) // 2, (S - nh) // 2
    box = np.zeros((S, S, 3), np.uint8)
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    box[oy:oy + nh, ox:ox + nw] = cv2.resize(img, (nw, nh), interpolation=interp)
    net.setInput(box.transpose(2, 0, 1)[None].astype(np.float32))
    out = net.forward()[0]
    logit, logsize = out[0], out[1]
    prob = (1 / (1 + np.exp(-logit))).astype(np.float32)
    dil = cv2.dilate(prob, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((prob >= dil) & (prob >= cfg.min_peak))
    m = prob.shape[0]
    cents, sides, quals = [], [], []
    for y, x in zip(ys, xs):
        y0, y1, x0, x1 = max(0, y - 1), min(m, y + 2), max(0, x - 1), min(m, x + 2)
        p = prob[y0:y1, x0:x1]
        gy, gx = np.mgrid[y0:y1, x0:x1]
        cx = float((p * gx).sum() / p.sum())
        cy = float((p * gy).sum() / p.sum())
        cents.append((((cx + 0.5) * STRIDE - ox) / s, ((cy + 0.5) * STRIDE - oy) / s))
        sides.append(float(np.exp(logsize[y, x])) / s)
        quals.append(float(prob[y, x]))
    heat_in = cv2.resize(prob, (S, S), interpolation=cv2.INTER_LINEAR)
    heat = cv2.resize(heat_in[oy:oy + nh, ox:ox + nw], (w, h), interpolation=cv2.INTER_LINEAR)
    return (np.array(cents, np.float64).reshape(-1, 2), np.array(sides, np.float64),
            np.array(quals, np.float64), heat, s)


def run_detector(work_bgr: ImageU8, white: npt.NDArray[np.uint8], cfg: DetectorConfig = DetectorConfig(),
                 model_path: Path | None = None) -> Detection:
    """Cube-top candidates in a working image (H, W, 3) uint8 BGR; white: (H, W)
    uint8 whiteness map of the same image (for Blobs.whiteness).

    One pass on the whole image; when its confident peaks are small, a second pass
    on a crop around them replaces the peaks and heat inside the crop."""
    net = load_detector(model_path)
    h, w = work_bgr.shape[:2]
    c, sd, q, heat, s = _pass(net, work_bgr, cfg)
    strong = q >= cfg.zoom_peak
    if strong.sum() >= 4 and median(sd[strong]) * s < cfg.zoom_below:
        med = float(median(sd[strong]))
        lo = c[strong].min(axis=0) - cfg.zoom_margin * med
        hi = c[strong].max(axis=0) + cfg.zoom_margin * med
        x0, y0 = max(0, int(lo[0])), max(0, int(lo[1]))
        x1, y1 = min(w, int(np.ceil(hi[0]))), min(h, int(np.ceil(hi[1])))
        if (x1 - x0) * (y1 - y0) < 0.6 * w * h and min(x1 - x0, y1 - y0) >= 16:
            c2, sd2, q2, heat2, _ = _pass(net, work_bgr[y0:y1, x0:x1], cfg)
            outside = (c[:, 0] < x0) | (c[:, 0] >= x1) | (c[:, 1] < y0) | (c[:, 1] >= y1)
            c = np.vstack([c[outside], c2 + [x0, y0]])
            sd = np.r_[sd[outside], sd2]
            q = np.r_[q[outside], q2]
            heat = heat.copy()
            heat[y0:y1, x0:x1] = heat2
    if not len(c):
        z = np.zeros((0,), np.float64)
        return Detection(Blobs(np.zeros((0, 2)), z, z, np.zeros((0, 4, 2)), z), heat)
    half = 0.5 * cfg.box_frac * sd
    boxes = np.stack([c + np.stack([-half, -half], 1), c + np.stack([half, -half], 1),
                      c + np.stack([half, half], 1), c + np.stack([-half, half], 1)], 1)
    whites = []
    for (x, y), hs in zip(c, half):
        xa, ya = max(0, int(x - hs)), max(0, int(y - hs))
        xb, yb = min(w, int(x + hs) + 1), min(h, int(y + hs) + 1)
        patch = white[ya:yb, xa:xb]
        whites.append(float(percentile(patch, 75)) if patch.size else 0.0)
    return Detection(Blobs(c, sd, q, boxes, np.array(whites, np.float64)), heat)
