#!/usr/bin/env python3
"""Measure the sheet reader (boggle_cv.read_sheet) on whole sheets, two ways.

  rendered   sheets drawn here (boggle_cv.synth.sheets: Hershey script face, ruled or
             plain, one or two columns, several words a line split by spaces or
             commas, a crossed-out word, scores in the margin, photographed on a
             table at an angle, turned 0/90/180/270): no ../shared needed.
             python scripts/eval_sheets.py rendered [--count 40] [--words 40] [--seed 7] [--why]
             (--why: each true word's fate by its box, as for composed sheets, and
             "strike missed" for a crossed-out word read as a word)
  test-crops make a crops folder of the held-out part of ../shared/handwriting-public
             (the crops the word head was NOT trained on: train.word_head.split_of),
             as symbolic links plus a filtered manifest.json, for
             ../shared/tools/compose_sheets.py (figures on sheets made from it: "composed").
             python scripts/eval_sheets.py test-crops ../shared/handwriting-public /tmp/crops-test
             (--split tune: the crops the flagging was tuned on, to tune the layout on)

  composed   read a folder of composed sheets (../shared/tools/compose_sheets.py's, or
             scripts/compose_sheets.py's, whose truth also holds each word's box) by
             ../shared/tools/eval_sheets.py's protocol (the same lexicons: its words
             list, seed 1203), so the last line is that tool's; with --why (by the
             words' boxes where the truth holds them) a table of where each true word went (scripts/sheet_losses.py:
             right, misread, cut, split, merged, false strike, missed) and the extra
             read boxes (fragments, split pieces; unflagged ones counted), per set;
             without boxes, the same causes from the text and order alone
             (sheet_losses.align: approximate, a cut word counts as misread).
             python scripts/eval_sheets.py composed /tmp/tune-sheets --why [--verbose]
             (tune: test-crops --split tune, then scripts/compose_sheets.py --seed 77)

  boxes      the word reader alone on composed sheets with boxes (scripts/compose_sheets.py's):
             each true word read from its own crop and cut from the photo at its true
             box (a quarter of its height around it), against the sheet's lexicon; per
             set, how many each way right: what composing (shrinking, blur, JPEG) costs
             the reader, apart from the layout.
             python scripts/eval_sheets.py boxes /tmp/tune-sheets /tmp/tune-crops

  board-or-not  each composed sheet read against the board ../shared/tools/eval_offboard.py
             deals it and with no board (against the dictionary): the words right each
             way, per sheet; the last line says on how many sheets the board cost words.
             python scripts/eval_sheets.py board-or-not /tmp/sheets-test

  umlauts    the held-out DHSD crops whose words hold ä, ö, ü or ß, read against their
             folded names with and without read_sheet(lang="de")'s written forms.
             python scripts/eval_sheets.py umlauts /tmp/crops-test

Protocol (the same as ../shared/tools/eval_sheets.py): each sheet is read against a
lexicon of 1,000: its true words, every dictionary word one edit away, random
dictionary words to fill. A true word is found right when the reading (as a multiset,
crossed-out words left out) holds it; words read that are not on the sheet are extra;
a confident error is a word read wrong and not flagged. Also reported for rendered
sheets: the turn found right, crossed-out words found (and words wrongly taken as
crossed out), seconds a sheet (median and the slowest), on this machine.
Last line: "rendered sheets: words right R/T (P%), extra E, confident errors C, ..."
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def neighbours(t: str, words: set[str]) -> set[str]:
    """The words of `words` one edit away from `t` (the reader's own rule, reading.one_edit)."""
    from boggle_cv.vision.handwriting.reading import one_edit
    return {w for w in one_edit(t) if w in words}


def lexicon_for(words: list[str], pool: list[str], pool_set: set[str], rng: random.Random) -> list[str]:
    lex = set(words)
    for w in words:
        lex |= neighbours(w, pool_set)
    while len(lex) < 1000:
        lex.add(rng.choice(pool))
    return sorted(lex)


def rendered(count: int, n_words: int, seed: int, verbose: bool = False, why: bool = False) -> None:
    from boggle_cv.game.dictionary import load_default
    from boggle_cv.synth.sheets import photograph, render_paper
    from boggle_cv.vision.sheet import read_sheet
    sys.path.insert(0, str(ROOT / "scripts"))
    from sheet_losses import Losses, attribute, table
    pool = sorted(w.lower() for w in load_default().words() if 3 <= len(w) <= 8 and w.isalpha())
    pool_set = set(pool)
    rng = random.Random(seed)
    losses = Losses()
    right = total = extra = confident = turns = struck_found = struck_total = struck_wrong = 0
    seconds: list[float] = []
    for i in range(count):
        g = np.random.default_rng(seed * 1000 + i)
        words = rng.sample(pool, n_words)
        per_line = [1] * n_words
        for k in rng.sample(range(n_words), n_words // 6):
            per_line[k] = 2
        lines: list[list[str]] = []
        it = iter(words)
        for k in per_line:
            line = [w for w in (next(it, None) for _ in range(k)) if w]
            if line:
                lines.append(line)
        struck = tuple(rng.sample(words, 1 + n_words // 20))
        words_written = [w for line in lines for w in line]
        columns = 2 if len(lines) > 18 else rng.choice([1, 2])
        pitch = 64 if len(lines) / columns <= 20 else 56
        paper, boxes = render_paper(lines, g, columns=columns, ruled=rng.random() < 0.6, struck=struck,
                                margin_marks=tuple(str(rng.randint(1, 5)) for _ in range(rng.randint(0, 4))),
                                separator=rng.choice(["   ", ", "]), pitch=pitch, scale=1.3 if pitch < 64 else 1.5,
                                size=(1400, 1800))
        turn = rng.choice([0, 0, 90, 180, 270])
        photo, corners = photograph(paper, g, size=(2000, 1500) if turn in (90, 270) else (1500, 2000),
                                    angle=rng.uniform(-12, 12), tilt=0.05, turn=turn)
        want = Counter(w for w in words if w not in struck)
        lex = lexicon_for(words, pool, pool_set, rng)
        t0 = time.perf_counter()
        try:
            sheet = read_sheet(photo, lexicon=lex)
            got = sheet.words
            turns += sheet.turn == (360 - turn) % 360
        except Exception as e:  # a refusal counts as nothing read
            print(f"sheet {i}: {type(e).__name__}: {e}")
            got = ()
        seconds.append(time.perf_counter() - t0)
        counted = [r for r in got if not r.crossed_out]
        have = Counter(r.word for r in counted)
        ok = sum((want & have).values())
        crossed = [r.word for r in got if r.crossed_out]
        struck_total += len(struck)
        struck_found += sum(1 for w in struck if w in crossed)
        struck_wrong += sum(1 for w in crossed if w not in struck)
        wrong_unflagged = sum(1 for r in counted if r.word not in want and not r.flagged)
        right += ok
        total += sum(want.values())
        extra += sum((have - want).values())
        confident += wrong_unflagged
        print(f"sheet {i}: {ok}/{sum(want.values())} right, {sum((have - want).values())} extra, "
              f"{wrong_unflagged} unflagged wrong, turn {turn}, {seconds[-1]:.2f} s")
        if why:
            loss = attribute(words_written, photo_boxes(paper, boxes, corners), got,
                             [w in struck for w in words_written])
            losses.words += loss.words
            losses.extras += loss.extras
            if verbose:
                print("   " + "  ".join(f"{w}:{c}" for w, c in zip(words_written, loss.words) if c != "right"))
        if verbose:
            print("   missed:", sorted((want - have).elements()), " extra:", sorted((have - want).elements()),
                  " crossed:", crossed, "struck:", struck)
    if why:
        print(table({"rendered": losses}))
    print(f"rendered sheets: words right {right}/{total} ({100 * right / max(total, 1):.1f}%), extra {extra}, "
          f"confident errors {confident}, turn right {turns}/{count}, crossed out found {struck_found}/{struck_total} "
          f"(+{struck_wrong} wrongly), {n_words} words a sheet: median {statistics.median(seconds):.2f} s, "
          f"slowest {max(seconds):.2f} s")


def photo_boxes(paper: np.ndarray, boxes: list[tuple[int, int, int, int]], corners: np.ndarray) -> list[list[list[float]]]:
    """Paper boxes (x0, y0, x1, y1) -> 4 photo points each, by the paper's corners in the photo."""
    import cv2
    h, w = paper.shape[:2]
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), np.float32(corners))
    return [cv2.perspectiveTransform(np.float32([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]]), m)[0].tolist()
            for x0, y0, x1, y1 in boxes]


def test_crops(src: Path, dst: Path, split: str = "test") -> None:
    from boggle_cv.train.word_head import split_of
    items = [x for x in json.loads((src / "manifest.json").read_text()) if split_of(x) == split]
    dst.mkdir(parents=True, exist_ok=True)
    for x in items:
        link = dst / x["file"]
        link.parent.mkdir(parents=True, exist_ok=True)
        if not link.exists():
            link.symlink_to((src / x["file"]).resolve())
    (dst / "manifest.json").write_text(json.dumps(items))
    print(f"{len(items)} {split} crops linked in {dst}")


def fold(s: str) -> str:
    """a-z lower case, accents dropped, ß -> ss (the shared tools' folding)."""
    import unicodedata
    s = unicodedata.normalize("NFKD", s.replace("ß", "ss"))
    return "".join(c for c in s if c.isascii()).lower()


def sheet_lexicons(truth: dict[str, Any], words_file: Path) -> Iterator[tuple[str, dict[str, Any], list[str], set[str]]]:
    """Per composed sheet, in name order: (name, its truth, its words folded, its
    lexicon as ../shared/tools/eval_sheets.py builds it: the words, every word of
    `words_file` (3-10 letters) one edit away, random ones to 1,000; seed 1203)."""
    pool = [w.strip() for w in words_file.open() if 3 <= len(w.strip()) <= 10]
    pool_set = set(pool)
    rng = random.Random(1203)
    for name, t in sorted(truth.items()):
        words = [fold(w) for w in t["words"]]
        lex = set(words)
        for w in words:
            lex |= neighbours(w, pool_set)
        while len(lex) < 1000:
            lex.add(rng.choice(pool))
        yield name, t, words, lex


def composed(folder: Path, words_file: Path, why: bool, verbose: bool) -> None:
    """Composed sheets read as ../shared/tools/eval_sheets.py reads them (module doc)."""
    from boggle_cv.vision.sheet import read_sheet
    sys.path.insert(0, str(ROOT / "scripts"))
    from sheet_losses import Losses, align, attribute, table
    truth = json.loads((folder / "truth.json").read_text())
    right = total = extra = confident = allright = 0
    seconds: list[float] = []
    by_set: dict[str, Losses] = {}
    boxed = all("boxes" in t for t in truth.values())
    for name, t, words, lex in sheet_lexicons(truth, words_file):
        t0 = time.perf_counter()
        try:
            got = list(read_sheet(str(folder / name), lexicon=sorted(lex)).words)
        except Exception as e:  # a refusal counts as nothing read
            print(f"{name}: {type(e).__name__}: {e}")
            got = []
        seconds.append(time.perf_counter() - t0)
        counted = [r for r in got if not r.crossed_out]
        want, have = Counter(words), Counter(r.word for r in counted)
        ok = sum((want & have).values())
        wrong_unflagged = sum(1 for r in counted if r.word not in want and not r.flagged)
        right += ok
        total += len(words)
        extra += sum((have - want).values())
        confident += wrong_unflagged
        allright += ok == len(words) and sum(have.values()) == len(words)
        line = f"{name}: {ok}/{len(words)} right, {sum((have - want).values())} extra, {wrong_unflagged} unflagged wrong"
        if why:
            loss = attribute(words, t["boxes"], got) if boxed else align(words, got)
            acc = by_set.setdefault(t["set"], Losses())
            acc.words += loss.words
            acc.extras += loss.extras
            lost = Counter(c for c in loss.words if c != "right")
            line += "  (" + ", ".join(f"{c} {n}" for c, n in lost.most_common()) + ")"
            if verbose:
                line += "\n   " + "  ".join(f"{w}:{c}" for w, c in zip(words, loss.words) if c != "right") \
                    + "\n   read: " + " ".join(("~" if r.crossed_out else "") + r.word + ("?" if r.flagged else "")
                                          for r in got)
        print(line)
    if why:
        print(table(by_set) if boxed else table(by_set) + "\n(no boxes in this truth.json: causes from the "
              "text and order alone, sheet_losses.align; a cut word counts as misread)")
    print(f"composed sheets: words right {right}/{total} ({100 * right / max(total, 1):.1f}%), extra {extra}, "
          f"confident errors {confident}, sheets all right {allright}/{len(truth)}, "
          f"median {statistics.median(seconds):.2f} s a sheet")


def umlauts(crops: Path) -> None:
    """The held-out DHSD crops whose words hold ä, ö, ü or ß, read against their own
    folded names (folding.fold_word "de"), with and without their written forms
    (vision.sheet.written: what read_sheet(lang="de") adds)."""
    from boggle_cv.game.folding import fold_word
    from boggle_cv.train.word_head import load
    from boggle_cv.vision.handwriting import read_words
    from boggle_cv.vision.sheet.read import _as_lexicon_word
    from boggle_cv.vision.sheet.written import with_written_forms
    items = [x for x in json.loads((crops / "manifest.json").read_text())
             if x["set"] == "dhsd" and any(c in x["transcription"].lower() for c in "äöüß")]
    pairs = [(x, fold_word(x["transcription"], "de")) for x in items]
    pairs = [(x, t) for x, t in pairs if t.isascii() and t.isalpha()]
    truth = [t for _, t in pairs]
    lex = sorted(set(truth))
    images = [load(crops / x["file"]) for x, _ in pairs]
    with_forms, back = with_written_forms(lex)
    for name, readings in (("folded words only", read_words(images, lex)),
                           ("with their written forms", [_as_lexicon_word(r, back) for r in read_words(images, with_forms)])):
        right = sum(r.word == t for r, t in zip(readings, truth))
        wrong = sum(r.word != t and not r.flagged for r, t in zip(readings, truth))
        print(f"umlauts, {name}: {right}/{len(truth)} right, {wrong} wrong unflagged (lexicon {len(lex)})")


def boxes(folder: Path, crops: Path, words_path: Path) -> None:
    import cv2

    from boggle_cv import read_words
    truth = json.loads((folder / "truth.json").read_text())
    if not all("boxes" in t for t in truth.values()):
        raise SystemExit(f"{folder}/truth.json holds no word boxes: make the sheets with scripts/compose_sheets.py")
    counts: dict[str, list[int]] = {}
    for name, t, words, lex in sheet_lexicons(truth, words_path):
        photo = cv2.imread(str(folder / name))
        own = [cv2.imread(str(crops / f), cv2.IMREAD_UNCHANGED) for f in t["files"]]
        cut = []
        for q in t["boxes"]:
            quad = np.float32(q)
            w, h = float(np.linalg.norm(quad[1] - quad[0])), float(np.linalg.norm(quad[3] - quad[0]))
            pad = 0.25 * h
            to = np.float32([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]])
            cut.append(cv2.warpPerspective(photo, cv2.getPerspectiveTransform(quad, to), (int(w + 2 * pad), int(h + 2 * pad)),
                                           flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE))
        for word, a, b in zip(words, read_words(own, sorted(lex)), read_words(cut, sorted(lex))):
            k = counts.setdefault(t["set"], [0, 0, 0])
            k[0] += 1
            k[1] += a.word == word
            k[2] += b.word == word
    for name, (n, a, b) in sorted(counts.items()):
        print(f"boxes, {name}: {n} words, right from their own crops {a} ({100 * a / n:.1f}%), "
              f"cut from the sheets at their true boxes {b} ({100 * b / n:.1f}%)")


