"""The page in six languages: every string the page shows is a msgid
of the gettext catalogues in boggle_cv/web/static/i18n/<lang>.po (scripts/page_strings.py
extracts them: t(), tn() and N_() calls in static/*.js, data-i18n elements and
data-i18n-attr attributes of index.html); a msgid missing from a catalogue, or left
untranslated, fails here, as does text the page shows some other way (an English
literal outside t(), text of index.html outside data-i18n), a number counted without
plural forms, and German that speaks to a player as anything but du."""
from __future__ import annotations

import re

import pytest

from scripts.page_strings import (CATALOGUES, LANGS, PLACEHOLDER as VALUE, STATIC, html_messages, js_messages,
                                  page_messages, read_po, reads_as_english, shown_literals, unmarked_text)

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


#: Literals a module holds that no player sees: (file, text) -> why.
NOT_SHOWN = {("errors.js", f"no param {VALUE}"): "a missing param's error, caught: the server's English is shown"}
#: Text of index.html that stays as it is in every language: the name, a board, the languages in their own.
AS_IT_IS = {"boggle-cv", "<input placeholder='PERS/LATG/SINE/TERS'>",
            "English", "Français", "Deutsch", "Español", "Italiano", "Nederlands"}


def test_the_finders_of_text_shown_without_a_catalogue():
    found = [lit.text for lit in shown_literals(
        'h("span", {}, `✎ by ${c.by}`); say(m, "Lists are locked"); $("#players li.name"); t("ok {x}", { x: "by the way" });'
        ' el.className = "ts-points ts-fit"; h("p", { class: "words" }); // not a word of the page\n'
        ' const re = /the "word" of/; x = a / b / c; f(`${n}×${n}, `); throw new Error(`no param ${k}`);')]
    assert found == [f"✎ by {VALUE}", "Lists are locked", f"no param {VALUE}"]
    assert not reads_as_english("not_on_board") and not reads_as_english("#report button.chip[aria-pressed=true]")
    assert unmarked_text('<p data-i18n>Fine</p><p>Not marked</p><code>[Th]</code><span translate="no">boggle-cv</span>'
                         '<input placeholder="Your name"><img alt="QR code" data-i18n-attr="alt">') == \
        ["Not marked", "<input placeholder='Your name'>"]


def test_no_text_is_shown_without_the_catalogues():
    """Every literal of the page's modules a player would read goes through t()/tn(), and
    every text of index.html is marked data-i18n (or is one of AS_IT_IS)."""
    shown = [(js.name, lit.line, lit.text) for js in sorted(STATIC.glob("*.js"))
             for lit in shown_literals(js.read_text(encoding="utf-8")) if (js.name, lit.text) not in NOT_SHOWN]
    assert not shown, f"shown without t(): {shown[:5]}"
    unmarked = [x for x in unmarked_text((STATIC / "index.html").read_text(encoding="utf-8")) if x not in AS_IT_IS]
    assert not unmarked, f"index.html shows text outside data-i18n: {unmarked[:5]}"


def test_a_number_of_things_is_counted_with_plural_forms():
    """A count of things is a tn() with both forms (never t("{n} words") or "cell(s)")."""
    counted = re.compile(r"\{(n|count)\} (?!was\b|has\b|does\b)[a-z]{2,}s\b")
    for (msgid, plural), where in MESSAGES.items():
        if plural is None:
            assert not counted.search(msgid), f"{msgid!r} ({where}) counts without plural forms: use tn()"
        assert "(s)" not in msgid and (plural is None or "(s)" not in plural), msgid
    for lang in LANGS:
        for e in read_po(CATALOGUES / f"{lang}.po")[1].values():
            assert not any("(s)" in s for s in e.msgstr), (lang, e.msgstr)


#: A German clause that starts with a verb in "ihr" form and its object: "Fotografiert das", "(oder) tippt es".
IHR_IMPERATIVE = re.compile(r"(?:^|[.:;!?(]\s*|,\s*|\b(?:oder|und)\s+)([A-Za-zÄÖÜäöüß]+[^s\W]t)\s+(das|die|den|dem|es|eure?|euch)\b")
NOT_VERBS = {"jetzt", "tritt", "nicht", "erst", "bitte", "gilt", "ist", "hat", "mit"}  # "tritt dem Raum bei" is du's


def test_german_speaks_to_one_player_as_du():
    """du throughout: no formal Sie, no ihr/euch/eure (nor the possessive ihr, which a
    player reads as "you all"), no imperative in the ihr form ("Fotografiert das Spielfeld")."""
    _, entries = read_po(CATALOGUES / "de.po")
    for e in entries.values():
        for s in e.msgstr:
            assert not re.search(r"\b(Sie|Ihnen)\b", s), s
            assert not re.search(r"\b(ihr|ihre[mnrs]?|euch|euer|eure[mnrs]?)\b", s, re.I), s
            verbs = [m.group(1) for m in IHR_IMPERATIVE.finditer(s) if m.group(1).lower() not in NOT_VERBS]
            assert not verbs and not re.search(r"Macht |Schüttelt ", s), (verbs, s)
    assert IHR_IMPERATIVE.findall("Fotografiert das Spielfeld (oder tippt es ein), prüft die Felder") == \
        [("Fotografiert", "das"), ("tippt", "es"), ("prüft", "die")]
