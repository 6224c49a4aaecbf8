#!/usr/bin/env python3
"""What putting a sheet right costs its player: taps, words typed, wrong words let
through, for each sheet of a folder made by ../shared/tools/compose_sheets.py (or
scripts/compose_sheets.py).

    python scripts/sheet_taps.py SHEETS [--words ENABLE] [--save READINGS.json] [--load READINGS.json]

Each sheet is read as ../shared/tools/eval_sheets.py reads it (boggle_cv.read_sheet
against a lexicon of 1,000: the sheet's words, every ENABLE2k word one edit away,
random ones to fill; seed 1203), then each word read is settled as the player would
settle it on the page (`scan --sheet` asks the same questions):

  a right word, not asked about                         0 taps
  a word asked about, the reading right                 1 tap  (keep it)
  a word asked about, the true word among the first     1 tap  (pick it)
    ALTERNATIVES offered
  a word asked about that is no word of the sheet and   1 tap  (remove it)
    no unfound word is among its alternatives (junk)
  a word of the sheet never offered                     typed  (the player types it)
  a wrong word not asked about                          a confident error (accepted
                                                        unseen; its true word, if
                                                        any, is typed too)
  a crossed-out reading of a word of the sheet          1 tap  (put it back)

Words are matched as multisets (no boxes needed): first the readings that are right,
then the asked-about readings whose alternatives hold a word not yet found. Last
lines: per set (fast scrawl = jeremy-words, careful print = dhsd), the median and
worst taps a sheet, words typed per 10 sheets, confident errors per 1,000 words and
the median seconds a sheet; then the same over all sheets.
--board reads each sheet as a game would, with a board known: a simulated board
(`simulated_board`: the sheet's words on it but for OFF_BOARD of them, which its
player wrote by mistake, each dictionary neighbour of a sheet word on it too at
NEIGHBOURS_ON, the share measured on 60 dice-rolled 4x4 boards, random words to
BOARD_WORDS), the lexicon the board's words and every dictionary word one edit away
(handwriting.board_lexicon), and the board's words weighed up (read_sheet(board_words=...)).
--save writes the readings (each sheet's SheetReading.to_dict()) so that --load can
count them again without reading (to compare ways of settling, not readers).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

#: How many alternatives a doubtful word offers (the reading first): the room's
#: room.sheets.MAX_ALTERNATIVES and `scan --sheet`'s question.
ALTERNATIVES = 5
#: With --board: the share of a sheet's words its player wrote off the board (left off
#: the simulated board, still in the lexicon), the share of a sheet word's dictionary
#: neighbours one edit away that are on the board too (20% on 60 dice-rolled 4x4 boards
#: with the default dictionary: seat, seats and sat often lie together), and how many
#: words the board holds (the median of those boards: 110).
OFF_BOARD = 0.1
NEIGHBOURS_ON = 0.2
BOARD_WORDS = 110
#: The names of the sets as a player meets them.
SET_NAMES = {"jeremy-words": "fast scrawl", "dhsd": "careful print"}


@dataclass
class SheetCost:
    """What one sheet costs: `asked` words asked about (each a tap), `removed` junk
    readings taken away (a tap each), `restored` words read as crossed out put back (a
    tap each), `typed` words of the sheet never offered, `confident` wrong words not
    asked about; `right` words of the sheet found (without or after a tap), `words` on it."""

    words: int = 0
    right: int = 0
    asked: int = 0
    removed: int = 0
    restored: int = 0
    typed: int = 0
    confident: int = 0
    detail: list[str] = field(default_factory=list)

    @property
    def taps(self) -> int:
        return self.asked + self.removed + self.restored


def _get(r: Any, name: str) -> Any:
    return r[name] if isinstance(r, dict) else getattr(r, name)


def count_taps(truth: Iterable[str], readings: Iterable[Any], alternatives: int = ALTERNATIVES) -> SheetCost:
    """The cost of putting one sheet right (module doc). truth: its words as written,
    folded to a-z; readings: SheetWords (or their to_dict()) in any order, each with
    word, flagged, alternatives [(word, p), ...] best first and crossed_out."""
    want = Counter(truth)
    cost = SheetCost(words=sum(want.values()))
    reads = [r for r in readings if _get(r, "word") or _get(r, "crossed_out")]
    live = [r for r in reads if not _get(r, "crossed_out")]
    settled: set[int] = set()
    for flagged_pass in (False, True):  # right words: the unasked ones claim first
        for i, r in enumerate(live):
            if i in settled or bool(_get(r, "flagged")) != flagged_pass:
                continue
            w = _get(r, "word")
            if want[w] > 0:
                want[w] -= 1
                cost.right += 1
                cost.asked += flagged_pass
                settled.add(i)
    for i, r in enumerate(live):  # asked about, the true word offered
        if i in settled or not _get(r, "flagged"):
            continue
        offered = [str(a[0]) for a in list(_get(r, "alternatives"))[:alternatives]]
        pick = next((a for a in offered if want[a] > 0), None)
        settled.add(i)
        if pick is not None:
            want[pick] -= 1
            cost.right += 1
            cost.asked += 1
            cost.detail.append(f"{_get(r, 'word')}->{pick}")
        else:
            cost.removed += 1
            cost.detail.append(f"-{_get(r, 'word')}")
    for i, r in enumerate(live):  # not asked about and wrong
        if i not in settled:
            cost.confident += 1
            cost.detail.append(f"!{_get(r, 'word')}")
    for r in reads:  # a word of the sheet taken for crossed out
        w = _get(r, "word")
        if _get(r, "crossed_out") and want[w] > 0:
            want[w] -= 1
            cost.right += 1
            cost.restored += 1
            cost.detail.append(f"~{w}")
    cost.typed = sum(want.values())
    cost.detail += [f"+{w}" for w in sorted(want.elements())]
    return cost


def simulated_board(words: list[str], pool: list[str], pool_set: set[str],
                    rng: random.Random) -> tuple[list[str], list[str]]:
    """(the board's words, the sheet's lexicon) for a sheet of `words` (a-z) read with a
    board known (module doc: --board); `pool`: the dictionary's words, `pool_set` the
    same as a set."""
    from boggle_cv.vision.handwriting import board_lexicon
    from boggle_cv.vision.handwriting.reading import one_edit
    written = sorted(set(words))
    board = {w for w in written if rng.random() >= OFF_BOARD}
    for w in written:
        board |= {n for n in sorted(one_edit(w) & pool_set) if rng.random() < NEIGHBOURS_ON}
    while len(board) < BOARD_WORDS:
        board.add(rng.choice(pool))
    on_board = sorted(board)
    lexicon = board_lexicon(on_board, pool_set)
    return on_board, lexicon + sorted(set(written) - set(lexicon))


def offboard_board(lists: list[list[str]], share: float, pool: list[str], pool_set: set[str],
                   rng: random.Random) -> tuple[list[str], list[str], set[str]]:
    """(the board's words, the lexicon, the written words left off the board) for a
    game's lists (each a player's words, a-z) of which a `share` of each player's words
    is not on the board (game_taps.py --offboard): half of those are near-words, with
    a dictionary word one edit from each on the board in its place (a misspelling, a
    cube skipped, a word one cube away), the other half words of no board path
    (nothing near them is put on the board); the other written words are on it, with a
    fifth of their neighbours (NEIGHBOURS_ON) and random words to BOARD_WORDS. The
    lexicon is the board's words and every dictionary word one edit away
    (handwriting.board_lexicon): a written word off the board is in it only when it
    is one of those."""
    from boggle_cv.vision.handwriting import board_lexicon
    from boggle_cv.vision.handwriting.reading import one_edit
    written = sorted({w for ws in lists for w in ws})
    off: set[str] = set()
    for ws in lists:
        mine = sorted(set(ws))
        off |= set(rng.sample(mine, round(share * len(mine))))
    shuffled = sorted(off)
    rng.shuffle(shuffled)
    near = set(shuffled[:(len(shuffled) + 1) // 2])
    board = set(written) - off
    for w in sorted(near):
        options = sorted((one_edit(w) & pool_set) - set(written))
        if options:
            board.add(rng.choice(options))
    for w in sorted(set(written) - off):
        board |= {n for n in sorted((one_edit(w) & pool_set) - off) if rng.random() < NEIGHBOURS_ON}
    while len(board) < BOARD_WORDS:
        pick = rng.choice(pool)
        if pick not in off:
            board.add(pick)
    on_board = sorted(board)
    return on_board, board_lexicon(on_board, pool_set), off


def summary(name: str, costs: list[SheetCost], seconds: list[float]) -> str:
    """One line: sheets, words, right, taps (median / worst / mean), typed per 10 sheets,
    confident errors per 1,000 words, median seconds a sheet."""
    if not costs:
        return f"{name}: no sheets"
    taps = [c.taps for c in costs]
    words = sum(c.words for c in costs)
    typed = sum(c.typed for c in costs)
    conf = sum(c.confident for c in costs)
    return (f"{name}: {len(costs)} sheets, {words} words, right {sum(c.right for c in costs)} "
            f"({100 * sum(c.right for c in costs) / max(words, 1):.1f}%), taps a sheet median {statistics.median(taps):g} "
            f"worst {max(taps)} mean {statistics.mean(taps):.1f} (asked {sum(c.asked for c in costs)}, "
            f"removed {sum(c.removed for c in costs)}, put back {sum(c.restored for c in costs)}), "
            f"typed {typed} ({10 * typed / len(costs):.1f} per 10 sheets), confident errors {conf} "
            f"({1000 * conf / max(words, 1):.1f} per 1,000 words)"
            + (f", {statistics.median(seconds):.2f} s a sheet" if seconds else ""))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path, help="sheet-NNN.jpg and truth.json (compose_sheets.py's)")
    ap.add_argument("--words", type=Path, default=ROOT.parent / "shared" / "words" / "enable2k.txt",
                    help="the word list lexicons are filled from (the shared tool's)")
    ap.add_argument("--save", type=Path, help="write each sheet's reading here (JSON)")
    ap.add_argument("--load", type=Path, help="count the readings of a --save file instead of reading")
    ap.add_argument("--verbose", action="store_true", help="each sheet's taps word by word")
    ap.add_argument("--board", action="store_true", help="read with a simulated board known (module doc)")
    a = ap.parse_args()
    from eval_sheets import sheet_lexicons
    truth = json.loads((a.folder / "truth.json").read_text())
    saved: dict[str, Any] = json.loads(a.load.read_text()) if a.load else {}
    readings: dict[str, Any] = {}
    by_set: dict[str, list[SheetCost]] = {}
    seconds: dict[str, list[float]] = {}
    pool = [w.strip() for w in a.words.open() if 3 <= len(w.strip()) <= 10]
    pool_set = set(pool)
    rng = random.Random(1204)
    for name, t, words, lex in sheet_lexicons(truth, a.words):
        board: list[str] | None = None
        if a.board:
            board, lexicon = simulated_board(words, pool, pool_set, rng)
            lex = set(lexicon)
        t0 = time.perf_counter()
        if a.load:
            doc = saved.get(name, {"words": []})
        else:
            from boggle_cv.vision.sheet import read_sheet
            try:
                doc = read_sheet(str(a.folder / name), lexicon=sorted(lex), board_words=board).to_dict()
            except Exception as e:  # a refusal counts as nothing read
                print(f"{name}: {type(e).__name__}: {e}")
                doc = {"words": []}
            seconds.setdefault(t["set"], []).append(time.perf_counter() - t0)
        readings[name] = doc
        cost = count_taps(words, doc["words"])
        by_set.setdefault(t["set"], []).append(cost)
        line = (f"{name} ({SET_NAMES.get(t['set'], t['set'])}): {cost.words} words, {cost.taps} taps "
                f"(asked {cost.asked}, removed {cost.removed}, put back {cost.restored}), typed {cost.typed}, "
                f"confident errors {cost.confident}")
        if a.verbose and cost.detail:
            line += "\n   " + " ".join(cost.detail)
        print(line)
    if a.save:
        a.save.write_text(json.dumps(readings))
    every: list[SheetCost] = []
    every_s: list[float] = []
    for s in sorted(by_set):
        print(summary(f"taps, {SET_NAMES.get(s, s)}", by_set[s], seconds.get(s, [])))
        every += by_set[s]
        every_s += seconds.get(s, [])
    print(summary("taps, all sheets", every, every_s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
