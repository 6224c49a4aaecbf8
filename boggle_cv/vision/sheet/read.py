"""The sheet reader's one chain: photo -> paper -> upright -> ink -> words -> readings.

    load_image / check_image -> find_paper -> upright_turn -> ink_mask -> find_words
    -> crop_word (each) -> read_words (all at once) -> doubtful joinable pairs read as
    one (a second call) -> pieces resolved (_resolve_pieces) -> two words run
    together cut apart (_split_merged; a third call) -> SheetReading

A word that follows another across a gap a little wider than a space inside a word
(layout.WordBox.joinable) is read alone and, when either is doubtful, joined to it
(a second reader call for those pairs only): the two become one word when the joined
reading fits the writing; a piece
left beside a doubtful one is flagged (a fragment is never a confident word). The
other way round, a box whose lexicon reading is far from what the network reads
freely (two words of a line with a narrow space, read as one) is cut at its widest
gap when both pieces then read as written. Read against a lexicon, a word under
SHEET_SURE is flagged too, and so is one whose lexicon word does not fit what the
network reads freely (_fits: "eatings" chosen for ink read "ening"; on composed tune
sheets confident errors 8 -> 4 for 44 more right words asked about, of 795).

``read_sheet`` is the library's call (``boggle_cv.read_sheet``). The word reader
defaults to ``vision.handwriting.read_words`` (imported only here, when a sheet is
read, so that neither ``import boggle_cv`` nor a tray scan loads the handwriting
model); tests and other engines pass any callable with its signature as ``reader``.
Debug images go to the caller's DebugSink: "s1_paper", "s2_flat", "s3_words".
"""
from __future__ import annotations

import functools
import time
from dataclasses import is_dataclass, replace
from types import SimpleNamespace
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import ArgumentTypeError, NoWritingError
from ..stages import DebugSink, ImageU8, check_image
from ..handwriting.reading import edit_distance
from .ink import ink_mask
from .layout import WordBox, crop_word, find_words
from .paper import find_paper
from .upright import upright_turn
from .types import SheetReading, SheetWord

#: read_words(images, lexicon) -> one reading per image, each with .word,
#: .confidence, .alternatives, .flagged and .free (handwriting.WordReading).
WordReader = Callable[[Sequence[ImageU8], "Iterable[str] | None"], Sequence[Any]]
#: ink_score(crop, word) -> what the ink of one word's crop says of a word, with no
#: board known (handwriting.board_check.scores under the crop's first view; nats).
InkScore = Callable[[ImageU8, str], float]

MAX_INK_SHARE = 0.1  # more of the paper dark than this: not a sheet of writing
MIN_INK_SHARE = 0.0001  # less than this (a few hundred px of a page): nothing written
#: A word read against a lexicon with a confidence under this is flagged, whatever the
#: word reader says: a word cut from a photo of a page (blur, JPEG, a few px high)
#: reads less surely than the reader's own test crops, on which its flag was set.
#: Chosen on composed sheets of the tune split (scripts/eval_sheets.py composed; seeds
#: 77 and 78): confident errors 17 -> 11 and 19 -> 11, flagged 33% -> 39% and 32% -> 38%.
SHEET_SURE = 0.95
NO_WRITING_HINT = "give a photo of a player's sheet, the words written on it dark enough to see"
#: A photo whose shorter side is under this many pixels holds no word to read (the tray
#: finder's smallest view, tray.plan.MIN_VIEW_PX, is as small).
MIN_SIDE_PX = 16
#: When a photo's "writing" is checked for a tray (_may_be_a_tray): at most this many
#: words, ink over this share of the paper, or words this small (median box height
#: over the paper's short side). A tray's letters pass as writing on 15 of the 204
#: tray photos of ../shared (real-photos, boggle-boards): 1-3 words for 11, a share
#: of 0.04-0.1 for 9, words of 0.9-1.3% for the rest; composed sheets of ~20 words
#: hold 0.6-2.9% ink, their words 2.9-4% high, and skip the check.
TRAY_CHECK_WORDS = 3
TRAY_CHECK_SHARE = 0.04
TRAY_CHECK_HEIGHT = 0.02


