"""The doubts of players' lists: a sheet's words read (each doubtful word with its
alternatives, each crossed-out line that may be a word) and the room's marked words,
as the entries and WordDoubts that questions.decide weighs.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .folding import fold_word
from .questions import MIN_P, Option, WordDoubt, considered


#: A crossed-out line's chance of being struck out indeed (a word not meant), for its
#: doubt: the other option, the word, is kept in view (it changes a score if it counts).
P_STRUCK = 0.9
#: Alternatives of a doubtful sheet word considered (the reading first): as many as the
#: room and `scan --sheet` offer (room.sheets.MAX_ALTERNATIVES).
SHEET_ALTERNATIVES = 5
#: A doubtful sheet word's chance of being none of its alternatives (another word, or
#: no word at all): its doubt's "" option, so that a reading that scores is asked even
#: when every alternative scores the same. 7 of 158 doubtful readings of 40 composed
#: sheets (scripts/sheet_taps.py --board, test split) were none of their five.
P_OTHER = 0.04
#: The least probability a doubtful sheet word's written reading holds among its
#: options (what the ink says without the board: the reading's `written`, else its
#: `free`), so that a question always offers it ("as written: methods"), whatever the
#: lexicon made of it.
P_WRITTEN = 0.02


def _field(item: Any, name: str) -> Any:
    return item.get(name) if isinstance(item, Mapping) else getattr(item, name)


def as_written(item: Any) -> str:
    """What a sheet word's ink says without the board (a SheetWord or its to_dict()):
    its `written` reading where the board was known, else its free reading ('' when
    neither is there)."""
    if isinstance(item, Mapping):
        return str(item.get("written") or item.get("free") or "")
    return str(getattr(item, "written", "") or getattr(item, "free", "") or "")


def word_options(word: str, alternatives: Iterable[Any], written: Iterable[str],
                 min_p: float = MIN_P) -> tuple[Option, ...]:
    """A doubtful sheet word's options, the reading first: its alternatives (the first
    SHEET_ALTERNATIVES), what was written (`written`: the open reading and the free
    one, each at least P_WRITTEN: always offered), and "" for none of them (P_OTHER)."""
    alts = [(str(a[0]), float(a[1])) for a in alternatives or () if a and a[0]]
    p_word = next((p for a, p in alts if a == word), 0.0)
    offered = [(word, p_word), *((a, p) for a, p in alts[:SHEET_ALTERNATIVES] if a != word)]
    as_written = list(dict.fromkeys(w for w in written if w))
    offered += [(w, P_WRITTEN) for w in as_written if w not in {a for a, _ in offered}]
    options = considered(offered, min_p)
    options += tuple((w, min_p) for w in as_written if w not in {a for a, _ in options})  # a floor under min_p's cut
    return (*options, ("", P_OTHER))


def sheet_entries(player: str, read: Iterable[Any], start: int = 0,
                  min_p: float = MIN_P) -> tuple[list[str], list[WordDoubt]]:
    """A sheet's words (SheetWords or their to_dict()) as list entries and doubts:
    each word read (the free reading where no lexicon word was found), a crossed-out
    one as "" with a "crossed" doubt, a flagged one with its alternatives and its
    written reading as a "word" doubt (word_options); `start`: where the sheet's
    entries begin in the player's list."""
    entries: list[str] = []
    doubts: list[WordDoubt] = []
    for source, item in enumerate(read):
        word = str(_field(item, "word") or _field(item, "free") or "")
        if not word:
            continue
        at = start + len(entries)
        if _field(item, "crossed_out"):
            entries.append("")
            doubts.append(WordDoubt(player, at, (("", P_STRUCK), (word, 1 - P_STRUCK)), "crossed", source))
            continue
        entries.append(word)
        if _field(item, "flagged"):
            free = _field(item, "free") if not isinstance(item, Mapping) else item.get("free")
            options = word_options(word, _field(item, "alternatives"), (as_written(item), str(free or "")), min_p)
            doubts.append(WordDoubt(player, at, options, "word", source))
    return entries, doubts


def append_sheet(words: Sequence[str], player: str, read: Iterable[Any],
                 lang: str = "en") -> tuple[list[str], list[WordDoubt]]:
    """`words` with a sheet's entries (sheet_entries) after them, and their doubts: a
    word already in the list is not added again unless it is doubtful (its doubt keeps
    its place)."""
    entries, doubts = sheet_entries(player, read)
    at = {d.index: d for d in doubts}
    out, seen, kept = list(words), {fold_word(w, lang) for w in words}, []
    for i, entry in enumerate(entries):
        if i not in at and fold_word(entry, lang) in seen:
            continue
        if i in at:
            kept.append(dataclasses.replace(at[i], index=len(out)))
        out.append(entry)
        seen.add(fold_word(entry, lang))
    return out, kept


def marked_doubts(lists: Mapping[str, Sequence[str]], marks: Mapping[str, Mapping[str, Sequence[Option]]],
                  min_p: float = MIN_P) -> list[WordDoubt]:
    """The doubts of lists whose doubtful words are marked with their alternatives
    (the room's: player -> {word: [(word, p), ...]}), one per marked word in its list."""
    out = []
    for name, words in lists.items():
        marked = {w.casefold(): alts for w, alts in marks.get(name, {}).items()}
        for i, w in enumerate(words):
            alts = marked.get(w.casefold())
            if alts is not None:
                p_word = next((float(p) for a, p in alts if str(a).casefold() == w.casefold()), 0.0)
                others = [(str(a), float(p)) for a, p in alts if str(a).casefold() != w.casefold()]
                out.append(WordDoubt(name, i, (*considered([(w, p_word), *others], min_p), ("", P_OTHER))))
    return out
