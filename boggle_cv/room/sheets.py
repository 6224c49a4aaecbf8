"""A sheet photo's words added to a player's list, and the doubtful ones settled.

Pure functions on a list (words as saved, in order) and its doubtful marks (word ->
alternatives [(word, p), ...] best first); the service (service.add_sheet,
service.settle_word) calls them inside the room's transaction. The rules:

  * never lose a word: the words read are added after the list, never in its place;
  * a word already in the list (any case or width) is not added again, nor a word
    twice from one sheet; a word its writer crossed out is not added;
  * a doubtful (flagged) word is added and marked with its alternatives until the
    player (or the host) confirms it, picks an alternative, types it or drops it;
  * a mark whose word leaves the list (typed away) goes with it (`prune`);
  * the handwriting of each word added (an image id, `Images`) stays with its word:
    a doubtful word replaced by another hands its image on to it (`settled_images`),
    an image whose word leaves the list goes (`keep_images`). An image is at most
    MAX_IMAGE_BYTES, a player's images in one round at most MAX_PLAYER_IMAGE_BYTES
    (the words past that cap are added without one);
  * every word a sheet added is an entry (`SheetEntry`: the word as first read, its
    open reading as written, who confirmed or typed it); a person may type over an
    entry or drop it (`correct`), and it is then theirs: never read again;
  * an entry still the reader's, read again from its image against a new board's
    lexicon (`reread`), takes the new reading's best word in its place when that word
    is not in the list yet (a doubtful word stays doubtful, with the new alternatives;
    a sure one becomes doubtful when the new reading is flagged); a word settled,
    typed over, typed away or changed since the reading started is left as it is.

One player's tables (marks, images, what each word was read against, entries) travel
together as `SheetWords`, each keyed by the word as it stands in the list.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..game.wordlists import MAX_TOKEN

#: Alternatives kept for a doubtful word (the reading first), and their probability's
#: decimals. Five, not three: on sheets of fast scrawl composed from the tune split,
#: the true word of a misread word was the fourth or fifth for 7 of 19 words that had
#: to be typed with three (scripts/sheet_taps.py).
MAX_ALTERNATIVES = 5
_DECIMALS = 3

Marks = dict[str, list[tuple[str, float]]]
#: word of a list -> the id of its handwriting's image (room.db's room_word_images).
Images = dict[str, str]

#: One word's image, and all of one player's in one round (bytes): a word's WebP is
#: 654 B median, 1,220 B at most, a 28-word sheet 15 KB (scripts/measure_word_images.py
#: on the sample and 10 composed sheets); past the round's cap words come without one.
MAX_IMAGE_BYTES = 4096
MAX_PLAYER_IMAGE_BYTES = 128 * 1024
#: What a stored word image may be, by its first bytes (its content type when served).
MEDIA_TYPES = {b"RIFF": "image/webp", b"\x89PNG": "image/png", b"\xff\xd8\xff": "image/jpeg"}


def media_type(data: bytes) -> str | None:
    """A word image's content type from its first bytes; None for anything else."""
    return next((t for magic, t in MEDIA_TYPES.items() if data.startswith(magic)), None)


def word_key(word: str) -> str:
    """Two spellings are one word when they match after NFKC and case folding
    (the page's merge uses the same rule)."""
    return unicodedata.normalize("NFKC", word).casefold()


@dataclass
class SheetAdded:
    """What one sheet did to a list: the words added (in writing order), those
    already there, those crossed out on the sheet (not added), the doubtful ones
    added (marked) and how many could not be read at all; sources: for each word
    added, its index in the sheet's reading (where its image is); free: for each word
    added, its open reading (as written, "" when there is none)."""

    added: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    crossed_out: list[str] = field(default_factory=list)
    doubtful: list[str] = field(default_factory=list)
    unreadable: int = 0
    sources: list[int] = field(default_factory=list)
    free: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"added": self.added, "already": self.already, "crossed_out": self.crossed_out,
                "doubtful": self.doubtful, "unreadable": self.unreadable}


