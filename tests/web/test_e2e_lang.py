"""The room in French on two phones, one of them set to German, in
real browsers (chromium through Playwright, 390 px phones): the host's phone speaks
French (its browser's language), chooses the French edition for the room and plays too;
the other phone opens in English (its browser's language), is switched to German with
the page's switch, and its player writes French words with their accents ("été",
"Êtes"): they are folded the French way and scored by the French dictionary, because the
rules are the room's edition, not the page's language. The report reads in each phone's
language. BOGGLE_CV_DOCS_SCREENSHOT=1 refreshes docs/images/web_fr_de.png (the German
phone's report). Skips without chromium or Playwright."""
from __future__ import annotations

import sqlite3

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from .conftest import LiveServer  # noqa: E402
from .phones import ARGS, CHROMIUM, PHONE, Phones, make_app, scroll_width, shot, wait_until  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no chromium at {CHROMIUM}")

#: French words on it: ETE (été), ETES (êtes), AMI, AMIS, MOT, LOT.
FR_BOARD = "ETES/AMIR/LOTU/NDEC"


def chips(page) -> dict[str, str]:
    """word -> status of the report's word buttons (the players' words, not the missed ones)."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#report .pw button.chip')]
                                  .map((b) => [b.dataset.word, b.dataset.status]))""")


def test_a_french_room_with_a_phone_set_to_german(tmp_path, scanner_factory, dictionary):
    db = tmp_path / "games.sqlite3"
    with LiveServer(make_app(db, scanner_factory, dictionary)) as live:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
            phones = Phones(browser, live.url)
            # ---- Marie's phone speaks French: the page follows the browser's language
            marie = phones.open("Marie", device={**PHONE, "locale": "fr-FR"})
            marie.goto(live.url + "/")
            marie.wait_for_selector("body[data-ready]")
            assert marie.evaluate("() => document.documentElement.lang") == "fr"
            assert marie.inner_text("#create") == "Créer une salle (je suis l'hôte)"
            assert marie.input_value("#ui-lang") == "fr"
            marie.click("#create")
            marie.wait_for_selector("#join-link[href*='?room=']")
            link, code = marie.get_attribute("#join-link", "href"), marie.inner_text("#join-code")
            assert marie.inner_text("#settings-h") == "Réglages"
            # the host chooses the room's edition (and no timer: the host locks the lists)
            marie.select_option("#set-lang", "fr")
            marie.check("#set-untimed")
            marie.click("#settings-form button[type=submit]")
            marie.wait_for_selector("#settings-msg:not(.busy):not(.error):has-text('Enregistré')")
            # ... and plays too, on the same phone
            marie.fill("#add-name", "Marie")
            marie.click("#add-form button[type=submit]")
            marie.wait_for_selector("#words-section:not([hidden]) textarea.words-box")
            assert marie.inner_text(".words-label") == "Mots de Marie"

            # ---- Hans's phone opens in English (its browser's), switched to German on the page
            hans = phones.open("Hans")
            hans.goto(link)
            hans.wait_for_selector("#join:not([hidden])")
            assert hans.evaluate("() => document.documentElement.lang") == "en"
            assert hans.inner_text("#join-h") == f"Join room {code}"   # English as it always was
            hans.select_option("#ui-lang", "de")                       # the page reloads in German
            hans.wait_for_selector(f"#join-h:text-is('Raum {code} beitreten')")
            hans.wait_for_selector("body[data-ready]")
            assert hans.evaluate("() => document.documentElement.lang") == "de"
            assert hans.evaluate("() => localStorage.getItem('boggle-cv.lang')") == "de"
            assert hans.get_attribute("#join-name", "placeholder") == "z. B. Anna"
            hans.fill("#join-name", "Hans")
            hans.click("#join-form button[type=submit]")
            hans.wait_for_selector("#room:not([hidden]) #words-section:not([hidden])")
            assert hans.inner_text(".words-label") == "Wörter von Hans"
            marie.wait_for_selector("#players li[data-player] >> nth=1")

            # ---- the round: the French edition on both phones, each in its own language
            marie.click("#start")
            for page in (marie, hans):
                page.wait_for_selector("#room[data-phase=playing]")
            assert hans.inner_text("#edition") == "Ausgabe: Französisch"
            assert marie.is_hidden("#edition")  # the page's own language: not said on every card
            assert hans.inner_text("#phase-h") == "Runde 1" and marie.inner_text("#phase-h") == "Manche 1"
            assert hans.inner_text("#phase-line").startswith("Finde Wörter!")
            marie.fill("textarea.words-box", "mot\namis\nlot")
            marie.wait_for_selector(".save-state[data-state=saved]:has-text('3 mots')")
            hans.fill("textarea.words-box", "été\nAmis\nÊtes")   # French words, typed on the German page
            hans.wait_for_selector(".save-state[data-state=saved]:has-text('3 Wörter')")
            marie.click("#lock")
            for page in (marie, hans):
                page.wait_for_selector("#room[data-phase=locked]")
            assert hans.inner_text("#timer") == "Gesperrt"
            marie.click("#type-board summary")
            marie.fill("#board-input", FR_BOARD)
            marie.click("#board-form button[type=submit]")
            hans.wait_for_selector("#board-view:not([hidden])")
            wait_until(hans, f"() => document.querySelector('#board-text').textContent === '{FR_BOARD}'")
            marie.click("#score")

            # ---- the report: the French rules on both phones, in German on Hans's
            for page in (marie, hans):
                page.wait_for_selector("#report #winner")
            want = {"mot": "scored", "lot": "scored", "amis": "crossed_off", "ete": "scored", "etes": "scored"}
            for page in (marie, hans):
                assert chips(page) == want
                assert page.get_attribute("#report-edition", "data-lang") == "fr"
            assert hans.inner_text("#winner") == "Gleichstand: Marie und Hans mit je 2 Punkten."
            assert marie.inner_text("#winner") == "Égalité\u00a0: Marie et Hans avec 2 points chacun."
            assert hans.inner_text("#report-edition") == "Ausgabe: Französisch"
            ete = hans.locator("#report button.chip[data-word=ete]")
            assert "(été)" in ete.inner_text()                            # as Hans wrote it
            assert "geschrieben „été“" in (ete.get_attribute("aria-label") or "")
            assert hans.inner_text("#report .pw[data-player=Hans] h3") == "Hans · 2 Punkte"
            assert marie.inner_text("#report .pw[data-player=Hans] h3") == "Hans · 2 points"
            assert scroll_width(hans) <= PHONE["viewport"]["width"]
            shot(hans, tmp_path, "web_fr_de", "#report-section")
            marie.evaluate("() => window.scrollTo(0, 0)")
            marie.screenshot(path=str(tmp_path / "web_fr_host.png"), scale="css")
            print(f"screenshots: {tmp_path}/web_fr_de.png {tmp_path}/web_fr_host.png")
            assert phones.problems == [], phones.problems
            browser.close()
    with sqlite3.connect(db) as conn:
        assert [r[0] for r in conn.execute("SELECT lang FROM rounds")] == ["fr"]
