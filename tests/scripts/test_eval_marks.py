"""scripts/eval_marks.py: red marks found against the truth, under the grid's turns."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_turned_grids_and_the_counts_of_two_renders():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from eval_marks import turned
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    assert turned({(0, 1)}, 4) == [{(0, 1)}, {(1, 3)}, {(3, 2)}, {(2, 0)}]
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "eval_marks.py"), "--synth", "102", "1"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    # seed 102: a 4x4 with two rings, both round and sharp (measured: strength 1.0)
    assert "photos read 1" in lines and "now bonus true sure 2" in lines and "no circle bonus true sure 2" in lines
    assert not any(" false " in line for line in lines), out.stdout
