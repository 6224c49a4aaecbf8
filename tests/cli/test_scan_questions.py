"""`boggle-cv scan` asks about its doubtful cells where a person sees the question: on
a real terminal (a pty, progress bars left on), after the board as read, each cell's
cube drawn in the terminal, the choices and the default, every line within 80
columns; and nothing is asked when stdout is not a terminal.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

pexpect = pytest.importorskip("pexpect")

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
REAL = Path(os.environ.get("BOGGLE_CV_SHARED", REPO.parent / "shared")) / "real-photos"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")
BLOCKS = set("\u2580\u2584\u2588")


@pytest.fixture(scope="module")
def smudged(tmp_path_factory) -> Path:
    """The 4x4 sample with a pale bar painted over the upper half of one cube's letter
    (the photo's cell r2c2: the report's r2c3, E): one doubtful cell, still read E."""
    from boggle_cv.vision.cells import grid_pitch
    from boggle_cv.vision.pipeline import Scanner
    scan, image = Scanner("classifier").scan_file(SAMPLES / "sample-4x4-a.jpg")
    pitch = grid_pitch(np.asarray(scan.tray.corners), 4)
    x, y = scan.tray.cell_centres[1, 1]
    cv2.rectangle(image, (int(x - 0.3 * pitch), int(y - 0.18 * pitch)), (int(x + 0.3 * pitch), int(y)),
                  (235, 235, 235), -1)
    path = tmp_path_factory.mktemp("smudged") / "smudged.png"
    cv2.imwrite(str(path), image)
    again = Scanner("classifier").scan_file(path)[0]
    assert [(c.face, c.runner_up) for row in again.reading.cells for c in row if c.flagged] == [("E", "S")]
    return path


def spawn(*args: str) -> pexpect.spawn:
    """The command on a pseudo-terminal of 80 columns, as a person runs it (stdin,
    stdout and stderr all the terminal: progress bars on)."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "TERM")}
    env["TERM"] = "xterm-256color"
    return pexpect.spawn(sys.executable, ["-m", "boggle_cv", *args], env=env, cwd=str(REPO),
                         dimensions=(40, 80), encoding="utf-8", timeout=120)


def screen_lines(text: str) -> list[str]:
    return [ANSI.sub("", line) for line in text.split("\n")]


def players() -> list[str]:
    return [f"--player={n}={SAMPLES / f'sample-4x4-a.{n}.txt'}" for n in ("alice", "bob", "carol")]


def test_the_question_is_on_the_screen_before_the_answer_is_read(smudged):
    child = spawn("scan", str(smudged), *players())
    child.expect(r"row 2, col 3: E \(\d+%\) or S \(\d+%\)\? \[E\] ")
    before = screen_lines(child.before + child.after)
    board = next(i for i, line in enumerate(before) if line.startswith("Board read: 4x4, 1 doubtful cell"))
    assert before[board + 2].split() == ["D", "H", "E", "?", "X"]          # the board as read, before the question
    drawn = [line for line in before[board + 5:] if set(line.strip()) and set(line.strip()) <= BLOCKS | {" "}]
    assert len(drawn) >= 3, before                                        # the cube's letter, in half blocks
    assert not any("scanning" in line or "\u2501" in line for line in before)  # no progress bar over it
    child.sendline("s")
    child.expect(pexpect.EOF)
    child.close()
    after = screen_lines(child.before)
    assert child.exitstatus == 0, after
    assert re.search(r"r2c3: S \(corrected; read E \d+%\)", "\n".join(after)), after
    assert all(len(line) <= 80 for line in before)  # the board as read and the question


def test_enter_keeps_the_reading_and_the_cell_is_no_longer_doubtful(smudged):
    """Enter keeps E: the report's board shows E without its '?', the cell is listed as
    confirmed and not under "Check these cells" (the question's grid, before the
    answer, still marks it)."""
    child = spawn("scan", str(smudged), *players())
    child.expect(r"\? \[E\] ")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    report = screen_lines(child.before)
    header = next(i for i, line in enumerate(report) if line.startswith("Board read: 4x4"))
    row2 = next(line for line in report[header:] if line.startswith("D "))
    assert row2.split() == ["D", "H", "E", "X"], report  # no "?" after E
    text = "\n".join(report)
    assert "Check these cells" not in text and re.search(r"Confirmed:\n  r2c3: E \(confirmed; read E \d+%\)", text)


