"""Tesseract as a second, independent face reader (slow: several process starts per cell).

Recipe (FINDINGS.md): grey, enlarge, Otsu threshold with dark ink, keep the inner
part of the cell, white border, ``--psm 10`` with an A-Z whitelist, best of the four
turns by tesseract's own confidence. Tesseract cannot tell W from M or N from Z
across turns, nor read two-letter faces reliably; treat it as a second opinion.
"""
from __future__ import annotations

import shutil
from dataclasses import dataclass

import cv2
import numpy as np

from ..errors import EngineMissingError
from .stages import Reading, check_crops
from .reader_model import FACES, TURNS


@dataclass(frozen=True)
class TesseractConfig:
    """work_px: crops are resized to this side (pixels) before thresholding;
    inner_frac: share of the crop side kept around the centre (drops neighbours);
    border_px: white margin added around the glyph; timeout_s: per tesseract call;
    floor: probability mass spread over the other faces."""

    work_px: int = 96
    inner_frac: float = 0.8
    border_px: int = 16
    timeout_s: float = 10.0
    floor: float = 0.05
    min_area_frac: float = 0.004  # smallest ink blob kept, share of the working crop


class TesseractReader:
    """Reads crops with tesseract through pytesseract; EngineMissingError if absent."""

    name = "tesseract"
    WHITELIST = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

    def __init__(self, config: TesseractConfig = TesseractConfig()):
        self.cfg = config
        try:
            import pytesseract
        except ImportError:
            raise EngineMissingError("pytesseract is not installed", "pip install pytesseract") from None
        if shutil.which(pytesseract.pytesseract.tesseract_cmd) is None:
            raise EngineMissingError("tesseract is not installed",
                                     "install it (Debian: apt-get install tesseract-ocr) or use --engine classifier")
        try:
            pytesseract.get_tesseract_version()
        except Exception as e:  # pytesseract raises its own types
            raise EngineMissingError(f"tesseract does not run: {e}", "reinstall tesseract-ocr") from None
        self._tess = pytesseract

    def _binary(self, crop: np.ndarray) -> np.ndarray:
        c = self.cfg
        g = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        g = cv2.resize(g, (c.work_px, c.work_px), interpolation=cv2.INTER_CUBIC)
        m = int(c.work_px * (1 - c.inner_frac) / 2)
        g = g[m:c.work_px - m, m:c.work_px - m]
        _, b = cv2.threshold(g, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        # drop dark blobs touching the crop edge (tray, neighbours) and specks
        ink = (b == 0).astype(np.uint8)
        n, lab, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
        h, w = ink.shape
        keep = np.zeros(n, bool)
        for i in range(1, n):
            x, y, bw, bh, area = stats[i]
            touches = x == 0 or y == 0 or x + bw >= w or y + bh >= h
            keep[i] = not touches and area >= c.min_area_frac * h * w
        b = np.where(keep[lab], 0, 255).astype(np.uint8)
        return cv2.copyMakeBorder(b, c.border_px, c.border_px, c.border_px, c.border_px,
                                  cv2.BORDER_CONSTANT, value=255)

    def _one(self, img: np.ndarray) -> tuple[str, float]:
        cfg = f"--psm 10 -c tessedit_char_whitelist={self.WHITELIST}"
        try:
            d = self._tess.image_to_data(img, config=cfg, output_type=self._tess.Output.DICT,
                                         timeout=self.cfg.timeout_s)
        except RuntimeError:  # timeout
            return "", 0.0
        best, conf = "", -1.0
        for t, cf in zip(d.get("text", []), d.get("conf", [])):
            t = str(t).strip()
            try:
                cf = float(cf)
            except ValueError:
                continue
            if t and cf > conf:
                best, conf = t, cf
        return best, max(conf, 0.0) if best else 0.0

    def read(self, crops: np.ndarray) -> Reading:
        a = check_crops(crops)
        nf = len(FACES)
        faces = np.full((len(a), nf), 0.0, np.float32)
        turns = np.full((len(a), len(TURNS)), 0.25, np.float32)
        for i, crop in enumerate(a):
            b = self._binary(crop)
            best = ("", -1.0, 0)
            for q in range(4):
                text, conf = self._one(np.ascontiguousarray(np.rot90(b, q)))
                if text and conf > best[1]:
                    best = (text, conf, q)
            text, conf, q = best
            face = None
            if text:
                t = text[:2].upper()
                face = "Qu" if t.startswith("Q") else (t[0] if t[0] in FACES else None)
            if face is None:
                faces[i] = 1.0 / nf
                continue
            p = min(max(conf / 100.0, 0.2), 1.0) * (1 - self.cfg.floor)
            faces[i] = (1 - p) / (nf - 1)
            faces[i, FACES.index(face)] = p
            turns[i] = (1 - p) / 4
            turns[i, q] += p
        return Reading(faces, turns)
