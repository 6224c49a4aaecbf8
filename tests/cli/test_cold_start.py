"""What a cold `scan` does not do: import another command's modules (the games
database, the practice clock, the questions of a round with no doubt), or compute the
tray search's whiteness map twice."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "samples" / "sample-4x4-a.jpg"


def test_a_scan_imports_only_its_own_command():
    code = (
        "import sys\n"
        f"sys.argv = ['boggle-cv', 'scan', {str(SAMPLE)!r}, '--json']\n"
        "from boggle_cv import cli\n"
        "try:\n"
        "    cli.main()\n"
        "except SystemExit as e:\n"
        "    assert e.code == 0, e.code\n"
        "names = [c.name for c in cli.app.registered_commands]\n"
        "loaded = [m for m in ('sqlite3', 'boggle_cv.store.database', 'boggle_cv.cli.practice', 'boggle_cv.practice.clock',"
        " 'boggle_cv.cli.standings', 'boggle_cv.game.questions') if m in sys.modules]\n"
        "print(names, loaded, file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stderr.strip().splitlines()[-1] == "['scan'] []"


def test_help_and_a_typo_still_see_every_command():
    out = subprocess.run([sys.executable, "-m", "boggle_cv", "--help"], capture_output=True, text=True, timeout=60)
    assert all(name in out.stdout for name in ("scan", "sheet", "solve", "score", "standings", "practice", "serve"))
    typo = subprocess.run([sys.executable, "-m", "boggle_cv", "scna"], capture_output=True, text=True, timeout=60)
    assert typo.returncode == 2 and "boggle-cv has no command 'scna': did you mean scan?" in typo.stderr


def test_the_whiteness_map_is_numpy_s_channel_min_and_computed_once(monkeypatch):
    from boggle_cv.vision.tray import blobs, image_search
    from boggle_cv.vision.tray import TrayConfig
    import cv2
    rng = np.random.default_rng(5)
    work = rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)
    assert np.array_equal(blobs.whiteness_map(work), cv2.GaussianBlur(np.min(work, axis=2), (3, 3), 0))
    calls = []
    real = blobs.whiteness_map
    monkeypatch.setattr(blobs, "whiteness_map", lambda w: calls.append(1) or real(w))
    monkeypatch.setattr(image_search, "whiteness_map", lambda w: calls.append(1) or real(w))
    from boggle_cv.vision.imageio import load_image
    found = image_search.search_image(load_image(SAMPLE), None, TrayConfig(), ("detector",), {})
    assert found.found is not None and len(calls) == 1


def test_a_12_mp_tray_photo_is_decoded_at_half_size_as_the_floor_does(tmp_path):
    import cv2

    from boggle_cv.cli.scan_round import EarlyLoad
    photo = tmp_path / "big.jpg"
    img = np.zeros((3000, 4000, 3), np.uint8)
    img[:, :, 1] = np.linspace(0, 255, 4000, dtype=np.uint8)[None, :]
    cv2.imwrite(str(photo), img)
    decoded, _ = EarlyLoad(photo).take()
    assert decoded.pixels.shape == (1500, 2000, 3) and decoded.shape == (3000, 4000)  # the photo's own size kept
    assert np.array_equal(decoded.pixels, cv2.imread(str(photo), cv2.IMREAD_REDUCED_COLOR_2))
