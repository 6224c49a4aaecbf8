#!/usr/bin/env python3
"""What the referee asks a table of paper players, and what it lets through: the taps,
the words typed, the scores and the words shown wrong, for games made of the sheets of
a folder made by ../shared/tools/compose_sheets.py.

    python scripts/game_taps.py SHEETS [--players 4] [--offboard F] [--boards K] [--words ENABLE]
        [--save READINGS.json] [--load READINGS.json]

The sheets (in name order, each set apart: a game is one hand) are grouped into games
of --players players. Each game gets a board as `sheet_taps.py --board` simulates one
(sheet_taps.simulated_board over the players' words together: their words but a
tenth, a fifth of their dictionary neighbours, random words to 110; a word's points by
its length, a 4x4 board's standard table); with --offboard F, a share F of each
player's words is not on it, half of those near-words with a word one edit away on
the board in their place, half words of no board path (sheet_taps.offboard_board; the
lexicon is then the board's, with no written word added to it). With --boards K every
game is dealt K boards, one after another (40 sheets, K = 5: 200 player-rounds).
Every sheet is read against the board's lexicon, the board's words weighed up. Then
the referee decides (questions.decide, over every player's doubtful words at once),
and each question it asks is answered with the truth, one at a time, the referee
deciding again after each:

  a word asked about                the true word among its alternatives (the reading
                                    first), or "no word" (a word of the sheet it was
                                    misread from is typed below)
  a crossed-out line asked about    the word, if the player wrote it, else left out
  a true word the list lacks then   typed (as sheet_taps counts it)

Each question is a tap of its player. A player's score that differs from the score of
their true words (the same board, crossing off across the game) is a score error; a
word of a list the referee did not ask about that its player did not write (a
confident error, a settled doubt read wrong) is a display error, and an invented word
when it is a word of the board (points for no one's ink).

Last line, exactly: `game taps: median T a sheet (print P max PM, scrawl S max SM),
typed N in K sheets, score errors E in M player-rounds, display errors D, invented I
in W written words`.
--save writes the readings (each sheet's SheetReading.to_dict(), read against its
game's board) so that --load can count them again without reading.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from boggle_cv.game.board import Board  # noqa: E402
from boggle_cv.game.questions import RoundDoubts, WordDoubt, decide  # noqa: E402
from boggle_cv.game.sheet_doubts import sheet_entries  # noqa: E402
from boggle_cv.game.scoring import Rules, table_points  # noqa: E402

#: The simulated boards' rules: a 4x4 board's standard table (points by length).
RULES = Rules(size=4)
#: A board for the referee's record: the simulated board is its words alone.
BLANK = Board.parse("ABCD/EFGH/IJKL/MNOP")


@dataclass
class PlayerRound:
    """One sheet in its game: taps (questions asked), words typed, words shown wrong
    (not asked, not written), and its score against the truth's."""

    name: str
    set: str
    taps: int = 0
    typed: int = 0
    shown_wrong: int = 0
    invented: int = 0
    written: int = 0
    score: int = 0
    true_score: int = 0


def scores(lists: Mapping[str, Sequence[str]], table: Mapping[str, int]) -> dict[str, int]:
    """Each player's points: a word of the board counts once a list, off every list
    that another list has too (crossed off)."""
    firsts = {n: {w for w in ws if w in table} for n, ws in lists.items()}
    by = Counter(w for ws in firsts.values() for w in ws)
    return {n: sum(table[w] for w in ws if by[w] == 1) for n, ws in firsts.items()}


def games(names: Sequence[str], sets: Mapping[str, str], players: int) -> list[list[str]]:
    """The sheets in name order, each set apart, in games of `players` (the last of a set smaller)."""
    out: list[list[str]] = []
    for s in sorted(set(sets.values())):
        mine = [n for n in sorted(names) if sets[n] == s]
        out += [mine[i:i + players] for i in range(0, len(mine), players)]
    return out


def play(truth: Mapping[str, list[str]], readings: Mapping[str, Iterable[Any]], table: Mapping[str, int],
         sets: Mapping[str, str]) -> list[PlayerRound]:
    """One game settled as the module doc says: each player's PlayerRound."""
    lists: dict[str, list[str]] = {}
    doubts: list[WordDoubt] = []
    for name, read in readings.items():
        lists[name], mine = sheet_entries(name, read)
        doubts += mine
    want = {n: Counter(ws) for n, ws in truth.items()}
    doubtful = {(d.player, d.index) for d in doubts}
    for name, entries in lists.items():  # the words not in doubt claim their truth first
        for i, w in enumerate(entries):
            if (name, i) not in doubtful and want[name][w] > 0:
                want[name][w] -= 1
    rounds = {n: PlayerRound(n, sets[n]) for n in lists}
    asked: set[tuple[str, int]] = set()
    state = RoundDoubts(BLANK, RULES, lists, (), tuple(doubts))
    while True:
        decision = decide(state, table=table)
        if not decision.questions:
            break
        d = decision.questions[0].doubt
        assert isinstance(d, WordDoubt)
        value = next((v for v, _ in d.options if v and want[d.player][v] > 0), "")
        if value:
            want[d.player][value] -= 1
        rounds[d.player].taps += 1
        asked.add((d.player, d.index))
        state = state.answered(d.key, value)
    for d in state.words:  # settled: they stand as read
        if d.options[0][0] and want[d.player][d.options[0][0]] > 0:
            want[d.player][d.options[0][0]] -= 1
    final: dict[str, list[str]] = {}
    for name, entries in state.lists.items():
        written = Counter(truth[name])
        rounds[name].written = len(truth[name])
        for i, w in enumerate(entries):
            if w and (name, i) not in asked and written[w] == 0:
                rounds[name].shown_wrong += 1
                rounds[name].invented += w in table
        typed = list(want[name].elements())
        rounds[name].typed = len(typed)
        final[name] = [w for w in entries if w] + typed
    got, true = scores(final, table), scores(truth, table)
    for name, r in rounds.items():
        r.score, r.true_score = got[name], true[name]
    return list(rounds.values())