def _alternatives(word: str, alternatives: Iterable[Sequence[Any]]) -> list[tuple[str, float]]:
    """The reading first, then its runners-up (distinct, non-empty), at most MAX_ALTERNATIVES."""
    out: list[tuple[str, float]] = []
    seen: set[str] = set()
    alts = [(str(a[0]), float(a[1])) for a in alternatives if a and str(a[0])]
    p_word = next((p for a, p in alts if a == word), 0.0)
    for a, p in [(word, p_word), *alts]:
        if word_key(a) in seen:
            continue
        seen.add(word_key(a))
        out.append((a[:MAX_TOKEN], round(min(max(p, 0.0), 1.0), _DECIMALS)))
    return out[:MAX_ALTERNATIVES]


def add_sheet(words: list[str], marks: Marks, read: Iterable[Mapping[str, Any]]) -> tuple[list[str], Marks, SheetAdded]:
    """The list with the sheet's words added after it, its marks with the doubtful
    ones added, and what was done. read: the sheet's words in writing order, each
    {"word", "free", "flagged", "alternatives", "crossed_out"} (SheetWord.to_dict);
    a word with no lexicon reading falls back on its free reading."""
    out, new_marks, done = list(words), dict(marks), SheetAdded()
    have = {word_key(w) for w in out}
    for at, item in enumerate(read):
        text = str(item.get("word") or item.get("free") or "").strip().lower()[:MAX_TOKEN]
        if not text:
            done.unreadable += 1
            continue
        if item.get("crossed_out"):
            done.crossed_out.append(text)
            continue
        if word_key(text) in have:
            done.already.append(text)
            continue
        have.add(word_key(text))
        out.append(text)
        done.added.append(text)
        done.sources.append(at)
        done.free.append(str(item.get("free") or "").strip().lower()[:MAX_TOKEN])
        if item.get("flagged"):
            new_marks[text] = _alternatives(text, item.get("alternatives") or ())
            done.doubtful.append(text)
    return out, new_marks, done


def prune(words: Sequence[str], marks: Marks) -> Marks:
    """The marks whose word is still in the list (a doubtful word typed away is settled)."""
    have = {word_key(w) for w in words}
    return {w: alts for w, alts in marks.items() if word_key(w) in have}


def settle(words: list[str], marks: Marks, word: str, choice: str | None) -> tuple[list[str], Marks]:
    """A doubtful word settled: `choice` equal to it confirms it (kept as it is); another
    word replaces it where it stands (or, when that word is already in the list, it is
    simply dropped: no word twice); None drops it (not a word after all). KeyError when
    `word` is not marked doubtful (settled meanwhile, or never doubtful)."""
    mark = next((w for w in marks if word_key(w) == word_key(word)), None)
    if mark is None:
        raise KeyError(word)
    left = {w: a for w, a in marks.items() if w != mark}
    out = list(words)
    at = next((i for i, w in enumerate(out) if word_key(w) == word_key(mark)), None)
    if choice is not None and word_key(choice) == word_key(mark):
        return out, left
    if at is not None:
        if choice is None or any(word_key(w) == word_key(choice) for w in out):
            del out[at]
        else:
            out[at] = choice
    elif choice is not None and not any(word_key(w) == word_key(choice) for w in out):
        out.append(choice)
    return out, prune(out, left)


def keep_images(words: Sequence[str], images: Images) -> Images:
    """The images whose word is still in the list (in any case or width)."""
    have = {word_key(w) for w in words}
    return {w: i for w, i in images.items() if word_key(w) in have}


