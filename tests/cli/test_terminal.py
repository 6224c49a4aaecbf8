"""What a person sees on the terminal: the screen itself, as a terminal draws it.

Each command runs on a pseudo-terminal of a given size (pexpect); everything it
wrote is drawn by a terminal emulator (pyte), with the lines that scrolled off the
top kept, so a test reads the screen a person reads: a progress bar that was not
erased, a line cut mid-word at the edge, a traceback after "interrupted" would all
be on it. Several photos: the progress bar is drawn, and gone before each report,
error and the summary, with stdout a terminal, a file or a pipe; Ctrl-C stops the
work (one photo after another, or --jobs 2) and leaves none of its files; prose is
wrapped at word boundaries at 80 columns and wider.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from child_sigint import RESTORED, default_sigint

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
REAL = Path(os.environ.get("BOGGLE_CV_SHARED", REPO.parent / "shared")) / "real-photos"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]")
BAR = ("scanning", "\u2501", "\u2500")
TRAYS = ["sample-4x4-a.jpg", "sample-4x4-b.jpg", "sample-5x5-a.jpg", "sample-5x5-b.jpg"]


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "BOGGLE_CV_DEBUG")}
    e["TERM"] = "xterm-256color"
    return e


def screen_of(raw: str, columns: int, rows: int) -> list[str]:
    """Every line a terminal of that size shows for `raw`, those scrolled off the top
    first (a terminal emulator draws it: erased lines are gone, a long line wraps)."""
    screen = pyte.HistoryScreen(columns, rows, history=100_000)
    stream = pyte.Stream(screen)
    stream.feed(raw.replace("\r\n", "\n").replace("\n", "\r\n"))
    lines = ["".join(line[x].data for x in range(columns)) for line in screen.history.top]
    return [line.rstrip() for line in lines + screen.display]


def printed_lines(raw: str) -> list[str]:
    """The lines as the program wrote them (between newlines), escapes and the bar's
    carriage returns taken out."""
    return [ANSI.sub("", line).split("\r")[-1] for line in raw.replace("\r\n", "\n").split("\n")]


def spawn(args: list[str], columns: int, cwd: Path, shell: str | None = None) -> pexpect.spawn:
    """The command on a terminal of `columns` x 40, SIGINT's default restored; with
    `shell`, `sh -c` runs it (a redirection)."""
    command, argv = (("/bin/sh", ["-c", shell]) if shell is not None
                     else (sys.executable, ["-m", "boggle_cv", *args]))
    return pexpect.spawn(command, argv, env=env(), cwd=str(cwd), dimensions=(40, columns), encoding="utf-8",
                         codec_errors="replace", timeout=300, preexec_fn=default_sigint)


def finish(child: pexpect.spawn) -> tuple[int, str]:
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus, child.before


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """Four sample trays, a photo with no board (a grey page) and ann's list, under
    short names (a path is never wrapped: it has no space to break at)."""
    where = tmp_path_factory.mktemp("photos")
    for name in TRAYS:
        shutil.copy(SAMPLES / name, where / name)
    cv2.imwrite(str(where / "grey.jpg"), np.full((600, 800, 3), 180, np.uint8))
    (where / "ann.txt").write_text("cote\ndote\nhex\n")
    return where


def several(folder: Path) -> list[str]:
    return [TRAYS[0], TRAYS[1], "grey.jpg", TRAYS[2], TRAYS[3], "--player", "ann=ann.txt"]


@pytest.mark.parametrize("columns", [80, 120])
def test_the_progress_bar_is_erased_before_every_other_line(folder, columns):
    """Five photos on a terminal: the bar is drawn while they are read, and nothing of
    it is left on the screen: each report starts on its own line, so do the error of
    the photo with no board and the summary; no line is wider than the terminal."""
    rc, raw = finish(spawn(["scan", *several(folder)], columns, folder))
    assert rc == 5, raw[-2000:]
    assert re.search(r"scanning \d/5", raw)  # the bar was drawn
    screen = screen_of(raw, columns, 40)
    assert not [line for line in screen if any(b in line for b in BAR)], screen
    assert [line for line in screen if line.startswith("== ")] == [f"== {n}" for n in TRAYS]
    errors = [i for i, line in enumerate(screen) if line.startswith("boggle-cv: error: grey.jpg: no board found")]
    assert len(errors) == 1
    assert [line for line in screen if line][-2:] == ["5 photos: 4 read, 1 failed", "  grey.jpg: exit 5"]
    assert max(len(line) for line in printed_lines(raw)) <= columns


def test_with_stdout_in_a_file_the_bar_stays_on_the_terminal(folder, tmp_path):
    """stdout sent to a file: the file holds the reports and nothing of the bar (no
    escape, no "scanning"); the terminal shows the bar, then the error and the summary
    on lines of their own."""
    out = tmp_path / "reports.txt"
    rc, raw = finish(spawn([], 80, folder, shell=f'exec "{sys.executable}" -m boggle_cv scan '
                                                 + " ".join(several(folder)) + f' > "{out}"'))
    assert rc == 5, raw[-2000:]
    text = out.read_text()
    assert "\x1b" not in text and "scanning" not in text and "\r" not in text
    assert [line for line in text.splitlines() if line.startswith("== ")] == [f"== {n}" for n in TRAYS]
    assert re.search(r"scanning \d/5", raw)
    screen = [line for line in screen_of(raw, 80, 40) if line]
    assert not [line for line in screen if any(b in line for b in BAR)], screen
    assert screen[0].startswith("boggle-cv: error: grey.jpg: no board found")
    assert screen[-2:] == ["5 photos: 4 read, 1 failed", "  grey.jpg: exit 5"]


def test_no_bar_anywhere_without_a_terminal(folder):
    out = subprocess.run([sys.executable, "-m", "boggle_cv", "scan", *several(folder)], cwd=folder, env=env(),
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 5, out.stderr
    assert not any(b in out.stdout + out.stderr for b in BAR) and "\x1b" not in out.stdout + out.stderr
    assert out.stderr.splitlines()[0].startswith("boggle-cv: error: grey.jpg: no board found")  # one line


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_several_photos_at_once_and_leaves_none_of_their_files(folder, tmp_path, jobs):
    """Ctrl-C at the terminal once the first photo is reported (its stage images are
    written), eight photos in all: the command stops there (at most the report being
    printed finishes), says `boggle-cv: interrupted` last, exits 130, and the stage
    images it wrote are gone with their folder; its workers (--jobs 2) are gone too."""
    photos = []
    for k in range(2):
        for name in TRAYS:
            photos.append(tmp_path / f"{k}-{name}")
            shutil.copy(folder / name, photos[-1])
    debug = tmp_path / "debug"
    child = spawn(["scan", *map(str, photos), "--debug-dir", str(debug), "--jobs", jobs], 80, tmp_path)
    child.expect("== ")
    seen = child.before + child.after
    assert any(debug.glob("*.png"))  # the first photo's stage images are written
    workers = _children(child.pid)
    child.sendintr()
    rc, rest = finish(child)
    screen = [line for line in screen_of(seen + rest, 80, 40) if line]
    assert rc == 130 and screen[-1] == "boggle-cv: interrupted", screen[-10:]
    assert "Traceback" not in rest
    assert sum(line.startswith("== ") for line in screen) <= 2 < len(photos)
    assert not debug.exists()
    assert not [pid for pid in workers if _alive(pid)]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in photos)


def _children(pid: int) -> list[int]:
    kids = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(k) for k in kids.read_text().split()] if kids.exists() else []


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


@pytest.mark.parametrize("columns", [80, 100])
def test_boggle_cv_alone_lists_the_commands(columns):
    child = spawn([], columns, REPO)
    rc, raw = finish(child)
    lines = printed_lines(raw)
    assert rc == 0 and lines[0].startswith("A computer-vision referee for Boggle")
    assert "Usage: boggle-cv COMMAND [OPTIONS] [ARGUMENTS]" in lines
    for name in ("demo", "scan", "sheet", "solve", "score", "synth", "standings", "practice", "serve", "db"):
        assert any(line.startswith(f"  {name} ") for line in lines), name
    assert "error" not in raw and max(len(line) for line in lines) <= 80


@pytest.mark.skipif(not (REAL / "nsinghvi-5x5-clear-a.jpg").is_file(), reason="../shared/real-photos is absent")
@pytest.mark.parametrize("columns", [80, 100])
def test_a_long_report_header_is_wrapped_at_word_boundaries(tmp_path, columns):
    """The header of a board that fits no known cube set (a 170-character line) on a
    terminal of 80 and 100 columns: every line fits, every word whole."""
    shutil.copy(REAL / "nsinghvi-5x5-clear-a.jpg", tmp_path / "a.jpg")
    rc, raw = finish(spawn(["scan", "a.jpg", "--no-ask"], columns, tmp_path))
    assert rc == 0, raw[-2000:]
    lines = printed_lines(raw)
    assert max(len(line) for line in lines) <= columns
    header = " ".join(" ".join(lines[:4]).split())
    assert "cube sets that fit: no known cube set (another edition's cubes, or a misread cell: compare the " \
           "board with the tray)" in header


def test_an_error_is_one_line_in_a_pipe_and_wrapped_on_a_terminal(folder):
    """The refusal of a photo with no board is longer than 80 columns: on a terminal it
    is wrapped at spaces, each line within 80; in a pipe it stays one line."""
    rc, raw = finish(spawn(["scan", "grey.jpg"], 80, folder))
    lines = [line for line in printed_lines(raw) if line]
    assert rc == 5 and len(lines) >= 2 and lines[0].startswith("boggle-cv: error: no board found")
    assert all(len(line) <= 80 for line in lines) and all(line.startswith("  ") for line in lines[1:])
    piped = subprocess.run([sys.executable, "-m", "boggle_cv", "scan", "grey.jpg"], cwd=folder, env=env(),
                           capture_output=True, text=True, timeout=120, **RESTORED)
    assert piped.returncode == 5 and piped.stderr.count("\n") == 1
    assert " ".join(" ".join(lines).split()) == piped.stderr.strip()


def test_a_practice_summary_keeps_its_seed_whole_at_80_columns(tmp_path):
    """practice on a terminal with a 19-digit seed: the heading and the summary's line
    that names the seed are wrapped at spaces, `--seed N` whole on one line."""
    seed = "4333943822600587279"
    e = {**env(), "BOGGLE_CV_DB": str(tmp_path / "g.db"), "BOGGLE_CV_CLOCK_SPEED": "600"}
    child = pexpect.spawn(sys.executable, ["-m", "boggle_cv", "practice", "--seed", seed, "--name", "ann"], env=e,
                          cwd=str(tmp_path), dimensions=(40, 80), encoding="utf-8", timeout=120,
                          preexec_fn=default_sigint)
    child.expect(r"\] > ")
    seen = child.before + child.after
    child.sendline("tea")
    child.sendeof()
    rc, raw = finish(child)
    lines = printed_lines(seen + raw)
    assert rc == 0, raw[-2000:]
    assert max(len(line) for line in lines) <= 80
    assert any(f"--seed {seed} shakes it again" in line for line in lines), lines
    assert "your first round of this kind" in " ".join(" ".join(lines).split())


def test_wrap_breaks_only_at_spaces_and_keeps_short_lines():
    from boggle_cv.cli.terminal import wrap
    text = "Board read: 5x5; cube sets that fit: big-1979, big-deluxe, super-big-6\nT   Y   U\n  x " + "word " * 30
    out = wrap(text, 40).splitlines()
    assert all(len(line) <= 40 for line in out)
    assert "T   Y   U" in out  # a short line as it was
    assert " ".join(" ".join(out).split()) == " ".join(text.split())  # no word cut or lost
    assert all(line.startswith("    ") for line in out[out.index("T   Y   U") + 2:])  # indent + 2
    assert wrap("/a/very/long/path/with/no/space/at/all/" * 3, 20) == "/a/very/long/path/with/no/space/at/all/" * 3


@pytest.mark.parametrize("width", range(20, 61))
def test_wrap_keeps_an_option_with_its_value_a_symbol_with_its_word_and_an_install_command_whole(width):
    from boggle_cv.cli.terminal import wrap
    text = ("Board UHKX/QIHE/BTHE/DSTE (seed 4333943822600587279: --seed 4333943822600587279 shakes it again; "
            "--fix r2c3=W; * = common; install it: pip install 'boggle-cv[web]')")
    out = wrap(text, width)
    joined = " ".join(out.split("\n"))
    for kept in ("--seed 4333943822600587279", "--fix r2c3=W", "* = common", "pip install 'boggle-cv[web]'"):
        assert any(kept in line for line in out.split("\n")), (kept, out)
    assert " ".join(joined.split()) == text
