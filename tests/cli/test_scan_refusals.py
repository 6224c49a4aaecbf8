"""`boggle-cv scan` refuses what cannot be right: a --size the photo contradicts, and
red marks too faint to count (doubtful: exit 6 with --strict). Real photos from
../shared are used where present (skipped otherwise)."""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "samples" / "sample-4x4-a.jpg"
SHARED = Path(os.environ.get("BOGGLE_CV_SHARED", REPO.parent / "shared"))
REAL = SHARED / "real-photos"


def run(*args):
    return subprocess.run([sys.executable, "-m", "boggle_cv", *map(str, args)], capture_output=True,
                          text=True, input="", timeout=180)


def _refused_naming_size(out, shown: int, given: int) -> None:
    assert out.returncode == 5, out.stdout + out.stderr
    line = out.stderr.strip()
    assert len(line.splitlines()) == 1 and out.stdout == ""
    assert f"--size {given}" in line and f"shows a {shown}x{shown} board" in line, line
    assert "4x4, 5x5 or 6x6" not in line


def test_a_size_the_photo_contradicts_is_refused():
    _refused_naming_size(run("scan", SAMPLE, "--size", "5"), 4, 5)


@pytest.mark.parametrize("photo,shown,given", [("boogle-4x4-navy.jpg", 4, 5), ("bogglecv-5x5-blue-warped.png", 5, 6),
                                               ("nsinghvi-5x5-clear-a.jpg", 5, 4)])
def test_real_photos_with_a_wrong_size_are_refused(photo, shown, given):
    """These were read as boards grown over the rim (a fifth row of blanks and rim
    letters; a 'red challenge cube' off the photo) and scored, exit 0."""
    if not (REAL / photo).exists():
        pytest.skip(f"{REAL / photo} not available")
    _refused_naming_size(run("scan", REAL / photo, "--size", given), shown, given)


def test_red_debug_lines_score_no_bonus():
    photo = REAL / "bogglecv-5x5-blue-overlay.png"
    if not photo.exists():
        pytest.skip(f"{photo} not available")
    out = run("scan", photo, "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["rules"]["bonus_cells"] == [] and doc["marks"]["bonus_cells"] == [] and doc["doubtful_marks"] == []


@pytest.fixture(scope="module")
def faint_ring_photo(tmp_path_factory):
    """A synthetic 4x4 with a round red ring on one cube top (sure) and a red square
    frame on another (not round: doubtful)."""
    from boggle_cv.synth import SynthConfig, render_photo
    config = dataclasses.replace(SynthConfig(), bonus_p=0.0, challenge_p=0.0)
    img, truth = render_photo(np.random.default_rng(2), size=4, kind="tray", long_side=1000, config=config)
    p = truth["camera"]["px_per_pitch"]
    x, y = truth["centres"][1][1]
    h = int(0.26 * p)
    cv2.rectangle(img, (int(x - h), int(y - h)), (int(x + h), int(y + h)), (0, 0, 255), max(2, round(0.03 * p)))
    x, y = truth["centres"][2][2]
    cv2.circle(img, (int(x), int(y)), int(0.34 * p), (40, 40, 200), max(2, int(0.045 * p)))
    path = tmp_path_factory.mktemp("faint") / "faint.png"
    cv2.imwrite(str(path), img)
    return path


def test_a_faint_mark_is_doubtful_not_counted_and_refused_with_strict(faint_ring_photo, tmp_path):
    out = run("scan", faint_ring_photo, "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    [faint] = doc["doubtful_marks"]
    [ring] = doc["rules"]["bonus_cells"]
    assert faint["kind"] == "bonus" and faint["cell"] != ring
    marks = {(cd["row"], cd["col"]): cd["mark"] for cd in doc["board"]["cells"] if cd["mark"]}
    assert marks[tuple(ring)]["sure"] and not marks[tuple(faint["cell"])]["sure"]
    label = f"r{faint['cell'][0] + 1}c{faint['cell'][1] + 1}"
    strict = run("scan", faint_ring_photo, "--strict")
    assert strict.returncode == 6 and label in strict.stderr and "faintly" in strict.stderr
    assert len(strict.stderr.strip().splitlines()) == 1
    settled = run("scan", faint_ring_photo, "--bonus", label, "--json")
    assert settled.returncode == 0, settled.stderr
    doc = json.loads(settled.stdout)
    assert sorted(doc["rules"]["bonus_cells"]) == sorted([ring, faint["cell"]]) and doc["doubtful_marks"] == []
    text = run("scan", faint_ring_photo)
    assert f"Seen too faintly to count: a red bonus ring at {label}" in text.stdout


def _on_a_terminal(args: list[str], answer, timeout: float = 30) -> tuple[int, str]:
    """Run `boggle-cv` on a pseudo-terminal; each question shown (a screen ending in
    '] ' after the last answer) gets answer(question) typed. (exit code, screen)."""
    import pty
    import select
    import time
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "boggle_cv", *args], stdin=slave, stdout=slave, stderr=slave,
                            close_fds=True)
    os.close(slave)
    screen, seen = b"", 0
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                screen += chunk
            elif screen[seen:].rstrip(b" ").endswith(b"]") and screen.endswith(b" "):
                question = screen[seen:].decode("utf-8", "replace").splitlines()[-1]
                seen = len(screen)
                os.write(master, (answer(question) + "\n").encode())
            if proc.poll() is not None and not ready:
                break
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        os.close(master)
    return proc.returncode, screen.decode("utf-8", "replace").replace("\r\n", "\n")


def test_a_faint_mark_is_asked_on_a_terminal_and_counts_when_confirmed(faint_ring_photo):
    asked: list[str] = []

    def answer(question: str) -> str:
        asked.append(question)
        return "y" if "faint" in question else ""
    rc, screen = _on_a_terminal(["scan", str(faint_ring_photo)], answer)
    assert rc == 0, screen
    [question] = [q for q in asked if "faint" in q]
    assert "a red bonus ring (faint)? [y/N]" in question
    rings = next(line for line in screen.splitlines() if line.startswith("Red bonus rings seen at"))
    assert rings.count(", ") == 1 and "Seen too faintly" not in screen


def test_ask_marks_asks_each_faint_mark_once_and_keeps_the_answers(monkeypatch, capsys):
    import io

    from boggle_cv.cli.scan_round import ask_marks
    from boggle_cv.game.referee import RulesOptions
    from boggle_cv.vision.marks import MarkEvidence

    class Scan:
        bonus_cells, challenge_cell = [(0, 0)], None
        marks = [MarkEvidence("bonus", (0, 0), 0.97, True), MarkEvidence("bonus", (1, 2), 0.7, False),
                 MarkEvidence("bonus", (3, 3), 0.65, False), MarkEvidence("challenge", (2, 0), 0.5, False)]
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n\n"))
    answers = ask_marks(Scan(), RulesOptions(bonus_cells=frozenset({(3, 3)})))  # (3, 3) settled by --bonus
    assert answers == {(1, 2): True, (2, 0): False}  # Enter: no, and answered
    out = capsys.readouterr().out  # questions go to stdout, where the terminal shows them
    assert "row 2, col 3: a red bonus ring (faint)? [y/N]" in out and "row 3, col 1: the red challenge cube" in out
    assert "row 4, col 4" not in out
