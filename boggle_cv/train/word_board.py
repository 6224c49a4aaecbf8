"""Fit when a board lexicon's word stands against what the ink says without the board
(``vision/handwriting/board_check.py``: the gaps ``keep_gap`` and ``ask_gap``, shipped in
``models/word_doubt.json`` under "board").

Sheets composed from the tune split of ../shared/handwriting-public (never the test
split the measures use) are read by ``read_sheet`` as at run time, each against three
boards: one that holds its words but a tenth (scripts/sheet_taps.py's
``simulated_board``, the plain game), one that leaves half of them off, half of those
with a word one edit away on the board in their place (``offboard_board``, the
off-board game), and one shaken from the project's cubes (few of its words on it, as
../shared/tools/eval_offboard.py deals). Every lexicon reading is kept while reading
(a rule that keeps all), and its check recorded: the lexicon word, the open reading,
the gap, both readings' flags and alternatives. Each rule of a grid of gaps is then
played over the records: a word asked about when it is flagged and an option of it
changes its points (it or an alternative is on the board), and counted

  invented   a board word not written, not asked (points for no one's ink)
  missed     a written board word read as another word and not offered in a question
  asked      questions
  right      words read as written

The rule shipped is the one that invents the fewest board words, then asks the fewest
questions, among those that miss at most ``--missed-per-1000`` written board words per
1,000 words read, over all three boards. A word kept that the calibration finds
doubtful is asked with the open word first, as the reader does.

usage: python -m boggle_cv.train.word_board SHEETS [SHEETS ...] [--records CACHE.pkl]
           [--out models/word_doubt.json] [--words ../shared/words/enable2k.txt]
(SHEETS: folders made by ../shared/tools/compose_sheets.py from `scripts/eval_sheets.py
test-crops --split tune` crops; CACHE keeps the records so that a refit skips reading;
--out writes the rule into that calibration file, the rest of it unchanged.)
"""
from __future__ import annotations

import argparse
import json
import pickle
import random
import sys
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

#: Boards each sheet is read against (module doc).
KINDS = ("plain", "offboard", "dice")
#: The share of a sheet's words left off the "offboard" board.
OFF_SHARE = 0.5


@dataclass(frozen=True)
class Record:
    """One lexicon reading checked: the board kind, the sheet, the lexicon word and the
    open word with their flags and alternatives' words, the gap (nats; None when the
    lexicon word was its own free reading: nothing to check), which words are on the
    board, and the sheet's words as written."""

    kind: str
    sheet: str
    lexicon_word: str
    lexicon_flagged: bool
    lexicon_alts: tuple[str, ...]
    open_word: str
    open_flagged: bool
    open_alts: tuple[str, ...]
    gap: float | None
    on_board: frozenset[str]
    truth: tuple[str, ...]
    #: log P(word | ink) of the lexicon word, the open word and the free reading (nats)
    lls: tuple[float, float, float] | None = None


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


def read_records(folders: list[Path], words_file: Path, keep_in: Path | None = None) -> list[Record]:
    """Every lexicon reading of every sheet of `folders` under each board (module doc);
    `keep_in`: a pickle of the records so far, written after each sheet."""
    from boggle_cv.game.dictionary import load_default
    from boggle_cv.vision.handwriting import board_check, reading
    from boggle_cv.vision.sheet import read_sheet
    sys.path.insert(0, str(ROOT / "scripts"))
    from eval_sheets import fold

    keep_all = board_check.BoardRule(float("inf"), float("inf"))
    seen: list[tuple[Any, Any, Any]] = []

    def recording(r: Any, views: Any, dictionary: Any, lang: str, on_board: Any = frozenset()) -> Any:
        if not r.word or r.word == r.free:
            seen.append((r, None, None))
            return replace(r, written=r.free)
        opened = reading.read_against_dictionary(views, dictionary, lang)
        c = board_check.check(r.word, opened.word or opened.free, r.free, views[0], keep_all)
        seen.append((r, opened, c))
        return replace(r, written=opened.word or opened.free)  # the board reading as it is: matched below

    reading.ink_decides = recording  # type: ignore[assignment]
    dictionary = load_default()
    pool = [w.strip() for w in words_file.open() if 3 <= len(w.strip()) <= 10]
    pool_set = set(pool)
    records: list[Record] = []
    for folder in folders:
        truth = json.loads((folder / "truth.json").read_text())
        rng = random.Random(1205)
        for k, name in enumerate(sorted(truth)):
            words = [fold(w) for w in truth[name]["words"]]
            for kind, (lexicon, on) in _boards(words, k, pool, pool_set, rng, dictionary).items():
                seen.clear()
                try:
                    sheet = read_sheet(str(folder / name), lexicon, board_words=on)
                except Exception as e:  # a refusal: nothing read, nothing to learn
                    print(f"{folder.name}/{name}: {type(e).__name__}: {e}", flush=True)
                    continue
                final = Counter((w.word, w.free) for w in sheet.words if not w.crossed_out)
                for r, opened, c in seen:
                    if final[(r.word, r.free)] <= 0:
                        continue  # a piece or a join the sheet did not keep
                    final[(r.word, r.free)] -= 1
                    records.append(Record(
                        kind, f"{folder.name}/{name}", r.word, bool(r.flagged), tuple(a for a, _ in r.alternatives),
                        (opened.word or opened.free) if opened is not None else r.word,
                        bool(opened.flagged) if opened is not None else bool(r.flagged),
                        tuple(a for a, _ in opened.alternatives) if opened is not None else (),
                        c.gap if c is not None else None, frozenset(on), tuple(words),
                        (c.lexicon_ll, c.open_ll, c.free_ll) if c is not None else None))
            print(f"{folder.name}/{name}: {len(records)} records", flush=True)
            if keep_in is not None:
                keep_in.write_bytes(pickle.dumps(records))
    return records


