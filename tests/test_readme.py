"""The README's "Use it as a library" example runs as written (from the repository root)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from boggle_cv.board import Board

REPO = Path(__file__).resolve().parents[1]


def library_example() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Use it as a library", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1, "the library section holds one python example"
    return blocks[0]


def test_the_library_example_runs():
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", library_example()], cwd=REPO, capture_output=True, text=True,
                         timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split()[0].isdigit() and "((" in lines[0]          # count, best word, its path
    assert lines[1].startswith("[") and "ann" in lines[1]               # winners and scores
    # sample-4x4-a's cubes face both ways about equally: any quarter turn of its board
    turns = {str(Board.parse("DRML/HCNL/XEHD/YTOC").rotated(k)) for k in range(4)}
    assert lines[2].split()[0] in turns and "doubtful" in lines[2]
    assert lines[3].count("/") == 4                                     # a 5x5 board
