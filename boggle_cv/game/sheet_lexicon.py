"""What a player's sheet is read against once its board is known: the board's words
(the solver's, by the round's rules) and every dictionary word one edit away from
one, with the board's own words marked, so that the reader weighs them up
(handwriting.reading.BOARD_BONUS). Shared by the command line, the room and
practice; a small frozen value, so that it travels to the room's worker processes.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board
    from .dictionary import Dictionary


@dataclass(frozen=True)
class SheetLexicon:
    """What a sheet of one board is read against: `words`, the board's words and every
    dictionary word one edit away from one (near_words.board_lexicon), and
    `board_words`, those that can be traced on the board (weighed up by the reader).
    It iterates, counts and answers `in` as its words."""

    words: tuple[str, ...]
    board_words: frozenset[str]
    _index: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", frozenset(self.words))

    def __iter__(self) -> Iterator[str]:
        return iter(self.words)

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word: object) -> bool:
        return word in self._index


def sheet_lexicon(board: Board, dictionary: Dictionary, lang: str = "en") -> SheetLexicon:
    """The lexicon a sheet of this board is read against (SheetLexicon)."""
    from .scoring import Rules, solve
    from .near_words import board_lexicon
    words = [w.word for w in solve(board, dictionary, rules=Rules.for_board(board, lang=lang))]
    return SheetLexicon(tuple(board_lexicon(words, dictionary)), frozenset(words))


