#!/usr/bin/env python3
"""Measure the figures of docs/ and write their tables from what was measured.

Each table of figures in docs/ stands between two markers,
    <!-- figures: NAME -->
    <!-- /figures: NAME -->
and this script writes it, whole, from docs/figures.json: the record of each row's
last measurement (its cells, the day, the machine's load average when it started).
Under each table it lists the commands that measure each row, the same commands
this script runs, on the data they name (../shared: the photos and the handwriting
sets; renders made on the spot from fixed seeds; the shipped samples).

usage:
  python scripts/docs_figures.py --list                  the tables, their rows and commands
  python scripts/docs_figures.py --only tray,speed       measure those tables' rows, then write
  python scripts/docs_figures.py --only tray.real        one row (TABLE.ROW), the others kept
  python scripts/docs_figures.py --only speed --dry-run  measure and print, write nothing
  python scripts/docs_figures.py --render                write the tables from the record only
  python scripts/docs_figures.py --prepare heldout|small SRC DST   a step some rows take

Tables: tray, cells, handwriting, sheets, taps, offboard (docs/accuracy.md), speed (docs/speed.md),
dictionary (docs/dictionary.md). A row that is not measured keeps its recorded cells.
Run it with the Python of the environment whose `boggle-cv` is this checkout (its
virtual environment): the commands call `boggle-cv`, `python -m boggle_cv` and the
scripts with this checkout on PYTHONPATH. Renders and derived photos go to --work
(default /tmp/boggle-cv-figures), outside the project; a step that makes a folder
is skipped while that folder is there (--fresh removes it first).

How long: on the 2-core development machine the tray table takes about an hour
(most of it the synthetic sets), handwriting and sheets tens of minutes each, speed
about 20 minutes (the club night alone 4), cells and dictionary a minute or two.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RECORD = REPO / "docs" / "figures.json"
Cells = dict[str, str]


@dataclass(frozen=True)
class Step:
    """One command (placeholders {python}, {shared}, {work}); `makes`: the folder it
    writes, so that it is skipped while that folder holds something."""

    command: str
    makes: str | None = None


@dataclass(frozen=True)
class Row:
    table: str
    key: str
    label: str
    steps: tuple[Step, ...]
    read: Callable[[list[str]], Cells]   # each measuring step's output -> the row's cells
    fixed: Cells = field(default_factory=dict)  # cells no measurement changes (targets)


@dataclass(frozen=True)
class Table:
    name: str
    doc: str
    headers: tuple[str, ...]   # the first is the label column's
    columns: tuple[str, ...]   # the cells' keys, after the label


def found(pattern: str, text: str) -> re.Match[str]:
    m = re.search(pattern, text)
    if m is None:
        raise ValueError(f"no {pattern!r} in the output:\n{text[-2000:]}")
    return m


# ---- what the tools print, read ------------------------------------------------------------------

def eval_photos(out: str) -> Cells:
    """../shared/tools/eval_photos.py's last line."""
    m = found(r"cells (\d+)/(\d+) \(([\d.]+)%\) boards (\d+)/(\d+) unreadable (\d+)", out)
    return {"cells": f"{m[1]}/{m[2]} ({m[3]}%)", "boards": f"{m[4]}/{m[5]}", "not_read": m[6]}


def photos_read(outs: list[str]) -> Cells:
    return eval_photos(outs[-1])


def photos_and_refusals(outs: list[str]) -> Cells:
    """eval_photos.py, then scripts/eval_tray.py on the same folder: the photos without a
    board (empty trays, incomplete ones, spilled cubes) that were refused."""
    cells = eval_photos(outs[-2])
    m = found(r"refusals right (\d+)/(\d+)", outs[-1])
    cells["not_read"] += f" ({m[2]} without a board: {m[1]} refused)"
    return cells


def eval_cells(name: str) -> Callable[[list[str]], Cells]:
    def read(outs: list[str]) -> Cells:
        m = found(re.escape(name) + r"[^:\n]*: cells (\d+)/(\d+) \(([\d.]+)%\) boards (\d+)/(\d+) M/W/Z/N/Qu (\d+)/(\d+)",
                  outs[-1])
        return {"cells": f"{m[1]}/{m[2]} ({m[3]}%)", "boards": f"{m[4]}/{m[5]}", "special": f"{m[6]}/{m[7]}"}
    return read


HANDWRITING = (r"top1 ([\d.]+%) top3 ([\d.]+%) confident errors ([\d.]+%) flagged ([\d.]+%) free ([\d.]+%) "
               r"n=(\d+) ms/word (\d+)(?: dictionary ([\d.]+%) \(confident errors ([\d.]+%)\))?")


def handwriting(outs: list[str]) -> Cells:
    m = found(HANDWRITING, outs[-1])
    return {"n": m[6], "top1": m[1], "top3": m[2], "confident": m[3], "flagged": m[4], "free": m[5], "ms": m[7]}


def handwriting_dictionary(outs: list[str]) -> Cells:
    m = found(HANDWRITING, outs[-1])
    if m[8] is None:
        raise ValueError("the reading against the whole dictionary is printed with --dictionary")
    return {"n": m[6], "top1": m[8], "top3": "", "confident": m[9], "flagged": "", "free": "", "ms": ""}


