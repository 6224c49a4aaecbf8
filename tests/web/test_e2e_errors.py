"""The server's errors in the phone's language, in real browsers
(chromium through Playwright, 390 px phones): a phone set to German that joins with a
name already taken reads the refusal in German; a phone set to French that sends the
tray's photo as its sheet reads "no writing" in French. Then every code of the
server's table (boggle_cv/error_codes.py) is shown through the page's own table
(static/errors.js) in each of the six languages: translated, every placeholder filled;
an unknown code or a missing param shows the server's English text, never a blank.
Skips without chromium or Playwright."""
from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from boggle_cv.error_codes import CODES  # noqa: E402

from .conftest import SAMPLE, LiveServer  # noqa: E402
from .phones import ARGS, CHROMIUM, PHONE, Phones, make_app  # noqa: E402
from .test_e2e_table import host_click, new_room  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no chromium at {CHROMIUM}")

MSG = "[data-role=sheet-msg]"  # the message under the words box about its sheet
READ_S = 90_000                # a sheet read on a busy 2-core machine (about 2 s alone)
LANGS = ["en", "fr", "de", "es", "it", "nl"]

#: Every code shown in every language by the page's own modules, plus the fallbacks.
SHOW_ALL = """async (codes) => {
  const i18n = await import("/static/i18n.js");
  const errors = await import("/static/errors.js");
  const sample = (name) => (name === "name" || name === "word" ? "Zoë" : name === "cell" ? "r2c3"
                            : name === "phase" ? "playing" : 7);
  const out = {};
  for (const lang of %s) {
    await i18n.loadLanguage(lang);
    for (const [code, names] of Object.entries(codes)) {
      const params = Object.fromEntries(names.map((n) => [n, sample(n)]));
      out[`${lang} ${code}`] = errors.serverErrorText({ error: "E", hint: "H", kind: "K", code, params }, 409);
    }
    out[`${lang} unknown`] = errors.serverErrorText({ error: "E", hint: "H", code: "room.from_the_future", params: {} }, 409);
    out[`${lang} missing`] = errors.serverErrorText({ error: "E", hint: null, code: "room.full", params: {} }, 409);
    out[`${lang} old`] = errors.serverErrorText({ error: "E", hint: "H", kind: "RoomNotFound" }, 404);
    out[`${lang} blank`] = errors.serverErrorText(null, 502);
  }
  await i18n.loadLanguage(document.documentElement.dataset.testLang);
  return out;
}""" % LANGS


def test_errors_in_the_phones_language(tmp_path, scanner_factory, dictionary):
    db = tmp_path / "games.sqlite3"
    with LiveServer(make_app(db, scanner_factory, dictionary)) as live, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            phones = Phones(browser, live.url)
            host, link, _code = new_room(phones)  # the host's phone in English
            # ---- Marie's phone speaks French and joins
            marie = phones.open("marie", device={**PHONE, "locale": "fr-FR"})
            marie.goto(link)
            marie.wait_for_selector("#join:not([hidden])")
            assert marie.evaluate("() => document.documentElement.lang") == "fr"
            marie.fill("#join-name", "Marie")
            marie.click("#join-form button[type=submit]")
            marie.wait_for_selector("#room:not([hidden]) #words-section:not([hidden])")

            # ---- Hans's phone speaks German; "marie" is taken: the refusal in German
            hans = phones.open("hans", device={**PHONE, "locale": "de-DE"})
            hans.goto(link)
            hans.wait_for_selector("#join:not([hidden])")
            assert hans.evaluate("() => document.documentElement.lang") == "de"
            hans.fill("#join-name", " marie ")
            hans.click("#join-form button[type=submit]")
            hans.wait_for_selector("#join-msg.error")
            assert hans.inner_text("#join-msg") == "„marie“ spielt schon in diesem Raum (wähle einen anderen Namen)"
            hans.fill("#join-name", "Hans")
            hans.click("#join-form button[type=submit]")
            hans.wait_for_selector("#room:not([hidden]) #words-section:not([hidden])")

            # ---- Marie sends the tray's photo as her sheet: "no writing", in French
            host_click(host, "#start", "playing")
            marie.wait_for_selector("#room[data-phase=playing]")
            marie.wait_for_selector(".sheet-input", state="attached")
            marie.set_input_files(".sheet-input", str(SAMPLE))
            marie.wait_for_selector(f"{MSG}.error", timeout=READ_S)
            err = marie.inner_text(MSG)
            assert err == ("La feuille n'a pas été lue\u00a0: Aucune écriture trouvée sur la photo (photographiez la "
                           "feuille d'un joueur, les mots assez foncés pour être vus). La liste est restée telle "
                           "quelle."), err

            # ---- every code, in every language, through the page's own table
            hans.evaluate("() => { document.documentElement.dataset.testLang = 'de'; }")
            shown = hans.evaluate(SHOW_ALL, {code: list(params) for code, params in CODES.items()})
            assert hans.evaluate("() => document.documentElement.lang") == "de"
            for lang in LANGS:
                assert shown[f"{lang} unknown"] == "E (H)" and shown[f"{lang} missing"] == "E"
                assert shown[f"{lang} old"] == "E (H)" and shown[f"{lang} blank"]
                for code, params in CODES.items():
                    text = shown[f"{lang} {code}"]
                    assert text not in ("E", "E (H)") and "{" not in text and "undefined" not in text, (lang, code)
                    if lang != "en":
                        assert text != shown[f"en {code}"], (lang, code, "not translated")
            for code, params in CODES.items():  # the params show where the message names them
                if "name" in params or "word" in params:
                    assert all("Zoë" in shown[f"{lang} {code}"] for lang in LANGS), code
            assert shown["de room.full"] == "Der Raum ist voll (7 Spieler)"
            assert shown["de settings.timer"] == "Die Zeit muss zwischen 7 und 7 Sekunden liegen oder aus sein"
            assert shown["fr request.rate_limited"].endswith("(réessayez dans 7 secondes)")
            assert not phones.problems, phones.problems
        finally:
            browser.close()