def settled_images(images: Images, words: Sequence[str], word: str, choice: str | None) -> Images:
    """The images once `word` was settled as `choice` (settle) and the list is `words`:
    the handwriting of a word replaced by another is that word's now (unless it has
    its own), and an image whose word left the list goes."""
    out = dict(images)
    mine = next((w for w in out if word_key(w) == word_key(word)), None)
    if mine is not None and choice is not None and word_key(choice) != word_key(word):
        if not any(word_key(w) == word_key(choice) for w in out):
            out[choice] = out.pop(mine)
    return keep_images(words, out)


@dataclass(frozen=True)
class SheetEntry:
    """A word a sheet added to a list. read: the word as the sheet was first read;
    free: its open reading, what the ink shows without any lexicon ("" none); by: who
    confirmed or typed it (a player's name, or "host"), None while it is still the
    reader's word (read again when the board becomes known or changes)."""

    read: str
    free: str = ""
    by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"read": self.read, "free": self.free, "by": self.by}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SheetEntry:
        by = d.get("by")
        return cls(str(d.get("read") or ""), str(d.get("free") or ""), str(by) if by is not None else None)


@dataclass
class SheetWords:
    """One player's words from sheets in one round, each table keyed by the word as it
    stands in the list: marks (the doubtful words and their alternatives), images (the
    handwriting's ids), against (the words still the reader's and the board text each
    was read against, "" the edition's dictionary) and entries (every word a sheet
    added, `SheetEntry`)."""

    marks: Marks = field(default_factory=dict)
    images: Images = field(default_factory=dict)
    against: dict[str, str] = field(default_factory=dict)
    entries: dict[str, SheetEntry] = field(default_factory=dict)

    def key_of(self, word: str) -> str | None:
        """The entry's key for `word` (any case or width), or None when it is no entry."""
        return next((w for w in self.entries if word_key(w) == word_key(word)), None)

    def key_of_image(self, image_id: str) -> str | None:
        """The entry whose handwriting is image `image_id`, or None."""
        return next((w for w, i in self.images.items() if i == image_id and w in self.entries), None)

    def renamed(self, old: str, new: str) -> SheetWords:
        """The tables with `old` keyed as `new`, each keeping its place."""
        def move(table: dict[str, Any]) -> dict[str, Any]:
            return {(new if w == old else w): v for w, v in table.items()}
        return SheetWords(move(self.marks), move(self.images), move(self.against), move(self.entries))

    def without(self, word: str) -> SheetWords:
        """The tables without `word` (its image id leaves with it)."""
        def drop(table: dict[str, Any]) -> dict[str, Any]:
            return {w: v for w, v in table.items() if w != word}
        return SheetWords(drop(self.marks), drop(self.images), drop(self.against), drop(self.entries))

    def pruned(self, words: Sequence[str]) -> SheetWords:
        """Only the words still in the list (a word typed away takes its tables' rows)."""
        have = {word_key(w) for w in words}

        def keep(table: dict[str, Any]) -> dict[str, Any]:
            return {w: v for w, v in table.items() if word_key(w) in have}
        return SheetWords(keep(self.marks), keep(self.images), keep(self.against), keep(self.entries))


def reread_change(word: str, entry: SheetEntry) -> str | None:
    """The word as the sheet was first read, when a re-read with the board changed it
    to `word` and nobody has confirmed or typed it since; None otherwise."""
    if entry.by is not None or not entry.read or word_key(entry.read) == word_key(word):
        return None
    return entry.read


def added_entries(done: SheetAdded) -> dict[str, SheetEntry]:
    """The entries of the words one sheet added (add_sheet's `done`)."""
    return {w: SheetEntry(w, free) for w, free in zip(done.added, done.free)}