def rendered_sheets(outs: list[str]) -> Cells:
    m = found(r"rendered sheets: words right (\d+)/(\d+) \(([\d.]+)%\), extra (\d+), confident errors (\d+), "
              r"turn right (\d+)/(\d+), crossed out found (\d+)/(\d+) \(\+(\d+) wrongly\), (\d+) words a sheet: "
              r"median ([\d.]+) s, slowest ([\d.]+) s", outs[-1])
    return {"right": f"{m[1]}/{m[2]} ({m[3]}%)", "confident": m[5], "extra": m[4],
            "also": f"turned upright {m[6]}/{m[7]}; crossed-out words found {m[8]}/{m[9]} (+{m[10]} wrongly); "
                    f"a {m[11]}-word sheet in {m[12]} s median, {m[13]} s at most"}


def composed_sheets(outs: list[str]) -> Cells:
    """../shared/tools/eval_sheets.py's last line."""
    m = found(r"sheets: words right (\d+)/(\d+) \(([\d.]+)%\), extra (\d+), confident errors (\d+), "
              r"sheets all right (\d+)/(\d+)", outs[-1])
    return {"right": f"{m[1]}/{m[2]} ({m[3]}%)", "confident": m[5], "extra": m[4],
            "also": f"sheets all right {m[6]}/{m[7]}"}


def sheet_taps(name: str) -> Callable[[list[str]], Cells]:
    """scripts/sheet_taps.py's summary line of one set ("careful print", "fast scrawl")."""
    def read(outs: list[str]) -> Cells:
        m = found(rf"taps, {name}: (\d+) sheets, (\d+) words, right \d+ \(([\d.]+)%\), taps a sheet median ([\d.]+) "
                  rf"worst (\d+) mean [\d.]+ \(asked (\d+), removed (\d+), put back \d+\), typed (\d+) "
                  rf"\(([\d.]+) per 10 sheets\), confident errors (\d+) \(([\d.]+) per 1,000 words\), ([\d.]+) s a sheet",
                  outs[-1])
        return {"sheets": f"{m[1]} ({m[2]} words)", "median": m[4], "worst": m[5],
                "typed": f"{m[8]} ({m[9]} per 10 sheets)", "confident": f"{m[10]} ({m[11]} per 1,000)",
                "found": f"{m[3]}%", "seconds": m[12]}
    return read


def game_taps(outs: list[str]) -> Cells:
    """scripts/game_taps.py's last line."""
    m = found(r"game taps: median ([\d.]+) a sheet \(print ([\d.]+) max \d+, scrawl ([\d.]+) max \d+\), typed \d+ in "
              r"\d+ sheets, score errors (\d+) in (\d+) player-rounds, display errors \d+, invented (\d+) in (\d+) "
              r"written words", outs[-1])
    return {"words": m[7], "invented": m[6], "errors": f"{m[4]} in {m[5]} player-rounds",
            "median": f"{m[1]} (print {m[2]}, scrawl {m[3]})", "offered": "", "right": ""}


def eval_offboard(outs: list[str]) -> Cells:
    """../shared/tools/eval_offboard.py's last line."""
    m = found(r"offboard: invented (\d+) in (\d+) words \((\d+) sheets\), questions median ([\d.]+) a sheet, written "
              r"word offered in (\d+)% of questions, right (\d+)/(\d+) \(([\d.]+)%\)", outs[-1])
    return {"words": m[2], "invented": m[1], "errors": "", "median": m[4], "offered": f"{m[5]}%",
            "right": f"{m[6]}/{m[7]} ({m[8]}%)"}


def board_or_not(outs: list[str]) -> Cells:
    """scripts/eval_sheets.py board-or-not's last line."""
    m = found(r"board or not: right (\d+)/(\d+) with the board known, (\d+) without; sheets with fewer right with "
              r"the board (\d+) of (\d+)", outs[-1])
    return {"words": m[2], "invented": "", "errors": "", "median": "", "offered": "",
            "right": f"{m[1]} with the board, {m[3]} without; fewer with the board on {m[4]} of {m[5]} sheets"}


def bench_scan(outs: list[str]) -> Cells:
    out = outs[-1]
    scan = found(r"scan .*?median ([\d.]+) s \(min [\d.]+\), peak memory (\d+) MB", out)
    floor = found(r"floor .*?median ([\d.]+) s", out)
    ratio = found(r"ratio scan/floor, pair by pair over (\d+) runs: median ([\d.]+) \(min ([\d.]+), max ([\d.]+)\)", out)
    stages = found(r"scan stages \(ms, one run\): (.*)", out)[1]
    return {"measured": f"median **{scan[1]} s**, peak memory {scan[2]} MB (stages, ms: {stages})",
            "yardstick": f"floor `python -c \"import cv2, numpy; cv2.imread(P, IMREAD_REDUCED_COLOR_2)\"` {floor[1]} s: "
                         f"**{ratio[2]}x** pair by pair over {ratio[1]} runs ({ratio[3]}-{ratio[4]})"}


