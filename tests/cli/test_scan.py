"""`boggle-cv scan` end to end on the shipped sample photos (real model, real engines).

Each test runs the program as users do (`python -m boggle_cv` in a subprocess) and
looks at the exit code, stdout and stderr apart.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
SAMPLE = SAMPLES / "sample-4x4-a.jpg"


def run(*args, stdin: str | None = None, env: dict | None = None, cwd=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "boggle_cv", *map(str, args)], capture_output=True,
                          text=True, input=stdin if stdin is not None else "", env=e, cwd=cwd, timeout=120)


def truth_of(name: str) -> dict:
    doc = json.loads((SAMPLES / "truth.json").read_text())
    return next(p for p in doc["photos"] if p["file"] == name)


def same_under_turns(a, b) -> bool:
    g = [list(r) for r in b]
    for _ in range(4):
        if [list(r) for r in a] == g:
            return True
        g = [list(r) for r in zip(*g[::-1])]
    return False


def players(name: str) -> list[str]:
    stem = name.rsplit(".", 1)[0]
    return [f"--player={p.name.split('.')[-2]}={p}" for p in sorted(SAMPLES.glob(f"{stem}.*.txt"))]


@pytest.fixture(scope="module")
def scanned_json():
    out = run("scan", SAMPLE, "--json", *players(SAMPLE.name))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_json_document_has_the_documented_fields(scanned_json):
    d = scanned_json
    assert d["schema_version"] == 1
    n = d["board"]["size"]
    assert n == 4 and len(d["board"]["faces"]) == n
    assert len(d["board"]["cells"]) == n * n
    cell = d["board"]["cells"][0]
    assert {"face", "confidence", "turn", "runner_up", "flagged"} <= set(cell)
    assert cell["turn"] in (0, 90, 180, 270) and 0 <= cell["confidence"] <= 1
    assert len(d["tray"]["corners"]) == 4
    assert {"words", "max_points", "players", "missed", "winners"} <= set(d)
    assert [p["name"] for p in d["players"]] == ["alice", "bob", "carol"]
    for w in d["words"]:
        assert len(w["path"]) >= 1 and w["points"] >= 1


def test_sample_is_read_right(scanned_json):
    assert same_under_turns(scanned_json["board"]["faces"], truth_of(SAMPLE.name)["faces"])


def test_tray_corners_close_to_truth(scanned_json):
    from boggle_cv.vision.metrics import corner_error
    assert corner_error(scanned_json["tray"]["corners"], truth_of(SAMPLE.name)["corners"]) < 0.05


def test_text_report_has_board_players_winner_and_missed():
    out = run("scan", SAMPLE, *players(SAMPLE.name))
    assert out.returncode == 0, out.stderr
    assert "Board read: 4x4" in out.stdout
    assert "alice:" in out.stdout and ("Winner:" in out.stdout or "Tie:" in out.stdout)
    assert "Missed:" in out.stdout


def test_without_players_lists_all_words():
    out = run("scan", SAMPLE)
    assert out.returncode == 0, out.stderr
    assert "words," in out.stdout and "points at most" in out.stdout


def test_board_option_replaces_the_reading():
    out = run("scan", SAMPLE, "--board", "PERS/LATG/SINE/TERS", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["board"]["text"] == "PERS/LATG/SINE/TERS"


def test_fix_changes_one_cell_and_is_reported(scanned_json):
    faces = scanned_json["board"]["faces"]
    new = "Z" if faces[1][2] != "Z" else "K"
    out = run("scan", SAMPLE, "--fix", f"r2c3={new}", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["board"]["faces"][1][2] == new
    assert d["board"]["read_faces"][1][2] == faces[1][2]


@pytest.mark.parametrize("fix", ["r0c1=A", "r2=A", "r2c3=1", "r9c9=A"])
def test_bad_fix_is_a_usage_error(fix):
    out = run("scan", SAMPLE, "--fix", fix)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_annotate_writes_an_image(tmp_path):
    dest = tmp_path / "out.png"
    out = run("scan", SAMPLE, "--annotate", dest, *players(SAMPLE.name))
    assert out.returncode == 0, out.stderr
    img = cv2.imread(str(dest))
    # the photo turned as the report prints the board, then the legend of the drawn paths
    # under it (tests/vision/test_board_view.py looks at the drawing itself)
    assert img is not None and img.shape[0] > img.shape[1] and max(img.shape[:2]) <= 2000
    assert (img[-img.shape[0] // 8:] < 100).mean() > 0.005  # the legend's text
    assert [p.name for p in tmp_path.iterdir()] == ["out.png"]  # no temporary left


def test_unwritable_annotate_path_fails_cleanly(tmp_path):
    dest = tmp_path / "missing-folder" / "out.png"
    out = run("scan", SAMPLE, "--annotate", dest)
    assert out.returncode == 7
    assert "cannot write" in out.stderr and "Traceback" not in out.stderr
    assert not dest.exists()


def test_debug_dir_gets_stage_images(tmp_path):
    out = run("scan", SAMPLE, "--debug-dir", tmp_path / "dbg")
    assert out.returncode == 0, out.stderr
    names = sorted(p.name for p in (tmp_path / "dbg").iterdir())
    assert any("rectified" in n for n in names) and any("cells" in n for n in names)


def test_game_is_stored_and_standings_shown(tmp_path):
    db = tmp_path / "games.sqlite3"
    for photo in (SAMPLE, SAMPLES / "sample-4x4-b.jpg"):
        out = run("scan", photo, "--game", "friday", "--db", db, *players(SAMPLE.name))
        assert out.returncode == 0, out.stderr
    assert "round 2 of game 'friday'" in out.stdout
    st = run("standings", "friday", "--db", db, "--target", "1", "--json")
    assert st.returncode == 0, st.stderr
    d = json.loads(st.stdout)
    assert d["rounds"] == 2 and {p["player"] for p in d["players"]} == {"alice", "bob", "carol"}


def test_blank_image_means_no_board(tmp_path):
    p = tmp_path / "wall.png"
    cv2.imwrite(str(p), np.full((600, 800, 3), 180, np.uint8))
    out = run("scan", p)
    assert out.returncode == 5
    assert "no board" in out.stderr.lower() and out.stderr.count("\n") == 1


def test_several_photos_one_bad_does_not_stop_the_others(tmp_path):
    bad = tmp_path / "bad.jpg"
    bad.write_text("not an image")
    out = run("scan", SAMPLE, bad, SAMPLES / "sample-5x5-a.jpg", "--json")
    assert out.returncode == 4  # the bad photo's code
    docs = json.loads(out.stdout)  # one list: a document or an error record a photo
    assert [d["board"]["size"] if "board" in d else d["error"]["exit_code"] for d in docs] == [4, 4, 5]
    assert "3 photos: 2 read, 1 failed" in out.stderr


def test_jobs_give_the_same_reports_in_the_same_order_and_the_same_exit_code(tmp_path):
    """--jobs 2 reads in worker processes; stdout, the summary, stored rounds and the
    exit code are those of --jobs 1."""
    bad = tmp_path / "bad.jpg"
    bad.write_text("not an image")
    photos = [SAMPLE, bad, SAMPLES / "sample-5x5-a.jpg", SAMPLES / "sample-6x6-b.jpg"]
    outs = {}
    for jobs in ("1", "2"):
        db = tmp_path / f"games{jobs}.sqlite3"
        out = run("scan", *photos, "--json", "--jobs", jobs, "--game", "g", "--db", db, *players(SAMPLE.name))
        docs = [d for d in json.loads(out.stdout) if "error" not in d]
        for d in docs:
            d.pop("timings_ms")
        outs[jobs] = (out.returncode, docs, out.stderr.splitlines()[-3:])
    assert outs["1"] == outs["2"]
    rc, docs, summary = outs["2"]
    assert rc == 4 and [d["board"]["size"] for d in docs] == [4, 5, 6]
    assert [d["game"]["round"] for d in docs] == [1, 2, 3] and summary[-2] == "4 photos: 3 read, 1 failed"


def test_size_option_is_checked():
    out = run("scan", SAMPLE, "--size", "7")
    assert out.returncode == 2


def test_timings_go_to_stderr():
    out = run("scan", SAMPLE, "--timings", "--json")
    assert out.returncode == 0
    json.loads(out.stdout)
    assert "timings (ms):" in out.stderr and "tray" in out.stderr


def test_the_document_rebuilds_into_the_same_round(scanned_json):
    """RoundResult.from_dict(scan --json) gives back a result whose document is the same."""
    from boggle_cv.game.referee import RoundResult
    result = RoundResult.from_dict(scanned_json)
    assert result.scan is not None and result.board.to_rows() == scanned_json["board"]["faces"]
    assert result.to_dict() == scanned_json


def test_a_fix_is_listed_as_corrected_and_no_longer_doubtful(tmp_path):
    out = run("scan", SAMPLES / "sample-4x4-b.jpg", "--json", "--fix", "r1c1=Qu")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["board"]["faces"][0][0] == "Qu" and doc["corrected"] == [[0, 0]]
    assert [0, 0] not in doc["unresolved"] and doc["rules_why"]["variant"] in ("default", "photo")


def test_debug_dir_gets_the_stages_of_a_refusal(tmp_path):
    """A photo without a board: exit 5, and the stage images that led to the refusal."""
    import cv2
    import numpy as np
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((240, 320, 3), 90, np.uint8))
    out = run("scan", blank, "--debug-dir", tmp_path / "dbg")
    assert out.returncode == 5, out.stderr
    names = sorted(p.name for p in (tmp_path / "dbg").iterdir())
    assert "blank_0_work.png" in names and "blank_5_refused.png" in names


def test_annotate_with_a_board_of_another_size_is_a_usage_error(tmp_path):
    """--board 4x4 for a photo of a 5x5 tray: the board is scored, but the photo cannot
    be drawn with it (was an IndexError, exit 1)."""
    out = run("scan", SAMPLES / "sample-5x5-a.jpg", "--board", "PERS/LATG/SINE/TERS",
              "--annotate", tmp_path / "a.png")
    assert out.returncode == 2, out.stderr
    assert "--board is 4x4 but the tray in the photo is 5x5" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and not (tmp_path / "a.png").exists()
