"""Reading photos from disk into BGR uint8 arrays with bounded memory.

``load_image(path)`` (``load_image_bytes(data)`` for images held in memory, such
as web uploads) returns a numpy array of shape (H, W, 3), dtype uint8, colour
order BGR (OpenCV's), with the EXIF orientation tag applied, so that (x, y) pixel
coordinates refer to the photo as a person sees it. Grayscale, RGBA (alpha dropped,
transparent areas composited on white) and 16-bit images are converted.

Before any pixel is decoded, the header is read (``read_header``: a JPEG's markers
here, every other format by Pillow without decoding) and the pixels the decoder
would hold are checked against one cap, ``LoadConfig.max_decode_pixels``, so that a
small file claiming gigapixels (a "decompression bomb", or a header OpenCV would
assert on) is refused with exit code 4. Images with more than
``LoadConfig.max_pixels`` pixels are decoded at 1/2, 1/4 or 1/8 scale
(``cv2.IMREAD_REDUCED_COLOR_*``); libjpeg does that while decoding a baseline JPEG,
so a 200 MP phone photo never needs more than a few MB.

Every failure raises :class:`boggle_cv.errors.ImageReadError` with one line that
names the file and the supported formats.
"""
from __future__ import annotations

import contextlib
import importlib
import io
import os
import re
import stat
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import cv2
import numpy as np
import numpy.typing as npt

from boggle_cv.errors import ImageReadError

SUPPORTED = "JPEG, PNG, WebP, TIFF, BMP"
_HINT = f"supported formats: {SUPPORTED}"
MEGA = 1_000_000


@dataclass(frozen=True)
class LoadConfig:
    """Limits for load_image.

    max_pixels: images with more pixels (width*height) are decoded at the smallest of
        1/2, 1/4, 1/8 scale that brings them under it.
    max_file_bytes: files larger than this are refused before reading (bytes); the
        file is held in memory while it is decoded.
    max_decode_pixels: THE cap on decoding, checked on the header before any pixel is
        decoded: the pixels a decoder must hold at full size. A baseline JPEG is
        decoded reduced by libjpeg (only width/f x height/f pixels are ever held), so
        it counts at its reduced size; every other format (progressive JPEG included:
        libjpeg keeps all of its coefficients) counts at full size, and GIF and JPEG
        2000 count HEAVY_FORMAT_WEIGHT times (their decoders hold 8-15 bytes a pixel,
        the others 3-6; measured, docs/errors.md).
    max_exact_pixels: alpha, 16-bit and float images up to this size are decoded
        unchanged and converted exactly (transparent areas composited on white);
        larger ones are decoded by OpenCV straight to 8-bit BGR (alpha dropped), as
        the unchanged 16-bit RGBA array alone takes 8 bytes a pixel.
    """

    max_pixels: int = 24 * MEGA
    max_file_bytes: int = 100_000_000
    max_decode_pixels: int = 40 * MEGA
    max_exact_pixels: int = 12 * MEGA


#: GIF and JPEG 2000 pixels count this many times against max_decode_pixels.
HEAVY_FORMAT_WEIGHT = 4
_HEAVY_FORMATS = ("GIF", "JPEG2000")


_REDUCED = ((1, cv2.IMREAD_COLOR), (2, cv2.IMREAD_REDUCED_COLOR_2),
            (4, cv2.IMREAD_REDUCED_COLOR_4), (8, cv2.IMREAD_REDUCED_COLOR_8))


@dataclass(frozen=True)
class Header:
    """What an image file's header says, read by Pillow without decoding pixels.

    format: Pillow's name (JPEG, PNG, WEBP, TIFF, BMP, GIF, PPM, JPEG2000).
    width, height: pixels of the (first) image. mode: Pillow's pixel mode ("RGB",
    "RGBA", "I;16", "F", ...). progressive: a progressive JPEG. transparency: a
    transparent colour or palette entry (a PNG tRNS chunk, a GIF's).
    """

    format: str
    width: int
    height: int
    mode: str
    progressive: bool = False
    transparency: bool = False
    deep: bool = False
    size_known: bool = True

    @property
    def pixels(self) -> int:
        return self.width * self.height

    @property
    def plain(self) -> bool:
        """8-bit (or palette, or bilevel) without alpha: OpenCV's colour decoding gives
        exactly what the careful conversion (_to_bgr8) would."""
        return self.mode in ("1", "L", "P", "RGB", "CMYK", "YCbCr") and not (self.transparency or self.deep)