def bench_warm(which: str) -> Callable[[list[str]], Cells]:
    def read(outs: list[str]) -> Cells:
        m = found(re.escape(which) + r".*?median ([\d.]+) s \(min ([\d.]+)\)", outs[-1])
        return {"measured": f"**{m[1]} s** (min {m[2]})", "yardstick": ""}
    return read


def bench_jobs(outs: list[str]) -> Cells:
    out = outs[-1]
    m = found(r"--jobs 1: median ([\d.]+) s; --jobs (\d+): median ([\d.]+) s", out)
    g = found(r"speed-up pair by pair over (\d+) runs: median ([\d.]+)x", out)
    return {"measured": f"**{m[3]} s** (median of {g[1]})", "yardstick": f"`--jobs 1` {m[1]} s: **{g[2]}x**"}


def bench_solver(outs: list[str]) -> Cells:
    rows = re.findall(r"^(\dx\d)\s+\S+\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+\d+$", outs[-1], re.M)
    if len(rows) != 3:
        raise ValueError(f"three board sizes expected:\n{outs[-1]}")
    return {"measured": ", ".join(f"{s.replace('x', '×')} {'**' if i == 0 else ''}{t} ms{'**' if i == 0 else ''}"
                                  for i, (s, t, *_rest) in enumerate(rows)),
            "yardstick": "the textbook solver (nested-dict trie, neighbour lists, used-cell bitmask) giving the same "
                         "output (a path and the flag per word): **" + " / ".join(f"{r[5]}x" for r in rows)
                         + "**; giving the word set only: " + " / ".join(f"{r[3]}x" for r in rows)}


def bench_editions(outs: list[str]) -> Cells:
    lines = re.findall(r"^(\w\w)\s+[\d.]+\s+[\d,]+\s+([\d.]+)\s+([\d.]+)\s+[\d.]+\s+([\d.]+)\s+[\d.]+\s+([\d.]+)\s+[\d.]+$",
                       outs[-1], re.M)
    if not lines:
        raise ValueError(f"no editions (run with --cold N):\n{outs[-1]}")
    en = next(ms for lang, ms, *_ in lines if lang == "en")
    others = [x for x in lines if x[0] != "en"]
    return {"measured": "loading: " + ", ".join(f"{lang} {r}x" for lang, _, r, *_ in others)
                        + f" of the English load (in-process, {en} ms); cold: "
                        + ", ".join(f"{lang} {c}x" for lang, *_, c, _ in others)
                        + "; solving a 4×4 board: " + ", ".join(f"{lang} {s}x" for lang, *_, s in others),
            "yardstick": "English, same run"}


def bench_dictionary(outs: list[str]) -> Cells:
    out = outs[-1]
    load = found(r"load_default\(\)\s+([\d.]+) ms", out)
    cold = found(r"cold process: load_default\(\) adds\s+([\d.]+) ms.*?floor `import cv2, numpy`\s+([\d.]+) ms", out)
    table = found(r"memory: table ([\d.]+) MB", out)
    return {"measured": f"**{load[1]} ms** in-process, {cold[1]} ms added to a cold process; the table {table[1]} MB",
            "yardstick": f"`import cv2, numpy` {cold[2]} ms"}


def dictionary_size(outs: list[str]) -> Cells:
    out = outs[-1]
    size = found(r"default dictionary: ([\d,]+) words \(([\d,]+) common\), ([\d,]+) edges \(DAWG\), ([\d.]+) MB file", out)
    cover = found(r"coverage: ([\d,]+) of ([\d,]+) = ([\d.]+)%; words ENABLE2K lacks: ([\d,]+)", out)
    return {"words": size[1], "common": size[2], "edges": size[3], "file": f"{size[4]} MB",
            "coverage": f"{cover[1]} of {cover[2]} (**{cover[3]}%**)", "extra": cover[4]}


def bench_tray(outs: list[str]) -> Cells:
    out = outs[-1]
    total, find, cold = (found(rf"{k}\s+([\d.]+) ms", out)[1] for k in ("total", "find_tray", r"cold \(1st run\)"))
    return {"measured": f"**{float(total):.0f} ms** (find_tray {float(find):.0f} ms; {float(cold):.0f} ms cold)",
            "yardstick": ""}


def bench_refusal(outs: list[str]) -> Cells:
    big = found(r"refusing 4000x3000 noise.*?: ([\d.]+) s", outs[-1])
    small = found(r"refusing 416x416 noise.*?: ([\d.]+) s", outs[-1])
    return {"measured": f"12 MP **{big[1]} s**, 416 px {small[1]} s", "yardstick": ""}


def bench_reader(outs: list[str]) -> Cells:
    m = found(r"read median ([\d.]+) ms .*?read\+decode median ([\d.]+) ms", outs[-1])
    return {"measured": f"**{float(m[1]):.0f} ms** read, {float(m[2]):.0f} ms with decode", "yardstick": ""}


def bench_synth(outs: list[str]) -> Cells:
    m = found(r"([\d.]+) photos/s", outs[-1])
    return {"measured": f"**{m[1]} photos/s**", "yardstick": ""}


