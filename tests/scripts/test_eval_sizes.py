"""scripts/eval_sizes.py: every photo read with its size and refused with the others."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_sample_is_read_with_its_size_and_refused_with_the_others():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "eval_sizes.py"), str(ROOT / "samples"),
                          "--limit", "1"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["right size, read 4x4: 1", "wrong size, refused naming --size: 2"]
