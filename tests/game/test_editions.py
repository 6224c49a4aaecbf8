"""Editions (boggle_cv/game/editions.py) through the library: rules, dictionaries, scoring
of players' lists written the way players of each edition write them."""
import pytest

from boggle_cv.game.board import Board
from boggle_cv.game.dictionary import from_words, load_default
from boggle_cv.game.editions import LANGS, default_min_length, get_edition
from boggle_cv.errors import UsageError
from boggle_cv.game.referee import Corrections, RoundRequest, RulesOptions, referee_round
from boggle_cv.game.scoring import Rules, ScoreSheet, score_round


def statuses(sheet, name="a"):
    p = next(p for p in sheet.players if p.name == name)
    return {w.written: (w.word, w.status, w.points) for w in p.words}


def test_editions_and_errors():
    assert LANGS == ("en", "fr", "de", "es", "it", "nl")
    assert get_edition("FR").name == "French"
    with pytest.raises(UsageError, match="unknown edition 'xx'") as e:
        get_edition("xx")
    assert "fr (French)" in e.value.hint and "nl (Dutch)" in e.value.hint
    with pytest.raises(UsageError, match="unknown edition"):
        Rules(lang="klingon")


def test_shortest_word_per_edition():
    # Italian: 4 on 4x4 (Editrice Giochi's box table starts at 4 letters; docs/editions.md)
    assert [default_min_length(4, lang) for lang in LANGS] == [3, 3, 3, 3, 4, 3]
    assert all(default_min_length(5, lang) == 4 for lang in LANGS)
    assert Rules(size=4, lang="it").min_letters == 4 and Rules(size=4, lang="it", min_length=3).min_letters == 3


def test_rules_json_carries_the_edition_and_reads_old_documents_as_english():
    r = Rules(size=4, lang="it")
    d = r.to_dict()
    assert d["lang"] == "it" and d["min_length"] == 4
    assert Rules.from_dict(d) == r
    old = Rules(size=4).to_dict()
    del old["lang"]
    assert Rules.from_dict(old) == Rules(size=4)
    assert Rules.from_dict({**d, "min_length": 3}).min_length == 3


@pytest.mark.parametrize("lang", [l for l in LANGS if l != "en"])
def test_each_shipped_dictionary_loads_with_its_metadata(lang):
    d = load_default(lang)
    assert len(d) > 100_000 and d.source == f"default-{lang}"
    assert d.meta["lang"] == lang and d.meta["words"] == len(d)
    assert d.meta["licence"] and d.meta["licence_file"] == f"{lang}-dict.LICENSE"
    assert load_default(lang) is d  # cached


# (edition, board, player's entries -> (folded, status)), each with its reason
CASES = [
    ("fr", "ETEX/XXXX/XXXX/XXXX", {"Été": ("ete", "scored"), "ÉTÉ": ("ete", "repeated")},
     "French: été is ETE on the cubes"),
    ("fr", "COEU/XXXR/XXXX/XXXX", {"cœur": ("coeur", "scored")}, "French: œ is OE"),
    ("de", "OELX/XXXX/XXXX/XXXX", {"Öl": ("oel", "scored")}, "German: Öl is a 3-letter word, OEL"),
    ("de", "STRA/XESS/XXXX/XXXX", {"Straße": ("strasse", "scored")}, "German: ß is SS"),
    ("de", "BERL/XXNI/XXXX/XXXX", {"Berlin": ("berlin", "not_in_dictionary")}, "German: a city is a proper noun"),
    ("es", "ARBO/XXXL/XXXX/XXXX", {"árbol": ("arbol", "scored")}, "Spanish: accents stripped"),
    ("es", "ANOX/XXXX/XXXX/XXXX", {"año": ("año", "not_a_word")}, "Spanish: Ñ is no face: a ñ-word is no word"),
    ("it", "CITA/XXXX/XXXX/XXXX", {"città": ("citta", "not_on_board")}, "Italian: città needs two T"),
    ("it", "CITT/XXXA/XXXX/XXXX", {"città": ("citta", "scored"), "cit": ("cit", "too_short")},
     "Italian: accents stripped; 3 letters are too short on 4x4"),
    ("nl", "IJSX/XXXX/XXXX/XXXX", {"ĳs": ("ijs", "scored"), "IJs": ("ijs", "repeated")}, "Dutch: ĳ is IJ"),
]


@pytest.mark.parametrize("lang,board,entries,why", CASES, ids=[c[3] for c in CASES])
def test_players_lists_score_as_a_player_of_the_edition_expects(lang, board, entries, why):
    sheet = score_round(Board.parse(board), {"a": list(entries)}, rules=Rules(size=4, lang=lang))
    got = statuses(sheet)
    assert {w: (f, s) for w, (f, s, _) in got.items()} == entries, why
    assert sheet.dictionary_source == f"default-{lang}"


def test_the_report_shows_the_word_as_written_and_as_judged():
    sheet = score_round(Board.parse("ETEX/XXXX/XXXX/XXXX"), {"a": ["Été", "tee"]}, rules=Rules(size=4, lang="fr"))
    words = sheet.to_dict()["players"][0]["words"]
    assert words[0]["word"] == "ete" and words[0]["written"] == "Été"
    assert "written" not in words[1]  # nothing folded but the case
    again = ScoreSheet.from_dict(sheet.to_dict())
    assert again.players[0].words[0].written == "Été" and again.rules.lang == "fr"


def test_english_reports_keep_their_keys():
    sheet = score_round(Board.parse("PERS/LATG/SINE/TERS"), {"a": ["PERT", "Élan"]})
    assert sheet.to_dict()["rules"]["lang"] == "en"
    w = sheet.to_dict()["players"][0]["words"]
    assert "written" not in w[0] and w[1]["written"] == "Élan"  # folding an accent, as English always did


def test_referee_takes_the_edition_from_the_options():
    result = referee_round(RoundRequest(corrections=Corrections(board=Board.parse("OELX/XXXX/XXXX/XXXX")),
                                        options=RulesOptions(lang="de"), players={"a": ["Öl"]}))
    assert result.rules.lang == "de" and result.rules_why["lang"] == "option"
    assert result.sheet.players[0].score == 1
    english = referee_round(RoundRequest(corrections=Corrections(board=Board.parse("OELX/XXXX/XXXX/XXXX"))))
    assert "lang" not in english.rules_why


def test_a_word_list_of_another_language_is_folded_by_the_edition():
    d = from_words(["Straße", "Öl"], lang="de")
    assert "strasse" in d and "oel" in d
    en = from_words(["Straße", "Öl"])
    assert len(en) == 0


def test_the_library_names_the_editions():
    import boggle_cv
    assert boggle_cv.LANGS[0] == "en" and "fr" in boggle_cv.EDITIONS
    assert boggle_cv.fold_word("Straße", "de") == "strasse"
    assert boggle_cv.load_default_dictionary("de").meta["lang"] == "de"


def test_read_board_refuses_an_unknown_edition():
    import numpy as np
    from boggle_cv import read_board
    with pytest.raises(UsageError, match="unknown edition"):
        read_board(np.zeros((100, 100, 3), np.uint8), lang="xx")
