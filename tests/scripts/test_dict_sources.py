"""scripts/dict_sources.py: the filters of the editions' word lists, on small made-up
inputs (the Debian packages themselves are needed only to build)."""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import dict_sources as S  # noqa: E402


def test_every_edition_but_english_has_a_source_with_licence_and_filters():
    assert set(S.SOURCES) == {"fr", "de", "es", "it", "nl"}
    for src in S.SOURCES.values():
        assert src.licence and src.copyright and src.licence_note and src.filters
        assert ("GPL" in src.licence) == ("General Public License" in src.licence_note)


def test_spanish_enclitic_flags_are_the_flags_whose_every_rule_adds_a_pronoun(tmp_path):
    aff = tmp_path / "es.aff"
    aff.write_text("SET UTF-8\n"
                   "SFX R Y 3\nSFX R ar o ar\nSFX R ar amos ar\nSFX R ar áis ar\n"      # conjugation: kept
                   "SFX À Y 2\nSFX À 0 la r\nSFX À 0 los r\n"                             # comerla: enclitic
                   "SFX Ã Y 2\nSFX Ã ar ármelo ar\nSFX Ã ar ártela ar\n"                  # dármelo: enclitic
                   "SFX N Y 1\nSFX N a illa a\n"                                          # diminutive: kept
                   "SFX T Y 1\nSFX T r ble ar\n", encoding="utf-8")                       # -ble: kept
    assert S.enclitic_flags(aff) == {"À", "Ã"}


def test_italian_clitic_rules_and_witalian_clitics():
    for add in ("mi", "lo", "ala", "ami", "glielo", "tela"):  # amato -> amatolo, amata + mi
        assert S._IT_CLITIC_RULE.fullmatch(add), add
    for add in ("a", "e", "i", "issimo", "ina", "hi", "zione"):
        assert not S._IT_CLITIC_RULE.fullmatch(add), add
    dropped: Counter[str] = Counter()
    words = ["intendere", "intenderle", "dandogli", "porta", "parlare", "parlarne", "gatto", "cavalli"]
    assert S.italian_without_clitics(words, dropped) == ["intendere", "porta", "parlare", "gatto", "cavalli"]
    assert sum(dropped.values()) == 3


def test_german_names_go_unless_hunspell_makes_them_common_nouns(monkeypatch):
    monkeypatch.setattr(S, "scowl_names", lambda: {"Berlin", "Peter", "Bach", "Wade"})
    monkeypatch.setattr(S, "german_nouns", lambda: {"Bach", "Wade"})
    dropped: Counter[str] = Counter()
    kept = S.german(["Berlin", "Berlins", "Peter", "Bach", "Bachs", "Wade", "essen", "Haus", "DDR", "CDs"], dropped)
    assert kept == ["Bach", "Bachs", "Wade", "essen", "Haus"]
    assert sum(dropped.values()) == 5


def test_coverage_both_ways_over_3_to_16_letters():
    ours = {"chat", "chien", "an", "maison"}
    theirs = {"chat", "chien", "oiseau", "x" * 17}
    c = S.coverage(ours, theirs)
    assert c["ours_3_16"] == 3 and c["theirs_3_16"] == 3 and c["both"] == 2
    assert c["theirs_in_ours_percent"] == 66.67 and c["ours_in_theirs_percent"] == 66.67
