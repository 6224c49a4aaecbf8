"""The page in six languages: every string the page shows is a msgid
of the gettext catalogues in boggle_cv/web/static/i18n/<lang>.po (scripts/page_strings.py
extracts them: t(), tn() and N_() calls in static/*.js, data-i18n elements and
data-i18n-attr attributes of index.html); a msgid missing from a catalogue, or left
untranslated, fails here."""
from __future__ import annotations

import re

import pytest

from scripts.page_strings import (CATALOGUES, LANGS, STATIC, html_messages, js_messages, page_messages,
                                  read_po)

MESSAGES = page_messages()
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_the_extractor_finds_the_page_strings():
    assert len(MESSAGES) > 200
    for key in [("Start a room (I am the host)", None), ("Round {n}", None), ("{n} word", "{n} words"),
                ("{n} point", "{n} points"), ("not in the dictionary", None), ("Edition: {edition}", None),
                ("Language", None), ("e.g. KQ7M2XP", None), ("French", None),
                ("This link works on this computer only. To let phones on the same Wi-Fi join, start the server "
                 "with boggle-cv serve --host 0.0.0.0 and open the page again.", None)]:
        assert key in MESSAGES, key
    # the forms the extractor reads (and those it leaves to an N_ mark elsewhere)
    found = js_messages('t("a {x}", { x }) + tn("{n} cat", "{n} cats", n) + N_("b") + t(VAR) + split("c")'
                        ' + t("d" +\n  "e")')
    assert [(m.msgid, m.plural) for m in found] == [("a {x}", None), ("{n} cat", "{n} cats"), ("b", None), ("de", None)]
    html, problems = html_messages('<p data-i18n>Some  text\n here</p><input placeholder="P" data-i18n-attr="placeholder">'
                                   '<p data-i18n>bad <b>nested</b></p>')
    assert [m.msgid for m in html][:2] == ["Some text here", "P"] and problems


@pytest.mark.parametrize("lang", list(LANGS))
def test_every_string_of_the_page_is_translated_in_each_catalogue(lang):
    headers, entries = read_po(CATALOGUES / f"{lang}.po")
    assert headers["Language"] == lang
    assert headers["Plural-Forms"] == LANGS[lang]
    assert headers["Content-Type"] == "text/plain; charset=UTF-8"
    missing = [k for k in MESSAGES if k not in entries]
    assert not missing, f"{lang}.po lacks {len(missing)} msgid(s) (python scripts/page_strings.py --update): {missing[:5]}"
    empty = [k for k in MESSAGES if not entries[k].msgstr or not all(s.strip() for s in entries[k].msgstr)]
    assert not empty, f"{lang}.po has {len(empty)} untranslated msgid(s): {empty[:5]}"
    unused = [k for k in entries if k not in MESSAGES]
    assert not unused, f"{lang}.po holds msgids the page no longer uses: {unused[:5]}"


@pytest.mark.parametrize("lang", list(LANGS))
def test_translations_keep_the_placeholders_and_the_plural_forms(lang):
    _, entries = read_po(CATALOGUES / f"{lang}.po")
    nplurals = int(re.search(r"nplurals=(\d+)", LANGS[lang]).group(1))  # type: ignore[union-attr]
    for (msgid, plural), e in entries.items():
        if plural is None:
            assert len(e.msgstr) == 1
            assert placeholders(e.msgstr[0]) == placeholders(msgid), (lang, msgid, e.msgstr[0])
        else:
            assert len(e.msgstr) == nplurals, (lang, msgid)
            allowed = placeholders(msgid) | placeholders(plural)
            for form in e.msgstr:  # a form may leave {n} out ("la case douteuse"), never add one
                assert placeholders(form) <= allowed, (lang, msgid, form)
            assert placeholders(e.msgstr[-1]) == placeholders(plural), (lang, msgid, e.msgstr[-1])


def test_english_is_the_text_of_the_page_as_it_was():
    _, entries = read_po(CATALOGUES / "en.po")
    for (msgid, plural), e in entries.items():
        assert e.msgstr == ([msgid] if plural is None else [msgid, plural])


def test_french_punctuation_uses_no_break_spaces():
    _, entries = read_po(CATALOGUES / "fr.po")
    for e in entries.values():
        for s in e.msgstr:
            assert not re.search(r" [:;!?»]|« ", s), s


def test_the_catalogues_and_the_switch_are_served(tmp_path, dictionary):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from boggle_cv.web import ServeConfig, create_app
    with TestClient(create_app(ServeConfig(db_path=tmp_path / "g.sqlite3"), dictionary=dictionary)) as c:
        page = c.get("/").text
        assert 'id="ui-lang"' in page and all(f'<option value="{lang}">' in page for lang in LANGS)
        assert c.get("/static/i18n.js").status_code == 200
        for lang in LANGS:
            res = c.get(f"/static/i18n/{lang}.po")
            assert res.status_code == 200 and f"Language: {lang}" in res.content.decode("utf-8")
            assert "default-src 'self'" in res.headers["content-security-policy"]
    assert (STATIC / "i18n.js").read_text(encoding="utf-8").count("eval(") == 0  # the CSP forbids it


@pytest.mark.parametrize("lang", ["fr", "de", "es", "it", "nl"])
def test_crossed_off_by_several_players_reads_in_the_plural(lang):
    _, entries = read_po(CATALOGUES / f"{lang}.po")
    e = entries[("crossed off: {names} had it too", "crossed off: {names} had it too")]
    assert len(e.msgstr) == 2 and e.msgstr[0] != e.msgstr[1], e.msgstr


def test_german_speaks_to_one_player_as_du():
    _, entries = read_po(CATALOGUES / "de.po")
    for e in entries.values():
        for s in e.msgstr:
            assert not re.search(r"\b(Sie|Ihre?[mnrs]?|Ihnen|euch|eure?[mnrs]?)\b|Macht |Schüttelt ", s), s
