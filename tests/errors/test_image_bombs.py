"""Decompression bombs and oversized headers in every format.

A small file can claim a huge picture: a 550 KB WebP of 16383x16383 would take 1.6 GB
and most of a minute to decode, and a BMP, GIF, TIFF, PPM, PFM or HDR header claiming
10^10 pixels trips OpenCV's own size assertion. So the header is read by Pillow and
checked against one cap before anything is decoded: exit 4, one line, little memory;
the page answers 415 (not a photo format) or 422.
"""
from __future__ import annotations

import io
import struct

import numpy as np
import pytest

from boggle_cv.errors import ImageReadError
from boggle_cv.vision.image_header import HEAVY_FORMAT_WEIGHT, LoadConfig, decode_plan, read_header
from boggle_cv.vision.imageio import load_image_bytes

from .conftest import one_error_line
from .measure import run_peak

_ZEROS = bytes(1000)
_BIG = 100_000


def _tiff(w: int, h: int) -> bytes:
    entries = [(256, 4, w), (257, 4, h), (258, 3, 8), (259, 3, 1), (262, 3, 1), (273, 4, 8 + 2 + 12 * 9 + 4),
               (277, 3, 1), (278, 4, h), (279, 4, len(_ZEROS))]
    ifd = struct.pack("<H", len(entries)) + b"".join(
        struct.pack("<HHII", t, k, 1, v) if k == 4 else struct.pack("<HHIHH", t, k, 1, v, 0)
        for t, k, v in entries) + struct.pack("<I", 0)
    return b"II*\x00" + struct.pack("<I", 8) + ifd + _ZEROS


def _bmp(w: int, h: int) -> bytes:
    info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 24, 0, 0, 2835, 2835, 0, 0)
    return b"BM" + struct.pack("<IHHI", 54 + len(_ZEROS), 0, 0, 54) + info + _ZEROS


def _gif(w: int, h: int) -> bytes:
    return (b"GIF89a" + struct.pack("<HHBBB", w, h, 0, 0, 0) + b"," + struct.pack("<HHHHB", 0, 0, w, h, 0)
            + b"\x02\x02\x44\x01\x00;")


#: name -> file bytes whose header claims 10^10 pixels (GIF: 65535^2, its largest)
OVERSIZED = {
    "x.ppm": b"P6\n%d %d\n255\n" % (_BIG, _BIG) + _ZEROS,
    "x.pgm": b"P5\n%d %d\n255\n" % (_BIG, _BIG) + _ZEROS,
    "x.pfm": b"Pf\n%d %d\n-1.0\n" % (_BIG, _BIG) + _ZEROS,
    "x.hdr": b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n" % (_BIG, _BIG) + _ZEROS,
    "x.bmp": _bmp(_BIG, _BIG),
    "x.gif": _gif(65535, 65535),
    "x.tif": _tiff(_BIG, _BIG),
}


def webp_claiming(w: int, h: int) -> bytes:
    """A small lossless WebP whose VP8L header is rewritten to claim w x h pixels
    (encoding a real 16383 x 16383 one takes minutes on a busy machine)."""
    from PIL import Image
    buf = io.BytesIO()
    Image.new("RGB", (64, 64), (120, 130, 140)).save(buf, "WEBP", lossless=True)
    d = bytearray(buf.getvalue())
    assert d[12:16] == b"VP8L" and d[20] == 0x2F
    rest = int.from_bytes(d[21:25], "little") & ~((1 << 28) - 1)
    d[21:25] = ((w - 1) | ((h - 1) << 14) | rest).to_bytes(4, "little")
    return bytes(d)


@pytest.fixture(scope="module")
def webp_bomb() -> bytes:
    return webp_claiming(16383, 16383)


@pytest.mark.parametrize("name", sorted(OVERSIZED))
def test_oversized_header_exit_4_in_process(name):
    with pytest.raises(ImageReadError) as e:
        load_image_bytes(OVERSIZED[name], name)
    line = e.value.one_line()
    assert ("too large" in line or "not a readable image" in line) and "\n" not in line


@pytest.mark.parametrize("name", sorted(OVERSIZED))
def test_oversized_header_exit_4_cli(tmp_path, name):
    p = tmp_path / name
    p.write_bytes(OVERSIZED[name])
    proc, peak = run_peak("scan", p, "--json", timeout=120)
    line = one_error_line(proc, 4, name)
    assert "internal error" not in line and "validateInputImageSize" not in proc.stderr
    assert peak < 250, peak


def test_webp_bomb_refused_before_decoding(tmp_path, webp_bomb):
    p = tmp_path / "bomb.webp"
    p.write_bytes(webp_bomb)
    proc, peak = run_peak("scan", p, "--json", timeout=120)
    one_error_line(proc, 4, "too large", "megapixels")
    assert peak < 250, peak


