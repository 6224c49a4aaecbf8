"""Reading photos from disk into BGR uint8 arrays with bounded memory.

``load_image(path)`` (``load_image_bytes(data)`` for images held in memory, such
as web uploads) returns a numpy array of shape (H, W, 3), dtype uint8, colour
order BGR (OpenCV's), with the EXIF orientation tag applied, so that (x, y) pixel
coordinates refer to the photo as a person sees it. Grayscale, RGBA (alpha dropped,
transparent areas composited on white) and 16-bit images are converted.

Before any pixel is decoded, the header is read (``image_header.read_header``: a JPEG's markers
here, every other format by Pillow without decoding) and the pixels the decoder
would hold are checked against one cap, ``LoadConfig.max_decode_pixels``, so that a
small file claiming gigapixels (a "decompression bomb", or a header OpenCV would
assert on) is refused with exit code 4. Images with more than
``LoadConfig.max_pixels`` pixels are decoded at 1/2, 1/4 or 1/8 scale
(``cv2.IMREAD_REDUCED_COLOR_*``); libjpeg does that while decoding a baseline JPEG,
so a 200 MP phone photo never needs more than a few MB.

``load_photo(path)`` (``load_photo_bytes(data)``) decodes the same way and returns a
``DecodedPhoto``: the pixels with the size of the photo they were decoded from, so
that what is found in the pixels of a reduced decode is reported in the photo's own
pixels (``DecodedPhoto.to_photo``).

Every failure raises :class:`boggle_cv.errors.ImageReadError` with one line that
names the file and the supported formats.
"""
from __future__ import annotations

import contextlib
import os
import stat
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import cv2
import numpy as np
import numpy.typing as npt

from boggle_cv.errors import ImageReadError

from .image_header import (HINT, MEGA, Header, LoadConfig, check_header, decode_plan, is_jpeg,
                           jpeg_truncated, read_header)

_REDUCED = ((1, cv2.IMREAD_COLOR), (2, cv2.IMREAD_REDUCED_COLOR_2),
            (4, cv2.IMREAD_REDUCED_COLOR_4), (8, cv2.IMREAD_REDUCED_COLOR_8))

_ROWS = 512  # rows converted at a time: the conversion needs only a strip's worth of floats


def _to_bgr8(img: npt.NDArray[Any]) -> npt.NDArray[np.uint8]:
    """Any decoded array (gray, BGR, BGRA; uint8/uint16/float) -> (H, W, 3) uint8 BGR.

    uint16 keeps its high byte; float scales [0, 1] to [0, 255] when its maximum is at
    most 1; transparent pixels are composited on white. Done in strips of _ROWS rows,
    so the temporary floats never cost more than a strip.
    """
    if img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3:
        return np.ascontiguousarray(img)
    h, w = img.shape[:2]
    scale = 1.0
    if img.dtype not in (np.uint8, np.uint16) and img.size and float(img.max()) <= 1.0:
        scale = 255.0
    out = np.empty((h, w, 3), np.uint8)
    for y in range(0, h, _ROWS):
        out[y:y + _ROWS] = _strip_to_bgr8(img[y:y + _ROWS], scale)
    return out


def _strip_to_bgr8(strip: npt.NDArray[Any], scale: float) -> npt.NDArray[np.uint8]:
    """One strip of rows (see _to_bgr8) -> (rows, W, 3) uint8 BGR."""
    img: npt.NDArray[np.uint8]
    if strip.dtype == np.uint16:
        img = (strip >> 8).astype(np.uint8)
    elif strip.dtype != np.uint8:
        f = strip.astype(np.float32)
        if scale != 1.0:
            f = f * scale
        img = np.clip(f, 0, 255).astype(np.uint8)
    else:
        img = strip
    if img.ndim == 2 or img.shape[2] == 1:
        return np.asarray(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), np.uint8)
    if img.shape[2] == 4:
        alpha = img[:, :, 3:4].astype(np.float32) / 255.0
        bgr = img[:, :, :3].astype(np.float32) * alpha + 255.0 * (1.0 - alpha)
        out: npt.NDArray[np.uint8] = bgr.astype(np.uint8)
        return out
    return np.ascontiguousarray(img[:, :, :3])