def bench_sheets(outs: list[str]) -> Cells:
    out = outs[-1]
    both = found(r"tray \+ 4 sheets \(today\): median ([\d.]+) s .*?peak memory (\d+) MB", out)
    tray = found(r"tray, 4 typed lists \(today\): median ([\d.]+) s", out)
    add = found(r"the four sheets add, pair by pair: median ([\d.]+) s \(([\d.]+) s a 40-word sheet\)", out)
    load = found(r"load average at start: ([\d.]+)", out)
    return {"measured": f"**{both[1]} s** median, peak memory {both[2]} MB; the four sheets add {add[1]} s "
                        f"({add[2]} s a sheet, its decoding included); load average {load[1]}",
            "yardstick": f"the tray with four typed lists {tray[1]} s"}


def bench_club_night(outs: list[str]) -> Cells:
    out = outs[-1]
    joined = found(r"phones joined\s+(\d+) of (\d+)", out)
    errors = found(r"errors by status\s+(.*)", out)[1]
    saves = found(r"saves\s+(\d+) acknowledged of \d+ sent; lost saves: (\d+) phones", out)
    save = found(r"save latency\s+p50 ([^,]+), p95 ([^,]+), max ([^\n]+)", out)
    board = found(r"photo to board on every phone: p50 [^,]+, p95 ([^,]+),", out)
    scored = found(r"scored\s+(\d+) of (\d+) rooms", out)
    memory = found(r"server memory\s+peak (\d+) MB RSS \((\d+) MB PSS\)", out)
    after = found(r"new room answered in ([^;]+); SIGTERM to exit: ([^;]+);", out)
    return {"measured": f"{joined[1]} of {joined[2]} phones joined, errors: {errors}, {saves[1]} saves acknowledged, "
                        f"{saves[2]} lost, save p50 {save[1]} / p95 {save[2]} / max {save[3]}, photo to board on "
                        f"every phone p95 {board[1]}, {scored[1]} of {scored[2]} rooms scored, server peak "
                        f"{memory[1]} MB RSS ({memory[2]} MB PSS), a new room answered {after[1]} after every "
                        f"phone reset its stream, SIGTERM to exit {after[2]}",
            "yardstick": ""}


# ---- the tables and their rows --------------------------------------------------------------------

TABLES = {t.name: t for t in (
    Table("tray", "docs/accuracy.md", ("photos", "cells right", "boards fully right", "not read"),
          ("cells", "boards", "not_read")),
    Table("cells", "docs/accuracy.md", ("cells cut from the true corners", "cells right", "boards right",
                                        "M, W, Z, N, Qu right"), ("cells", "boards", "special")),
    Table("handwriting", "docs/accuracy.md", ("set (test split)", "crops", "top-1", "top-3", "confident errors",
                                              "flagged", "free reading", "ms a word"),
          ("n", "top1", "top3", "confident", "flagged", "free", "ms")),
    Table("sheets", "docs/accuracy.md", ("sheets", "words right", "confident errors", "extra words read", "also"),
          ("right", "confident", "extra", "also")),
    Table("taps", "docs/accuracy.md", ("sheets composed from the held-out crops", "sheets", "taps a sheet (median)",
                                       "worst sheet", "words typed", "confident errors", "words found", "s a sheet"),
          ("sheets", "median", "worst", "typed", "confident", "found", "seconds")),
    Table("offboard", "docs/accuracy.md", ("sheets composed from the held-out crops, read with a board known",
                                           "words written", "invented", "score errors",
                                           "questions (taps) a sheet, median", "written word offered",
                                           "words read as written"),
          ("words", "invented", "errors", "median", "offered", "right")),
    Table("speed", "docs/speed.md", ("what", "measured", "yardstick, same run", "target"),
          ("measured", "yardstick", "target")),
    Table("dictionary", "docs/dictionary.md", ("dictionary", "words", "common", "edges", "file",
                                               "ENABLE2K words of 3-16 letters held", "words ENABLE2K lacks"),
          ("words", "common", "edges", "file", "coverage", "extra")),
)}

EVAL = "{python} {shared}/tools/eval_photos.py"


def s(command: str, makes: str | None = None) -> Step:
    return Step(command, makes)


def synth_row(key: str, label: str, count: int, seed: int, extra: str = "", lang: str = "") -> Row:
    folder = "{work}/" + key
    scan = f" --cmd 'boggle-cv scan {{{{photo}}}} --json --lang {lang}'" if lang else ""
    return Row("tray", key, label, (
        s(f"boggle-cv synth {folder} --count {count} --seed {seed}{extra}", folder),
        s(f"{EVAL} {folder}{scan}"),
        s(f"{{python}} scripts/eval_tray.py {folder} --quiet")), photos_and_refusals)


VARIANTS = "{python} scripts/make_variants.py"
HELD_OUT = s("{python} scripts/docs_figures.py --prepare heldout {shared}/boggle-boards {work}/heldout", "{work}/heldout")
TEST_CROPS = s("{python} scripts/eval_sheets.py test-crops {shared}/handwriting-public {work}/crops-test",
               "{work}/crops-test")
