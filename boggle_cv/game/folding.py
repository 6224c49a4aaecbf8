"""Folding of letters per edition: how a written word becomes the letters of the cubes.

The cubes carry the 26 capitals A-Z (and the Qu face); a word written with accents,
ligatures or letters of another alphabet is judged by its *folded* form. The same
function folds the dictionary's words (scripts/build_dictionary.py, `--dict` lists)
and the players' words, so that both meet in one spelling (docs/editions.md):

  * en: lower case; accents stripped only when that leaves letters a-z ("Élan" ->
    "elan", "naïve" -> "naive"); anything else is left as written (not a word);
  * fr, it: lower case, the ligatures œ -> oe and æ -> ae, every accent stripped
    ("Été" -> "ete", "perché" -> "perche", "cœur" -> "coeur");
  * de: ä ö ü -> ae oe ue and ß (ẞ) -> ss as on the German box's cubes ("Öl" -> "oel",
    a 3-letter word; "Straße" -> "strasse"), other accents stripped ("Café" -> "cafe");
  * es: accents and the diaeresis stripped ("canción" -> "cancion", "pingüino" ->
    "pinguino"), but ñ stays ñ: Ñ is a letter of its own, no cube here carries it,
    so a word with ñ is not a word of this referee (it is left out of the dictionary
    and scored not_a_word) rather than folded into another word ("año" is not "ano");
  * nl: the ligature ĳ -> ij ("ĳs" -> "ijs"), accents stripped ("één" -> "een",
    "ideeën" -> "ideeen").

A folded word may still hold characters other than a-z (digits, apostrophes, ñ):
the callers decide that such a word is no word (dictionary.normalise_word,
scoring.score_round).
"""
from __future__ import annotations

import re
import unicodedata

#: The editions whose folding is defined here, English first (the default).
FOLDINGS = ("en", "fr", "de", "es", "it", "nl")

_LETTERS_ONLY = re.compile(r"[a-z]+\Z")

#: Letters replaced before accents are stripped, per edition (lower case in, out).
_TABLES: dict[str, dict[str, str]] = {
    "en": {},
    "fr": {"œ": "oe", "æ": "ae"},
    "it": {"œ": "oe", "æ": "ae"},
    "de": {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "ẞ": "ss"},
    "es": {},
    "nl": {"ĳ": "ij"},
}
#: Letters kept as they are (never stripped of their mark), per edition.
_KEEP: dict[str, str] = {"es": "ñ"}


def _strip_accents(text: str, keep: str = "") -> str:
    """`text` without combining marks (NFKD), except on the characters of `keep`."""
    out = []
    for ch in text:
        if ch in keep:
            out.append(ch)
            continue
        out.append("".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)))
    return "".join(out)


def fold_word(text: str, lang: str = "en") -> str:
    """The folded form of one written word under edition `lang` (module docstring).

    Trimmed and lower case; the result may still hold characters other than a-z.
    An unknown `lang` raises KeyError (editions.get_edition checks names first).
    """
    w = text.strip().lower()
    if lang == "en":
        if not _LETTERS_ONLY.match(w):
            folded = _strip_accents(w)
            if _LETTERS_ONLY.match(folded):
                return folded
        return w
    table = _TABLES[lang]
    if table:
        w = "".join(table.get(ch, ch) for ch in w)
    return _strip_accents(w, _KEEP.get(lang, ""))


def is_folded_word(word: str) -> bool:
    """True if a folded word is letters a-z only (a candidate word of the board)."""
    return bool(_LETTERS_ONLY.match(word))
