"""names.clean_name / name_key: the one rule for the names people type (room players,
game names, /api/score and /api/rounds players, --player on the command line)."""
from __future__ import annotations

import pytest

from boggle_cv.errors import UsageError, WordListError
from boggle_cv.game.names import MAX_NAME, clean_name, name_key, without_surrogates
from boggle_cv.game.wordlists import parse_player_option


@pytest.mark.parametrize("given, kept", [
    ("Ann", "Ann"),
    ("  ann   lee ", "ann lee"),
    ("Ann\u00a0Lee", "Ann Lee"),                # no-break space: a space
    ("\uff21\uff2e\uff2e", "ANN"),               # full-width letters
    ("\ufb01ona", "fiona"),                      # the fi ligature
    ("Zo\u00eb O'Brien \U0001f642", "Zo\u00eb O'Brien \U0001f642"),
    ("Zoe\u0308", "Zo\u00eb"),                   # e + combining diaeresis: one letter
    ("x" * MAX_NAME, "x" * MAX_NAME),
])
def test_names_kept(given, kept):
    assert clean_name(given) == kept


@pytest.mark.parametrize("given, fragment", [
    ("", "empty"),
    ("   ", "empty"),
    (None, "text"),
    (42, "text"),
    ("x" * (MAX_NAME + 1), "longer than 40"),
    ("Ann\x7f", "control"),                       # DEL
    ("Ann\x85", "control"),                       # C1 next line
    ("Ann\x9b31m", "control"),                    # C1 CSI
    ("a\x1b[2Jb", "control"),                     # ESC
    ("a\nb", "control"),
    ("a\tb", "control"),
    ("Ann\u200b", "invisible"),                   # zero-width space
    ("An\u200dn", "invisible"),                   # zero-width joiner
    ("\u202eAnn", "invisible"),                   # right-to-left override
    ("Ann\u2066", "invisible"),                   # left-to-right isolate
    ("Ann\u00ad", "invisible"),                   # soft hyphen
    ("\ufeffAnn", "invisible"),                   # byte order mark
    ("Ann\ue000", "invisible"),                   # private use
    ("Eve\ud800", "invisible"),                   # lone surrogate
    ("Ann\U000e0001", "invisible"),               # language tag
    ("Ann\u0378", "invisible"),                   # unassigned
])
def test_names_refused(given, fragment):
    with pytest.raises(UsageError) as err:
        clean_name(given)
    assert fragment in err.value.message


def test_the_message_names_what_was_typed():
    with pytest.raises(UsageError, match="game name is empty"):
        clean_name(" ", "game name")


@pytest.mark.parametrize("a, b", [("Ann", "ann"), ("Ann", "\uff21\uff2e\uff2e"), ("STRASSE", "stra\u00dfe"),
                                  ("\ufb01", "FI"), ("Zo\u00eb", "ZOE\u0308")])
def test_one_name_however_written(a, b):
    assert name_key(clean_name(a)) == name_key(clean_name(b))


def test_different_names_stay_different():
    assert name_key("Ann") != name_key("Anne")


def test_stored_lone_surrogates_are_shown_as_replacement_characters():
    assert without_surrogates("Eve\ud800") == "Eve\ufffd"
    assert without_surrogates("Zo\u00eb \U0001f642") == "Zo\u00eb \U0001f642"


def test_command_line_player_names_follow_the_same_rule():
    assert parse_player_option("\uff21nn=a.txt") == ("Ann", "a.txt")
    for bad in ("Ann\u200b=a.txt", "\u202eAnn=a.txt", "Ann\x7f=a.txt"):
        with pytest.raises(WordListError):
            parse_player_option(bad)
