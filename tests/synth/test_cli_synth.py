"""`boggle-cv synth` writes photos, truth.json with the documented schema, and a sheet."""
from __future__ import annotations

import json
import subprocess
import sys

import cv2
import pytest
from typer.testing import CliRunner

pytest.importorskip("PIL")

from boggle_cv.cli import app


def test_synth_writes_truth_and_sheet(tmp_path):
    out = tmp_path / "synth"
    r = CliRunner().invoke(app, ["synth", str(out), "--count", "4", "--seed", "2", "--size", "4",
                                 "--long-side", "480", "--contact-sheet"])
    assert r.exit_code == 0, r.output
    doc = json.loads((out / "truth.json").read_text())
    assert doc["schema_version"] == 1 and doc["seed"] == 2 and len(doc["photos"]) == 4
    for p in doc["photos"]:
        img = cv2.imread(str(out / p["file"]))
        assert img is not None and max(img.shape[:2]) == 480
        for key in ("file", "size", "faces", "corners", "turns", "centres", "set", "underline",
                    "bonus", "challenge", "no_board", "kind"):
            assert key in p
        if p["no_board"] is None:
            assert p["size"] == 4 and len(p["faces"]) == 4 and len(p["corners"]) == 4
    assert cv2.imread(str(out / "sheet.jpg")) is not None


@pytest.mark.parametrize("args", [["--size", "7"], ["--set", "nope"], ["--long-side", "50"],
                                  ["--kind", "nope"], ["--count", "0"]])
def test_synth_bad_options_exit_2(tmp_path, args):
    # through the console entry point: one stderr line, exit code 2, no traceback
    r = subprocess.run([sys.executable, "-m", "boggle_cv", "synth", str(tmp_path / "x"), *args],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and r.stderr.strip()
    assert not (tmp_path / "x" / "truth.json").exists()
