"""Fit when a board lexicon's word stands against what the ink says without the board
(``vision/handwriting/board_check.py``: the margins ``word_margin`` and
``other_margin`` and the ``offer_gap``, shipped in ``models/word_doubt.json`` under
"board").

Sheets composed from the tune split of ../shared/handwriting-public (never the test
split the measures use) are read by ``read_sheet`` as at run time, each against three
boards: one that holds its words but a tenth (scripts/sheet_taps.py's
``simulated_board``, the plain game), one that leaves half of them off, half of those
with a word one edit away on the board in their place (``offboard_board``, the
off-board game), and one shaken from the project's cubes (few of its words on it, as
../shared/tools/eval_offboard.py deals). Every word the sheet keeps is recorded as the
board check receives it (the lexicon's reading, the first view's frames, the open
reading, the board's words) with the word the player wrote there (the sheet's words
in writing order aligned with the readings). Each rule of a grid is then played over
the records with the run-time code (``board_check.weigh`` once a record,
``board_check.decide`` under each rule), a word asked about when it is flagged and
one of its options (``sheet_doubts.word_options``) is on the board, and counted:

  invented   a board word not written, not asked (points for no one's ink)
  missed     a written board word read as another word and not offered in a question
  asked      questions
  offered    questions that offer the word written
  right      words read as written

The rule shipped costs the players fewest taps over the three boards (a question one
tap, a written board word missed ``--typed-cost`` taps: it is typed, or a score is
wrong) among those that invent at most ``--invented-per-1000`` words in 1,000 read,
with ``--safety`` nats added to each margin it found. The sheets must be read by a
recogniser that never saw the tune split (``BOGGLE_CV_WORD_READER`` and
``BOGGLE_CV_WORD_HEAD`` naming files trained with ``--splits train``,
models/README.md): the shipped files saw it in training, and their ink fits the tune
words better than a new writer's, so margins fitted on their readings are too narrow
for new writers and ask too much.

usage: BOGGLE_CV_WORD_READER=TRAIN/word_reader.onnx BOGGLE_CV_WORD_HEAD=TRAIN/word_head.npz \
       python -m boggle_cv.train.word_board SHEETS [SHEETS ...] [--records CACHE.pkl ...]
           [--out models/word_doubt.json] [--words ../shared/words/enable2k.txt]
(SHEETS: folders made by ../shared/tools/compose_sheets.py from `scripts/eval_sheets.py
test-crops --split tune` crops; CACHE keeps the records so that a refit skips reading,
one a folder; --out writes the rule into that calibration file, the rest of it unchanged.)
"""
from __future__ import annotations

import argparse
import json
import pickle
import random
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]

#: Boards each sheet is read against (module doc).
KINDS = ("plain", "offboard", "dice")
#: The share of a sheet's words left off the "offboard" board.
OFF_SHARE = 0.5


@dataclass
class Record:
    """One word a sheet kept, as the board check received it: the board kind, the
    sheet and its set, the word written there (None when the alignment found none)
    and the sheet's words, the board's words, the lexicon's reading, the first view's
    (T, 27) frames and the open reading (None for a reading with no word)."""

    kind: str
    sheet: str
    set: str
    truth: str | None
    truths: tuple[str, ...]
    on_board: frozenset[str]
    reading: Any
    view: np.ndarray
    opened: Any