def test_one_cap_per_header_counted_as_decoded():
    cfg = LoadConfig()
    cap = cfg.max_decode_pixels
    big = read_header(_bmp(10_000, 10_000))
    assert big is not None and big.format == "BMP" and (big.width, big.height) == (10_000, 10_000)
    assert decode_plan(big, cfg)[1] == 100_000_000 > cap
    # a baseline JPEG is decoded reduced: a 200 MP one holds 200/64 MP at 1/8
    from PIL import Image
    buf = io.BytesIO()
    Image.new("L", (14_000, 14_000), 90).save(buf, "JPEG", quality=30)
    jpeg = read_header(buf.getvalue())
    assert jpeg is not None and not jpeg.progressive
    factor, held = decode_plan(jpeg, cfg)
    assert factor == 4 and held <= cfg.max_pixels
    # a progressive one keeps its coefficients for every pixel: counted in full
    buf = io.BytesIO()
    Image.new("L", (8_000, 6_000), 90).save(buf, "JPEG", quality=30, progressive=True)
    prog = read_header(buf.getvalue())
    assert prog is not None and prog.progressive and decode_plan(prog, cfg)[1] == 48_000_000 > cap
    gif = read_header(_gif(4000, 3000))
    assert gif is not None and decode_plan(gif, cfg)[1] == 12_000_000 * HEAVY_FORMAT_WEIGHT


def test_progressive_jpeg_over_the_cap_is_refused():
    from PIL import Image
    buf = io.BytesIO()
    Image.new("L", (8_000, 6_000), 90).save(buf, "JPEG", quality=30, progressive=True)
    with pytest.raises(ImageReadError, match="progressive JPEGs are decoded at full size"):
        load_image_bytes(buf.getvalue(), "p.jpg")


def test_exact_conversion_is_kept_under_its_size_and_bounded_above():
    """Alpha composited on white up to max_exact_pixels; above it, decoded to BGR."""
    import cv2
    rgba = np.zeros((40, 50, 4), np.uint8)
    rgba[..., 3] = 0  # fully transparent black
    ok, buf = cv2.imencode(".png", rgba)
    assert ok
    assert (load_image_bytes(buf.tobytes(), "t") == 255).all()
    small = LoadConfig(max_exact_pixels=1000)
    assert (load_image_bytes(buf.tobytes(), "t", small) == 0).all()


@pytest.mark.parametrize("name", ["x.bmp", "x.tif"])
def test_page_answers_422_not_500(tmp_path, name):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from boggle_cv.game.dictionary import from_words
    from boggle_cv.web import ServeConfig, create_app

    def no_scanner() -> None:
        raise AssertionError("the photo must be refused before any reading")

    app = create_app(ServeConfig(db_path=tmp_path / "g.db"), no_scanner, from_words(["rats"]))
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.post("/api/scan", content=OVERSIZED[name], headers={"content-type": "application/octet-stream"})
    assert r.status_code == 422, r.text
    assert "too large" in r.json()["error"]


def test_page_answers_415_for_formats_it_does_not_take(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from boggle_cv.game.dictionary import from_words
    from boggle_cv.web import ServeConfig, create_app
    app = create_app(ServeConfig(db_path=tmp_path / "g.db"), None, from_words(["rats"]))
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.post("/api/scan", content=OVERSIZED["x.ppm"], headers={"content-type": "image/x-portable-pixmap"})
    assert r.status_code == 415, r.text


def test_corrupt_exif_prints_nothing_of_pillow(tmp_path):
    """Pillow warns about corrupt EXIF while it reads a header ('Corrupt EXIF data'):
    the user sees only our line."""
    import cv2
    ok, buf = cv2.imencode(".jpg", np.full((40, 60, 3), 128, np.uint8))
    assert ok
    jpeg = buf.tobytes()
    tiff = (b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 3) + struct.pack("<HHIHH", 0x0112, 3, 1, 6, 0)
            + b"\x10\x01\x02")  # three entries promised, one and a half given
    payload = b"Exif\x00\x00" + tiff
    p = tmp_path / "exif.jpg"
    p.write_bytes(jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:])
    proc, _ = run_peak("scan", p, "--json", timeout=120)
    one_error_line(proc, 5, "no board")
    assert "Warning" not in proc.stderr and "EXIF" not in proc.stderr, proc.stderr


def test_jpeg_header_walk_agrees_with_pillow():
    """JPEG headers are read from their markers (no Pillow import on the common path):
    the same size, mode and progressive flag as Pillow gives, on 60 random JPEGs."""
    import random

    from PIL import Image, JpegImagePlugin
    rng = random.Random(4)
    for _ in range(60):
        size = (rng.randint(1, 2000), rng.randint(1, 2000))
        buf = io.BytesIO()
        Image.new(rng.choice(["L", "RGB", "CMYK"]), size).save(
            buf, "JPEG", progressive=rng.random() < 0.5, quality=rng.randint(10, 95),
            exif=Image.Exif().tobytes() if rng.random() < 0.5 else b"")
        h = read_header(buf.getvalue())
        im = JpegImagePlugin.JpegImageFile(io.BytesIO(buf.getvalue()))
        assert h is not None and (h.width, h.height, h.mode, h.progressive) == (
            *im.size, im.mode, bool(im.info.get("progressive")))
