"""Bad and odd photos: each gives a clear one-line error and exit code, or is read.

CLI cases use `--engine tesseract` so that they run before the trained classifier
lands (an unreadable photo or a photo without a board fails before any cube is read);
cases that need a full reading are marked needs_model.
"""
from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import zlib

import cv2
import numpy as np
import pytest

from boggle_cv.errors import ImageReadError, NoBoardError
from boggle_cv.vision.imageio import load_image, load_image_bytes
from boggle_cv.vision.tray import find_tray

from .conftest import BOARD, needs_model, one_error_line, run

TESS = ("--engine", "tesseract")


@pytest.fixture(scope="module")
def tesseract():
    import shutil
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract not installed")


# --- files that are not images (and scenes without a board): one scan, many photos ------

def _bad_photos(d, small_photo) -> dict:
    """name -> (path, exit code, fragment of its error line)."""
    data = small_photo[".jpg"].read_bytes()
    (d / "empty.jpg").write_bytes(b"")
    (d / "cut.jpg").write_bytes(data[: len(data) // 2])
    (d / "notes.jpg").write_text("alice: cat dog\n")
    for brand in (b"heic", b"avif"):  # OpenCV here has no HEIF/AVIF decoder
        box = struct.pack(">I4s4sI4s4s", 24, b"ftyp", brand, 0, b"mif1", brand)
        (d / f"phone.{brand.decode()}").write_bytes(box + bytes(4096))
    for side in (1, 20):
        cv2.imwrite(str(d / f"tiny{side}.png"), np.full((side, side, 3), 128, np.uint8))
    rng = np.random.default_rng(7)
    wall = cv2.GaussianBlur(rng.normal(150, 12, (600, 800, 3)).clip(0, 255).astype(np.uint8), (0, 0), 3)
    cv2.imwrite(str(d / "wall.jpg"), wall)
    cv2.imwrite(str(d / "half.jpg"), _render("incomplete", 4))
    cv2.imwrite(str(d / "empty-tray.jpg"), _render("empty-tray", 5))
    (d / "folder").mkdir()
    return {
        "nope.jpg": (4, "no such file"), "folder": (4, "directory"), "empty.jpg": (4, "empty"),
        "cut.jpg": (4, "truncated"), "notes.jpg": (4, "not a readable image"),
        "phone.heic": (4, "supported formats"), "phone.avif": (4, "supported formats"),
        "tiny1.png": (5, "no board"), "tiny20.png": (5, "no board"), "wall.jpg": (5, "no board"),
        "half.jpg": (5, "no board"), "empty-tray.jpg": (5, "no board"),
    }


def test_bad_photos_each_get_their_line_and_code(tmp_path, small_photo, tesseract, tray_ready):
    """All bad photos in one `scan`: one error line each (exit 4 unreadable, 5 no board),
    a summary, the worst failure's code (4 before 5), no traceback; one bad photo stops
    no other."""
    cases = _bad_photos(tmp_path, small_photo)
    out = run("scan", *[tmp_path / n for n in cases], *TESS)
    assert "Traceback" not in out.stderr
    assert out.returncode == 4, out.stderr
    lines = out.stderr.splitlines()
    for name, (code, fragment) in cases.items():
        mine = [ln for ln in lines if ln.startswith(f"boggle-cv: error: {tmp_path / name}: ")]
        assert len(mine) == 1 and fragment in mine[0], (name, mine)
        assert f"  {tmp_path / name}: exit {code}" in lines, name
    assert f"{len(cases)} photos: 0 read, {len(cases)} failed" in out.stderr


@pytest.mark.parametrize("name, code, fragment", [("nope.jpg", 4, "no such file"), ("wall.jpg", 5, "no board")])
def test_single_bad_photo_one_line(tmp_path, small_photo, tesseract, tray_ready, name, code, fragment):
    _bad_photos(tmp_path, small_photo)
    one_error_line(run("scan", tmp_path / name, *TESS, "--json"), code, fragment)


def test_directory_with_board_text(tmp_path):
    """--board skips the reading but the photo must still be a file (exit 4)."""
    one_error_line(run("scan", tmp_path, "--board", BOARD), 4, "directory")


def test_png_named_jpg_is_read_by_content(tmp_path, small_photo):
    p = tmp_path / "really-png.jpg"
    p.write_bytes(small_photo[".png"].read_bytes())
    a, b = load_image(p), load_image(small_photo[".png"])
    assert a.shape == b.shape == (700, 700, 3) and np.array_equal(a, b)


# --- formats ---------------------------------------------------------------------------

def _marker() -> np.ndarray:
    """(60, 90, 3) BGR black with a red top-left block."""
    img = np.zeros((60, 90, 3), np.uint8)
    img[:20, :30] = (0, 0, 255)
    return img


READABLE = ["PNG", "JPEG", "WEBP", "TIFF", "BMP", "GIF", "PPM", "JPEG2000"]
REFUSED = ["ICO", "TGA", "PCX", "PDF"]


@pytest.mark.parametrize("fmt", READABLE + REFUSED)
def test_formats(fmt):
    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(_marker()[:, :, ::-1].copy()).save(buf, fmt)
    if fmt in READABLE:
        img = load_image_bytes(buf.getvalue(), fmt)
        assert img.shape == (60, 90, 3) and img.dtype == np.uint8
        assert img[5, 5, 2] > 200 and img[50, 80, 2] < 60
    else:
        with pytest.raises(ImageReadError) as e:
            load_image_bytes(buf.getvalue(), fmt)
        assert "supported formats" in e.value.one_line()


_RSS = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
        "print(p.returncode); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); "
        "sys.stderr.write(p.stderr)")


def _peak_rss_mb(*args) -> tuple[int, float, str]:
    """Run `python -m boggle_cv args` under a fresh parent; (exit code, peak RSS MiB, stderr)."""
    p = subprocess.run([sys.executable, "-c", _RSS, sys.executable, "-m", "boggle_cv", *map(str, args)],
                       capture_output=True, text=True, timeout=120)
    rc, kb = p.stdout.split()
    return int(rc), int(kb) / 1024, p.stderr


def test_100_megapixel_jpeg_bounded_memory(tmp_path, tesseract, tray_ready):
    """10000 x 10000 JPEG: decoded at 1/4 by libjpeg; the whole scan stays under 250 MiB."""
    img = np.full((10_000, 10_000), 90, np.uint8)
    img[3000:7000, 3000:7000] = 160
    p = tmp_path / "huge.jpg"
    assert cv2.imwrite(str(p), img, [cv2.IMWRITE_JPEG_QUALITY, 40])
    del img
    rc, mb, err = _peak_rss_mb("scan", p, *TESS)
    assert rc == 5 and "no board" in err, err  # read fine, nothing in it
    assert mb < 250, f"peak RSS {mb:.0f} MiB"


def _png_bomb(w: int, h: int) -> bytes:
    """A valid 1-bit grey PNG of w x h zeros (a few hundred KB for hundreds of megapixels)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = b"\x00" + bytes((w + 7) // 8)
    z = zlib.compressobj(9)
    body = b"".join(z.compress(row) for _ in range(h)) + z.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def test_png_bomb_refused_before_decoding(tmp_path, tesseract):
    """20000 x 20000 PNG (400 MP; OpenCV would need ~1.2 GB): exit 4 at small memory."""
    p = tmp_path / "bomb.png"
    p.write_bytes(_png_bomb(20_000, 20_000))
    rc, mb, err = _peak_rss_mb("scan", p, *TESS)
    assert rc == 4 and "too large" in err and "Traceback" not in err, err
    assert mb < 250, f"peak RSS {mb:.0f} MiB"


def test_png_at_the_limit_is_read_reduced():
    img = load_image_bytes(_png_bomb(4000, 3000), "png")
    assert img.shape == (3000, 4000, 3)  # 12 MP: under max_pixels, full size


# --- colour and depth ------------------------------------------------------------------

def test_grayscale_rgba_16bit(tmp_path, small_photo, tray_ready):
    bgr = cv2.imread(str(small_photo[".png"]))
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    rgba = cv2.cvtColor(bgr, cv2.COLOR_BGR2BGRA)
    rgba[:50, :50, 3] = 0  # transparent corner -> white
    deep = bgr.astype(np.uint16) * 257
    for name, arr in (("gray", gray), ("rgba", rgba), ("deep", deep)):
        cv2.imwrite(str(tmp_path / f"{name}.png"), arr)
        img = load_image(tmp_path / f"{name}.png")
        assert img.shape == (700, 700, 3) and img.dtype == np.uint8, name
    assert (load_image(tmp_path / "rgba.png")[:50, :50] == 255).all()
    assert np.abs(load_image(tmp_path / "deep.png").astype(int) - bgr).max() <= 1
    # a grey photo of a tray still shows the tray
    r = find_tray(load_image(tmp_path / "gray.png"))
    assert r.size == 4


# --- EXIF orientation ---------------------------------------------------------------------

# where the stored top-left red block must appear once the tag is applied: (bottom?, right?)
_EXPECT = {1: (0, 0), 2: (0, 1), 3: (1, 1), 4: (1, 0), 5: (0, 0), 6: (0, 1), 7: (1, 1), 8: (1, 0)}


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP", "TIFF"])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation(fmt, orientation):
    from PIL import Image
    ex = Image.Exif()
    ex[0x0112] = orientation
    buf = io.BytesIO()
    Image.fromarray(_marker()[:, :, ::-1].copy()).save(buf, fmt, exif=ex.tobytes())
    img = load_image_bytes(buf.getvalue(), f"o{orientation}")
    assert img.shape[:2] == ((60, 90) if orientation <= 4 else (90, 60))
    ys, xs = np.nonzero(img[:, :, 2] > 200)
    assert (int(ys.mean() > img.shape[0] / 2), int(xs.mean() > img.shape[1] / 2)) == _EXPECT[orientation]


def test_sideways_phone_photo_is_turned_upright(tmp_path, small_photo):
    """Pixels stored turned 90 degrees with Orientation 6 load like the upright photo."""
    from PIL import Image
    up = cv2.imread(str(small_photo[".png"]))
    stored = np.rot90(up, 1)  # what a phone held sideways stores (counter-clockwise)
    ex = Image.Exif()
    ex[0x0112] = 6  # "rotate 90 clockwise to view"
    p = tmp_path / "sideways.jpg"
    Image.fromarray(stored[:, :, ::-1].copy()).save(p, "JPEG", quality=95, exif=ex.tobytes())
    img = load_image(p)
    assert img.shape == up.shape
    assert np.abs(img.astype(int) - up).mean() < 4


def _render(kind: str, seed: int, size: int = 4) -> np.ndarray:
    from boggle_cv.synth.scene import render_photo
    img, _ = render_photo(np.random.default_rng(seed), size=size, long_side=800, kind=kind)
    return img


@pytest.mark.parametrize("kind", ["incomplete", "empty-tray"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_half_empty_and_empty_tray_no_board(kind, seed, tray_ready):
    with pytest.raises(NoBoardError):
        find_tray(_render(kind, seed))


@pytest.mark.parametrize("seed", [3, 11])
def test_two_trays_one_is_read_never_mixed(seed, tray_ready):
    """Two trays side by side: the finder returns ONE of them (every cube centre inside
    one tray's half), never a grid spanning both. (It gives no note about the other.)
    Corners may cross the seam: a tray cut off by its own frame has corners beyond it."""
    a, b = _render("tray", seed), _render("tray", seed + 100)
    b = cv2.resize(b, (a.shape[1], a.shape[0]))
    two = np.concatenate([a, b], axis=1)
    r = find_tray(two)
    xs = np.asarray(r.cell_centres)[..., 0].ravel()
    w = a.shape[1]
    assert (xs < w).all() or (xs >= w).all(), xs


@needs_model
def test_two_trays_cli_reads_one(tmp_path, tray_ready):
    a, b = _render("tray", 3), _render("tray", 103)
    p = tmp_path / "two.jpg"
    cv2.imwrite(str(p), np.concatenate([a, cv2.resize(b, (a.shape[1], a.shape[0]))], axis=1))
    out = run("scan", p, "--json")
    assert out.returncode in (0, 5), out.stderr
    if out.returncode == 0:
        xs = [c["centre"][0] for c in json.loads(out.stdout)["board"]["cells"]]
        assert max(xs) < a.shape[1] or min(xs) >= a.shape[1]
