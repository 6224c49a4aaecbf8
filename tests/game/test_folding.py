"""Folding per edition (boggle_cv/game/folding.py): one table of cases per language, each
with where the rule comes from. The same folding serves the dictionary and the
players' words, so a case holds for both (checked at the end of each table)."""
import pytest

from boggle_cv.game.dictionary import normalise_word
from boggle_cv.game.folding import FOLDINGS, fold_word, is_folded_word

# (written, folded, source)
FRENCH = [
    ("Été", "ete", "French strips accents; the fr-4 cubes carry no accented face"),
    ("ÉLÈVE", "eleve", "accents on capitals are accents too (Académie française: capitals keep accents)"),
    ("cœur", "coeur", "œ -> oe (the ligature is two letters, o e)"),
    ("Œuf", "oeuf", "the same, capital Œ"),
    ("ex æquo", "ex aequo", "æ -> ae; the space stays (not a word: see the scoring tests)"),
    ("naïf", "naif", "the diaeresis is an accent"),
    ("garçon", "garcon", "the cedilla is an accent (NFKD: c + U+0327)"),
    ("aujourd'hui", "aujourd'hui", "an apostrophe is not folded: the entry is no word"),
]
GERMAN = [
    ("Öl", "oel", "the German box: Ö is written OE, so Öl is a 3-letter word"),
    ("Straße", "strasse", "amtliches Regelwerk 2006 §25 E3: ß is written SS where it cannot be written"),
    ("STRAẞE", "strasse", "the capital ẞ (U+1E9E) is ß"),
    ("Bär", "baer", "DIN 5007-2: ä as ae"),
    ("Müller", "mueller", "DIN 5007-2: ü as ue"),
    ("Café", "cafe", "other accents (loan words) are stripped"),
    ("Häuser", "haeuser", "an umlaut inside a word"),
]
SPANISH = [
    ("canción", "cancion", "Spanish strips accents"),
    ("ÁRBOL", "arbol", "accents on capitals (RAE Ortografía 2010: capitals keep the tilde)"),
    ("pingüino", "pinguino", "the diaeresis is stripped too"),
    ("año", "año", "RAE Ortografía 2010: ñ is a letter of its own; no cube carries it, so the word "
                   "stays as written and is no word here (docs/editions.md)"),
    ("NIÑO", "niño", "the same, capital Ñ"),
]
ITALIAN = [
    ("perché", "perche", "Italian strips accents"),
    ("città", "citta", "the grave accent"),
    ("PERCHÉ", "perche", "capitals"),
    ("l'amico", "l'amico", "an elision keeps its apostrophe: no word"),
]
DUTCH = [
    ("ĳs", "ijs", "the ligature ĳ (U+0133) is i + j (Woordenlijst: IJ is one sound, two letters on the cubes)"),
    ("ĲSBEER", "ijsbeer", "the capital ligature Ĳ (U+0132)"),
    ("IJs", "ijs", "written as two letters already"),
    ("één", "een", "accents of stress are stripped"),
    ("ideeën", "ideeen", "the trema is stripped"),
]
ENGLISH = [
    ("Élan", "elan", "English as before: accents folded when only a-z is left"),
    ("naïve", "naive", "the same"),
    ("cœur", "cœur", "English folds no ligature: the word stays (no word)"),
    ("Straße", "straße", "nor ß"),
]
TABLES = {"fr": FRENCH, "de": GERMAN, "es": SPANISH, "it": ITALIAN, "nl": DUTCH, "en": ENGLISH}


@pytest.mark.parametrize("lang,written,folded,source",
                         [(lang, *case) for lang, cases in TABLES.items() for case in cases],
                         ids=lambda v: v if isinstance(v, str) and len(v) < 12 else None)
def test_folding_table(lang, written, folded, source):
    assert source  # every case says where it comes from
    assert fold_word(written, lang) == folded


@pytest.mark.parametrize("lang", [l for l in FOLDINGS if l != "en"])
def test_the_dictionary_folds_as_the_players_words(lang):
    for written, folded, _ in TABLES[lang]:
        want = folded if is_folded_word(folded) and "q" not in folded else None
        assert normalise_word(written, lang) == want


def test_english_dictionary_lines_are_not_folded():
    # the English dictionary keeps its rule: an accented line is no word
    assert normalise_word("café") is None and normalise_word("café", "fr") == "cafe"


def test_every_edition_has_a_folding():
    from boggle_cv.game.editions import LANGS
    assert set(LANGS) == set(FOLDINGS)
