"""scripts/docs_figures.py: the tables of figures in docs/ are written from their
record (docs/figures.json), so they cannot drift from it; every row is recorded; and
each row's reader understands what its tool prints (the lines below are copied from
the tools' own output)."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("docs_figures", ROOT / "scripts" / "docs_figures.py")
assert spec and spec.loader
figures = importlib.util.module_from_spec(spec)
sys.modules["docs_figures"] = figures
spec.loader.exec_module(figures)

RECORD = json.loads((ROOT / "docs" / "figures.json").read_text(encoding="utf-8"))


def test_every_row_is_recorded_and_every_record_is_a_row():
    rows = {f"{r.table}.{r.key}" for r in figures.ROWS}
    assert rows == set(RECORD)
    for key, cells in RECORD.items():
        table = figures.TABLES[key.split(".")[0]]
        assert set(table.columns) <= set(cells), key


@pytest.mark.parametrize("name", sorted(figures.TABLES))
def test_the_docs_hold_the_tables_as_the_record_writes_them(name):
    table = figures.TABLES[name]
    text = (ROOT / table.doc).read_text(encoding="utf-8")
    inside = text.split(f"<!-- figures: {name} -->\n", 1)[1].split(f"\n<!-- /figures: {name} -->", 1)[0]
    assert inside == figures.render(table, RECORD), f"run python scripts/docs_figures.py --render"


def test_render_changes_nothing(tmp_path):
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "docs_figures.py"), "--render"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout == "", out.stdout + out.stderr


def test_only_names_tables_and_rows():
    assert {r.key for r in figures.chosen("tray")} >= {"real", "boards"}
    assert [r.key for r in figures.chosen("speed.solver,tray.real")] == ["real", "solver"]
    with pytest.raises(SystemExit):
        figures.chosen("tray.nosuchrow")


def test_the_shown_commands_run_from_the_repository_root():
    for row in figures.ROWS:
        for step in row.steps:
            command = figures.shown(step.command)
            assert "{" not in command.replace("{photo}", ""), command
            words = command.split()
            assert words[0] in ("python", "boggle-cv"), command
            if words[0] == "python" and not words[1].startswith("-"):
                target = words[1].replace("../shared", str(ROOT.parent / "shared"))
                assert words[1].startswith("../shared") or (ROOT / target).is_file(), command


READERS = [
    (figures.photos_read, ["cells 255/255 (100.0%) boards 12/12 unreadable 0 median_s 0.91"],
     {"cells": "255/255 (100.0%)", "boards": "12/12", "not_read": "0"}),
    (figures.photos_and_refusals, ["cells 4380/4408 (99.4%) boards 172/187 unreadable 0 median_s 0.6",
                                   "boards: right size 187/187 (100.0%); refusals right 13/13"],
     {"not_read": "0 (13 without a board: 13 refused)"}),
    (figures.eval_cells("boggle-boards held-out"),
     ["real-photos: cells 255/255 (100.00%) boards 12/12 M/W/Z/N/Qu 40/40 read+decode median 30.1 ms/board\n"
      "boggle-boards held-out (15 layouts): cells 708/711 (99.58%) boards 31/34 M/W/Z/N/Qu 98/99 read+decode "
      "median 31.0 ms/board"], {"cells": "708/711 (99.58%)", "boards": "31/34", "special": "98/99"}),
    (figures.handwriting, ["handwriting: top1 94.8% top3 97.2% confident errors 1.4% flagged 12.3% free 35.5% "
                           "n=211 ms/word 19"], {"top1": "94.8%", "n": "211", "ms": "19"}),
    (figures.handwriting_dictionary, ["handwriting: top1 86.7% top3 98.8% confident errors 1.0% flagged 40.1% "
                                      "free 34.9% n=421 ms/word 19 dictionary 67.9% (confident errors 0.7%)"],
     {"top1": "67.9%", "confident": "0.7%"}),
    (figures.rendered_sheets, ["rendered sheets: words right 1444/1480 (97.6%), extra 45, confident errors 8, "
                               "turn right 40/40, crossed out found 96/120 (+8 wrongly), 40 words a sheet: "
                               "median 1.14 s, slowest 1.58 s"], {"right": "1444/1480 (97.6%)", "extra": "45"}),
    (figures.composed_sheets, ["sheets: words right 719/795 (90.4%), extra 77, confident errors 2, sheets all right "
                               "9/40"], {"right": "719/795 (90.4%)", "also": "sheets all right 9/40"}),
    (figures.game_taps, ["game taps: median 4 a sheet (print 1 max 4, scrawl 5 max 11), typed 17 in 40 sheets, score "
                         "errors 2 in 40 player-rounds, display errors 7, invented 1 in 795 written words"],
     {"words": "795", "invented": "1", "errors": "2 in 40 player-rounds", "median": "4 (print 1, scrawl 5)"}),
    (figures.eval_offboard, ["offboard: invented 3 in 795 words (40 sheets), questions median 14 a sheet, written word "
                             "offered in 5% of questions, right 37/795 (4.7%)"],
     {"words": "795", "invented": "3", "median": "14", "offered": "5%", "right": "37/795 (4.7%)"}),
    (figures.board_or_not, ["board or not: right 400/795 with the board known, 390 without; sheets with fewer right "
                            "with the board 0 of 40"],
     {"right": "400 with the board, 390 without; fewer with the board on 0 of 40 sheets"}),
    (figures.bench_scan, ["photo: tray-12mp.jpg 3000x4000 (12.0 MP)\n"
                          "scan  (boggle-cv scan, 4 players): median 1.204 s (min 0.750), peak memory 150 MB\n"
                          "floor (python + cv2 + half decode): median 0.355 s (min 0.310), peak memory 91 MB\n"
                          "ratio scan/floor, pair by pair over 9 runs: median 2.66 (min 1.79, max 3.83); target at "
                          "most 2.5\nscan stages (ms, one run): dictionary 82, load 261, total 637"], {}),
    (figures.bench_warm("POST /api/scan"), ["Scanner.scan_file, warm:          median 0.269 s (min 0.219)\n"
                                            "POST /api/scan to boggle-cv serve: median 0.312 s (min 0.277)"],
     {"measured": "**0.312 s** (min 0.277)"}),
    (figures.bench_jobs, ["--jobs 1: median 54.1 s; --jobs 2: median 31.9 s\n"
                          "speed-up pair by pair over 3 runs: median 1.68x (1.64-1.78)"],
     {"measured": "**31.9 s** (median of 3)"}),
    (figures.bench_solver, ["size set           solve ms  textbook ms  ratio  textbook+paths ms  ratio  words/board\n"
                            "4x4  modern-4        0.380        0.471   0.81              0.616   0.62          122\n"
                            "5x5  big-1979        0.818        1.525   0.54              1.911   0.43          230\n"
                            "6x6  super-big-6     1.262        2.619   0.48              3.274   0.39          354"],
     {"measured": "4×4 **0.380 ms**, 5×5 0.818 ms, 6×6 1.262 ms"}),
    (figures.bench_editions, ["edition      MB     words  load ms  ratio  cold ms  ratio  ms/board  ratio words/board\n"
                              "en         1.61   253,911     10.3   1.00     40.6   1.00      0.64   1.00       121.5\n"
                              "fr         0.71   325,302      4.4   0.43     57.8   1.43      0.72   1.13        97.0"],
     {"measured": "loading: fr 0.43x of the English load (in-process, 10.3 ms); cold: fr 1.43x; solving a 4×4 "
                  "board: fr 1.13x"}),
    (figures.bench_dictionary, ["  load_default()     10.2 ms   (in-process, median of 15)\n"
                                "  memory: table 11.8 MB (89,353 states x 33 int32); a load allocates 11.8 MB kept\n"
                                "  cold process: load_default() adds   22.0 ms (import alone  223.7 ms; floor "
                                "`import cv2, numpy`  237.8 ms; median of 5)"],
     {"measured": "**10.2 ms** in-process, 22.0 ms added to a cold process; the table 11.8 MB"}),
    (figures.dictionary_size, ["default dictionary: 253,911 words (64,816 common), 201,351 edges (DAWG), 1.61 MB file\n"
                               "ENABLE2K 3-16-letter coverage: 170,460 of 171,108 = 99.62%; words ENABLE2K lacks: "
                               "79,827 (measured by scripts/build_dictionary.py)"], {"common": "64,816"}),
    (figures.bench_tray, ["  find_tray          198.7 ms\n  total              362.2 ms\n  cold (1st run)     649.3 ms"],
     {"measured": "**362 ms** (find_tray 199 ms; 649 ms cold)"}),
    (figures.bench_refusal, ["  refusing 4000x3000 noise (every fallback runs): 6.73 s\n"
                             "  refusing 416x416 noise (every fallback runs): 3.99 s"],
     {"measured": "12 MP **6.73 s**, 416 px 3.99 s"}),
    (figures.bench_reader, ["5x5 board, tta=on: model load 35 ms; read median 121.3 ms (p90 257.3); read+decode "
                            "median 143.6 ms (p90 269.0)"], {"measured": "**121 ms** read, 144 ms with decode"}),
    (figures.bench_synth, ["synth: 40 photos at 1000 px long side in 12.41 s: 3.2 photos/s (310 ms/photo wall)"],
     {"measured": "**3.2 photos/s**"}),
    (figures.bench_sheets, ["load average at start: 1.8 on 2 cores; 3 runs each, taken in turn\n"
                            "tray + 4 sheets (today): median 4.22 s (min 4.01, max 4.60), peak memory 250 MB\n"
                            "tray, 4 typed lists (today): median 0.45 s (min 0.40, max 0.50), peak memory 150 MB\n"
                            "the four sheets add, pair by pair: median 3.77 s (0.94 s a 40-word sheet); goal: tray + "
                            "4 sheets at most 8 s"], {"yardstick": "the tray with four typed lists 0.45 s"}),
    (figures.bench_club_night, ["club night: 30 rooms x 6 phones, 180 s of saves every 2 s (190 s played)\n"
                                "  phones joined      180 of 180\n  errors by status   none\n"
                                "  saves              16185 acknowledged of 16185 sent; lost saves: 0 phones\n"
                                "  save latency       p50 13 ms, p95 55 ms, max 613 ms\n"
                                "  photos             {\"200\": 30}; photo to board on every phone: p50 0.11 s, p95 "
                                "0.15 s, max 0.4 s, never 0\n  scored             30 of 30 rooms\n"
                                "  server memory      peak 245 MB RSS (202 MB PSS) over 3 processes\n"
                                "  after the phones   new room answered in 0.01 s; SIGTERM to exit: 0.42 s; server "
                                "log: 0 tracebacks"], {}),
]


@pytest.mark.parametrize("read, outs, expect", READERS, ids=[r[0].__name__ for r in READERS])
def test_each_reader_understands_its_tool(read, outs, expect):
    cells = read(outs)
    assert {k: cells[k] for k in expect} == expect


def test_a_reader_names_what_it_did_not_find():
    with pytest.raises(ValueError, match="no "):
        figures.photos_read(["nothing like it"])


def test_prepare_small_scales_the_corners(tmp_path):
    import cv2
    import numpy as np
    src = tmp_path / "src"
    src.mkdir()
    cv2.imwrite(str(src / "a.png"), np.zeros((800, 600, 3), np.uint8))
    truth = {"photos": [{"file": "a.png", "size": 4, "faces": [["A"] * 4] * 4,
                         "corners": [[0, 0], [600, 0], [600, 800], [0, 800]]}]}
    (src / "truth.json").write_text(json.dumps(truth))
    figures.prepare("small", src, tmp_path / "out")
    made = json.loads((tmp_path / "out" / "truth.json").read_text())["photos"]
    assert [p["file"] for p in made] == ["a_320.png", "a_400.png"]
    assert made[0]["corners"][2] == [240.0, 320.0]
    assert cv2.imread(str(tmp_path / "out" / "a_400.png")).shape[:2] == (400, 300)
