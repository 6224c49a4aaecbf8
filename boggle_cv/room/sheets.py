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
  * a doubtful word read again from its image against a new board's lexicon (`reread`)
    takes the new reading's alternatives, and its best word in its place when that word
    is not in the list yet; it stays doubtful, and a word settled, typed away or
    changed since the reading started is left as it is.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
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
    added, its index in the sheet's reading (where its image is)."""

    added: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    crossed_out: list[str] = field(default_factory=list)
    doubtful: list[str] = field(default_factory=list)
    unreadable: int = 0
    sources: list[int] = field(default_factory=list)

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


def reread(words: list[str], marks: Marks, images: Images, word: str, mark: Sequence[tuple[str, float]],
           image_id: str, alternatives: Iterable[Sequence[Any]]) -> tuple[list[str], Marks, Images, str] | None:
    """A doubtful word read again (from its image, against a new board's lexicon).

    Compare and swap: `word` must still be marked with `mark` and hold the image
    `image_id`, as when the reading started; else None (settled, typed away or read
    again meanwhile: nothing changes). Then its mark takes the new reading's
    `alternatives` ([(word, p), ...] best first; rounded and cut as add_sheet's), and
    the best of them replaces `word` in its place, with its mark and image, when it is
    another word not in the list yet (no word twice); the word stays doubtful.
    (words, marks, images, the word now in the list). A reading with no word leaves
    the mark as it was."""
    key = next((w for w in marks if word_key(w) == word_key(word)), None)
    if key is None or list(marks[key]) != list(mark) or images.get(key) != image_id:
        return None
    at = next((i for i, w in enumerate(words) if word_key(w) == word_key(key)), None)
    if at is None:
        return None
    alts = [(str(a[0]).strip().lower()[:MAX_TOKEN], float(a[1])) for a in alternatives if a and str(a[0]).strip()]
    if not alts:
        return list(words), dict(marks), dict(images), key
    best = alts[0][0]
    now = key
    out = list(words)
    if word_key(best) != word_key(key) and not any(word_key(w) == word_key(best) for w in words):
        now = out[at] = best
    # the mark and the image keep their places in their tables, under the word now in the list
    out_marks = {(now if w == key else w): (_alternatives(now, alts) if w == key else a) for w, a in marks.items()}
    out_images = {(now if w == key else w): i for w, i in images.items()}
    return out, out_marks, out_images, now
