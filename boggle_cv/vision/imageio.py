"""Reading photos from disk into BGR uint8 arrays with bounded memory.

``load_image(path)`` (``load_image_bytes(data)`` for images held in memory, such
as web uploads) returns a numpy array of shape (H, W, 3), dtype uint8, colour
order BGR (OpenCV's), with the EXIF orientation tag applied, so that (x, y) pixel
coordinates refer to the photo as a person sees it. Grayscale, RGBA (alpha dropped,
transparent areas composited on white) and 16-bit images are converted. Images with
more than ``LoadConfig.max_pixels`` pixels are decoded at 1/2, 1/4 or 1/8 scale by
libjpeg/libpng's reduced decoders (``cv2.IMREAD_REDUCED_COLOR_*``), so a 100 MP
panorama never needs 300 MB of RAM.

Every failure raises :class:`boggle_cv.errors.ImageReadError` with one line that
names the file and the supported formats.
"""
from __future__ import annotations

import contextlib
import os
import threading

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from boggle_cv.errors import ImageReadError

SUPPORTED = "JPEG, PNG, WebP, TIFF, BMP"
_HINT = f"supported formats: {SUPPORTED}"


@dataclass(frozen=True)
class LoadConfig:
    """Limits for load_image.

    max_pixels: images with more pixels (width*height, after decoding at full size)
        are decoded at the smallest of 1/2, 1/4, 1/8 scale that brings them under it.
    max_file_bytes: files larger than this are refused before reading (bytes).
    max_decode_pixels: PNGs with more pixels are refused before decoding: OpenCV
        decodes them at full size before reducing (about 3.6 bytes a pixel), so a
        small, highly compressed PNG could otherwise need gigabytes. JPEGs have no
        such limit (libjpeg decodes them reduced).
    """

    max_pixels: int = 24_000_000
    max_file_bytes: int = 200_000_000
    max_decode_pixels: int = 100_000_000