def _boards(words: list[str], k: int, pool: list[str], pool_set: set[str], rng: random.Random,
            dictionary: Any) -> dict[str, tuple[list[str], set[str]]]:
    """kind -> (lexicon, board words) for one sheet (module doc)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from sheet_taps import offboard_board, simulated_board

    from boggle_cv.game.dice import roll
    from boggle_cv.game.sheet_lexicon import sheet_lexicon
    out: dict[str, tuple[list[str], set[str]]] = {}
    on, lexicon = simulated_board(words, pool, pool_set, rng)
    out["plain"] = (lexicon, set(on))
    on, lexicon, _ = offboard_board([words], OFF_SHARE, pool, pool_set, rng)
    out["offboard"] = (lexicon, set(on))
    board = roll("modern-4" if k % 2 == 0 else "big-1979", seed=9100 + k)
    lex = sheet_lexicon(board, dictionary)
    out["dice"] = (list(lex.words), set(lex.board_words))
    return out


def align(readings: list[tuple[set[str], str]], truth: list[str]) -> list[str | None]:
    """The written word at each reading's place: a sheet's readings (each: the words it
    may be, its free reading) and its words as written, both in writing order, aligned
    by dynamic programming (a reading that holds the word costs 0, else its free
    reading's edits per letter, twice; a reading or a word left out costs 1). None
    where a reading matches no word."""
    from boggle_cv.vision.handwriting.reading import edit_distance

    def cost(i: int, j: int) -> float:
        cands, free = readings[i]
        if truth[j] in cands:
            return 0.0
        return min(1.5, 2 * edit_distance(free, truth[j]) / max(len(truth[j]), 1))
    n, m = len(readings), len(truth)
    best = np.zeros((n + 1, m + 1))
    best[:, 0], best[0, :] = np.arange(n + 1), np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            best[i, j] = min(best[i - 1, j - 1] + cost(i - 1, j - 1), best[i - 1, j] + 1, best[i, j - 1] + 1)
    out: list[str | None] = [None] * n
    i, j = n, m
    while i > 0 and j > 0:
        c = cost(i - 1, j - 1)
        if best[i, j] == best[i - 1, j - 1] + c:
            out[i - 1] = truth[j - 1] if c < 1.0 else None
            i, j = i - 1, j - 1
        elif best[i, j] == best[i - 1, j] + 1:
            i -= 1
        else:
            j -= 1
    return out


class _Recorder:
    """Hooks the reader's board check and the sheet's last step: each check's inputs
    (the reading, the first view, the open reading) and the readings the sheet kept."""

    def __init__(self) -> None:
        from boggle_cv.vision.handwriting import reading
        from boggle_cv.vision.sheet import read as sheet_read
        self.calls: list[tuple[Any, np.ndarray, Any, Any]] = []
        self.kept: list[Any] = []
        inner, split = reading.ink_decides, sheet_read._split_merged

        def ink_decides(r: Any, views: Any, dictionary: Any, lang: str, on_board: Any = frozenset()) -> Any:
            opened = reading.read_against_dictionary(views, dictionary, lang) if r.word else None
            out = inner(r, views, dictionary, lang, on_board)
            self.calls.append((r, np.asarray(views[0], np.float32), opened, out))
            return out

        def split_merged(*args: Any, **kwargs: Any) -> Any:
            boxes, readings = split(*args, **kwargs)
            self.kept = list(readings)
            return boxes, readings
        reading.ink_decides = ink_decides  # type: ignore[assignment]
        sheet_read._split_merged = split_merged  # type: ignore[assignment]

    def records(self, kind: str, sheet: str, set_: str, truths: list[str], on_board: frozenset[str],
                crossed: list[bool]) -> list[Record]:
        """The records of the sheet just read (its kept readings matched to the checks
        that made them, crossed-out words left out), aligned with what was written."""
        used: set[int] = set()
        rows: list[tuple[Any, np.ndarray, Any]] = []
        for out, struck in zip(self.kept, crossed):
            k = next((k for k, c in enumerate(self.calls) if k not in used and c[3] is out), None)
            if k is None:
                k = next((k for k, c in enumerate(self.calls) if k not in used
                          and (c[3].word, c[3].free) == (out.word, out.free)), None)
            if k is None or struck:
                continue
            used.add(k)
            rows.append(self.calls[k][:3])
        may_be = [({r.word, r.free, *(w for w, _ in r.alternatives)}
                   | ({opened.word, *(w for w, _ in opened.alternatives)} if opened is not None else set()), r.free)
                  for r, _, opened in rows]
        truth = align(may_be, truths)
        return [Record(kind, sheet, set_, t, tuple(truths), on_board, r, view, opened)
                for (r, view, opened), t in zip(rows, truth)]


def read_records(folders: list[Path], words_file: Path, keep_in: list[Path] | None = None) -> list[Record]:
    """Every word of every sheet of `folders` under each board (module doc); `keep_in`:
    one pickle a folder, written after each sheet."""
    from boggle_cv.game.dictionary import load_default
    from boggle_cv.vision.sheet import read_sheet
    sys.path.insert(0, str(ROOT / "scripts"))
    from eval_sheets import fold

    recorder = _Recorder()
    dictionary = load_default()
    pool = [w.strip() for w in words_file.open() if 3 <= len(w.strip()) <= 10]
    pool_set = set(pool)
    records: list[Record] = []
    for n, folder in enumerate(folders):
        mine: list[Record] = []
        truth = json.loads((folder / "truth.json").read_text())
        rng = random.Random(1205)
        for k, name in enumerate(sorted(truth)):
            words = [fold(w) for w in truth[name]["words"]]
            for kind, (lexicon, on) in _boards(words, k, pool, pool_set, rng, dictionary).items():
                recorder.calls.clear()
                try:
                    sheet = read_sheet(str(folder / name), lexicon, board_words=on)
                except Exception as e:  # a refusal: nothing read, nothing to learn
                    print(f"{folder.name}/{name}: {type(e).__name__}: {e}", flush=True)
                    continue
                mine += recorder.records(kind, f"{folder.name}/{name}", str(truth[name]["set"]), words,
                                         frozenset(on), [w.crossed_out for w in sheet.words])
            print(f"{folder.name}/{name}: {len(mine)} records", flush=True)
            if keep_in is not None:
                keep_in[n].write_bytes(pickle.dumps(mine))
        records += mine
    return records


@dataclass
class Tally:
    """What a rule does to the records of one kind (module doc); `taps`: questions a
    sheet, by set."""

    words: int = 0
    right: int = 0
    asked: int = 0
    offered: int = 0
    invented: int = 0
    missed: int = 0
    taps: dict[str, Counter[str]] = field(default_factory=dict)

    def median_taps(self, set_: str) -> float:
        counts = self.taps.get(set_)
        return float(statistics.median(counts.values())) if counts else 0.0


def checks(records: list[Record]) -> list[Any]:
    """Each record's BoardCheck (board_check.weigh: the same for every rule); None for
    a reading the check leaves alone (no word, or its own free reading off the board)."""
    from boggle_cv.game.dictionary import load_default
    from boggle_cv.vision.handwriting import board_check
    dictionary = load_default()
    out: list[Any] = []
    for rec in records:
        r = rec.reading
        if not r.word or (r.word == r.free and r.word not in rec.on_board):
            out.append(None)
            continue
        opened = None if r.word == r.free else rec.opened
        out.append(board_check.weigh(r, opened, rec.view, dictionary, rec.on_board))
    return out


def outcome(rec: Record, check: Any, rule: Any, top: int = 5) -> tuple[str, bool, tuple[str, ...]]:
    """The word that stands, whether it is asked about and the question's options."""
    from boggle_cv.game.sheet_doubts import word_options
    from boggle_cv.vision.handwriting import board_check
    r = rec.reading
    if check is not None:
        opened = None if r.word == r.free else rec.opened
        r = board_check.decide(r, opened, check, rule, top)
    word = r.word or r.free
    options = tuple(w for w, _ in word_options(word, r.alternatives, (r.written or r.free, r.free)) if w)
    asked = bool(r.flagged) and any(w in rec.on_board for w in (word, *options))
    return word, asked, options


def play(records: list[Record], found: list[Any], rule: Any,
         seen: dict[tuple[Any, ...], tuple[str, bool, tuple[str, ...]]] | None = None) -> dict[str, Tally]:
    """Each kind's Tally under `rule` (module doc). `seen`: outcomes kept across rules
    (a record's outcome depends on the rule only through its check's outcome and the
    board words it may offer)."""
    out = {k: Tally() for k in KINDS}
    for i, (rec, check) in enumerate(zip(records, found)):
        t = out[rec.kind]
        key = (i,) if check is None else (i, check.outcome(rule), check.offered(rule))
        if seen is not None and key in seen:
            word, asked, options = seen[key]
        else:
            word, asked, options = outcome(rec, check, rule)
            if seen is not None:
                seen[key] = (word, asked, options)
        true = rec.truth
        t.words += 1
        t.right += word == true
        t.asked += asked
        t.offered += asked and any(o in rec.truths for o in options)
        t.taps.setdefault(rec.set, Counter())[rec.sheet] += asked
        t.invented += word in rec.on_board and word not in rec.truths and not asked
        t.missed += true is not None and true in rec.on_board and word != true and not (asked and true in options)
    return out


def grid() -> list[Any]:
    """The rules tried: margins and gaps in half nats."""
    from boggle_cv.vision.handwriting.board_check import BoardRule
    return [BoardRule(float(w), float(o), float(g)) for w in np.arange(0.0, 8.01, 0.5)
            for o in np.arange(-6.0, 4.01, 0.5) for g in np.arange(2.0, 10.01, 1.0)]


def cost(tallies: dict[str, Tally], typed_cost: float) -> float:
    """The players' taps a rule costs over every board: its questions, and each written
    board word it misses at `typed_cost` (module doc)."""
    return sum(t.asked + typed_cost * t.missed for t in tallies.values())


def choose(records: list[Record], found: list[Any], invented_per_1000: float, typed_cost: float) -> Any:
    """The rule of the grid that costs fewest taps (`cost`) among those that invent at
    most `invented_per_1000` words a thousand read (module doc); ties go to the wider
    margins, then the wider offer gap."""
    best: tuple[Any, ...] | None = None
    seen: dict[tuple[Any, ...], tuple[str, bool, tuple[str, ...]]] = {}
    for rule in grid():
        tallies = play(records, found, rule, seen)
        words = sum(t.words for t in tallies.values())
        if sum(t.invented for t in tallies.values()) > invented_per_1000 * words / 1000:
            continue
        key = (cost(tallies, typed_cost), -rule.word_margin, -rule.other_margin, -rule.offer_gap)
        if best is None or key < best[0]:
            best = (key, rule)
    if best is None:
        raise SystemExit("no rule of the grid invents so few words: widen it")
    return best[1]


def report(records: list[Record], found: list[Any], rule: Any) -> None:
    for kind, t in play(records, found, rule).items():
        taps = ", ".join(f"{s} {t.median_taps(s):g}" for s in sorted(t.taps))
        print(f"  {kind}: words {t.words}, right {t.right}, asked {t.asked} (written word offered in "
              f"{t.offered}), invented {t.invented}, missed {t.missed}; questions a sheet, median: {taps}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sheets", type=Path, nargs="+")
    ap.add_argument("--out", type=Path, help="the calibration file to write the rule into")
    ap.add_argument("--words", type=Path, default=ROOT.parent / "shared" / "words" / "enable2k.txt")
    ap.add_argument("--records", type=Path, nargs="+",
                    help="pickles of the records, one a folder: made when missing (written as the sheets are "
                         "read), reused when there")
    ap.add_argument("--invented-per-1000", type=float, default=1.0,
                    help="the most board words not written a rule may accept unasked, per 1,000 words read")
    ap.add_argument("--typed-cost", type=float, default=5.0,
                    help="taps a written board word missed costs (typed, or a wrong score; a question is 1)")
    ap.add_argument("--safety", type=float, default=0.0, help="nats added to each margin found (default 0)")
    a = ap.parse_args(argv)
    if a.records and len(a.records) != len(a.sheets):
        ap.error("give one --records file a folder of sheets")
    if a.out and not a.out.is_file():
        ap.error(f"--out {a.out}: no such calibration file (the rule is written into one: models/word_doubt.json, "
                 "or a copy of it)")
    if a.records and all(p.is_file() for p in a.records):
        records = [r for p in a.records for r in pickle.loads(p.read_bytes())]
    else:
        records = read_records(a.sheets, a.words, a.records)
    found = checks(records)
    fitted = choose(records, found, a.invented_per_1000, a.typed_cost)
    rule = replace(fitted, word_margin=fitted.word_margin + a.safety, other_margin=fitted.other_margin + a.safety)
    print(f"{len(records)} words; fitted {fitted}:")
    report(records, found, fitted)
    print(f"with {a.safety:g} nats of safety, {rule}:")
    report(records, found, rule)
    if a.out:
        from boggle_cv.vision.handwriting import doubt
        cal = doubt.Calibration.from_dict(json.loads(a.out.read_text()))
        doubt.write(a.out, replace(cal, board=rule))
        print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