COMPOSED = s("{python} {shared}/tools/compose_sheets.py {work}/crops-test {work}/sheets-test --count 40",
             "{work}/sheets-test")
SHEET_VARIANTS = s(f"{VARIANTS} {{work}}/sheets-test {{work}}/sheets-var --sheets", "{work}/sheets-var")
SHEET_HARSH = s(f"{VARIANTS} {{work}}/sheets-test {{work}}/sheets-harsh --sheets --harsh", "{work}/sheets-harsh")
EVAL_SHEETS = "{python} {shared}/tools/eval_sheets.py"
TAPS = "{python} scripts/sheet_taps.py {work}/sheets-test"
GAME_TAPS = "{python} scripts/game_taps.py {work}/sheets-test"
EVAL_OFFBOARD = "{python} {shared}/tools/eval_offboard.py {work}/sheets-test"
BOARD_OR_NOT = "{python} scripts/eval_sheets.py board-or-not {work}/sheets-test"
HANDWRITING_CMD = "{python} scripts/eval_handwriting.py {shared}/handwriting-public --split test --set "


def sheet_variant(key: str, label: str, harsh: bool = False) -> Row:
    made, folder = (SHEET_HARSH, "sheets-harsh") if harsh else (SHEET_VARIANTS, "sheets-var")
    return Row("sheets", key, label, (TEST_CROPS, COMPOSED, made, s(f"{EVAL_SHEETS} {{work}}/{folder}/{key}")),
               composed_sheets)


def bench(table_key: str, label: str, command: str, read: Callable[[list[str]], Cells], target: str) -> Row:
    return Row("speed", table_key, label, (s(command),), read, {"target": target})