_REDUCED = ((1, cv2.IMREAD_COLOR), (2, cv2.IMREAD_REDUCED_COLOR_2),
            (4, cv2.IMREAD_REDUCED_COLOR_4), (8, cv2.IMREAD_REDUCED_COLOR_8))


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's SOF marker, or None if not found."""
    i = 2
    n = len(data)
    while i + 9 < n:
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2
            continue
        seg_len = int.from_bytes(data[i + 2:i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD,
                      0xCE, 0xCF):
            h = int.from_bytes(data[i + 5:i + 7], "big")
            w = int.from_bytes(data[i + 7:i + 9], "big")
            return w, h
        if marker == 0xDA:  # start of scan before any frame header
            return None
        i += 2 + seg_len
    return None


def _png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's IHDR chunk."""
    if len(data) >= 24 and data[12:16] == b"IHDR":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None


def _is_jpeg(data: bytes) -> bool:
    return data[:3] == b"\xff\xd8\xff"


def _jpeg_truncated(data: bytes) -> bool:
    """True when the last scan of a JPEG has no end-of-image marker after it."""
    last_sos = data.rfind(b"\xff\xda")
    return last_sos < 0 or data.find(b"\xff\xd9", last_sos) < 0


def _to_bgr8(img: np.ndarray) -> np.ndarray:
    """Any decoded array (gray, BGR, BGRA; uint8/uint16/float) -> (H, W, 3) uint8 BGR."""
    if img.dtype == np.uint16:
        img = (img >> 8).astype(np.uint8)
    elif img.dtype != np.uint8:
        f = img.astype(np.float32)
        if f.max() <= 1.0:
            f = f * 255.0
        img = np.clip(f, 0, 255).astype(np.uint8)
    if img.ndim == 2:
        return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if img.shape[2] == 4:
        alpha = img[:, :, 3:4].astype(np.float32) / 255.0
        bgr = img[:, :, :3].astype(np.float32) * alpha + 255.0 * (1.0 - alpha)
        return bgr.astype(np.uint8)
    if img.shape[2] == 1:
        return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    return np.ascontiguousarray(img[:, :, :3])


def load_image(path: str | Path, config: LoadConfig = LoadConfig()) -> np.ndarray:
    """Read a photo as BGR uint8 (H, W, 3) with EXIF orientation applied.

    Large JPEG/PNG files (more than ``config.max_pixels``) are decoded reduced by 2, 4
    or 8. Raises ImageReadError (exit code 4) for a missing file, a directory, an
    empty, truncated or undecodable file.
    """
    p = Path(path)
    if not p.exists():
        raise ImageReadError(f"cannot read image {p}: no such file", _HINT)
    if p.is_dir():
        raise ImageReadError(f"cannot read image {p}: it is a directory", _HINT)
    try:
        size = p.stat().st_size
        if size > config.max_file_bytes:
            raise ImageReadError(f"cannot read image {p}: file too large ({size} bytes)",
                                 _HINT)
        data = p.read_bytes()
    except OSError as exc:
        raise ImageReadError(f"cannot read image {p}: {exc.strerror or exc}", _HINT) from exc
    return load_image_bytes(data, f"image {p}", config)


def load_image_bytes(data: bytes, label: str = "the image", config: LoadConfig = LoadConfig()) -> np.ndarray:
    """Decode an image held in memory (e.g. a web upload) exactly as load_image does.

    Returns BGR uint8 (H, W, 3), EXIF orientation applied, reduced decoding above
    ``config.max_pixels``. ``label`` is what error messages call the image ("cannot
    read LABEL: ...", e.g. "image photo.jpg" or "the uploaded photo"). Raises
    ImageReadError (exit code 4) for empty, too large, truncated or undecodable data.
    """
    if len(data) > config.max_file_bytes:
        raise ImageReadError(f"cannot read {label}: file too large ({len(data)} bytes)", _HINT)
    if not data:
        raise ImageReadError(f"cannot read {label}: the file is empty", _HINT)
    if _is_jpeg(data) and _jpeg_truncated(data):
        raise ImageReadError(f"cannot read {label}: the JPEG file is truncated", _HINT)

    dims = _jpeg_size(data) if _is_jpeg(data) else _png_size(data)
    if dims is not None and not _is_jpeg(data) and dims[0] * dims[1] > config.max_decode_pixels:
        raise ImageReadError(f"cannot read {label}: {dims[0]}x{dims[1]} pixels is too large for a PNG "
                             f"(at most {config.max_decode_pixels // 1_000_000} megapixels)",
                             "save it as JPEG or scale it down")
    factor, flag = 1, cv2.IMREAD_COLOR
    if dims is not None:
        for f, fl in _REDUCED:
            factor, flag = f, fl
            if (dims[0] // f) * (dims[1] // f) <= config.max_pixels:
                break
    buf = np.frombuffer(data, np.uint8)
    with _native_stderr_silenced():
        img = _decode(buf, data, factor, flag)
    if img is None or img.size == 0:
        raise ImageReadError(f"cannot read {label}: not a readable image file", _HINT)
    return _to_bgr8(img)


_STDERR_LOCK = threading.Lock()


@contextlib.contextmanager
def _native_stderr_silenced():
    """Send file descriptor 2 to /dev/null while a C decoder runs.

    libjpeg and libpng print their own warnings ("Corrupt JPEG data: ...") straight to
    the process's stderr; the user must see only our one-line error. Python-level
    sys.stderr is untouched; a lock keeps concurrent decodes from interleaving.
    """
    with _STDERR_LOCK:
        try:
            saved = os.dup(2)
        except OSError:
            yield
            return
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(devnull, 2)
            finally:
                os.close(devnull)
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _decode(buf: np.ndarray, data: bytes, factor: int, flag: int) -> np.ndarray | None:
    """cv2.imdecode with the flags chosen by load_image_bytes (None if undecodable)."""
    img = None
    if factor == 1:
        # IMREAD_UNCHANGED keeps alpha / 16 bits so that we convert them properly;
        # it ignores EXIF orientation, so only use it when the file is not a JPEG.
        if not _is_jpeg(data):
            img = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
            if img is not None and img.ndim == 3 and img.shape[2] == 3 and img.dtype == np.uint8:
                img = None  # plain BGR: decode again below so orientation is honoured
        if img is None:
            img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    else:
        img = cv2.imdecode(buf, flag)
    return img
