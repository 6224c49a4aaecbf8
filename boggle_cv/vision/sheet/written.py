"""German words as an a-z word reader sees them written by hand (--lang de).

The German dictionary holds words folded to the cubes' letters (folding.py: ä ö ü ->
ae oe ue, ß -> ss: "oel", "baer", "strasse"), but a player writes "Öl", "Bär",
"Straße", and the word reader's alphabet is a-z: it reads an umlaut as its bare vowel
and ß as "ss" or "s" (measured on the 213 held-out DHSD crops holding ä, ö, ü or ß:
the bare vowel is nearer the free reading than ae/oe/ue for 178 words, against 16;
ß reads as "ss" and as "s" equally often, 18 words each, "b" 5, "fs" 3).

    written_forms("baer")          -> {"bar"}
    written_forms("strasse")       -> {"strase"}
    with_written_forms(["oel", "ol"]) -> (["oel", "ol"], {})   a written form that is a
                                        word itself stays that word
    with_written_forms(["oel"])    -> (["oel", "ol"], {"ol": "oel"})
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Any

#: A folded German spelling -> what the reader sees of it written by hand.
_SEEN = {"ae": ("a",), "oe": ("o",), "ue": ("u",), "ss": ("s",)}
_PAIRS = re.compile("ae|oe|ue|ss")
#: At most this many folded pairs in one word are varied (2**4 forms).
MAX_PAIRS = 4


def written_forms(word: str) -> set[str]:
    """The other a-z strings a handwritten `word` (folded, a-z) may be read as: each
    ae/oe/ue/ss in it either as folded or as _SEEN (every combination)."""
    parts = _PAIRS.split(word)  # len(pairs) + 1 pieces around the pairs
    pairs = _PAIRS.findall(word)
    if not pairs:
        return set()
    k = min(len(pairs), MAX_PAIRS)
    rest = "".join(parts[i] + pairs[i] for i in range(k, len(pairs))) + parts[-1]
    out = set()
    for pick in itertools.product(*[(p,) + _SEEN[p] for p in pairs[:k]]):
        out.add("".join(parts[i] + pick[i] for i in range(k)) + rest)
    out.discard(word)
    return out


def with_written_forms(lexicon: Iterable[str]) -> tuple[list[str], dict[str, str]]:
    """The lexicon (a-z words) with each word's written forms added, and form ->
    word. A form that is a lexicon word itself is left to that word; a form two words
    share goes to the first."""
    words = list(dict.fromkeys(lexicon))
    known = set(words)
    back: dict[str, str] = {}
    for w in words:
        for f in sorted(written_forms(w)):
            if f not in known and f not in back:
                back[f] = w
    return words + list(back), back


def as_lexicon_words(alternatives: Iterable[Sequence[Any]], back: dict[str, str]) -> list[tuple[str, float]]:
    """A reading's alternatives [(word, p), ...] with each written form (`back`, from
    with_written_forms) counted as its lexicon word, the probabilities of one word
    summed, best first."""
    summed: dict[str, float] = {}
    for w, p in alternatives:
        word = back.get(str(w), str(w))
        summed[word] = summed.get(word, 0.0) + float(p)
    return sorted(summed.items(), key=lambda a: -a[1])
