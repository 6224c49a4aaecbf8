"""load_image: formats, EXIF orientation, bounded decoding and clear failures."""
from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from boggle_cv.errors import ImageReadError
from boggle_cv.vision.imageio import LoadConfig, load_image


def _marker_image(h: int = 60, w: int = 90) -> np.ndarray:
    """BGR image whose top-left quadrant is red and the rest grey: shows orientation."""
    img = np.full((h, w, 3), 128, np.uint8)
    img[: h // 2, : w // 2] = (0, 0, 255)
    return img


def _with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """Insert an APP1 Exif segment holding only the Orientation tag after SOI."""
    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1)
    tiff += struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack("<I", 0)
    payload = b"Exif\x00\x00" + tiff
    app1 = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    return jpeg[:2] + app1 + jpeg[2:]


def _encode(img: np.ndarray, ext: str = ".jpg") -> bytes:
    ok, buf = cv2.imencode(ext, img)
    assert ok
    return buf.tobytes()


def test_missing_file(tmp_path):
    with pytest.raises(ImageReadError, match="no such file"):
        load_image(tmp_path / "nope.jpg")


def test_directory(tmp_path):
    with pytest.raises(ImageReadError, match="directory"):
        load_image(tmp_path)


def test_empty_file(tmp_path):
    p = tmp_path / "empty.jpg"
    p.write_bytes(b"")
    with pytest.raises(ImageReadError, match="empty"):
        load_image(p)


def test_truncated_jpeg(tmp_path):
    data = _encode(np.random.default_rng(0).integers(0, 255, (200, 200, 3), np.uint8))
    p = tmp_path / "cut.jpg"
    p.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImageReadError, match="truncated"):
        load_image(p)


def test_text_named_jpg(tmp_path):
    p = tmp_path / "notes.jpg"
    p.write_text("this is not a photo\n")
    with pytest.raises(ImageReadError) as info:
        load_image(p)
    line = info.value.one_line()
    assert "\n" not in line and "JPEG" in line and "PNG" in line


def test_one_pixel(tmp_path):
    p = tmp_path / "dot.png"
    cv2.imwrite(str(p), np.array([[[10, 20, 30]]], np.uint8))
    img = load_image(p)
    assert img.shape == (1, 1, 3) and img.dtype == np.uint8
    assert tuple(img[0, 0]) == (10, 20, 30)


def test_sixteen_bit_png(tmp_path):
    p = tmp_path / "deep.png"
    img16 = np.zeros((8, 8, 3), np.uint16)
    img16[..., 2] = 65535  # red in BGR
    cv2.imwrite(str(p), img16)
    img = load_image(p)
    assert img.dtype == np.uint8 and img.shape == (8, 8, 3)
    assert img[0, 0, 2] == 255 and img[0, 0, 0] == 0


def test_rgba_png_composited_on_white(tmp_path):
    p = tmp_path / "alpha.png"
    bgra = np.zeros((4, 4, 4), np.uint8)
    bgra[..., 0] = 255  # blue
    bgra[:2, :, 3] = 255  # top half opaque, bottom transparent
    cv2.imwrite(str(p), bgra)
    img = load_image(p)
    assert img.shape == (4, 4, 3)
    assert tuple(img[0, 0]) == (255, 0, 0)
    assert tuple(img[3, 0]) == (255, 255, 255)


def test_gray_jpeg(tmp_path):
    p = tmp_path / "gray.jpg"
    cv2.imwrite(str(p), np.full((10, 12), 200, np.uint8))
    img = load_image(p)
    assert img.shape == (10, 12, 3)
    assert abs(int(img[5, 5, 0]) - 200) <= 2


@pytest.mark.parametrize(
    "orientation, shape, red_corner",
    [
        (1, (60, 90), "tl"),
        (3, (60, 90), "br"),  # 180 degrees
        (6, (90, 60), "tr"),  # rotate 90 clockwise to view
        (8, (90, 60), "bl"),  # rotate 90 counter-clockwise to view
    ],
)
def test_exif_orientation(tmp_path, orientation, shape, red_corner):
    p = tmp_path / f"o{orientation}.jpg"
    p.write_bytes(_with_exif_orientation(_encode(_marker_image()), orientation))
    img = load_image(p)
    assert img.shape[:2] == shape
    h, w = img.shape[:2]
    probe = {"tl": (h // 8, w // 8), "tr": (h // 8, w - 1 - w // 8),
             "bl": (h - 1 - h // 8, w // 8), "br": (h - 1 - h // 8, w - 1 - w // 8)}
    y, x = probe[red_corner]
    assert img[y, x, 2] > 200 and img[y, x, 0] < 60


def test_huge_image_decoded_reduced_with_orientation(tmp_path):
    big = cv2.resize(_marker_image(), (1800, 1200), interpolation=cv2.INTER_NEAREST)
    p = tmp_path / "big.jpg"
    p.write_bytes(_with_exif_orientation(_encode(big), 6))
    img = load_image(p, LoadConfig(max_pixels=600_000))
    assert img.shape[:2] == (900, 600)  # 1/2 scale and turned
    assert img[50, 550, 2] > 200  # red now top-right


def test_huge_png_reduced(tmp_path):
    p = tmp_path / "big.png"
    cv2.imwrite(str(p), np.zeros((1000, 1600, 3), np.uint8))
    img = load_image(p, LoadConfig(max_pixels=120_000))
    assert img.shape[:2] == (250, 400)


def test_corrupt_jpeg_prints_nothing_of_the_decoders(tmp_path):
    """libjpeg's own "Corrupt JPEG data" line must not reach the user's stderr."""
    import subprocess
    import sys

    src = Path(__file__).resolve().parents[2] / "samples" / "sample-4x4-a.jpg"
    data = bytearray(src.read_bytes())
    for i in range(2000, len(data) - 100, 997):
        data[i] ^= 0x55
    bad = tmp_path / "corrupt.jpg"
    bad.write_bytes(bytes(data))
    code = ("import sys; from boggle_cv.vision.imageio import load_image\n"
            "try:\n    load_image(sys.argv[1])\nexcept Exception as e:\n    print(type(e).__name__)\n")
    out = subprocess.run([sys.executable, "-c", code, str(bad)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert "Corrupt JPEG" not in out.stderr and out.stderr.strip() == ""