def offboard_board_text(k: int) -> str:
    """The board ../shared/tools/eval_offboard.py deals the k-th sheet (in name order):
    shaken from the project's cubes, 4x4 modern and 5x5 Big Boggle in turn."""
    from boggle_cv.game.dice import roll
    return roll("modern-4" if k % 2 == 0 else "big-1979", seed=7000 + k).to_text()


def as_asked(sheet: Any, board: Any, dictionary: Any, on_board: Any, want: Counter[str]) -> Counter[str]:
    """What the referee asks of a sheet read with its board known, counted as
    ../shared/tools/eval_offboard.py counts it: questions, words asked, asked without a
    written word among the options (asked_out), board words nobody wrote accepted
    unasked (invented)."""
    from boggle_cv.game.questions import RoundDoubts, WordDoubt, decide
    from boggle_cv.game.scoring import Rules
    from boggle_cv.game.sheet_doubts import sheet_entries
    entries, doubts = sheet_entries("sheet", sheet.words)
    decision = decide(RoundDoubts(board, Rules.for_board(board), {"sheet": entries}, (), tuple(doubts)), dictionary)
    asked = {q.doubt.source: q.doubt for q in decision.questions if isinstance(q.doubt, WordDoubt)
             and q.doubt.kind == "word"}
    out: Counter[str] = Counter(questions=len(decision.questions))
    left = Counter(want)
    for i, w in enumerate(sheet.words):
        read = fold(w.word or "")
        if not read:
            continue
        if i in asked:
            out["asked"] += 1
            out["asked_out"] += not any(left[fold(o)] > 0 for o, _ in asked[i].options if o)
        if left[read] > 0:
            left[read] -= 1
        elif read in on_board and i not in asked:
            out["invented"] += 1
    return out