ROWS = [
    Row("tray", "real", "`../shared/real-photos` (12 boards from 5 sources, never trained on; the 13th photo, an "
        "incomplete tray, is refused as it should be)", (s(f"{EVAL} {{shared}}/real-photos"),), photos_read),
    Row("tray", "real-variants", "the same photos turned, tilted, shrunk and relit (72 variants)",
        (s(f"{VARIANTS} {{shared}}/real-photos {{work}}/real-variants", "{work}/real-variants"),
         s(f"{EVAL} {{work}}/real-variants")), photos_read),
    Row("tray", "real-harsh", "the same photos made harder (72: turned on the same canvas so corner cubes leave the "
        "photo, 40-50° perspective, 320 px, half size, defocus + JPEG 40, night)",
        (s(f"{VARIANTS} {{shared}}/real-photos {{work}}/real-harsh --harsh", "{work}/real-harsh"),
         s(f"{EVAL} {{work}}/real-harsh")), photos_read),
    Row("tray", "real-small", "the real photos shrunk to 320 and 400 px on the long side (24)",
        (s("{python} scripts/docs_figures.py --prepare small {shared}/real-photos {work}/real-small",
           "{work}/real-small"), s(f"{EVAL} {{work}}/real-small")), photos_read),
    Row("tray", "boards", "`../shared/boggle-boards` (189 phone photos; the tray finder was tuned and both models "
        "partly trained on them)", (s(f"{EVAL} {{shared}}/boggle-boards"),), photos_read),
    Row("tray", "heldout", "its 34 photos of the 15 layouts the reader never saw (`models/reader_metrics.json`)",
        (HELD_OUT, s(f"{EVAL} {{work}}/heldout")), photos_read),
    Row("tray", "heldout-variants", "those 34 turned, tilted, shrunk and relit (204 variants)",
        (HELD_OUT, s(f"{VARIANTS} {{work}}/heldout {{work}}/heldout-variants", "{work}/heldout-variants"),
         s(f"{EVAL} {{work}}/heldout-variants")), photos_read),
    Row("tray", "heldout-harsh", "those 34 made harder (204; the half-size ones are 208 px photos, a cube pitch of "
        "8-33 px)", (HELD_OUT, s(f"{VARIANTS} {{work}}/heldout {{work}}/heldout-harsh --harsh", "{work}/heldout-harsh"),
                     s(f"{EVAL} {{work}}/heldout-harsh")), photos_read),
    synth_row("synth-90210", "500 synthetic photos of a seed no model trained on", 500, 90210),
    synth_row("synth-777", "200 more, another unseen seed, never used to choose between models", 200, 777),
    synth_row("synth-2026", "500 more, a third unseen seed", 500, 2026),
    synth_row("synth-4242", "500 more, a fourth unseen seed", 500, 4242),
    synth_row("fr-2330", "200 of the French set, half with the Qu face printed as a lone Q (scanned `--lang fr`)",
              200, 2330, " --set fr-4", "fr"),
    synth_row("fr-lone-q", "200 of the French set, every Qu a lone Q: the reader reads the lone Q as Qu", 200, 2331,
              " --set fr-4 --lone-q", "fr"),
    synth_row("it-2332", "200 of Il Paroliere's set (scanned `--lang it`)", 200, 2332, " --set it-4", "it"),

    Row("cells", "real", "`../shared/real-photos`", (s("{python} scripts/eval_cells.py"),), eval_cells("real-photos")),
    Row("cells", "heldout", "`../shared/boggle-boards`, the layouts the reader never saw",
        (s("{python} scripts/eval_cells.py"),), eval_cells("boggle-boards held-out")),

    Row("handwriting", "dhsd", "DHSD, 4 writers never seen", (s(HANDWRITING_CMD + "dhsd"),), handwriting),
    Row("handwriting", "jeremy", "Jeremy, words never seen", (s(HANDWRITING_CMD + "jeremy-words --dictionary"),),
        handwriting),
    Row("handwriting", "jeremy-dictionary", "Jeremy's words never seen, read against the whole English dictionary "
        "(no board known yet)", (s(HANDWRITING_CMD + "jeremy-words --dictionary"),), handwriting_dictionary),

    Row("sheets", "rendered", "**rendered** (`boggle_cv/synth/sheets.py`: Hershey script face, ruled or plain paper, "
        "one or two columns, some lines of two words, 3 words crossed out, scores in the margin, on a table, tilted, "
        "turned), 40 sheets of 40 words drawn at random from the whole dictionary",
        (s("{python} scripts/eval_sheets.py rendered --count 40 --words 40"),), rendered_sheets),
    Row("sheets", "composed", "**composed** from the held-out crops of `../shared/handwriting-public` (the crops the "
        "word head was not trained on), 40 sheets", (TEST_CROPS, COMPOSED, s(f"{EVAL_SHEETS} {{work}}/sheets-test")),
        composed_sheets),
    sheet_variant("rot90", "those sheets turned 90 degrees"),
    sheet_variant("rot180", "upside down"),
    sheet_variant("rot_free", "turned 15-75 degrees on a grey canvas"),
    sheet_variant("tilt", "shot 25-35 degrees off vertical"),
    sheet_variant("dim", "darker, with a light gradient"),
    sheet_variant("warm", "a warm lamp's colour, and noise"),
    sheet_variant("small", "shrunk to 1,200 px"),
    sheet_variant("blur", "defocused (sigma 0.1% of the side) and JPEG 40"),
    sheet_variant("shadow", "a sharp shadow 25-55% dark over part of the page"),
    sheet_variant("steep", "shot 40-50 degrees off vertical", harsh=True),
    sheet_variant("far", "the sheet at 55% of its size on a grey table (further off)", harsh=True),
    sheet_variant("jpeg", "JPEG quality 15", harsh=True),
    sheet_variant("night", "dark (x0.55) with sensor noise", harsh=True),
    sheet_variant("bright", "overexposed (faint writing washed out)", harsh=True),

    Row("taps", "print", "careful print (DHSD writers never seen), each sheet against its lexicon",
        (TEST_CROPS, COMPOSED, s(TAPS)), sheet_taps("careful print")),
    Row("taps", "scrawl", "fast scrawl (Jeremy's words never seen), each sheet against its lexicon",
        (TEST_CROPS, COMPOSED, s(TAPS)), sheet_taps("fast scrawl")),
    Row("taps", "print-board", "careful print, a board known (simulated: `sheet_taps.py --board`)",
        (TEST_CROPS, COMPOSED, s(TAPS + " --board")), sheet_taps("careful print")),
    Row("taps", "scrawl-board", "fast scrawl, a board known (simulated)",
        (TEST_CROPS, COMPOSED, s(TAPS + " --board")), sheet_taps("fast scrawl")),

    Row("offboard", "plain", "the plain game (`game_taps.py`: games of 4, a simulated board that holds each "
        "player's words but a tenth)", (TEST_CROPS, COMPOSED, s(GAME_TAPS)), game_taps),
    Row("offboard", "plain-5", "the plain game, every game dealt 5 boards (`game_taps.py --boards 5`: 200 "
        "player-rounds)", (TEST_CROPS, COMPOSED, s(GAME_TAPS + " --boards 5")), game_taps),
    Row("offboard", "offboard", "a fifth of each player's words off the board, half of them near-words one edit from "
        "a board word (`game_taps.py --offboard 0.2 --boards 5`: every game dealt 5 boards)",
        (TEST_CROPS, COMPOSED, s(GAME_TAPS + " --offboard 0.2 --boards 5")), game_taps),
    Row("offboard", "shaken", "a board shaken from the project's cubes, which holds few of the sheet's words "
        "(`eval_offboard.py`: `sheet --board`)", (TEST_CROPS, COMPOSED, s(EVAL_OFFBOARD)), eval_offboard),
    Row("offboard", "board-or-not", "the same boards: words read right with the board known and with none "
        "(against the dictionary), sheet by sheet", (TEST_CROPS, COMPOSED, s(BOARD_OR_NOT)), board_or_not),

    bench("scan", "cold `boggle-cv scan` of a 12 MP photo with four players' lists, interpreter start included",
          "{python} benchmarks/bench_scan.py", bench_scan, "2.5x, 175 MB"),
    bench("warm-library", "warm scan of a 12 MP photo: the library's `Scanner`", "{python} benchmarks/bench_warm.py",
          bench_warm("Scanner.scan_file"), "0.25 s"),
    bench("warm-serve", "warm scan of a 12 MP photo sent to `boggle-cv serve` (upload, decode, read, preview)",
          "{python} benchmarks/bench_warm.py", bench_warm("POST /api/scan"), "0.25 s"),
    bench("jobs", "100 photos, `scan --jobs 2`", "{python} benchmarks/bench_jobs.py", bench_jobs, "1.7x"),
    bench("solver", "solving dice-rolled boards (300 a size, best of 3)", "{python} benchmarks/bench_solver.py",
          bench_solver, "0.5x"),
    bench("editions", "loading each edition's dictionary; solving", "{python} benchmarks/bench_editions.py --cold 11",
          bench_editions, "1.5x, 1.0x"),
    bench("dictionary", "loading the default dictionary", "{python} benchmarks/bench_dictionary.py", bench_dictionary,
          "100 ms"),
    bench("tray", "finding the tray in a 12 MP photo, decode included", "{python} benchmarks/bench_tray.py --refusal",
          bench_tray, "250 ms"),
    bench("refusal", "refusing a photo of noise with no board in it (the fallbacks search only where the detector saw something)",
          "{python} benchmarks/bench_tray.py --refusal", bench_refusal, "none (only refusals pay)"),
    bench("reader", "reading the 25 cells of a 5×5", "{python} benchmarks/bench_reader.py", bench_reader, "100 ms"),
    bench("synth", "rendering synthetic photos at 1000 px", "{python} benchmarks/bench_synth.py", bench_synth, "5 /s"),
    bench("sheets", "a paper round, cold: the tray and four rendered 40-word sheets of 12 MP",
          "{python} benchmarks/bench_sheets.py --runs 3", bench_sheets, "8 s"),
    bench("club-night", "a club night: 30 rooms × 6 phones through real HTTP, each phone holding its stream and "
          "saving every 2 s for 3 minutes, 30 tray photos in the first minute, every room scored",
          "{python} benchmarks/bench_club_night.py", bench_club_night,
          "no error, no lost save, p95 save 300 ms, photo to board p95 5 s, 600 MB"),
    bench("club-night-hostile", "the same night with hostile clients beside it: slow uploads, a connection flood, "
          "1 MB saves, stream resets", "{python} benchmarks/bench_club_night.py --hostile", bench_club_night,
          "no error, no lost save, within 2x of the night alone"),

    Row("dictionary", "en", "English (`default-dict.bin`, SCOWL)", (s("{python} benchmarks/bench_dictionary.py"),),
        dictionary_size),
]