def test_a_fix_that_keeps_the_reading_confirms_the_cell(smudged):
    out = subprocess.run([sys.executable, "-m", "boggle_cv", "scan", str(smudged), "--fix", "r2c3=E", *players()],
                         capture_output=True, text=True, cwd=REPO, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "E ?" not in out.stdout and "Check these cells" not in out.stdout
    assert re.search(r"r2c3: E \(confirmed; read E \d+%\)", out.stdout)


@pytest.mark.skipif(not (REAL / "nsinghvi-5x5-clear-c.jpg").is_file(), reason="../shared/real-photos is absent")
def test_a_real_photo_whose_doubtful_cell_no_list_goes_through_asks_nothing(tmp_path):
    """The real photo's one doubtful cell (r5c1, L or E) changes no score of these
    lists: on a terminal nothing is asked, and the report says why."""
    if not REAL.is_dir():
        pytest.skip("../shared/real-photos not available")
    words = tmp_path / "ann.txt"
    words.write_text("tide\nhold\n")
    child = spawn("scan", str(REAL / "nsinghvi-5x5-clear-c.jpg"), f"--player=ann={words}")
    child.expect(pexpect.EOF)
    child.close()
    screen = ANSI.sub("", child.before)
    assert child.exitstatus == 0, screen
    assert not re.search(r"row 5, col 1: L \(\d+%\) or E \(\d+%\)\? \[L\]", screen), screen


def test_nothing_is_asked_when_stdout_is_not_a_terminal(smudged, tmp_path):
    """stdin a terminal, stdout a file: the reading is kept and nothing waits."""
    out = tmp_path / "report.txt"
    child = pexpect.spawn("/bin/sh", ["-c", f'"{sys.executable}" -m boggle_cv scan "{smudged}" > "{out}"'],
                          cwd=str(REPO), encoding="utf-8", timeout=120)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = out.read_text()
    assert "row 2, col 3" not in text and re.search(r"r2c3: E \d+%, or S", text)


def test_a_sheet_question_fits_in_80_columns():
    from boggle_cv.cli.sheets import question_lines
    from boggle_cv.vision.sheet.types import SheetReading, SheetWord
    box = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    long = ("interpretations", "misinterpretation", "reinterpretations", "interpretational", "interpreters")
    word = SheetWord(long[0], 0.3, tuple((w, 0.2) for w in long), True, long[0], box, False)
    lines = question_lines("bartholomew", 0, SheetReading((word,) * 12, box))
    assert len(lines) >= 3 and all(len(line) <= 80 for line in lines)
    assert lines[-1].endswith("[interpretations] ")
    assert all(f'"{w}"' in " ".join(lines) for w in long)


def test_a_sheet_question_keeps_each_word_with_its_share():
    """However the names and words fall, a line never ends with a word whose share
    ("lest" (8%)) went to the next line."""
    from boggle_cv.cli.sheets import question_lines
    from boggle_cv.vision.sheet.types import SheetReading, SheetWord
    box = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    alternatives = (("lest", 0.08), ("least", 0.5), ("lease", 0.2), ("leaste", 0.1), ("les", 0.05))
    for name in ("a" * n for n in range(1, 40)):
        word = SheetWord("least", 0.5, alternatives, True, "least", box, False)
        lines = question_lines(name, 0, SheetReading((word,) * 3, box))
        assert all(len(line) <= 80 for line in lines)
        assert not any(re.search(r'"\w+"$', line) for line in lines), lines
        assert '"lest" (8%)' in " ".join(lines)


def test_sheet_questions_come_after_the_board_whole_and_within_80_columns():
    """`scan --sheet`: the board as read, then each doubtful word of the sheet, its
    handwriting drawn above its question and the default in brackets, on lines of
    their own (not in a progress bar's line) and no wider than 80 columns."""
    child = spawn("scan", str(SAMPLES / "sample-4x4-a.jpg"), f"--sheet=ann={SAMPLES / 'sheets' / 'sheet-4x4-a.jpg'}",
                  f"--player=bob={SAMPLES / 'sample-4x4-a.bob.txt'}")
    child.expect(r"type it, Enter keeps it, - drops it \[hex\] ")
    first = screen_lines(child.before + child.after)
    child.sendline("")
    child.expect(r"type it, Enter keeps it, - drops it \[hoe\] ")
    second = screen_lines(child.before + child.after)
    child.sendline("-")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    board = next(i for i, line in enumerate(first) if line.startswith("Board read: 4x4, 0 doubtful cell"))
    asked = next(i for i, line in enumerate(first) if line.startswith("ann, word 1 of 11: "))
    assert board < asked
    assert any(line.startswith("ann, word 1 of 11: ") and '"hex"' in line for line in first)
    assert sum(1 for line in first if line.strip() and set(line.strip()) <= BLOCKS | {" "}) >= 3
    assert all(len(line) <= 80 for line in first + second)
    assert not any("scanning" in line or "\u2501" in line for line in first + second)
    report = ANSI.sub("", child.before).splitlines()
    start = next(i for i, line in enumerate(report) if line.startswith("ann: "))
    block = report[start + 1:report.index("", start)]
    words = [line.split()[0] for line in block]
    assert "HEX" in words and "HOE" not in words  # Enter kept "hex"; "-" dropped "hoe" from ann's list
    assert all(re.match(r"  [A-Z]+ +\d+", line) for line in block), block  # no blank row where "hoe" was