def correct(words: Sequence[str], sheet: SheetWords, word: str, choice: str | None,
            by: str) -> tuple[list[str], SheetWords]:
    """An entry of a sheet set by a person (`by`: a player's name or "host"): `choice`
    equal to it confirms it; another word replaces it where it stands (its handwriting
    and open reading stay with it), unless that word is already in the list (no word
    twice: the entry goes); None drops it. The entry is then the person's: no longer
    doubtful, never read again. KeyError when `word` is no entry of the list."""
    key = sheet.key_of(word)
    at = next((i for i, w in enumerate(words) if key is not None and word_key(w) == word_key(key)), None)
    if key is None or at is None:
        raise KeyError(word)
    out = list(words)
    if choice is None or (word_key(choice) != word_key(key) and any(word_key(w) == word_key(choice) for w in out)):
        del out[at]
        return out, sheet.without(key)
    now = key if word_key(choice) == word_key(key) else choice[:MAX_TOKEN]
    if now != key:
        out[at] = now
    moved = sheet.renamed(key, now)
    moved.entries[now] = dataclasses.replace(moved.entries[now], by=by)
    moved.marks.pop(now, None)
    moved.against.pop(now, None)
    return out, moved


@dataclass(frozen=True)
class RereadExpect:
    """An entry as it was when its re-read started (the compare-and-swap's expected
    values): the word, its mark (() when it was sure), its image's id and what it was
    read against (None: not recorded, a round stored before)."""

    word: str
    mark: tuple[tuple[str, float], ...]
    image_id: str
    against: str | None


@dataclass(frozen=True)
class WordReread:
    """A word read again from its image: alternatives [(word, p), ...] best first,
    flagged (the reader doubts it; None: not said) and free (the open reading)."""

    alternatives: tuple[tuple[str, float], ...]
    flagged: bool | None = None
    free: str = ""

    @classmethod
    def of(cls, doc: Mapping[str, Any] | Sequence[Any] | None) -> WordReread | None:
        """From the photo readers' answer: {"alternatives", "flagged", "free"} or, as
        older readers answer, the alternatives alone; None stays None."""
        if doc is None:
            return None
        if isinstance(doc, Mapping):
            alts, flagged, free = doc.get("alternatives") or (), doc.get("flagged"), str(doc.get("free") or "")
        else:
            alts, flagged, free = doc, None, ""
        clean = tuple((str(a[0]).strip().lower()[:MAX_TOKEN], float(a[1])) for a in alts if a and str(a[0]).strip())
        return cls(clean, flagged if isinstance(flagged, bool) else None, free.strip().lower()[:MAX_TOKEN])


def reread(words: Sequence[str], sheet: SheetWords, expect: RereadExpect, reading: WordReread,
           board_text: str) -> tuple[list[str], SheetWords, str] | None:
    """An entry read again from its image against the lexicon of board `board_text`.

    Compare and swap: the entry must still be the reader's (nobody confirmed or typed
    it), read against `expect.against`, with the same mark and image as when the
    reading started; else None (nothing changes). Then the reading's best word takes
    its place with its tables (not when it is another word already in the list: no
    word twice); a doubtful word stays doubtful with the new alternatives, a sure one
    becomes doubtful when the reading is flagged; it is marked as read against this
    board. (words, tables, the word now in the list). A reading with no word changes
    nothing but what the entry was read against."""
    key = sheet.key_of(expect.word)
    entry = sheet.entries.get(key) if key is not None else None
    if (key is None or entry is None or entry.by is not None or sheet.against.get(key) != expect.against
            or sheet.images.get(key) != expect.image_id or tuple(sheet.marks.get(key, ())) != tuple(expect.mark)):
        return None
    at = next((i for i, w in enumerate(words) if word_key(w) == word_key(key)), None)
    if at is None:
        return None
    out = list(words)
    alts = reading.alternatives
    now = key
    if alts and word_key(alts[0][0]) != word_key(key) and not any(word_key(w) == word_key(alts[0][0]) for w in out):
        now = out[at] = alts[0][0]
    moved = sheet.renamed(key, now)
    moved.against[now] = board_text
    if reading.free:
        moved.entries[now] = dataclasses.replace(entry, free=reading.free)
    if alts and (key in sheet.marks or reading.flagged):
        moved.marks[now] = _alternatives(now, alts)
    return out, moved, now
