"""A sheet's words read again once its board is known (vision/sheet/reread.py): a word
a person confirmed or typed is never changed, the others are read again, and the
result says which changed."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from boggle_cv.vision.onnx_models import WORD_READER, model_path
from boggle_cv.vision.sheet import SheetReading, SheetWord, reread_sheet, reread_words

needs_model = pytest.mark.skipif(not model_path(WORD_READER).is_file(), reason="word model not installed")
SAMPLES = Path(__file__).resolve().parents[2] / "samples"
BOX = ((0.0, 0.0), (10.0, 0.0), (10.0, 4.0), (0.0, 4.0))


def word(w: str, free: str | None = None, flagged: bool = True, crossed: bool = False) -> SheetWord:
    return SheetWord(w, 0.6, ((w, 0.6),), flagged, free or w, BOX, crossed)


def fake_reader(answers: dict[int, str]):
    """A word reader that reads the image whose first pixel is k as answers[k]."""
    calls = []

    def read(images, lexicon):
        calls.append((len(images), list(lexicon)))
        out = []
        for im in images:
            w = answers[int(np.asarray(im).flat[0])]
            out.append(SimpleNamespace(word=w, confidence=0.9, alternatives=((w, 0.9), ("other", 0.1)), flagged=False,
                                       free=w, p_right=0.99, evidence=None, written=w))
        return out
    return read, calls


def image(k: int) -> np.ndarray:
    return np.full((20, 40), k, np.uint8)


def test_a_person_s_words_are_kept_and_the_others_read_again():
    words = [word("lite", "life"), word("table"), word("ruse", "rise"), word("dose", crossed=True), word("sic")]
    read, calls = fake_reader({1: "life", 2: "take", 3: "rise", 4: "dose", 5: "site"})
    images = [image(1), image(2), image(3), image(4), None]
    got = reread_words(words, images, ["life", "lite", "take", "rise"], board_words=["lite", "take"], keep=[1],
                       reader=read)
    assert calls == [(2, ["life", "lite", "take", "rise"])]  # one call: words 0 and 2 (1 kept, 3 crossed, 4 no image)
    assert [w.word for w in got.words] == ["life", "table", "rise", "dose", "sic"]
    assert got.changed == (0, 2) and got.kept == (1,) and got.read == (0, 2)
    assert got.words[1] is words[1] and got.words[3].crossed_out and got.words[0].box == BOX
    assert not got.words[0].flagged and got.words[0].written == "life"
    doc = got.to_dict()
    assert doc["changed"] == [0, 2] and doc["words"][0]["written"] == "life"


def test_words_as_json_are_read_again_and_a_word_read_the_same_is_not_changed():
    words = [word("seat").to_dict(), {k: v for k, v in word("tea").to_dict().items() if k != "written"}]
    read, _ = fake_reader({1: "seat", 2: "tea"})
    got = reread_words(words, [image(1), image(2)], ["seat", "tea"], board_words=None, reader=read)
    assert got.changed == () and got.read == (0, 1)
    assert SheetWord.from_dict(words[0]) == word("seat")


def test_images_and_words_must_pair_up():
    with pytest.raises(ValueError):
        reread_words([word("seat")], [], ["seat"], board_words=None)


@needs_model
def test_the_sample_sheet_read_again_against_its_board_keeps_what_a_person_typed():
    """The shipped sample sheet, read with no board (against the dictionary), then read
    again against its board: the words a person settled stay as they were; every word
    read again is its board reading or what its ink says."""
    from boggle_cv.game.board import Board
    from boggle_cv.game.dictionary import load_default
    from boggle_cv.game.sheet_lexicon import sheet_lexicon
    from boggle_cv.vision.sheet import read_sheet
    photo = SAMPLES / "sheets" / "sheet-4x4-a.jpg"
    dictionary = load_default()
    before = read_sheet(photo, None, dictionary=dictionary)
    typed = [0, 2]
    settled = SheetReading(tuple(w if i not in typed else SheetWord("zzz", 1.0, (("zzz", 1.0),), False, "zzz", w.box,
                                                                     False) for i, w in enumerate(before.words)),
                           before.corners, before.turn)
    lexicon = sheet_lexicon(Board.parse("DRML/HCNL/XEHD/YTOC"), dictionary)
    after = reread_sheet(photo, settled, lexicon.words, board_words=lexicon.board_words, keep=typed)
    assert [after.words[i].word for i in typed] == ["zzz", "zzz"]
    assert set(after.read) == {i for i, w in enumerate(before.words) if not w.crossed_out} - set(typed)
    truth = [w for w in (SAMPLES / "sheets" / "sheet-4x4-a.truth.txt").read_text().split("\n") if w and w[0] != "#"]
    read_again = [after.words[i].word for i in after.read]
    assert sum(w in truth for w in read_again) >= len(read_again) - 1
    for i in after.changed:
        assert after.words[i].word != before.words[i].word