# ---- running ------------------------------------------------------------------------------------------

def filled(command: str, shared: Path, work: Path) -> str:
    return command.format(python=shlex.quote(sys.executable), shared=shlex.quote(str(shared)),
                          work=shlex.quote(str(work)))


def shown(command: str) -> str:
    """A command as the docs show it: run from the repository's root."""
    return command.format(python="python", shared="../shared", work="WORK")


def environment() -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    cli = shutil.which("boggle-cv", path=env["PATH"])
    if cli is None or Path(cli).parent != Path(bin_dir):
        raise SystemExit(f"docs_figures: `boggle-cv` is not beside {sys.executable}: run this script with the "
                         "Python of the environment that installs this checkout (pip install -e .)")
    return env


def measure(rows: list[Row], shared: Path, work: Path) -> dict[str, Cells]:
    """Each row's cells; a command two rows share runs once, a folder a step makes is kept."""
    env, outputs, cells = environment(), {}, {}
    for row in rows:
        outs = []
        for step in row.steps:
            made = Path(step.makes.format(shared=shared, work=work)) if step.makes else None
            if made is not None and made.is_dir() and any(made.iterdir()):
                continue
            command = filled(step.command, shared, work)
            if command not in outputs:
                print(f"[{row.table}.{row.key}] {shown(step.command)}", file=sys.stderr, flush=True)
                done = subprocess.run(shlex.split(command), cwd=REPO, env=env, capture_output=True, text=True)
                if done.returncode != 0:
                    raise SystemExit(f"docs_figures: {shown(step.command)} exited {done.returncode}:\n"
                                     f"{done.stdout[-3000:]}{done.stderr[-3000:]}")
                outputs[command] = done.stdout
            if made is None:
                outs.append(outputs[command])
        cells[f"{row.table}.{row.key}"] = {**row.read(outs), **row.fixed,
                                           "when": datetime.date.today().isoformat(),
                                           "load": f"{os.getloadavg()[0]:.1f}"}
        print(f"[{row.table}.{row.key}] " + json.dumps(cells[f"{row.table}.{row.key}"]), file=sys.stderr, flush=True)
    return cells


# ---- writing the tables ----------------------------------------------------------------------------------

def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(table: Table, record: dict[str, Cells]) -> str:
    rows = [r for r in ROWS if r.table == table.name]
    lines = ["| " + " | ".join(table.headers) + " |", "|" + "---|" * len(table.headers)]
    for r in rows:
        got = record.get(f"{table.name}.{r.key}", {})
        lines.append("| " + " | ".join([cell(r.label)] + [cell(got.get(c, "not measured") or "") for c in table.columns])
                     + " |")
    lines += ["", f"Each row is measured by `python scripts/docs_figures.py --only {table.name}.ROW` "
                  f"(the whole table: `--only {table.name}`), which runs, from the repository's root:", ""]
    for r in rows:
        got = record.get(f"{table.name}.{r.key}", {})
        when = f" ({got['when']}, load average {got['load']})" if got.get("when") else ""
        steps = " && ".join(f"`{shown(step.command)}`" for step in r.steps)
        lines.append(f"- {r.key}{when}: {steps}")
    return "\n".join(lines)