#: How a tray's photo is decoded (the scan's Scanner and its early decode): above 8 MP
#: at half size or less, as the floor of a cold scan decodes it. The tray search works
#: on an 800 px copy and a cell is read from at most 1.5 photo pixels an output pixel
#: (cells.CellConfig), which a board across half a 12 MP photo still gives.
TRAY_LOAD = LoadConfig(max_pixels=8 * MEGA)
#: How a photo is decoded to be drawn at its own size (``scan --annotate-full``): whole
#: up to the decoding cap (LoadConfig.max_decode_pixels), reduced only beyond it.
FULL_LOAD = LoadConfig(max_pixels=LoadConfig().max_decode_pixels)


@dataclass(frozen=True)
class DecodedPhoto:
    """A photo as decoded: ``pixels`` BGR uint8 (h, w, 3), EXIF-turned, perhaps
    reduced by the bounded decode; ``shape`` the photo's own (H, W), EXIF-turned (as a
    viewer shows it). A point found in the pixels is in the photo at ``to_photo`` of it.
    """

    pixels: npt.NDArray[np.uint8]
    shape: tuple[int, int]

    @property
    def scale(self) -> tuple[float, float]:
        """Photo pixels per decoded pixel along x and y (1.0 for a whole decode)."""
        h, w = self.pixels.shape[:2]
        return self.shape[1] / w, self.shape[0] / h

    @property
    def reduced(self) -> bool:
        """True when the pixels are fewer than the photo's (a reduced decode)."""
        return self.pixels.shape[:2] != self.shape

    def to_photo(self, points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """(..., 2) float (x, y) in the pixels -> the same points in the photo's own
        pixels. Pixel centres map to pixel centres: a decoded pixel covers scale x
        scale pixels of the photo, so x_photo = (x + 0.5) * scale_x - 0.5."""
        sx, sy = self.scale
        pts = np.asarray(points, np.float64)
        out: npt.NDArray[np.float64] = (pts + 0.5) * np.array([sx, sy]) - 0.5
        return out


def load_image(path: str | Path, config: LoadConfig = LoadConfig()) -> npt.NDArray[np.uint8]:
    """Read a photo as BGR uint8 (H, W, 3) with EXIF orientation applied.

    Large images (more than ``config.max_pixels``) are decoded reduced by 2, 4 or 8;
    a header claiming more than ``config.max_decode_pixels`` (see LoadConfig) is
    refused before decoding. Raises ImageReadError (exit code 4) for a missing file,
    a directory, anything but a regular file, an empty, truncated, oversized or
    undecodable file.
    """
    return load_photo(path, config).pixels


def load_photo(path: str | Path, config: LoadConfig = LoadConfig()) -> DecodedPhoto:
    """Read a photo as load_image does, with the photo's own size (DecodedPhoto)."""
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise ImageReadError(f"cannot read image {p}: no such file", HINT) from None
    except OSError as exc:
        raise ImageReadError(f"cannot read image {p}: {exc.strerror or exc}", HINT) from None
    if stat.S_ISDIR(st.st_mode):
        raise ImageReadError(f"cannot read image {p}: it is a directory", HINT)
    if not stat.S_ISREG(st.st_mode):
        raise ImageReadError(f"cannot read image {p}: not a regular file (a pipe or a device)", HINT)
    if st.st_size > config.max_file_bytes:
        raise ImageReadError(f"cannot read image {p}: file too large ({st.st_size} bytes)", HINT)
    try:
        with open(p, "rb") as f:
            data = f.read(config.max_file_bytes + 1)
    except OSError as exc:
        raise ImageReadError(f"cannot read image {p}: {exc.strerror or exc}", HINT) from exc
    return load_photo_bytes(data, f"image {p}", config)


def load_image_bytes(data: bytes, label: str = "the image",
                     config: LoadConfig = LoadConfig()) -> npt.NDArray[np.uint8]:
    """Decode an image held in memory (e.g. a web upload) exactly as load_image does.

    Returns BGR uint8 (H, W, 3), EXIF orientation applied, reduced decoding above
    ``config.max_pixels``. ``label`` is what error messages call the image ("cannot
    read LABEL: ...", e.g. "image photo.jpg" or "the uploaded photo"). Raises
    ImageReadError (exit code 4) for empty, too large (file or header), truncated or
    undecodable data; the header is checked before any pixel is decoded.
    """
    return load_photo_bytes(data, label, config).pixels


def load_photo_bytes(data: bytes, label: str = "the image",
                     config: LoadConfig = LoadConfig()) -> DecodedPhoto:
    """Decode an image held in memory as load_image_bytes does, with the photo's own
    size (DecodedPhoto)."""
    if len(data) > config.max_file_bytes:
        raise ImageReadError(f"cannot read {label}: file too large ({len(data)} bytes)", HINT)
    if not data:
        raise ImageReadError(f"cannot read {label}: the file is empty", HINT)
    if is_jpeg(data) and jpeg_truncated(data):
        raise ImageReadError(f"cannot read {label}: the JPEG file is truncated", HINT)
    header = read_header(data)
    if header is None:
        raise ImageReadError(f"cannot read {label}: not a readable image file", HINT)
    check_header(header, label, config)
    factor, _ = decode_plan(header, config)
    flag = dict(_REDUCED)[factor]
    exact = factor == 1 and not header.plain and header.format != "JPEG" and header.pixels <= config.max_exact_pixels
    buf = np.frombuffer(data, np.uint8)
    try:
        with _native_stderr_silenced():
            img = _decode(buf, exact, flag)
    except cv2.error as exc:  # e.g. a header OpenCV reads differently from Pillow
        raise ImageReadError(f"cannot read {label}: the decoder refused it "
                             f"({_cv2_reason(exc)})", HINT) from None
    if img is None or img.size == 0:
        raise ImageReadError(f"cannot read {label}: not a readable image file", HINT)
    pixels = _to_bgr8(img)
    return DecodedPhoto(pixels, _own_shape(header, factor, (pixels.shape[0], pixels.shape[1])))


def _own_shape(header: Header, factor: int, decoded: tuple[int, int]) -> tuple[int, int]:
    """The photo's own (H, W) as decoded (EXIF-turned): the decoded (h, w) itself when
    decoded whole; else the header's size, turned a quarter when the decode was (the
    EXIF orientation), whichever fits the decoded size reduced by `factor` better."""
    if factor == 1:
        return decoded
    h, w = decoded
    straight = abs(w * factor - header.width) + abs(h * factor - header.height)
    turned = abs(w * factor - header.height) + abs(h * factor - header.width)
    return (header.height, header.width) if straight <= turned else (header.width, header.height)




def _cv2_reason(exc: cv2.error) -> str:
    """The last line of an OpenCV error, without its source location."""
    text = str(exc).strip().splitlines()
    last = text[-1] if text else "error"
    return last.split(") ", 1)[-1][:120] if ") " in last else last[:120]


_STDERR_LOCK = threading.Lock()


@contextlib.contextmanager
def _native_stderr_silenced() -> Iterator[None]:
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


def _decode(buf: npt.NDArray[np.uint8], exact: bool, flag: int) -> npt.NDArray[Any] | None:
    """cv2.imdecode with the flags chosen by load_image_bytes (None if undecodable).

    Plain 8-bit images decode straight to BGR (EXIF orientation honoured). `exact`
    (alpha, 16-bit or float, at full size and at most max_exact_pixels) decodes
    unchanged, for _to_bgr8 to convert (IMREAD_UNCHANGED ignores EXIF orientation).
    """
    if exact:
        img = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
        if img is not None:
            return img
    return cv2.imdecode(buf, flag)
