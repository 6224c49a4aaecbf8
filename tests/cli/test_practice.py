"""`boggle-cv practice` end to end, run as users do (`python -m boggle_cv` in a
subprocess): a virtual shake with words piped or typed on a terminal (a pty)
against a clock that runs fast ($BOGGLE_CV_CLOCK_SPEED: no test waits minutes), a
real tray's photo with a list or a sheet, the record after each round, --history.
Every test has its own games database ($BOGGLE_CV_DB in a temp folder)."""
from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import cv2
import pytest

from boggle_cv.game.board import Board
from boggle_cv.game.dictionary import load_default
from boggle_cv.practice.shake import shake
from boggle_cv.game.scoring import solve

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
TRAY = SAMPLES / "sample-4x4-a.jpg"
SHEET = SAMPLES / "sheets" / "sheet-4x4-a.jpg"


def env_for(db: Path, **extra: str) -> dict[str, str]:
    e = dict(os.environ)
    e.pop("BOGGLE_CV_DEBUG", None)
    e.update({"BOGGLE_CV_DB": str(db), **extra})
    return e


def run(db: Path, *args, stdin: str = "", speed: str | None = None, timeout: float = 120):
    extra = {"BOGGLE_CV_CLOCK_SPEED": speed} if speed else {}
    return subprocess.run([sys.executable, "-m", "boggle_cv", "practice", *map(str, args)], capture_output=True,
                          text=True, input=stdin, env=env_for(db, **extra), timeout=timeout)


def words_of(board_text: str, n: int) -> list[str]:
    """The n best words of a board (the shipped English dictionary)."""
    return [w.word for w in solve(Board.parse(board_text), load_default())[:n]]


def test_a_virtual_shake_scores_the_words_piped_in(tmp_path):
    db = tmp_path / "g.db"
    board = shake(4, seed=11).board
    words = words_of(board.to_text(), 4)
    out = run(db, "--seed", 11, "--name", "ann", "--json", stdin="\n".join(words + ["notaword", words[0]]) + "\n")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    every = solve(board, load_default())
    assert doc["board"] == board.to_text() and doc["dice"] == "modern-4" and doc["seed"] == 11
    assert doc["size"] == 4 and doc["lang"] == "en" and doc["seconds"] == 180 and doc["source"] == "shake"
    assert doc["score"] == sum(w.points for w in every[:4]) and doc["words_scored"] == 4
    assert doc["max_points"] == sum(w.points for w in every) and doc["board_words"] == len(every)
    assert doc["share"] == round(doc["score"] / doc["max_points"], 4)
    assert doc["stored"] is True and doc["id"] == 1 and doc["ended"] == "input"
    assert doc["best"] == {"score": doc["score"], "id": 1, "played_at": doc["best"]["played_at"], "before": None,
                           "new": True}
    assert doc["average_last_10"] == doc["score"] and doc["round_count"] == 1
    assert [w["word"] for w in doc["best_missed"]] == [w.word for w in every[4:9]]
    statuses = [w["status"] for w in doc["round"]["players"][0]["words"]]
    assert statuses == ["scored"] * 4 + ["not_on_board" if "notaword" not in words else "scored", "repeated"]
    # the board was shown before the words were read (on stderr: stdout is the JSON)
    assert board.to_text().split("/")[0][0] in out.stderr and "Practice: 4x4 English (modern-4 dice)" in out.stderr