def _default_reader(lang: str, dictionary: Any = None, board_words: Iterable[str] | None = None) -> WordReader:
    """handwriting.read_words with the sheet's language (its prior of common words),
    the board's words (weighed up) and, for a sheet read without a lexicon, the
    dictionary to read it against."""
    from ..handwriting import read_words
    reader: WordReader = functools.partial(read_words, lang=lang, dictionary=dictionary, board_words=board_words)
    return reader


def _default_ink_score(lang: str) -> InkScore:
    """board_check.scores of one word under one crop's first view (InkScore)."""
    from ..handwriting.board_check import scores
    from ..handwriting.reading import crop_views

    def ink_score(crop: ImageU8, word: str) -> float:
        return float(scores(crop_views([crop])[0][0], [word], lang)[0])
    return ink_score


def read_sheet(photo: str | Path | ImageU8, lexicon: Iterable[str] | None = None, *,
               reader: WordReader | None = None, debug: DebugSink | None = None, lang: str = "en",
               dictionary: Any = None, board_words: Iterable[str] | None = None) -> SheetReading:
    """Read a player's handwritten sheet: the words in writing order, each with its
    reading, box (4 (x, y) photo px) and crossed-out state (types.SheetWord).

    photo: a path (read by imageio.load_image: pixel cap, EXIF turn; ImageReadError,
    exit 4) or a BGR uint8 array (H, W, 3). lexicon: the words a reading is weighed
    against (the board's words and their neighbours: handwriting.board_lexicon); None
    reads against ``dictionary`` (a boggle_cv.game.dictionary.Dictionary: a sheet
    photographed before the board is known) or, without one, freely. Raises NoWritingError (exit 5) when the photo shows no writing (a
    blank page, the tray given as a sheet: no ink, or far more dark than a page of
    writing holds; an image under MIN_SIDE_PX on a side). A sheet with writing but no word on it (only a score, marks)
    reads as no words. lang "de": a lexicon word with ae/oe/ue/ss is also matched as
    it is written by hand, read through an a-z reader ("Bär" read "bar" is "baer":
    written.with_written_forms), and reported as the lexicon word. board_words: the
    lexicon's words that can be traced on the board, likelier than their neighbours
    (handwriting.reading.BOARD_BONUS); used by the default reader only."""
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    label = "the photo"
    if isinstance(photo, (str, Path)):
        from ..imageio import load_image
        label = str(photo)
        image = load_image(photo)
        _refuse_too_small(image, label)
    elif isinstance(photo, np.ndarray):
        if photo.dtype == np.uint8 and photo.ndim == 3 and photo.shape[2] == 3:
            _refuse_too_small(photo, label)  # before check_image's 8 px floor: an upload's thumbnail is no sheet
        image = check_image(photo, "photo")
    else:
        raise ArgumentTypeError(f"photo must be a path or a BGR uint8 array, not {type(photo).__name__}")
    timings["load"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    paper = find_paper(image, debug)
    ink = ink_mask(paper.flat)
    turn = upright_turn(ink)
    if turn:
        paper = paper.turned(turn)
        ink = ink_mask(paper.flat)
    timings["paper"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    if not _looks_written(ink.mask):
        raise NoWritingError(f"no writing found in {label}", NO_WRITING_HINT)
    boxes = find_words(ink, debug, paper.flat)
    if _may_be_a_tray(ink.mask, boxes, paper.flat.shape[:2]) and _shows_a_tray(image):
        raise NoWritingError(f"no writing found in {label}: it shows a Boggle tray", NO_WRITING_HINT)
    timings["layout"] = time.perf_counter() - t0
    corners = tuple((float(x), float(y)) for x, y in paper.corners)
    if not boxes:  # writing, but no word: a name, a score, marks only
        return SheetReading((), corners, turn, timings)
    t0 = time.perf_counter()
    crops = [crop_word(paper.flat, ink, b) for b in boxes]
    words_in = list(lexicon) if lexicon is not None else None
    board_in = set(board_words) if board_words is not None and words_in else None
    back: dict[str, str] = {}
    if words_in and lang == "de":
        from .written import with_written_forms
        words_in, back = with_written_forms(words_in)
        if board_in is not None:
            board_in = {w for w in words_in if back.get(w, w) in board_in}
    read = reader if reader is not None else _default_reader(lang, dictionary, board_in)
    # one call: read_words batches crops of like width itself (padding each by at
    # most recogniser.MAX_PAD_PX, so a batch reads as each crop alone)
    readings = list(read(crops, words_in))
    # a word close after another on its line may be the rest of it: where either piece
    # is doubtful, the two are read as one too (a second, small call)
    pairs = [k for k, b in enumerate(boxes) if b.joinable and k > 0 and (readings[k - 1].flagged or readings[k].flagged)]
    joined = list(read([crop_word(paper.flat, ink, _union(boxes[k - 1], boxes[k])) for k in pairs], words_in)) \
        if pairs else []
    timings["read"] = time.perf_counter() - t0
    boxes, readings = _resolve_pieces(boxes, readings, dict(zip(pairs, joined)))
    boxes, readings = _split_merged(paper.flat, ink, boxes, readings, read, words_in,
                                    _default_ink_score(lang) if reader is None else None)
    if back:
        readings = [_as_lexicon_word(r, back) for r in readings]
    words = []
    for b, r in zip(boxes, readings):
        quad = paper.to_photo(np.array([[b.x0, b.y0], [b.x1, b.y0], [b.x1, b.y1], [b.x0, b.y1]], np.float64))
        words.append(SheetWord(r.word, float(r.confidence), tuple((str(w), float(p)) for w, p in r.alternatives),
                               _asked(r, bool(words_in)), str(r.free), tuple((float(x), float(y)) for x, y in quad),
                               b.crossed_out, getattr(r, "p_right", None), getattr(r, "evidence", None),
                               str(getattr(r, "written", "") or "")))
    return SheetReading(tuple(words), corners, turn, timings)


def _asked(r: Any, against_lexicon: bool) -> bool:
    """Whether the player is asked about a reading: the word reader's flag; against a
    lexicon without a calibration (the reading has no P(right)), also a word under
    SHEET_SURE or one that does not fit its free reading (_fits)."""
    if bool(r.flagged) or not against_lexicon or getattr(r, "p_right", None) is not None:
        return bool(r.flagged)
    return float(r.confidence) < SHEET_SURE or not _fits(r)


def _union(a: WordBox, b: WordBox) -> WordBox:
    return replace(b, x0=min(a.x0, b.x0), y0=min(a.y0, b.y0), x1=max(a.x1, b.x1), y1=max(a.y1, b.y1),
                   joinable=a.joinable)


def _fits(r: Any) -> bool:
    """The reading's word is close to what the network reads freely (at most a third
    of the free reading's letters edited): two words read as one give a free reading
    far longer than any one lexicon word."""
    return bool(r.word) and edit_distance(str(r.word), str(r.free)) * 3 <= max(len(str(r.free)), 1)


def _resolve_pieces(boxes: list[WordBox], readings: list[Any], joined: dict[int, Any]) -> tuple[list[WordBox], list[Any]]:
    """Words k-1 and k (k joinable, `joined[k]` the reading of both as one) become
    one word when either piece is doubtful and the joined reading fits the writing
    (_fits); a piece left beside a doubtful neighbour is doubtful too (a fragment of
    a scrawled word, read as a word by itself, is not a confident word). A space
    between two clearly read words stays a space."""
    out_b: list[WordBox] = []
    out_r: list[Any] = []
    for k, (b, r) in enumerate(zip(boxes, readings)):
        j = joined.get(k)
        if j is None or not out_b or out_b[-1] != boxes[k - 1]:
            out_b.append(b)
            out_r.append(r)
            continue
        prev = out_r[-1]
        if (prev.flagged or r.flagged) and _fits(j):
            out_b[-1], out_r[-1] = _union(boxes[k - 1], b), j
            continue
        if prev.flagged != r.flagged:
            out_r[-1], r = _flag(prev), _flag(r)
        out_b.append(b)
        out_r.append(r)
    return out_b, out_r


def _widest_gap(mask: np.ndarray, b: WordBox) -> tuple[int, int] | None:
    """The widest run of ink-free columns strictly inside box `b` of the ink mask
    (flat px, [start, end) ), leaving at least MIN_PIECE box heights on each side;
    None when there is none."""
    inked = np.asarray(mask[b.y0:b.y1, b.x0:b.x1] > 0)
    cols = [bool(c) for c in np.asarray(inked.any(axis=0))]
    edge = int(MIN_PIECE * (b.y1 - b.y0))
    best: tuple[int, int] | None = None
    x = 0
    while x < len(cols):
        if cols[x]:
            x += 1
            continue
        end = x
        while end < len(cols) and not cols[end]:
            end += 1
        if x >= edge and end <= len(cols) - edge and (best is None or end - x > best[1] - best[0]):
            best = (x, end)
        x = end
    return None if best is None else (b.x0 + best[0], b.x0 + best[1])


#: Each piece of a word split at a gap is at least this many box heights wide...
MIN_PIECE = 0.8
#: ... and the gap at least this many box heights (a word's own gaps are narrower).
SPLIT_GAP = 0.2
#: The two pieces' words must explain their ink better than the whole box's word
#: explains it, by at least this many nats (InkScore: the left piece's score plus the
#: right's, against the whole's): a gap inside one word ("decimal" as "dee" and
#: "mal", each piece read as written) explains the ink no better than the word. On
#: 80 rendered sheets (scripts/eval_sheets.py rendered, seeds 7 and 11) every one of
#: the 18 cuts of two words run together wins by 24.9 nats or more; the words read
#: right there are the same with the margin and without it.
SPLIT_MARGIN = 10.0
#: Each piece is read as a word of at least this many letters (the shortest that
#: scores): a shorter piece is a fragment of one word ("tourism" is not "tours" and
#: "m", nor "another" "an" and "oth"), and a sheet read with no board is never cut.
MIN_PIECE_LETTERS = 3


def _written_fits(r: Any) -> bool:
    """With a board known: what the ink says without the board (the reading's
    `written`) fits the free reading (_fits): one word, whatever the board's lexicon
    made of it (a sheet read with no board is never cut)."""
    written = str(getattr(r, "written", "") or "")
    return bool(written) and written != str(r.word) and edit_distance(written, str(r.free)) * 3 <= max(len(str(r.free)), 1)


def _misfit(r: Any) -> int:
    """Letters the reading's word differs by from the network's free reading."""
    return edit_distance(str(r.word), str(r.free)) if r.word else 99


def _read_as_words(left: Any, right: Any) -> bool:
    """The two pieces of a cut box are read as written (together at most one letter
    off their free readings), each a word of MIN_PIECE_LETTERS or more."""
    return (_misfit(left) + _misfit(right) <= 1
            and min(len(str(left.word)), len(str(right.word))) >= MIN_PIECE_LETTERS)


def _split_merged(flat: ImageU8, ink: Any, boxes: list[WordBox], readings: list[Any], read: WordReader,
                  words_in: list[str] | None,
                  ink_score: InkScore | None = None) -> tuple[list[WordBox], list[Any]]:
    """A box whose reading does not fit what the network reads freely (_fits: the
    free reading far longer, two words written on a line read as one box) is cut at
    its widest blank column gap (SPLIT_GAP box heights at least) and each piece read;
    the two pieces replace it when each is read as it is written, together at most one
    letter off their free readings (a gap inside one word leaves pieces that are not
    words: "put" read from "pat"), each a word of MIN_PIECE_LETTERS or more
    (_read_as_words), and (given `ink_score`) the two words explain the ink better
    than the whole box's word by SPLIT_MARGIN. Chosen on rendered sheets (two words a
    line on a sixth of the lines) and composed ones (one a line). Against a lexicon only: a
    free reading always fits itself; nor is a box cut whose written reading (a board
    known: what the ink says without it) fits its free reading."""
    if not words_in:
        return boxes, readings
    cuts = []
    for k, (b, r) in enumerate(zip(boxes, readings)):
        if not _fits(r) and not _written_fits(r) and len(str(r.free)) >= 5:
            gap = _widest_gap(ink.mask, b)
            if gap is not None and gap[1] - gap[0] >= SPLIT_GAP * (b.y1 - b.y0):
                cuts.append((k, replace(b, x1=gap[0]), replace(b, x0=gap[1], joinable=False)))
    if not cuts:
        return boxes, readings
    pieces = list(read([crop_word(flat, ink, p) for _, left, right in cuts for p in (left, right)], words_in))
    split = {k: (left, right, pieces[2 * i], pieces[2 * i + 1]) for i, (k, left, right) in enumerate(cuts)
             if _read_as_words(pieces[2 * i], pieces[2 * i + 1])}
    if ink_score is not None:
        split = {k: cut for k, cut in split.items()
                 if _pieces_explain(flat, ink, boxes[k], readings[k], cut, ink_score)}
    out_b: list[WordBox] = []
    out_r: list[Any] = []
    for k, (b, r) in enumerate(zip(boxes, readings)):
        if k in split:
            left, right, rl, rr = split[k]
            out_b += [left, right]
            out_r += [rl, rr]
        else:
            out_b.append(b)
            out_r.append(r)
    return out_b, out_r


def _pieces_explain(flat: ImageU8, ink: Any, whole: WordBox, reading: Any, cut: tuple[WordBox, WordBox, Any, Any],
                    ink_score: InkScore) -> bool:
    """The pieces' words explain their ink better than the whole box's word explains
    its own, by SPLIT_MARGIN nats at least (ink_score)."""
    left, right, rl, rr = cut
    one = ink_score(crop_word(flat, ink, whole), str(reading.word))
    two = ink_score(crop_word(flat, ink, left), str(rl.word)) + ink_score(crop_word(flat, ink, right), str(rr.word))
    return two - one >= SPLIT_MARGIN


def _flag(r: Any) -> Any:
    if r.flagged:
        return r
    if is_dataclass(r) and not isinstance(r, type):
        return replace(r, flagged=True)
    return SimpleNamespace(word=r.word, confidence=r.confidence, alternatives=r.alternatives, flagged=True, free=r.free)


def _as_lexicon_word(r: Any, back: dict[str, str]) -> Any:
    """A reading with each written form (written.with_written_forms) replaced by its
    lexicon word, the alternatives of one word summed, best first."""
    from .written import as_lexicon_words
    ranked = tuple(as_lexicon_words(r.alternatives, back))
    word = back.get(str(r.word), str(r.word))
    if ranked and ranked[0][0] != word:  # two forms of a runner-up outweigh the word read
        word = ranked[0][0]
    written = str(getattr(r, "written", "") or "")
    return SimpleNamespace(word=word, confidence=ranked[0][1] if ranked else float(r.confidence),
                           alternatives=ranked, flagged=r.flagged, free=r.free,
                           p_right=getattr(r, "p_right", None), evidence=getattr(r, "evidence", None),
                           written=back.get(written, written))


def _may_be_a_tray(mask: np.ndarray, boxes: Sequence[WordBox], shape: tuple[int, ...]) -> bool:
    """Whether what passed as writing may be a tray's letters (TRAY_CHECK_*)."""
    if len(boxes) <= TRAY_CHECK_WORDS:
        return True
    share = float(np.count_nonzero(mask)) / max(mask.size, 1)
    heights = sorted(b.y1 - b.y0 for b in boxes)
    return share > TRAY_CHECK_SHARE or heights[len(heights) // 2] < TRAY_CHECK_HEIGHT * min(shape[:2])


def _shows_a_tray(image: ImageU8) -> bool:
    """The tray finder's first search (no fallbacks: 0.2-0.8 s) finds a Boggle tray in
    the photo: all 15 tray photos whose letters pass as writing, none of 40 composed
    sheets, the sample sheet and 12 close-ups of one word."""
    from ...errors import BoggleError
    from ..tray import TrayConfig, find_tray
    try:
        find_tray(image, config=TrayConfig(fallbacks=()))
    except BoggleError:
        return False
    return True


def _refuse_too_small(image: ImageU8, label: str) -> None:
    """NoWritingError for an image under MIN_SIDE_PX on a side (H, W, ...)."""
    h, w = image.shape[:2]
    if min(h, w) < MIN_SIDE_PX:
        raise NoWritingError(f"no writing found in {label}: the image is {w} x {h} px, too small to hold a word",
                             NO_WRITING_HINT)


def _looks_written(mask: np.ndarray) -> bool:
    """Ink covers a sheet thinly (composed sheets 0.5-3% of the paper, three scores
    alone 0.05%); a tray's cubes and grid darken 13-26% of what is taken for paper
    (measured on the sample and real tray photos), a blank page nothing (the paper's
    edge band is not ink: ink.BORDER)."""
    share = float(np.count_nonzero(mask)) / max(mask.size, 1)
    return MIN_INK_SHARE < share < MAX_INK_SHARE