def write(record: dict[str, Cells], only_tables: set[str] | None = None) -> list[Path]:
    changed = []
    for doc in sorted({t.doc for t in TABLES.values()}):
        path = REPO / doc
        text = path.read_text(encoding="utf-8")
        new = text
        for t in TABLES.values():
            if t.doc != doc or (only_tables is not None and t.name not in only_tables):
                continue
            begin, end = f"<!-- figures: {t.name} -->", f"<!-- /figures: {t.name} -->"
            if begin not in new or end not in new:
                raise SystemExit(f"docs_figures: {doc} has no {begin} ... {end}")
            head, rest = new.split(begin, 1)
            _, tail = rest.split(end, 1)
            new = f"{head}{begin}\n{render(t, record)}\n{end}{tail}"
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


# ---- steps of some rows -----------------------------------------------------------------------------

def prepare(kind: str, src: Path, dst: Path) -> None:
    """heldout: the Boggle Boards photos of the layouts the reader never saw
    (models/reader_metrics.json), as links beside a filtered truth.json. small: the
    photos shrunk to 320 and 400 px on their long side, truth corners scaled."""
    truth = json.loads((src / "truth.json").read_text())
    dst.mkdir(parents=True, exist_ok=True)
    if kind == "heldout":
        held = set(json.loads((REPO / "models" / "reader_metrics.json").read_text())["heldout_layouts"])
        photos = [p for p in truth["photos"] if p.get("layout") in held]
        for p in photos:
            link = dst / p["file"]
            if not link.exists():
                link.symlink_to((src / p["file"]).resolve())
    elif kind == "small":
        import cv2
        photos = []
        for p in truth["photos"]:
            if not p.get("faces"):
                continue
            image = cv2.imread(str(src / p["file"]))
            for side in (320, 400):
                scale = side / max(image.shape[:2])
                name = f"{Path(p['file']).stem}_{side}.png"
                cv2.imwrite(str(dst / name), cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))
                corners = [[x * scale, y * scale] for x, y in p["corners"]] if p.get("corners") else None
                photos.append({**p, "file": name, "corners": corners})
    else:
        raise SystemExit(f"docs_figures: --prepare heldout or small, not {kind!r}")
    (dst / "truth.json").write_text(json.dumps({**truth, "photos": photos}, indent=1))


def chosen(only: str | None) -> list[Row]:
    if only is None:
        return list(ROWS)
    picks = [p.strip() for p in only.split(",") if p.strip()]
    rows = [r for r in ROWS if r.table in picks or f"{r.table}.{r.key}" in picks]
    known = set(TABLES) | {f"{r.table}.{r.key}" for r in ROWS}
    unknown = [p for p in picks if p not in known]
    if unknown:
        raise SystemExit(f"docs_figures: unknown {', '.join(unknown)} (see --list)")
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="tables or TABLE.ROW, separated by commas (default: every row)")
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--work", type=Path, default=Path("/tmp/boggle-cv-figures"))
    ap.add_argument("--fresh", action="store_true", help="remove --work first")
    ap.add_argument("--dry-run", action="store_true", help="measure and print the tables, write nothing")
    ap.add_argument("--render", action="store_true", help="only write the tables from docs/figures.json")
    ap.add_argument("--list", action="store_true", help="print the tables, rows and commands")
    ap.add_argument("--prepare", nargs=3, metavar=("KIND", "SRC", "DST"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.prepare:
        prepare(a.prepare[0], Path(a.prepare[1]), Path(a.prepare[2]))
        return 0
    if a.list:
        for t in TABLES.values():
            print(f"{t.name} ({t.doc})")
            for r in (r for r in ROWS if r.table == t.name):
                print(f"  {t.name}.{r.key}: " + " && ".join(shown(step.command) for step in r.steps))
        return 0
    record: dict[str, Cells] = json.loads(RECORD.read_text(encoding="utf-8")) if RECORD.exists() else {}
    if a.render:
        for path in write(record):
            print(f"wrote {path.relative_to(REPO)}")
        return 0
    rows = chosen(a.only)
    if a.fresh and a.work.exists():
        shutil.rmtree(a.work)
    a.work.mkdir(parents=True, exist_ok=True)
    measured = measure(rows, a.shared.resolve(), a.work.resolve())
    if RECORD.exists():  # read again: another run may have recorded its rows meanwhile
        record = json.loads(RECORD.read_text(encoding="utf-8"))
    record.update(measured)
    tables = {r.table for r in rows}
    if a.dry_run:
        for name in sorted(tables):
            print(f"{name}:\n{render(TABLES[name], record)}\n")
        return 0
    RECORD.write_text(json.dumps(dict(sorted(record.items())), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for path in write(record, tables):
        print(f"wrote {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