def test_the_record_grows_round_by_round(tmp_path):
    db = tmp_path / "g.db"
    scores = []
    for i, n in enumerate([2, 6, 1]):
        board = shake(4, seed=100 + i).board
        out = run(db, "--seed", 100 + i, "--name", "Ann", stdin="\n".join(words_of(board.to_text(), n)))
        assert out.returncode == 0, out.stderr
        scores.append(sum(w.points for w in solve(board, load_default())[:n]))
        assert f"Ann: {scores[-1]} point" in out.stdout
        assert "Found" in out.stdout and "of the board's" in out.stdout and "Best words missed:" in out.stdout
        assert f"Average of the last {i + 1} round" in out.stdout
    assert "New personal best!" in out.stdout or f"Personal best: {max(scores)}" in out.stdout
    hist = run(db, "--history", "--json")
    assert hist.returncode == 0, hist.stderr
    (rec,) = json.loads(hist.stdout)["records"]
    assert rec["player"] == "Ann" and rec["round_count"] == 3 and rec["best"]["score"] == max(scores)
    assert [r["score"] for r in rec["rounds"]] == scores
    assert rec["average_last_10"] == round(sum(scores) / 3, 2)
    text = run(db, "--history", "--name", "ann")
    assert text.returncode == 0 and f"Ann, 4x4 English, 3:00: 3 rounds, best {max(scores)}" in text.stdout
    assert run(db, "--history", "--name", "bob").stdout.strip().startswith("No practice rounds")


def test_a_fast_clock_ends_the_round_while_the_pipe_stays_open(tmp_path):
    """A pipe that never ends: the round ends with the clock (3 minutes at 200 times
    faster: under a second), with the words sent before."""
    db = tmp_path / "g.db"
    board = shake(4, seed=3).board
    words = words_of(board.to_text(), 3)
    proc = subprocess.Popen([sys.executable, "-m", "boggle_cv", "practice", "--seed", "3", "--json", "--name", "ann"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env_for(db, BOGGLE_CV_CLOCK_SPEED="200"))
    try:
        proc.stdin.write("\n".join(words) + "\n")
        proc.stdin.flush()
        proc.wait(timeout=120)  # stdin still open: only the clock can end the round
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        proc.kill()
        proc.stdin.close()
    assert proc.returncode == 0, err
    doc = json.loads(out)
    assert doc["ended"] == "clock" and doc["words_scored"] == 3 and "Time's up" in err


def pty_session(db: Path, args: list[str], answers: list[tuple[str, str]], speed: str = "60",
                timeout: float = 120) -> tuple[int, str]:
    """Run practice on a terminal (a pty): each (expected, line) waits until
    `expected` was shown, then types `line`; the whole screen and the exit code."""
    import pty
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "boggle_cv", "practice", *args], stdin=slave, stdout=slave,
                            stderr=slave, env=env_for(db, BOGGLE_CV_CLOCK_SPEED=speed), close_fds=True)
    os.close(slave)
    screen = b""
    seen = 0  # what an expected text is looked for in: the screen after the last answer
    deadline = time.monotonic() + timeout
    pending = list(answers)
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


def test_a_round_on_a_terminal_shows_the_clock_and_stops_at_time_up(tmp_path):
    """On a terminal: the board, a prompt with the time left and the words so far,
    "Time's up!", then the summary. 3 minutes run in 3 seconds (speed 60)."""
    db = tmp_path / "g.db"
    board = shake(4, seed=21).board
    words = words_of(board.to_text(), 3)
    rc, screen = pty_session(db, ["--seed", "21", "--name", "ann"],
                             [("[3:00, 0 words] > ", words[0]), ("1 word] > ", f"{words[1]}, {words[2]}")])
    assert rc == 0, screen
    assert "Practice: 4x4 English (modern-4 dice), 3:00 on the clock; your first round" in screen
    assert "3 words] > " in screen  # "w2, w3" on one line: two words
    assert "1:00 left" in screen and "0:10 left" in screen and "Time's up! Pens down." in screen
    assert "ann: " in screen and "New personal best!" in screen
    assert screen.index("Time's up!") < screen.index("New personal best!")
    doc = json.loads(run(db, "--history", "--json").stdout)
    assert doc["records"][0]["rounds"][0]["words_scored"] == 3