@dataclass
class Tally:
    """What a rule does to the records of one kind (module doc)."""

    words: int = 0
    right: int = 0
    asked: int = 0
    invented: int = 0
    missed: int = 0


def true_words(records: list[Record]) -> list[str | None]:
    """The word the player wrote for each record, as far as the readings tell (a
    sheet's words are a multiset without places, each claimed once under each board):
    the records surest of their lexicon word first (no gap, then the smallest), each
    claims its lexicon word, else its open word, else the first of their alternatives
    that the sheet still holds; None when none is left."""
    left: dict[tuple[str, str], Counter[str]] = {}
    out: list[str | None] = [None] * len(records)
    order = sorted(range(len(records)), key=lambda i: -1e9 if records[i].gap is None else records[i].gap)
    for i in order:
        r = records[i]
        want = left.setdefault((r.kind, r.sheet), Counter(r.truth))
        for w in (r.lexicon_word, r.open_word, *r.lexicon_alts, *r.open_alts):
            if want[w] > 0:
                want[w] -= 1
                out[i] = w
                break
    return out


def play(records: list[Record], keep_gap: float, ask_gap: float) -> dict[str, Tally]:
    """Each kind's Tally under the rule (keep_gap, ask_gap)."""
    out = {k: Tally() for k in KINDS}
    for r, true in zip(records, true_words(records)):
        t = out[r.kind]
        t.words += 1
        kept = r.gap is None or r.lexicon_word == r.open_word or r.gap <= keep_gap
        if kept and not (r.lexicon_flagged and r.lexicon_word != r.open_word):
            word, flagged, options = r.lexicon_word, r.lexicon_flagged, (*r.lexicon_alts[:4], r.open_word)
        elif kept or r.gap <= ask_gap:
            word, flagged, options = r.open_word, True, (r.open_word, *r.open_alts[:2], *r.lexicon_alts[:2])
        else:
            word, flagged, options = r.open_word, r.open_flagged, (r.open_word, *r.open_alts[:4])
        asked = flagged and (word in r.on_board or any(o in r.on_board for o in options))
        t.asked += asked
        t.right += word == true
        t.invented += word in r.on_board and word not in r.truth and not asked
        t.missed += true is not None and true in r.on_board and word != true and not (asked and true in options)
    return out


def choose(records: list[Record], missed_per_1000: float) -> tuple[float, float]:
    """The rule that invents the fewest board words, then asks the fewest questions,
    among those that miss at most `missed_per_1000` written board words per 1,000
    (module doc); ties go to the smaller gaps."""
    def total(tallies: dict[str, Tally], what: str) -> int:
        return sum(int(getattr(t, what)) for t in tallies.values())
    grid = [float(x) for x in range(0, 41)]
    best: tuple[int, int, float, float] | None = None
    for keep in grid:
        for ask in [a for a in grid if a >= keep]:
            tallies = play(records, keep, ask)
            if total(tallies, "missed") > missed_per_1000 * total(tallies, "words") / 1000:
                continue
            key = (total(tallies, "invented"), total(tallies, "asked"), keep, ask)
            if best is None or key < best:
                best = key
    if best is None:
        raise SystemExit("no rule of the grid misses so few words: widen it")
    return best[2], best[3]


def report(records: list[Record], keep: float, ask: float) -> None:
    for kind, t in play(records, keep, ask).items():
        print(f"  {kind}: words {t.words}, right {t.right}, asked {t.asked}, invented {t.invented}, missed {t.missed}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sheets", type=Path, nargs="+")
    ap.add_argument("--out", type=Path, help="the calibration file to write the rule into")
    ap.add_argument("--words", type=Path, default=ROOT.parent / "shared" / "words" / "enable2k.txt")
    ap.add_argument("--records", type=Path, nargs="+",
                    help="pickles of the records: made when missing (written as the sheets are read), reused when there")
    ap.add_argument("--missed-per-1000", type=float, default=0.5)
    a = ap.parse_args()
    if a.records and all(p.is_file() for p in a.records):
        records = [r for p in a.records for r in pickle.loads(p.read_bytes())]
    else:
        records = read_records(a.sheets, a.words, a.records[0] if a.records else None)
    keep, ask = choose(records, a.missed_per_1000)
    print(f"{len(records)} readings; keep_gap {keep}, ask_gap {ask}:")
    report(records, keep, ask)
    print("keeping every lexicon word (no gap; a doubtful one still asked with the open word first):")
    report(records, float("inf"), float("inf"))
    if a.out:
        from boggle_cv.vision.handwriting import doubt
        from boggle_cv.vision.handwriting.board_check import BoardRule
        cal = doubt.Calibration.from_dict(json.loads(a.out.read_text()))
        doubt.write(a.out, replace(cal, board=BoardRule(keep, ask)))
        print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
