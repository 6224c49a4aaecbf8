"""Reading handwritten words: one word crop in, one reading out.

    preprocess   crop -> white paper, dark ink, 48 px high, batched blob
    recogniser   PP-OCRv6 small recogniser via cv2.dnn -> (T, 27) frame probabilities
    ctc          exact CTC likelihood of each lexicon word; greedy decoding
    reading      WordReading, read_words, board_lexicon

The model loads on the first call, never on import.
"""
from __future__ import annotations

from .reading import WordReading, board_lexicon, read_words

__all__ = ["WordReading", "board_lexicon", "read_words"]