def test_a_tray_round_with_a_photo_and_a_list(tmp_path):
    """A round played with the sand timer: the tray's photo and the player's list;
    the same score as `scan` gives that player alone; the annotated photo names each
    path's word under the photo."""
    db = tmp_path / "g.db"
    alice = SAMPLES / "sample-4x4-a.alice.txt"
    drawn = tmp_path / "a.png"
    out = run(db, "--photo", TRAY, "--words", alice, "--name", "alice", "--json", "--annotate", drawn)
    if out.returncode == 3:
        pytest.skip(out.stderr.strip())
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    scan = subprocess.run([sys.executable, "-m", "boggle_cv", "scan", str(TRAY), "--json", "--no-marks",
                           f"--player=alice={alice}"], capture_output=True, text=True, timeout=120)
    ref = json.loads(scan.stdout)
    assert doc["score"] == ref["players"][0]["score"] and doc["board"] == ref["board"]["text"]
    assert doc["source"] == "tray" and doc["dice"] is None and doc["seconds"] == 180 and doc["ended"] == "given"
    img = cv2.imread(str(drawn))  # the board as reported (tests/vision/test_board_view.py), the legend under it
    assert img.shape[0] > img.shape[1] and max(img.shape[:2]) <= 2000
    band = img[-img.shape[0] // 8:]
    assert (band < 100).mean() > 0.005  # text in it
    assert run(db, "--history").stdout.startswith("alice, 4x4 English, 3:00: 1 round, best")


def test_a_tray_round_with_the_clock_and_a_sheet(tmp_path):
    """--tray: the clock runs (fast), then the photo and the sheet are read."""
    db = tmp_path / "g.db"
    out = run(db, "--tray", "--photo", TRAY, "--sheet", SHEET, "--name", "ann", "--json", "--minutes", "2",
              speed="600", timeout=300)
    if out.returncode == 3:
        pytest.skip(out.stderr.strip())
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    truth = [w for w in (SAMPLES / "sheets" / "sheet-4x4-a.truth.txt").read_text().split() if not w.startswith("#")]
    words = [w["word"] for w in doc["round"]["players"][0]["words"]]
    assert doc["seconds"] == 120 and doc["source"] == "tray" and len(set(words) & set(truth)) >= len(truth) // 2


def test_a_tray_round_on_a_terminal_asks_for_the_photo_and_the_list(tmp_path):
    db = tmp_path / "g.db"
    alice = SAMPLES / "sample-4x4-a.alice.txt"
    rc, screen = pty_session(db, ["--tray", "--name", "alice", "--no-ask"],
                             [("(3:00). ", ""),
                              ("Photo of the tray", str(TRAY)),
                              ("Your list", str(alice))], speed="300")
    if "reader model" in screen or "not installed" in screen:
        pytest.skip("the photo reader is not installed here")
    assert rc == 0, screen
    assert "Time's up! Pens down." in screen and "alice: " in screen and "New personal best!" in screen


@pytest.mark.parametrize("args, code, fragment", [
    (["--size", "7"], 2, "'7' is not one of"),
    (["--lang", "xx"], 2, "'xx' is not one of"),
    (["--lang", "de"], 2, "cubes of the German edition's 4x4 box are not known"),
    (["--dice", "big-1979"], 2, "is for a 5x5 tray, not 4x4"),
    (["--dice", "nope"], 2, "unknown cube set 'nope'"),
    (["--minutes", "0"], 2, "a clock of 0 minutes is not a round"),
    (["--minutes", "0.05"], 2, "is not a round"),
    (["--minutes", "120"], 2, "a clock of 120 minutes is not a round"),
    (["--minutes", "nan"], 2, "not a number of minutes"),
    (["--seed", "-1"], 2, "seed -1"),
    (["--words", "x.txt"], 2, "--words goes with a real tray"),
    (["--photo", "x.jpg", "--seed", "3"], 2, "--dice and --seed are for a virtual shake"),
    (["--name", "a\x1b[2Jb"], 2, "control"),
    (["--name", "x" * 41], 2, "longer than 40"),
    (["--name", "   "], 2, "empty"),
    (["--photo", "nope.jpg", "--words", "-"], 4, "no such file"),
    (["--tray", "--photo", TRAY, "--annotate", "out.gif2"], 7, "unknown image type"),
])
def test_bad_input_is_one_line_and_its_exit_code(tmp_path, args, code, fragment):
    out = run(tmp_path / "g.db", *args, stdin="cat\n")
    lines = [ln for ln in out.stderr.splitlines() if ln.startswith("boggle-cv: error:")]
    assert out.returncode == code, out.stderr
    assert len(lines) == 1 and fragment.lower() in lines[0].lower(), out.stderr
    assert "Traceback" not in out.stderr and not (tmp_path / "g.db").exists()


def test_no_words_typed_records_nothing(tmp_path):
    out = run(tmp_path / "g.db", "--seed", "4", stdin="")
    assert out.returncode == 2 and "no words were typed: the round is not recorded" in out.stderr
    assert "seed is 4" in out.stderr and not (tmp_path / "g.db").exists()


def test_a_bad_clock_speed_is_one_line(tmp_path):
    out = run(tmp_path / "g.db", "--seed", "4", stdin="cat\n", speed="fast")
    assert out.returncode == 2 and "BOGGLE_CV_CLOCK_SPEED='fast' is not a speed" in out.stderr


def test_odd_unicode_names_are_kept_as_written(tmp_path):
    db = tmp_path / "g.db"
    for name in ("Zoë", "Łukasz", "李雷", "ann 🦊", "Ｍｉｋｅ"):
        out = run(db, "--seed", "5", "--name", name, "--json", stdin="\n".join(words_of(shake(4, seed=5).board.to_text(), 2)))
        assert out.returncode == 0, out.stderr
    players = [r["player"] for r in json.loads(run(db, "--history", "--json").stdout)["records"]]
    assert players == ["Zoë", "Łukasz", "李雷", "ann 🦊", "Mike"]
    assert "李雷, 4x4 English" in run(db, "--history").stdout


def test_an_edition_and_size_of_its_own(tmp_path):
    db = tmp_path / "g.db"
    out = run(db, "--size", "6", "--seed", "9", "--json", stdin="zzzz qqqq\n")
    doc = json.loads(out.stdout)
    assert doc["size"] == 6 and doc["seconds"] == 240 and doc["dice"] == "super-big-6" and doc["score"] == 0
    fr = json.loads(run(db, "--lang", "fr", "--seed", "9", "--json", stdin="été\n").stdout)
    assert fr["lang"] == "fr" and fr["dice"] == "fr-4"
    de = json.loads(run(db, "--lang", "de", "--dice", "classic-4", "--seed", "9", "--json", stdin="haus\n").stdout)
    assert de["lang"] == "de" and de["dice"] == "classic-4"
    assert len(json.loads(run(db, "--history", "--json").stdout)["records"]) == 3


def test_an_annotation_that_cannot_be_written_keeps_the_recorded_round(tmp_path):
    """The photo is drawn after the round is recorded: a folder that is not there is
    exit 7 with the summary printed and the round kept."""
    db = tmp_path / "g.db"
    out = run(db, "--photo", TRAY, "--words", SAMPLES / "sample-4x4-a.alice.txt", "--name", "alice",
              "--annotate", tmp_path / "missing" / "a.png")
    if out.returncode == 3:
        pytest.skip(out.stderr.strip())
    lines = [ln for ln in out.stderr.splitlines() if ln.startswith("boggle-cv: error:")]
    assert out.returncode == 7 and len(lines) == 1 and "cannot write" in lines[0], out.stderr
    assert "alice: " in out.stdout and "New personal best!" in out.stdout
    assert json.loads(run(db, "--history", "--json").stdout)["records"][0]["round_count"] == 1


def test_a_tray_round_on_a_terminal_asks_only_what_changes_the_score(tmp_path):
    """The sheet's doubts are the referee's to ask: on the sample sheet its two doubtful
    words (they score), not its crossed-out DOSE (it would not score if it counted)."""
    db = tmp_path / "g.db"
    rc, screen = pty_session(db, ["--photo", str(TRAY), "--sheet", str(SHEET), "--name", "ann"],
                             [('ann, word 1 of 11: "hex"', ""), ('ann, word 8 of 11: "hoe"', "")])
    if "reader model" in screen or "not installed" in screen:
        pytest.skip("the photo reader is not installed here")
    assert rc == 0, screen
    assert screen.count(", word ") == 2 and "crossed out" not in screen and "ann: " in screen
