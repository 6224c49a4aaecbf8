"""A sheet's words read again once its board is known (or changes), never undoing a
person: a word its player or the host confirmed or typed is kept as it stands, every
other word is read again from its handwriting against the board's lexicon (the board
informs, the ink decides: handwriting.board_check), and the result says which words
changed.

    reread_words(words, images, lexicon, board_words=..., keep=...)  each word's image given
    reread_sheet(photo, reading, lexicon, board_words=..., keep=...) cut from the sheet's photo

`words` are a sheet's words as read (SheetWords, or their to_dict(): the room's and the
JSON's shape); `images` one image a word (BGR, grey or BGRA uint8: the room's small
grey images decoded, or a crop of the photo), None where there is none (the word is
left as it is). A crossed-out word keeps its reading (the strike is the layout's, not
the ink's reading). `keep`: the positions (0-based, writing order) a person settled.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..stages import ImageU8
from .read import WordReader, _as_lexicon_word, _default_reader
from .types import SheetReading, SheetWord


@dataclass(frozen=True)
class Reread:
    """The words after a re-read, in writing order: `words` (SheetWords; those kept or
    not read again as they were), `changed` the positions whose word is another than
    before, `kept` the positions left as a person settled them, `read` the positions
    read again (0-based, writing order)."""

    words: tuple[SheetWord, ...]
    changed: tuple[int, ...]
    kept: tuple[int, ...]
    read: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: "words" (each SheetWord.to_dict()), "changed", "kept", "read"."""
        return {"words": [w.to_dict() for w in self.words], "changed": list(self.changed),
                "kept": list(self.kept), "read": list(self.read)}


def sheet_word(item: SheetWord | Mapping[str, Any]) -> SheetWord:
    """A SheetWord from itself or its to_dict() (fields it lacks take their defaults)."""
    if isinstance(item, SheetWord):
        return item
    return SheetWord.from_dict(item)


def reread_words(words: Sequence[SheetWord | Mapping[str, Any]], images: Sequence[ImageU8 | None],
                 lexicon: Iterable[str], *, board_words: Iterable[str] | None, keep: Collection[int] = (),
                 lang: str = "en", dictionary: Any = None, reader: WordReader | None = None) -> Reread:
    """The words read again (module doc): each word not in `keep`, not crossed out and
    with an image, read against `lexicon` (the board's: game.sheet_lexicon), the
    `board_words` weighed up and checked against the ink (None: no board), in one
    call of the word reader (`reader`, default handwriting.read_words with `lang` and
    `dictionary`); its reading replaces the old one, box and strike kept."""
    if len(images) != len(words):
        raise ValueError(f"{len(images)} images for {len(words)} words")
    old = [sheet_word(w) for w in words]
    kept = tuple(sorted(i for i in set(keep) if 0 <= i < len(old)))
    todo = [i for i, w in enumerate(old) if i not in kept and not w.crossed_out and images[i] is not None]
    lex = list(lexicon)
    board = set(board_words) if board_words is not None else None
    back: dict[str, str] = {}
    if lang == "de":  # ä written "a" read as "ae" (written.with_written_forms), as read_sheet does
        from .written import with_written_forms
        lex, back = with_written_forms(lex)
        board = {w for w in lex if back.get(w, w) in board} if board is not None else None
    read = reader if reader is not None else _default_reader(lang, dictionary, board)
    readings = list(read([images[i] for i in todo], lex)) if todo else []  # type: ignore[misc]
    if back:
        readings = [_as_lexicon_word(r, back) for r in readings]
    out = list(old)
    for i, r in zip(todo, readings):
        out[i] = SheetWord(str(r.word), float(r.confidence), tuple((str(a), float(p)) for a, p in r.alternatives),
                           bool(r.flagged), str(r.free), old[i].box, False, getattr(r, "p_right", None),
                           getattr(r, "evidence", None), str(getattr(r, "written", "") or ""))
    changed = tuple(i for i in todo if (out[i].word or out[i].free) != (old[i].word or old[i].free))
    return Reread(tuple(out), changed, kept, tuple(todo))


def reread_sheet(photo: str | Path | ImageU8, reading: SheetReading | Mapping[str, Any], lexicon: Iterable[str], *,
                 board_words: Iterable[str] | None, keep: Collection[int] = (), lang: str = "en",
                 dictionary: Any = None, reader: WordReader | None = None) -> Reread:
    """reread_words with each word cut from the sheet's `photo` (a path or a BGR uint8
    array) along its box (word_crop.flat_word); `reading`: the sheet as read before
    (a SheetReading or its to_dict())."""
    from ..stages import check_image
    from .word_crop import flat_word
    if isinstance(photo, (str, Path)):
        from ..imageio import load_image
        image = load_image(photo)
    else:
        image = check_image(photo, "photo")
    items = reading.words if isinstance(reading, SheetReading) else [sheet_word(w) for w in reading["words"]]
    words = [sheet_word(w) for w in items]
    images = [flat_word(image, w.box) for w in words]
    return reread_words(words, images, lexicon, board_words=board_words, keep=keep, lang=lang,
                        dictionary=dictionary, reader=reader)