def summary(rounds: Sequence[PlayerRound]) -> str:
    """The last line (module doc)."""
    def taps(s: str) -> list[int]:
        return [r.taps for r in rounds if r.set == s] or [0]
    print_, scrawl = taps("dhsd"), taps("jeremy-words")
    errors = sum(r.score != r.true_score for r in rounds)
    return (f"game taps: median {statistics.median([r.taps for r in rounds]):g} a sheet "
            f"(print {statistics.median(print_):g} max {max(print_)}, scrawl {statistics.median(scrawl):g} "
            f"max {max(scrawl)}), typed {sum(r.typed for r in rounds)} in {len(rounds)} sheets, score errors "
            f"{errors} in {len(rounds)} player-rounds, display errors {sum(r.shown_wrong for r in rounds)}, "
            f"invented {sum(r.invented for r in rounds)} in {sum(r.written for r in rounds)} written words")


def deal(words: Mapping[str, list[str]], offboard: float, pool: list[str], pool_set: set[str],
         rng: random.Random) -> tuple[list[str], list[str]]:
    """One game's board (its words) and lexicon: sheet_taps.simulated_board over the
    players' words together, or with `offboard` > 0 sheet_taps.offboard_board (module doc)."""
    from sheet_taps import offboard_board, simulated_board
    if offboard > 0:
        board, lexicon, _ = offboard_board([words[n] for n in sorted(words)], offboard, pool, pool_set, rng)
        return board, lexicon
    return simulated_board(sorted({w for ws in words.values() for w in ws}), pool, pool_set, rng)


def read_game(folder: Path, game: Sequence[str], lexicon: list[str], board: list[str]) -> dict[str, Any]:
    """Each sheet of a game read against its board's lexicon (SheetReading.to_dict());
    a refusal counts as nothing read."""
    from boggle_cv.vision.sheet import read_sheet
    out: dict[str, Any] = {}
    for n in game:
        try:
            out[n] = read_sheet(str(folder / n), lexicon=lexicon, board_words=board).to_dict()
        except Exception as e:  # a refusal counts as nothing read
            print(f"{n}: {type(e).__name__}: {e}")
            out[n] = {"words": []}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path, help="sheet-NNN.jpg and truth.json (compose_sheets.py's)")
    ap.add_argument("--players", type=int, default=4, help="players a game (default 4)")
    ap.add_argument("--offboard", type=float, default=0.0,
                    help="the share of each player's words not on the board (default 0: a tenth, as sheet_taps)")
    ap.add_argument("--boards", type=int, default=1, help="boards dealt to every game (default 1)")
    ap.add_argument("--words", type=Path, default=ROOT.parent / "shared" / "words" / "enable2k.txt",
                    help="the word list boards and lexicons are filled from (the shared tool's)")
    ap.add_argument("--save", type=Path, help="write each sheet's reading here (JSON)")
    ap.add_argument("--load", type=Path, help="count the readings of a --save file instead of reading")
    a = ap.parse_args()
    if a.players < 1 or a.boards < 1:
        ap.error("--players and --boards must be at least 1")
    if not 0.0 <= a.offboard <= 1.0:
        ap.error("--offboard must be between 0 and 1")
    from eval_sheets import fold
    from sheet_taps import SET_NAMES
    truth = json.loads((a.folder / "truth.json").read_text())
    saved: dict[str, Any] = json.loads(a.load.read_text()) if a.load else {}
    pool = [w.strip() for w in a.words.open() if 3 <= len(w.strip()) <= 10]
    pool_set = set(pool)
    rng = random.Random(1204)
    readings: dict[str, Any] = {}
    rounds: list[PlayerRound] = []
    sets = {n: str(t["set"]) for n, t in truth.items()}
    for game in games(list(truth), sets, a.players):
        words = {n: [fold(w) for w in truth[n]["words"]] for n in game}
        for k in range(a.boards):
            board, lexicon = deal(words, a.offboard, pool, pool_set, rng)
            table = {w: table_points(len(w), RULES) for w in board}
            key = {n: n if k == 0 else f"{n}#{k + 1}" for n in game}  # the first board's readings under the sheet's name
            got = ({n: saved.get(key[n], {"words": []}) for n in game} if a.load
                   else read_game(a.folder, game, lexicon, board))
            readings.update({key[n]: got[n] for n in game})
            played = play(words, {n: got[n]["words"] for n in game}, table, sets)
            for r in played:
                print(f"{key[r.name]} ({SET_NAMES.get(r.set, r.set)}): {r.taps} taps, typed {r.typed}, score "
                      f"{r.score} (true {r.true_score}), shown wrong {r.shown_wrong}, invented {r.invented}")
            rounds += played
    if a.save:
        a.save.write_text(json.dumps(readings))
    print(summary(rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