#: (accepts first bytes, Pillow's format name, its plugin module) for each format we
#: decode; the list is explicit, so only these formats are ever tried.
_FORMATS: tuple[tuple[Callable[[bytes], bool], str, str], ...] = (
    (lambda b: b[:3] == b"\xff\xd8\xff", "JPEG", "JpegImagePlugin"),
    (lambda b: b[:8] == b"\x89PNG\r\n\x1a\n", "PNG", "PngImagePlugin"),
    (lambda b: b[:4] == b"RIFF" and b[8:12] == b"WEBP", "WEBP", "WebPImagePlugin"),
    (lambda b: b[:4] in (b"II*\x00", b"MM\x00*"), "TIFF", "TiffImagePlugin"),
    (lambda b: b[:2] == b"BM", "BMP", "BmpImagePlugin"),
    (lambda b: b[:6] in (b"GIF87a", b"GIF89a"), "GIF", "GifImagePlugin"),
    (lambda b: b[:1] == b"P" and b[1:2] in (b"1", b"2", b"3", b"4", b"5", b"6", b"f"), "PPM", "PpmImagePlugin"),
    (lambda b: b[:4] == b"\xff\x4f\xff\x51" or b[:12] == b"\x00\x00\x00\x0cjP  \r\n\x87\n", "JPEG2000",
     "Jpeg2KImagePlugin"),
)


def _plugin(name: str, module: str) -> type[Any]:
    """Pillow's ImageFile class for one format, imported on first use (only the
    photo's own plugin; a JPEG never needs Pillow, see _jpeg_header).

    The class is made directly, not through PIL.Image.open, so that Pillow's own bomb
    limit (a global setting) neither refuses a large but legal baseline JPEG nor
    prints a warning: our cap decides.
    """
    mod = importlib.import_module(f"PIL.{module}")
    cls: type[Any] = getattr(mod, {"JPEG2000": "Jpeg2KImageFile", "WEBP": "WebPImageFile"}.get(
        name, f"{name.capitalize()}ImageFile"))
    return cls


_TIFF_BITS_PER_SAMPLE = 258


_SOF = frozenset((0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF))
_PROGRESSIVE_SOF = frozenset((0xC2, 0xC6, 0xCA, 0xCE))
_JPEG_MODES = {1: "L", 3: "RGB", 4: "CMYK"}


def _jpeg_header(data: bytes) -> Header | None:
    """A JPEG's frame header (the first SOFn marker: size, components, progressive),
    or None when there is none before the first scan.

    Nearly every photo is a JPEG, and this walk over its markers costs nothing, while
    importing Pillow costs a command-line scan about 12 ms (measured side by side:
    docs/errors.md); every other format's header is read by Pillow.
    """
    i, n = 2, len(data)
    while i + 9 < n:
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2
            continue
        if marker in _SOF:
            h = int.from_bytes(data[i + 5:i + 7], "big")
            w = int.from_bytes(data[i + 7:i + 9], "big")
            mode = _JPEG_MODES.get(data[i + 9] if i + 9 < n else 3, "RGB")
            return Header("JPEG", w, h, mode, marker in _PROGRESSIVE_SOF)
        if marker == 0xDA:  # a scan before any frame header
            return None
        i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
    return None


def read_header(data: bytes) -> Header | None:
    """The header of an image in memory, or None if it is not one of the formats we
    decode or its header makes no sense. Reads no pixel data: a JPEG's markers are
    walked here (_jpeg_header), every other format's header is read by Pillow."""
    head = data[:16]
    if _is_jpeg(data):
        return _jpeg_header(data)
    for accepts, name, module in _FORMATS:
        if not accepts(head):
            continue
        cls = _plugin(name, module)
        from PIL import Image
        with warnings.catch_warnings():  # "Corrupt EXIF data" and the like: our line says it
            warnings.simplefilter("ignore")
            try:
                im = cls(io.BytesIO(data))
            except Image.DecompressionBombError as exc:  # some plugins check Pillow's own limit (179 MP)
                m = re.search(r"\((\d+) pixels\)", str(exc))
                return Header(name, int(m.group(1)) if m else 2 * 89_478_485 + 1, 1, "RGB", size_known=False)
            except Exception:  # noqa: BLE001 - any failure to parse a header means "not readable"
                return None
            try:
                w, h = im.size
                bits = getattr(im, "tag_v2", {}).get(_TIFF_BITS_PER_SAMPLE, 8) if name == "TIFF" else 8
                deep = any(int(b) > 8 for b in (bits if isinstance(bits, tuple) else (bits,)))
                return Header(name, int(w), int(h), str(im.mode), bool(im.info.get("progressive")),
                              "transparency" in im.info, deep)
            except Exception:  # noqa: BLE001 - a header Pillow opened but cannot describe
                return None
            finally:
                im.close()
    return None


def _is_jpeg(data: bytes) -> bool:
    return data[:3] == b"\xff\xd8\xff"


def _jpeg_truncated(data: bytes) -> bool:
    """True when the last scan of a JPEG has no end-of-image marker after it."""
    last_sos = data.rfind(b"\xff\xda")
    return last_sos < 0 or data.find(b"\xff\xd9", last_sos) < 0


