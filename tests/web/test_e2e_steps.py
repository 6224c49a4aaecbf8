"""One screen per step on a phone, in every language, in real browsers (Debian's
chromium through Playwright, one context per phone).

A game to a target of 3 points on three phones whose browsers speak the language
under test: the host at 390 x 844, Ann at 360 x 640, Bob at 390 x 844. At every step,
on every phone: the page itself does not scroll (document.scrollingElement's height
is the window's, nothing sideways), the step's screen is the one shown and nothing of
it spills over (a long list scrolls inside its own panel), and what the step is about
is whole in the viewport, not under anything: join (the name and Join, the keyboard
open too); waiting (who is in; the host's code, QR code and Start); words (the timer,
the box, its saved state; with the keyboard open: the timer, the box); the next
round's waiting (the standings); board check
(the board, Looks right, the question's cell tapped and answered; the board typed
with the keyboard open: the field and its button); my result (my
place, the winner, the podium, my words, "All words"); every player's words one tap
away; the standings; game over (the winner, my final place, New game). The keyboard is
a window 300 px (390 x 844) or 280 px (360 x 640) shorter with the field focused.
Where axe-core is installed (`npm install axe-core` here, or $BOGGLE_CV_AXE naming
axe.min.js), every step has no violation of any impact.

Every tap of a round is counted on each phone (pointerdown events, each field tapped
before typing): BOGGLE_CV_TAPS=FILE keeps the counts as JSON. Screenshots in
$BOGGLE_CV_SCREEN_SHOTS (default /tmp/screen-shots). Skips without chromium or Playwright.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from .conftest import REPO, SAMPLE, RecordedReader, sample_truth  # noqa: E402
from .phones import CHROMIUM, PHONE, Phones, photo_fixtures, wait_until  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no chromium at {CHROMIUM}")

LANGS = ["en", "de", "fr", "es", "it", "nl"]
SMALL = {**PHONE, "viewport": {"width": 360, "height": 640}}
KEYBOARD = {844: 300, 640: 280}  # the keyboard's height on each phone (px)
SHOTS = Path(os.environ.get("BOGGLE_CV_SCREEN_SHOTS", "/tmp/screen-shots"))
#: axe-core, where it is installed (`npm install axe-core` here, or $BOGGLE_CV_AXE): every step checked with it
AXE = [Path(os.environ.get("BOGGLE_CV_AXE", "/nonexistent")), REPO / "node_modules" / "axe-core" / "axe.min.js"]
AXE_SOURCE = next((p.read_text(encoding="utf-8") for p in AXE if p.is_file()), None)
BOARD = "DRML/HCNL/XEHD/YTOC"   # the sample photo's tray, as typed for round 2
# the recorded reading of the sample photo: r2c2 read O at 55% (truly C): "echo" needs the C
TAPS_JS = """
window.__taps = 0;
document.addEventListener("pointerdown", () => { window.__taps += 1; }, true);
"""

#: The checks of a step, run in the page: nothing to scroll, the step's screen shown whole,
#: each selector whole in the window and not under anything else.
STEP_JS = """(sels) => {
  const se = document.scrollingElement, stage = document.querySelector('#stage');
  const out = {sh: se.scrollHeight, ih: innerHeight, sw: se.scrollWidth, iw: innerWidth, bad: [],
               shown: stage ? stage.dataset.shown : null, spill: 0};
  const screen = out.shown && document.querySelector(`.screen[data-screen="${out.shown}"]`);
  if (screen) out.spill = screen.scrollHeight - screen.clientHeight;
  for (const sel of sels) {
    const e = document.querySelector(sel);
    if (!e) { out.bad.push(`${sel}: not there`); continue; }
    const r = e.getBoundingClientRect();
    if (!(r.width >= 1 && r.height >= 1 && r.top >= -0.5 && r.left >= -0.5 && r.bottom <= innerHeight + 0.5
          && r.right <= innerWidth + 0.5)) {
      out.bad.push(`${sel}: at ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
      continue;
    }
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (hit && !e.contains(hit) && !hit.contains(e)) out.bad.push(`${sel}: under ${hit.tagName}#${hit.id}`);
  }
  return out;
}"""


def reading() -> RecordedReader:
    """The sample photo as read: r2c2 read O at 55% (truly C)."""
    faces = [f for row in sample_truth()["faces"] for f in row]
    faces[5] = "O"
    return RecordedReader(faces, {5: ("O", "C", 0.55)})


site, phones = photo_fixtures("steps", reading)


#: True once the stage has come to rest on screen NAME (a tap on the bar moves it smoothly).
SETTLED = """() => { const s = document.querySelector('#stage'), e = s.querySelector('.screen[data-screen="NAME"]');
  return s.dataset.shown === 'NAME' && Math.abs(s.scrollLeft - e.offsetLeft) < 1; }"""


def step(page: Any, lang: str, name: str, screen: str | None, *in_view: str, whole: bool = True) -> None:
    """`page` at step `name`: the page does not scroll, `screen` is the screen shown (and,
    `whole`, it does not spill over), each of `in_view` is whole in the window."""
    got = page.evaluate(STEP_JS, list(in_view))
    where = f"{lang} {name} {page.viewport_size['width']}x{page.viewport_size['height']}"
    page.screenshot(path=str(SHOTS / f"steps-{lang}-{name}-{page.viewport_size['width']}x{page.viewport_size['height']}.png"))
    assert got["sh"] <= got["ih"] and got["sw"] <= got["iw"], (where, "the page scrolls", got)
    if AXE_SOURCE is not None:  # every violation, whatever its impact
        if not page.evaluate("() => typeof window.axe === 'object'"):
            page.evaluate(AXE_SOURCE + "\n;0")
        found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
          .map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)""")
        assert found == [], (where, found)
    assert got["bad"] == [], (where, got["bad"])
    if screen is not None:
        assert got["shown"] == screen, (where, got["shown"])
        if whole:
            assert got["spill"] <= 1, (where, f"the {screen} screen spills over by {got['spill']} px")


def keyboard(page: Any, field: str, lang: str, name: str, *in_view: str) -> None:
    """The keyboard open over `field` (the window shorter by its height): `in_view` still in view."""
    size = dict(page.viewport_size)
    page.set_viewport_size({"width": size["width"], "height": size["height"] - KEYBOARD[size["height"]]})
    page.focus(field)
    try:
        wait_until(page, f"() => document.activeElement === document.querySelector({json.dumps(field)})")
        step(page, lang, f"{name}-keyboard", None, field, *in_view)
    finally:
        page.set_viewport_size(size)


def tap_type(page: Any, field: str, text: str) -> None:
    """A field tapped, then typed into (the keyboard's keys are not taps)."""
    page.click(field)
    page.keyboard.type(text)


def phone(phones: Phones, name: str, lang: str, device: dict[str, Any] = PHONE) -> Any:
    return phones.open(name, TAPS_JS, device={**device, "locale": lang})


def taps(page: Any) -> int:
    return int(page.evaluate("() => window.__taps || 0"))


@pytest.mark.parametrize("lang", LANGS)
def test_one_screen_per_step_on_every_phone(phones, lang):
    SHOTS.mkdir(parents=True, exist_ok=True)
    counted: dict[str, dict[str, int]] = {"host": {}, "Ann": {}, "Bob": {}}

    # the host starts a room on a phone: the lobby is the code, the QR code and Start
    host = phone(phones, "host", lang)
    host.goto(phones.base_url + "/")
    host.wait_for_selector("body[data-ready]")
    host.click("#create")
    host.wait_for_selector("#join-link[href*='?room=']")
    link = host.get_attribute("#join-link", "href")
    assert host.evaluate("() => document.documentElement.lang") == lang
    step(host, lang, "host-lobby", "players", "#start", "#join-code", "#qr", whole=False)
    counted["host"]["room"] = taps(host)
    host.click("#room-nav a[data-screen=settings]")
    host.fill("#set-target", "3")
    host.click("#settings-form button[type=submit]")
    host.wait_for_selector("#settings-msg:not(.busy):not(.error):not([hidden])")
    host.click("#room-nav a[data-screen=players]")  # back to the step (the bar marks it)
    wait_until(host, SETTLED.replace("NAME", "players"))
    counted["host"]["settings"] = taps(host) - counted["host"]["room"]

    # two players join: the name and Join in view, the keyboard open too
    pages = {"Ann": phone(phones, "Ann", lang, SMALL), "Bob": phone(phones, "Bob", lang)}
    for name, page in pages.items():
        page.goto(link)
        page.wait_for_selector("#join:not([hidden])")
        step(page, lang, "join", None, "#join-name", "#join-form button[type=submit]")
        keyboard(page, "#join-name", lang, "join", "#join-form button[type=submit]")
        tap_type(page, "#join-name", name)
        page.click("#join-form button[type=submit]")
        page.wait_for_selector("#room:not([hidden])[data-phase=waiting]")
        page.wait_for_selector(f"#players li:has-text('{name}')")
        step(page, lang, "waiting", "players", "#phase-line", "#players")
        counted[name]["join"] = taps(page)
    host.wait_for_selector("#players li[data-player] >> nth=1")
    step(host, lang, "host-lobby-full", "players", "#start", "#join-code", whole=False)

    # words: the timer, the box and its saved state; with the keyboard open, the timer and the box
    host.click("#start")
    for name, words in (("Ann", "echo\nhex\n"), ("Bob", "next\n")):
        page = pages[name]
        page.wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
        step(page, lang, "words", "words", "#timer", "textarea.words-box", ".save-state")
        tap_type(page, "textarea.words-box", words)
        page.wait_for_selector(".save-state[data-state=saved]")
        keyboard(page, "textarea.words-box", lang, "words", "#timer")
        step(page, lang, "words-saved", "words", "#timer", "textarea.words-box", ".save-state")
    step(host, lang, "host-playing", "players", "#lock", "#players", whole=False)

    # the board check: the photo read, its one question (r2c2, which decides Ann's "echo") on every phone
    host.click("#lock")
    host.wait_for_selector("#room[data-phase=locked]")
    wait_until(host, SETTLED.replace("NAME", "board"))  # the step's screen: the board, without a tap
    host.evaluate("() => { window.__taps += 1; }")  # "Photo of the tray" (the camera's own taps aside)
    host.set_input_files("#photo", str(SAMPLE))
    for label, page in {"host": host, **pages}.items():
        page.wait_for_selector("#room[data-phase=locked] #board .cell.doubtful")
        step(page, lang, f"board-{label}", "board", "#board", "#looks-right", "#board-summary")
    bob = pages["Bob"]
    bob.click("#board .cell.doubtful")
    bob.wait_for_selector("#picker[open]")
    assert bob.evaluate("() => [...document.querySelectorAll('#picker-suggest button')].map((b) => b.dataset.face)") \
        == ["O", "C"]
    bob.click("#picker-suggest button[data-face='C']")
    for page in (host, *pages.values()):
        page.wait_for_selector("#board .cell.fixed[data-cell='1,1'][data-face='C']")
        wait_until(page, "() => !document.querySelector('#board .cell.doubtful')")

    # my result: my place, the winner, the podium, my words, "All words"; then every word, then the standings
    host.click("#score")
    for label, page in {"host": host, **pages}.items():
        page.wait_for_selector("#room[data-phase=scored] #report #winner")
        mine = ("#my-rank", "#my-words") if label != "host" else ()
        step(page, lang, f"result-{label}", "report", *mine, "#winner", "#scores", "#all-words")
        before = sum(v for k, v in counted[label].items() if k != "round")
        counted[label]["round"] = taps(page) - before
    ann = pages["Ann"]
    assert ann.evaluate("() => document.querySelector('#scores tr.me').dataset.player") == "Ann"
    ann.click("#all-words")
    step(ann, lang, "all-words", "report", "#report-all", "#report .pw[data-player='Ann'] h3", "#back-to-result")
    ann.click("#back-to-result")
    ann.click("#to-standings")
    wait_until(ann, SETTLED.replace("NAME", "game"))
    step(ann, lang, "standings", "game", "#standings-table", "#target-line")

    # round 2: Ann reaches 3 points; game over: the winner, my final place, New game
    host.click("#next")
    host.wait_for_selector("#room[data-phase=waiting]")
    for page in pages.values():  # the next round waits on the standings
        page.wait_for_selector("#room[data-phase=waiting]")
        step(page, lang, "waiting-2", "game", "#phase-line", "#standings-table", "#target-line")
    host.click("#start")
    for name, words in (("Ann", "doth\ncote\n"), ("Bob", "hen\n")):
        page = pages[name]
        page.wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
        tap_type(page, "textarea.words-box", words)
        page.wait_for_selector(".save-state[data-state=saved]")
    host.click("#lock")
    host.wait_for_selector("#room[data-phase=locked]")
    host.click("#type-board summary")
    keyboard(host, "#board-input", lang, "board-typing", "#board-form button[type=submit]")
    host.fill("#board-input", BOARD)
    host.click("#board-form button[type=submit]")
    host.wait_for_selector("#board[data-size='4'] .cell >> nth=15")
    host.click("#score")
    for label, page in {"host": host, **pages}.items():
        page.wait_for_selector("#room[data-phase=scored] #game-over")
        extra = ("#final-rank",) if label != "host" else ("#new-game",)
        step(page, lang, f"game-over-{label}", "game", "#champion", *extra, "#phase-h")
    assert "Ann" in ann.inner_text("#champion")
    assert pages["Bob"].inner_text("#final-rank").strip()

    if os.environ.get("BOGGLE_CV_TAPS"):
        out = Path(os.environ["BOGGLE_CV_TAPS"])
        doc = json.loads(out.read_text()) if out.is_file() else {}
        doc[lang] = counted
        out.write_text(json.dumps(doc, indent=1))
    # the room: 1 tap; a round: start, lock, photo, score; joining: the name's field and Join; a
    # round: the box (Bob answers the board's question too: the cell, its face)
    assert counted["host"] == {"room": 1, "settings": 3, "round": 4}, counted
    assert counted["Ann"] == {"join": 2, "round": 1} and counted["Bob"] == {"join": 2, "round": 3}, counted
