"""The README is the front door: short, its two set-up commands are the ones that
install and run (the second is exactly what CI runs), its library example and the
longer one of docs/library.md run as written (from the repository root), and every
relative link of the README and docs/ leads to a file that is there."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from boggle_cv.game.board import Board

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
MAX_LINES = 200


def section(text: str, title: str) -> str:
    return text.split(f"## {title}", 1)[1].split("\n## ", 1)[0]


def python_block(text: str) -> str:
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1, "one python example"
    return blocks[0]


def run_example(code: str) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


def check_first_lines(lines: list[str]) -> None:
    assert lines[0].split()[0].isdigit() and "((" in lines[0]          # count, best word, its path
    assert lines[1].startswith("[") and "ann" in lines[1]               # winners and scores
    # sample-4x4-a's cubes face both ways about equally: any quarter turn of its board
    turns = {str(Board.parse("DRML/HCNL/XEHD/YTOC").rotated(k)) for k in range(4)}
    assert lines[2].split()[0] in turns and "doubtful" in lines[2]
    assert lines[3].count("/") == 4                                     # a 5x5 board


def test_the_readme_is_short():
    assert len(README.splitlines()) <= MAX_LINES


def test_the_first_command_installs_and_runs_the_shipped_demo():
    """The first command ends with `boggle-cv demo`, which runs from an installed
    wheel too (tests/test_wheel.py); the README's example shows the same round as a
    `scan` of files that are in the repository."""
    first = section(README, "Set up").split("```bash\n", 1)[1].split("```", 1)[0].strip()
    assert first == "apt-get update && apt-get install -y tesseract-ocr && pip install -e . && boggle-cv demo"
    by_hand = scan_of_the_sample()
    assert (REPO / by_hand[1]).is_file() and len(by_hand) == 8
    for player in by_hand[3::2]:
        assert (REPO / player.split("=", 1)[1]).is_file()


def scan_of_the_sample() -> list[str]:
    """The README's `scan` of the sample round (its example's first command)."""
    block = section(README, "Referee a round from a photo").split("```\n", 1)[1]
    command = block.split("\n$", 1)[0].replace("\\\n", " ").splitlines()[0]
    args = command.removeprefix("$ boggle-cv ").split()
    assert args[0] == "scan" and args.count("--player") == 3
    return args


def test_the_demo_is_the_scan_the_readme_shows():
    """`boggle-cv demo` prints what the README's `scan` of the sample prints."""
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("BOGGLE_CV_DEBUG", None)

    def run(args: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "boggle_cv", *args], cwd=REPO, capture_output=True, text=True,
                              timeout=300, env=env, stdin=subprocess.DEVNULL)
    demo, scan = run(["demo"]), run(scan_of_the_sample())
    assert demo.returncode == 0 and scan.returncode == 0, demo.stderr + scan.stderr
    assert demo.stdout == scan.stdout and demo.stdout.startswith("Board read: 4x4")


def test_the_second_command_is_what_ci_runs():
    second = section(README, "Set up").split("```bash\n")[2].split("```", 1)[0].strip()
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert ci == second


def test_the_library_example_runs():
    code = python_block(section(README, "Use it as a library"))
    assert len([line for line in code.splitlines() if line.strip()]) <= 11  # the library in ten lines
    check_first_lines(run_example(code))


def test_the_longer_library_example_runs():
    lines = run_example(python_block((REPO / "docs" / "library.md").read_text(encoding="utf-8")))
    check_first_lines(lines)
    assert lines[4].split()[0] in ("standard", "challenge")


def markdown_files() -> list[Path]:
    return [REPO / "README.md", REPO / "models" / "README.md", *sorted((REPO / "docs").glob("*.md"))]


@pytest.mark.parametrize("doc", markdown_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_lead_somewhere(doc: Path):
    text = doc.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r'<img src="([^"]+)"', text)
    for target in targets:
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (doc.parent / target.split("#", 1)[0]).resolve()
        assert path.exists(), f"{doc.name}: {target}"
