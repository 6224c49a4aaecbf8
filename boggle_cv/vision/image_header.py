"""What an image file's header says, read before any pixel is decoded, and the one
cap that decides whether it may be decoded at all (see vision.imageio).

``read_header(data)`` reads a JPEG's markers directly (importing Pillow would cost
a scan more than the walk) and every other format's header with Pillow's plugin for
that format alone, without decoding. ``check_header`` refuses an image whose
decoding would hold more than ``LoadConfig.max_decode_pixels`` pixels (exit code 4),
and ``decode_plan`` says at which reduction (1, 2, 4, 8) it will be decoded.
"""
from __future__ import annotations

import importlib
import io
import re
import warnings
from dataclasses import dataclass
from typing import Any, Callable

from boggle_cv.errors import ImageReadError

SUPPORTED = "JPEG, PNG, WebP, TIFF, BMP"
HINT = f"supported formats: {SUPPORTED}"
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
    if is_jpeg(data):
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


def is_jpeg(data: bytes) -> bool:
    return data[:3] == b"\xff\xd8\xff"


def jpeg_truncated(data: bytes) -> bool:
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
    for f in REDUCTIONS:
        if (header.width // f) * (header.height // f) <= config.max_pixels:
            factor = f
            break
    reduced = header.format == "JPEG" and not header.progressive
    held = (header.width // factor) * (header.height // factor) if reduced else header.pixels
    weight = HEAVY_FORMAT_WEIGHT if header.format in _HEAVY_FORMATS else 1
    return factor, held * weight



def check_header(header: Header, label: str, config: LoadConfig = LoadConfig()) -> None:
    """ImageReadError (exit 4) when decoding this image would hold more than
    config.max_decode_pixels pixels (see LoadConfig), or its header is empty."""
    if header.width <= 0 or header.height <= 0:
        raise ImageReadError(f"cannot read {label}: its header gives no size", HINT)
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
                             "save it as a baseline JPEG or scale it down", code="photo.too_many_pixels",
                             params={"megapixels": cap_text})


_NAMES = {"WEBP": "WebP", "JPEG2000": "JPEG 2000", "JPEG": "JPEG"}


#: The reductions OpenCV can decode at (1/1, 1/2, 1/4, 1/8), smallest first.
REDUCTIONS = (1, 2, 4, 8)