def board_or_not(folder: Path, save: Path | None = None) -> None:
    """Each composed sheet read twice, as `boggle-cv sheet` reads it: against the board
    ../shared/tools/eval_offboard.py deals it (one that holds few of its words), and
    with no board (against the whole dictionary); the words right each way (as a
    multiset, crossed-out words left out), per sheet, and the sheets read right less
    often with the board known."""
    from boggle_cv.game.board import Board
    from boggle_cv.game.dictionary import load_default
    from boggle_cv.game.sheet_lexicon import sheet_lexicon
    from boggle_cv.vision.sheet import read_sheet
    truth = json.loads((folder / "truth.json").read_text())
    dictionary = load_default()
    totals = Counter()
    fewer: list[str] = []
    docs: dict[str, Any] = {}
    questions: list[int] = []
    for k, name in enumerate(sorted(truth)):
        want = Counter(fold(w) for w in truth[name]["words"])
        board_text = offboard_board_text(k)
        lexicon = sheet_lexicon(Board.parse(board_text), dictionary)
        right = {}
        for how, lex, board in (("board", list(lexicon.words), lexicon.board_words), ("none", None, None)):
            try:
                sheet = read_sheet(folder / name, lex, dictionary=dictionary, board_words=board)
            except Exception as e:  # a refusal counts as nothing read
                print(f"{name}: {type(e).__name__}: {e}")
                right[how] = 0
                continue
            docs[f"{name}#{how}"] = sheet.to_dict()
            right[how] = sum((want & Counter(w.word for w in sheet.words if not w.crossed_out and w.word)).values())
            if how == "board":
                asked = as_asked(sheet, Board.parse(board_text), dictionary, lexicon.board_words, want)
                questions.append(asked["questions"])
                totals.update(asked)
        totals.update({"words": sum(want.values()), **right})
        mark = "  FEWER" if right["board"] < right["none"] else ""
        if mark:
            fewer.append(name)
        print(f"{name} ({truth[name]['set']}): right {right['board']} with the board, {right['none']} without{mark}")
    if save:
        save.write_text(json.dumps(docs))
    print(f"asked as eval_offboard.py counts: invented {totals['invented']}, questions median "
          f"{statistics.median(questions or [0]):g} a sheet, written word offered in "
          f"{100 * (1 - totals['asked_out'] / max(totals['asked'], 1)):.0f}% of questions")
    print(f"board or not: right {totals['board']}/{totals['words']} with the board known, {totals['none']} without; "
          f"sheets with fewer right with the board {len(fewer)} of {len(truth)}" + (f" ({', '.join(fewer)})" if fewer else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("rendered")
    r.add_argument("--count", type=int, default=40)
    r.add_argument("--words", type=int, default=40)
    r.add_argument("--seed", type=int, default=7)
    r.add_argument("--verbose", action="store_true", help="list each sheet's missed, extra and crossed-out words")
    r.add_argument("--why", action="store_true", help="attribute each loss by the words' boxes (sheet_losses.py)")
    t = sub.add_parser("test-crops")
    t.add_argument("src", type=Path)
    t.add_argument("dst", type=Path)
    t.add_argument("--split", choices=("train", "tune", "test"), default="test",
                   help="which part (train.word_head.split_of): test (the figures), tune (to tune on)")
    c = sub.add_parser("composed")
    c.add_argument("folder", type=Path, help="sheet-NNN.jpg and truth.json (a compose_sheets.py output)")
    c.add_argument("--words", type=Path, default=ROOT.parent / "shared" / "words" / "enable2k.txt",
                   help="the words list lexicons are filled from (the shared tool's)")
    c.add_argument("--why", action="store_true", help="attribute each loss (by box where the truth holds boxes, else by text)")
    c.add_argument("--verbose", action="store_true", help="with --why: each sheet's lost words and readings")
    b = sub.add_parser("boxes")
    b.add_argument("folder", type=Path, help="sheets made by scripts/compose_sheets.py (truth with boxes)")
    b.add_argument("crops", type=Path, help="the crops folder they were made from")
    b.add_argument("--words", type=Path, default=ROOT.parent / "shared" / "words" / "enable2k.txt")
    o = sub.add_parser("board-or-not")
    o.add_argument("folder", type=Path, help="sheet-NNN.jpg and truth.json (a compose_sheets.py output)")
    o.add_argument("--save", type=Path, help="write every reading here (JSON)")
    u = sub.add_parser("umlauts")
    u.add_argument("crops", type=Path, help="a crops folder made by test-crops")
    a = ap.parse_args()
    if a.cmd == "rendered":
        rendered(a.count, a.words, a.seed, a.verbose, a.why)
    elif a.cmd == "composed":
        composed(a.folder, a.words, a.why, a.verbose)
    elif a.cmd == "boxes":
        boxes(a.folder, a.crops, a.words)
    elif a.cmd == "board-or-not":
        board_or_not(a.folder, a.save)
    elif a.cmd == "umlauts":
        umlauts(a.crops)
    else:
        test_crops(a.src, a.dst, a.split)


if __name__ == "__main__":
    main()
