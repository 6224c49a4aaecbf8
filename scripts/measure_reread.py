#!/usr/bin/env python3
"""What reading a sheet's words again against the board's lexicon does to a list sent
before the board was known (the room's re-read: boggle_cv.web.reread; docs/web.md,
"Paper lists").

    python scripts/measure_reread.py FOLDER [--words WORDS.txt] [--doubtful-only]

FOLDER: sheets made by ../shared/tools/compose_sheets.py (sheet-NNN.jpg and
truth.json). Each sheet goes through the room's steps: read by the server's reader
with no board (web.state.read_sheet_bytes: against the whole dictionary, with each
word's WebP), added to an empty list (room.sheets.add_sheet), then every word of it
(nobody has confirmed or typed one) read again from its WebP against the "board's"
lexicon (web.state.read_word_readings) and applied (room.sheets.reread);
--doubtful-only reads only the doubtful words again (the room's rule before every word
still the reader's was). A composed sheet has no board: its lexicon is the
sheet's true words, their dictionary neighbours one edit away and random words of
WORDS up to 1000 (as scripts/eval_sheets.py composed), none weighed up as a board's
word. The same photo read with that lexicon from the start is the reference. Prints, by set (DHSD's German place names are
in no dictionary: read before the board they cannot be right), the words right in the list (counted
against the sheet's truth, each true word once), the doubtful words right and with
the true word among their alternatives (what the player taps), before and after the
re-read, the words right before and wrong after (what the re-read undid), and the
re-read's milliseconds a word. Last line: "reread: ...".
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from boggle_cv.game.sheet_lexicon import SheetLexicon  # noqa: E402
from boggle_cv.room import sheets  # noqa: E402
from boggle_cv.web.state import read_sheet_bytes, read_word_readings  # noqa: E402
from eval_sheets import fold, lexicon_for  # noqa: E402


def right(words: list[str], truth: list[str]) -> int:
    return sum((Counter(words) & Counter(truth)).values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--words", type=Path, default=ROOT.parent / "shared" / "words" / "enable2k.txt")
    ap.add_argument("--doubtful-only", action="store_true", help="read only the doubtful words again")
    a = ap.parse_args()
    truth = json.loads((a.folder / "truth.json").read_text())
    pool = [w.strip() for w in a.words.open() if 3 <= len(w.strip()) <= 10]
    pool_set = set(pool)
    rng = random.Random(1203)
    sets: dict[str, Counter[str]] = {}
    ms: list[float] = []
    for name, t in sorted(truth.items()):
        n = sets.setdefault(t["set"], Counter())
        words = [fold(w) for w in t["words"]]
        # no board: none of its words is weighed up as a board's word (the lexicon alone)
        lexicon = SheetLexicon(tuple(lexicon_for(words, pool, pool_set, rng)), frozenset())
        data = (a.folder / name).read_bytes()
        early = read_sheet_bytes(data, None, "en")
        listed, marks, done = sheets.add_sheet([], {}, early["words"])
        images = {w: early["images"][at] for w, at in zip(done.added, done.sources) if early["images"][at]}
        table = sheets.SheetWords(dict(marks), {w: f"i{k}" for k, w in enumerate(images)},
                                  {w: "" for w in done.added}, sheets.added_entries(done))
        asked = [w for w in done.added if w in images and (w in marks or not a.doubtful_only)]
        t0 = time.perf_counter()
        readings = read_word_readings([images[w] for w in asked], lexicon, "en")
        if asked:
            ms.append(1000 * (time.perf_counter() - t0) / len(asked))
        new_list = list(listed)
        for w, doc in zip(asked, readings):
            reading = sheets.WordReread.of(doc)
            if reading is None:
                continue
            expect = sheets.RereadExpect(w, tuple(table.marks.get(w, ())), table.images[w], table.against[w])
            got = sheets.reread(new_list, table, expect, reading, "board")
            if got is None:
                continue
            new_list, table, now = got
            n["replaced"] += now != w
        new_marks = table.marks
        want = Counter(words)
        n["d_right"] += sum(1 for w in marks if want[w])
        n["d_right_after"] += sum(1 for w in new_marks if want[w])
        n["d_among"] += sum(1 for alts in marks.values() if any(want[a] for a, _ in alts))
        n["d_among_after"] += sum(1 for alts in new_marks.values() if any(want[a] for a, _ in alts))
        n["doubtful"] += len(marks)
        n["doubtful_after"] += len(new_marks)
        late = read_sheet_bytes(data, lexicon, "en")
        ref_list, _, _ = sheets.add_sheet([], {}, late["words"])
        n["sheets"] += 1
        n["total"] += len(words)
        n["before"] += right(listed, words)
        n["after"] += right(new_list, words)
        n["undone"] += sum(1 for w, v in zip(listed, new_list) if w != v and want[w] and not want[v])
        n["reference"] += right(ref_list, words)
        print(f"{name}: {right(listed, words)} -> {right(new_list, words)} right of {len(words)} "
              f"(read with the lexicon: {right(ref_list, words)}), {len(marks)} doubtful", flush=True)
    for kind, n in sorted(sets.items()):
        print(f"{kind} ({n['sheets']} sheets): list words right: dictionary {n['before']}/{n['total']}, after the "
              f"re-read {n['after']}/{n['total']}, read with the lexicon from the start {n['reference']}/{n['total']}; "
              f"doubtful words {n['doubtful']} -> {n['doubtful_after']}: right {n['d_right']} -> {n['d_right_after']}, "
              f"the true word among the alternatives {n['d_among']} -> {n['d_among_after']}, replaced {n['replaced']}, "
              f"right words the re-read undid {n['undone']}")
    all_ = sum(sets.values(), Counter())
    print(f"reread: {statistics.median(ms) if ms else 0:.1f} ms a word (median of the sheets), "
          f"{all_['doubtful']} doubtful words, {all_['before']} -> {all_['after']} right of {all_['total']}, "
          f"{all_['undone']} right words undone")


if __name__ == "__main__":
    main()