def decode_plan(header: Header, config: LoadConfig = LoadConfig()) -> tuple[int, int]:
    """(reduction factor 1/2/4/8, pixels counted against max_decode_pixels) for an
    image's header.

    The factor is the smallest that brings the image under config.max_pixels; only a
    baseline JPEG is decoded reduced, so only it holds fewer pixels than its header's;
    GIF and JPEG 2000 pixels count HEAVY_FORMAT_WEIGHT times.
    """
    factor = 8
    for f, _ in _REDUCED:
        if (header.width // f) * (header.height // f) <= config.max_pixels:
            factor = f
            break
    reduced = header.format == "JPEG" and not header.progressive
    held = (header.width // factor) * (header.height // factor) if reduced else header.pixels
    weight = HEAVY_FORMAT_WEIGHT if header.format in _HEAVY_FORMATS else 1
    return factor, held * weight


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


def load_image(path: str | Path, config: LoadConfig = LoadConfig()) -> npt.NDArray[np.uint8]:
    """Read a photo as BGR uint8 (H, W, 3) with EXIF orientation applied.

    Large images (more than ``config.max_pixels``) are decoded reduced by 2, 4 or 8;
    a header claiming more than ``config.max_decode_pixels`` (see LoadConfig) is
    refused before decoding. Raises ImageReadError (exit code 4) for a missing file,
    a directory, anything but a regular file, an empty, truncated, oversized or
    undecodable file.
    """
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise ImageReadError(f"cannot read image {p}: no such file", _HINT) from None
    except OSError as exc:
        raise ImageReadError(f"cannot read image {p}: {exc.strerror or exc}", _HINT) from None
    if stat.S_ISDIR(st.st_mode):
        raise ImageReadError(f"cannot read image {p}: it is a directory", _HINT)
    if not stat.S_ISREG(st.st_mode):
        raise ImageReadError(f"cannot read image {p}: not a regular file (a pipe or a device)", _HINT)
    if st.st_size > config.max_file_bytes:
        raise ImageReadError(f"cannot read image {p}: file too large ({st.st_size} bytes)", _HINT)
    try:
        with open(p, "rb") as f:
            data = f.read(config.max_file_bytes + 1)
    except OSError as exc:
        raise ImageReadError(f"cannot read image {p}: {exc.strerror or exc}", _HINT) from exc
    return load_image_bytes(data, f"image {p}", config)


def load_image_bytes(data: bytes, label: str = "the image",
                     config: LoadConfig = LoadConfig()) -> npt.NDArray[np.uint8]:
    """Decode an image held in memory (e.g. a web upload) exactly as load_image does.

    Returns BGR uint8 (H, W, 3), EXIF orientation applied, reduced decoding above
    ``config.max_pixels``. ``label`` is what error messages call the image ("cannot
    read LABEL: ...", e.g. "image photo.jpg" or "the uploaded photo"). Raises
    ImageReadError (exit code 4) for empty, too large (file or header), truncated or
    undecodable data; the header is checked before any pixel is decoded.
    """
    if len(data) > config.max_file_bytes:
        raise ImageReadError(f"cannot read {label}: file too large ({len(data)} bytes)", _HINT)
    if not data:
        raise ImageReadError(f"cannot read {label}: the file is empty", _HINT)
    if _is_jpeg(data) and _jpeg_truncated(data):
        raise ImageReadError(f"cannot read {label}: the JPEG file is truncated", _HINT)
    header = read_header(data)
    if header is None:
        raise ImageReadError(f"cannot read {label}: not a readable image file", _HINT)
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
                             f"({_cv2_reason(exc)})", _HINT) from None
    if img is None or img.size == 0:
        raise ImageReadError(f"cannot read {label}: not a readable image file", _HINT)
    return _to_bgr8(img)


def check_header(header: Header, label: str, config: LoadConfig = LoadConfig()) -> None:
    """ImageReadError (exit 4) when decoding this image would hold more than
    config.max_decode_pixels pixels (see LoadConfig), or its header is empty."""
    if header.width <= 0 or header.height <= 0:
        raise ImageReadError(f"cannot read {label}: its header gives no size", _HINT)
    _, held = decode_plan(header, config)
    if held > config.max_decode_pixels:
        name = _NAMES.get(header.format, header.format)
        heavy = header.format in _HEAVY_FORMATS
        cap = config.max_decode_pixels // (HEAVY_FORMAT_WEIGHT if heavy else 1) / MEGA
        cap_text = f"{cap:g}"
        how = ("progressive JPEGs are decoded at full size" if header.format == "JPEG"
               else f"a {name} is decoded at full size")
        size = f"{header.width}x{header.height}" if header.size_known else f"{header.pixels:,}"
        raise ImageReadError(f"cannot read {label}: {size} pixels is too large "
                             f"to decode (at most {cap_text} megapixels for {name}; {how})",
                             "save it as a baseline JPEG or scale it down")


_NAMES = {"WEBP": "WebP", "JPEG2000": "JPEG 2000", "JPEG": "JPEG"}


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
