"""`scan` asks only what changes a score: on a terminal (a real pty) the referee's
questions one at a time, `--strict` exits 6 only while one is open, and `--json`
lists them in order with what rides on each, and the doubts settled."""
from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
SHARED = Path(os.environ.get("BOGGLE_CV_SHARED", REPO.parent / "shared"))
#: A real 5x5 photo cut by its frame: four cells flagged (parts of them outside the
#: photo), r1c5 the only one DEMO goes through; no word of UNSTITCH or PRINTS touches one.
CUT = SHARED / "real-photos" / "nsinghvi-5x5-clear-d-cut.jpg"


def run(*args):
    return subprocess.run([sys.executable, "-m", "boggle_cv", *map(str, args)], capture_output=True, text=True,
                          timeout=180, input="")


def on_a_terminal(args: list[str], answers: list[tuple[str, str]], timeout: float = 180) -> tuple[int, str]:
    """`boggle-cv ARGS` on a pty: each (expected, line) waits for `expected`, then types `line`."""
    import pty
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "boggle_cv", *args], stdin=slave, stdout=slave, stderr=slave,
                            close_fds=True)
    os.close(slave)
    screen, seen, pending = b"", 0, list(answers)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                screen += chunk
            while pending and pending[0][0].encode() in screen[seen:]:
                seen = screen.index(pending[0][0].encode(), seen) + len(pending[0][0])
                os.write(master, (pending.pop(0)[1] + "\n").encode())
            if proc.poll() is not None and not ready:
                break
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return proc.returncode, screen.decode("utf-8", "replace").replace("\r\n", "\n")


needs_cut = pytest.mark.skipif(not CUT.exists(), reason=f"{CUT} not available")


@needs_cut
def test_strict_passes_when_no_list_depends_on_the_doubtful_cells(tmp_path):
    ann = tmp_path / "ann.txt"
    ann.write_text("unstitch\nprints\n")
    out = run("scan", CUT, "--player", f"ann={ann}", "--strict", "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert len(doc["unresolved"]) == 4 and doc["questions"] == []
    assert {s["key"] for s in doc["settled"]} == {"r1c3", "r1c4", "r1c5", "r5c1"}
    assert all(s["shown"].startswith(s["key"] + " ") for s in doc["settled"])


@needs_cut
def test_strict_exits_6_while_a_cell_a_word_depends_on_is_open(tmp_path):
    ann = tmp_path / "ann.txt"
    ann.write_text("demo\nprints\n")
    out = run("scan", CUT, "--player", f"ann={ann}", "--strict", "--json")
    assert out.returncode == 6 and out.stderr.count("\n") == 1 and "r1c5" in out.stderr
    doc = json.loads(out.stdout)
    assert [q["key"] for q in doc["questions"]] == ["r1c5"]
    assert doc["questions"][0]["rides"]["players"] == ["ann"] and doc["questions"][0]["rides"]["points"] >= 1


@needs_cut
def test_the_terminal_asks_only_the_cell_a_word_depends_on(tmp_path):
    ann = tmp_path / "ann.txt"
    ann.write_text("demo\nprints\n")
    rc, screen = on_a_terminal(["scan", str(CUT), "--player", f"ann={ann}"], [("row 1, col 5:", "")])
    assert rc == 0, screen
    assert screen.count("row ") == 1 and "row 1, col 5: O" in screen
    assert "ann: " in screen


def test_the_sample_sheet_asks_only_what_changes_its_score():
    """Its two doubtful words score (each may be none of its alternatives): asked; the
    line crossed out, DOSE, would not score if it counted: settled, not asked."""
    args = ["scan", str(SAMPLES / "sample-4x4-a.jpg"), "--sheet", f"ann={SAMPLES / 'sheets' / 'sheet-4x4-a.jpg'}"]
    out = run(*args, "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    words = doc["sheets"]["ann"]["words"]
    assert [q["sheet_word"] for q in doc["questions"]] == [i for i, w in enumerate(words)
                                                          if w["flagged"] and not w["crossed_out"]]
    assert [(s["kind"], s["shown"]) for s in doc["settled"]] == [("crossed", "no word (or dose)")]
    rc, screen = on_a_terminal(args, [(", word ", "")] * len(doc["questions"]))
    assert rc == 0, screen
    assert screen.count(", word ") == len(doc["questions"]) and "crossed out" not in screen


def test_sheet_with_a_board_asks_only_what_changes_its_score():
    sheet, board = SAMPLES / "sheets" / "sheet-4x4-a.jpg", "DRML/HCNL/XEHD/YTOC"
    out = run("sheet", sheet, "--board", board, "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    doubtful = [i for i, w in enumerate(doc["words"]) if w["flagged"] or w["crossed_out"]]
    assert 0 < len(doc["questions"]) < len(doubtful)
    assert all(q["player"] == "sheet" and q["rides"]["points"] > 0 for q in doc["questions"])
    assert [s["shown"] for s in doc["settled"]] == ["no word (or dose)"]
    text = run("sheet", sheet, "--board", board)
    assert f"to confirm: {len(doc['questions'])} of {len(doc['words'])} word(s)" in text.stdout
    assert "settled: no word (or dose)" in " ".join(text.stdout.split())  # wrapped within 80 columns
    free = json.loads(run("sheet", sheet, "--json").stdout)  # no board: no referee, every doubt stands
    assert "questions" not in free
