"""The table screen and a game to its target, in real browsers (Debian's chromium
through Playwright): the host on a 1280 x 800 laptop (the table screen beside the
controls), the table screen's own link on a 1920 x 1080 TV and a 1280 x 800 laptop,
three phones at 390 x 844, one browser context each.

At each step it checks what is in the viewport, not just on the page: the join code
and the QR code in the lobby, the players arriving, the clock, the board read; once a
round is scored its story (the podium, the best word with its path drawn on the board
and who found it, words everyone missed with their points, the standings); the game
over as a screen of its own (the winner, the final standings, the next game's code),
all without scrolling; on every phone the player's own rank once scored. Every step
of every screen, phone and page is checked with axe-core: zero violations of any
impact. axe-core comes from `bash scripts/install-system-packages.sh` (or `npm install
axe-core` here; node_modules/ is ignored) or `$BOGGLE_CV_AXE` naming axe.min.js;
without it the axe checks fail in CI (BOGGLE_CV_CI=1 or CI=true, as .ci/run sets) and
are left out, with a warning, elsewhere.

The layout test draws every step's real view (played through the API: screen_views.py)
at 1920 x 1080, 1280 x 800 and beside the host's controls at 1280 px, in English,
German and French, with long names and with 12 players: no scrolling, no name cut or
broken, nothing in English on a German or French screen. The outage test stops the
server during the clock: the screen says it is reconnecting (the clock no longer looks
live), and catches up once the server is back.

Screenshots go to $BOGGLE_CV_SCREEN_SHOTS (default /tmp/screen-shots). Skips without
chromium or Playwright.
"""
from __future__ import annotations

import json
import os
import re
import urllib.request
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from .conftest import REPO, LiveServer  # noqa: E402
from .phones import (CHROMIUM, LAPTOP, WIDTH, make_app, phones_on, scroll_width, table_fixtures,  # noqa: E402
                     wait_until)
from .screen_views import Api, Game, draw  # noqa: E402
from .test_e2e_table import host_click, join, new_room, saved, typed_board  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no chromium at {CHROMIUM}")

BOARD = "PERS/LATG/SINE/TERS"
TV = {"viewport": {"width": 1920, "height": 1080}, "device_scale_factor": 1, "reduced_motion": "reduce"}
WIDE = {**LAPTOP, "reduced_motion": "reduce"}  # a player arriving bounces: axe reads colours at rest
AXE = [Path(os.environ.get("BOGGLE_CV_AXE", "/nonexistent")), REPO / "node_modules" / "axe-core" / "axe.min.js"]
SHOTS = Path(os.environ.get("BOGGLE_CV_SCREEN_SHOTS", "/tmp/screen-shots"))
STORY_S = 12  # screen.js STORY_MS: the game's last round is told this long before the game over

site, phones = table_fixtures("screen")


def in_ci() -> bool:
    return os.environ.get("BOGGLE_CV_CI") == "1" or os.environ.get("CI", "").lower() in ("1", "true")


@pytest.fixture(scope="module")
def axe() -> str | None:
    """axe-core's source; missing: a failure in CI, a warning elsewhere (the checks are left out)."""
    source = next((p.read_text(encoding="utf-8") for p in AXE if p.is_file()), None)
    if source is None:
        how = "bash scripts/install-system-packages.sh (or npm install axe-core here, or $BOGGLE_CV_AXE)"
        if in_ci():
            pytest.fail(f"axe-core is missing in CI: {how}")
        warnings.warn(f"axe-core is missing: the accessibility checks are left out ({how})", stacklevel=2)
    return source


def violations(page: Any, source: str | None, within: str | None = None) -> list[str]:
    """axe-core's violations of any impact on the page as it is now (or within one element)."""
    if source is None:
        return []
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source + "\n;0")
    found = page.evaluate("""async (within) => (await axe.run(within ? {include: [within]} : document,
        {resultTypes: ['violations']})).violations
      .map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)""", within)
    return [str(v) for v in found]


def fits(page: Any) -> bool:
    """Nothing to scroll: the page is no taller and no wider than the window."""
    return bool(page.evaluate("""() => document.documentElement.scrollHeight <= innerHeight + 1
                                       && document.documentElement.scrollWidth <= innerWidth + 1"""))


def visible_in(page: Any, selector: str) -> bool:
    """The whole element is inside the window (at least 1 px tall and wide)."""
    return bool(page.evaluate("""(sel) => { const e = document.querySelector(sel); if (!e) return false;
      const r = e.getBoundingClientRect(); return r.width >= 1 && r.height >= 1 && r.top >= 0 && r.left >= 0
        && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1; }""", selector))


def font_px(page: Any, selector: str) -> float:
    return float(page.evaluate("(s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)", selector))


#: Every name (and word) the screen shows whole: [text, cut or overflowing, wrapped, its box] for each.
NAMES = """(box) => [...document.querySelectorAll(`${box} .ts-fit, ${box} .ts-nobr`)].map((e) => {
  const r = e.getBoundingClientRect(), line = parseFloat(getComputedStyle(e).lineHeight) || parseFloat(getComputedStyle(e).fontSize) * 1.3;
  const nobr = e.classList.contains('ts-nobr');
  return [e.textContent, !nobr && e.scrollWidth > e.clientWidth + 1, e.getClientRects().length > 1 || (!nobr && r.height > line * 1.6),
          [r.left, r.right]]; })"""


def names_whole(page: Any, box: str) -> list[Any]:
    """The names (and words) in `box` that are cut, overflowing or broken over lines."""
    width = page.evaluate("(b) => document.querySelector(b).getBoundingClientRect().right", box)
    return [n for n in page.evaluate(NAMES, box) if n[1] or n[2] or n[3][1] > width + 1]


def step(screens: dict[str, Any], name: str, axe: str | None, *in_view: str) -> None:
    """Every screen on step `name`: each selector whole in its window, no scrolling, no
    name cut or broken, no axe violation; a screenshot of each."""
    for label, page in screens.items():
        box = "#room-screen" if label == "host" else "#screen"
        page.wait_for_selector(f"{box}[data-step={name}]")
        for sel in in_view:
            assert visible_in(page, f"{box} {sel}"), (label, name, sel)
        if label != "host":
            assert fits(page), (label, name)
        assert names_whole(page, box) == [], (label, name)
        assert violations(page, axe) == [], (label, name)
        page.screenshot(path=str(SHOTS / f"screen-{name}-{label}.png"))


def phone_step(pages: dict[str, Any], name: str, axe: str | None) -> None:
    for who, page in pages.items():
        assert violations(page, axe) == [], (who, name)
        assert scroll_width(page) <= WIDTH, (who, name)
        page.screenshot(path=str(SHOTS / f"phone-{name}-{who}.png"))


def test_a_game_to_its_target_on_the_table_screen_and_the_phones(phones, axe):
    SHOTS.mkdir(parents=True, exist_ok=True)
    host, link, code = new_room(phones, device=WIDE, clock=True)  # the screens' clocks: the story's time is the test's
    host.wait_for_selector("body.host-wide #room-screen[data-step=lobby]")
    assert violations(host, axe) == []  # the host's room, the invitation first
    screen_url = host.get_attribute("#screen-link", "href")
    assert screen_url.startswith(f"/?screen={code}#") and len(screen_url.split("#")[1]) == 32
    screens = {"host": host}
    for label, device in (("tv", TV), ("laptop", WIDE)):
        page = phones.open(label, device=device, clock=True)
        page.goto(phones.base_url + screen_url)
        screens[label] = page
    tv = screens["tv"]
    tv.wait_for_selector("#screen[data-step=lobby] .ts-qr")
    step(screens, "lobby", axe, ".ts-code", ".ts-qr")
    assert tv.inner_text("#ts-code") == code and font_px(tv, "#ts-code") >= 120  # readable across the room

    # the players appear on the screens as they join (each phone's join form checked first)
    names = ["Ann", "Bob", "Cy"]
    pages = {}
    for n, name in enumerate(names, start=1):
        page = phones.open(name.lower())
        page.goto(link)
        page.wait_for_selector("#join:not([hidden])")
        assert violations(page, axe) == [], (name, "join")
        page.fill("#join-name", name)
        page.click("#join-form button[type=submit]")
        page.wait_for_selector("#room:not([hidden]) #words-section:not([hidden])")
        pages[name] = page
        for screen in (tv, screens["laptop"]):
            screen.wait_for_selector(f".ts-players li >> nth={n - 1}")
    assert tv.evaluate("() => [...document.querySelectorAll('.ts-players .ts-name')].map((e) => e.textContent)") == names
    step(screens, "lobby", axe, ".ts-code", ".ts-qr", ".ts-players")
    phone_step(pages, "waiting", axe)

    # the target: 3 points (the settings form); then the clock
    host.fill("#set-target", "3")
    host.click("#settings-form button[type=submit]")
    host.wait_for_selector("#settings-msg:not(.busy):not(.error):has-text('Saved')")
    host_click(host, "#start", "playing")
    step(screens, "playing", axe, ".ts-clock")
    wait_until(tv, "() => /^\\d:\\d\\d$/.test(document.querySelector('#ts-clock').textContent)")
    assert font_px(tv, "#ts-clock") >= 250  # about 8 cm tall on a 40-inch TV: read from three metres

    # round 1: Bob and Cy tie on 1, Ann scores none; nobody reaches 3 yet
    for name, words, n in (("Ann", "xyzzy", "1 word"), ("Bob", "tern", "1 word"), ("Cy", "rest", "1 word")):
        pages[name].fill("textarea.words-box", words)
        saved(pages[name], n)
    phone_step(pages, "words", axe)
    host_click(host, "#lock", "locked")
    typed_board(host, BOARD)
    step(screens, "board", axe, ".ts-board")
    # the lists locked and the board read: on every phone the board is the next thing in view
    for name, page in pages.items():
        page.wait_for_selector("#room[data-phase=locked] #board .cell >> nth=15")
        assert visible_in(page, "#board"), name
    phone_step(pages, "board-check", axe)
    host_click(host, "#score", "scored")

    # the round's story: the podium, the best word on the board, words everyone missed, the game
    step(screens, "scored", axe, "#ts-podium", "#ts-best", "#ts-missed", "#ts-standings", "#ts-best svg .path")
    assert tv.evaluate("() => [...document.querySelectorAll('.ts-step')].map((e) => e.dataset.player + ':' + e.dataset.rank)") \
        == ["Bob:1", "Cy:1"]  # tied on the top step; Ann scored nothing, off the podium
    # rest and tern score 1 each: the best word is the first of the two (a-z), Cy's
    assert tv.get_attribute("#ts-best", "data-word") == "rest"
    assert re.fullmatch(r"1 point · found by Cy", tv.inner_text("#ts-best .ts-by")), tv.inner_text("#ts-best .ts-by")
    path = tv.get_attribute("#ts-best svg polyline.path", "points")
    assert len(path.split()) == 4  # r-e-s-t: four cubes joined
    missed = tv.evaluate("() => [...document.querySelectorAll('#ts-missed li')].map((li) => [li.dataset.word, li.innerText])")
    assert 3 <= len(missed) <= 5 and all(re.search(r"\d+ points?$", text) for _, text in missed), missed
    assert not {w for w, _ in missed} & {"rest", "tern"}
    for name, page in pages.items():
        page.wait_for_selector("#room[data-phase=scored] #my-rank")
        assert visible_in(page, "#my-rank"), name
        assert page.inner_text("#my-rank").startswith("You: " + ("tied for 1" if name != "Ann" else "#3")), name
    phone_step(pages, "result", axe)
    # a word tapped in the report: its path beside it, numbered cube by cube, in view
    bob = pages["Bob"]
    bob.click("#report .pw[data-player='Bob'] button.chip[data-word='tern']")
    bob.wait_for_selector("#report .path-box[data-word='tern'] .pr-grid")
    steps = bob.evaluate("() => [...document.querySelectorAll('#report .path-box .pr-cube.on')].map((c) => Number(c.dataset.step))")
    assert sorted(steps) == [1, 2, 3, 4]
    assert visible_in(bob, "#report .path-box") and bob.locator("#board polyline.path").count() == 1

    # the next round waits for the clock: the screens say so, with the game so far
    host_click(host, "#next", "waiting")
    step(screens, "waiting", axe, "#ts-standings")

    # round 2: Ann's "slate" and "pert" (3) against Bob's "last" (1 + 1 = 2): Ann reaches 3 and wins
    host_click(host, "#start", "playing")
    for name, words, n in (("Ann", "slate\npert", "2 words"), ("Bob", "last", "1 word")):
        pages[name].wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
        pages[name].fill("textarea.words-box", words)
        saved(pages[name], n)
    host_click(host, "#lock", "locked")
    typed_board(host, BOARD)
    for page in screens.values():  # the story's STORY_S stand still while it is checked, however slow the machine
        page.clock.pause_at(int(page.evaluate("() => Date.now()")) + 1)
    host_click(host, "#score", "scored")
    # the last round's story first (the screens saw it scored), then the game over on its own
    for page in screens.values():
        page.wait_for_selector("[data-step=scored] #ts-best[data-word=slate]")
    for page in screens.values():
        page.clock.resume()
        page.clock.fast_forward((STORY_S + 1) * 1000)
    step(screens, "over", axe, "#ts-champion", "#ts-standings", "#ts-next-code")
    assert tv.inner_text("#ts-champion") == "Ann wins the game!"
    assert tv.inner_text("#ts-next-code") == code
    bars = tv.evaluate("() => [...document.querySelectorAll('.ts-bars li')].map((li) => [li.dataset.player, li.querySelector('.ts-total').textContent])")
    assert bars == [["Ann", "3"], ["Bob", "2"], ["Cy", "1"]]
    for page in pages.values():
        page.wait_for_selector("#phase-line:has-text('Ann wins the game!')")
    phone_step(pages, "game-over", axe)
    assert host.is_visible("#new-game") and host.is_hidden("#next")
    # a reload of the TV keeps the screen (its pass is in its link): straight to the game over
    tv.reload()
    tv.wait_for_selector("#screen[data-step=over] #ts-champion")
    assert tv.inner_text("#ts-champion") == "Ann wins the game!" and fits(tv)

    # a new game: the same players, everyone at 0, back in the lobby (the join code for latecomers)
    host_click(host, "#new-game", "waiting")
    step(screens, "lobby", axe, ".ts-code", ".ts-players")
    assert tv.evaluate("() => [...document.querySelectorAll('.ts-players .ts-name')].map((e) => e.textContent)") == names
    assert tv.inner_text(".ts-head .ts-game") == "Game 2"
    host.wait_for_selector("#standings-table tbody tr >> nth=2", state="detached")  # no round of game 2 scored yet


def test_the_landing_page_and_practice_have_no_accessibility_violations(phones, axe):
    page = phones.open("visitor")
    page.goto(phones.base_url + "/")
    page.wait_for_selector("body[data-ready] #landing:not([hidden])")
    assert violations(page, axe) == []
    page.click("#practice-start")
    page.wait_for_selector("#practice:not([hidden]) #pr-setup:not([hidden])")
    wait_until(page, "() => document.querySelector('#pr-dice').options.length > 0")
    assert violations(page, axe) == []
    page.fill("#pr-name", "Ann")
    page.click("#pr-shake")
    page.wait_for_selector("#pr-play:not([hidden]) #pr-board .pr-grid")
    assert violations(page, axe) == []


#: English words that no German or French sentence of the screen contains.
ENGLISH = re.compile(r"\b(the|by|of|and|with|your|round|words?|wins?|found|missed|game|players?|points?|board)\b", re.I)
FRENCH_POINTS = re.compile(r"\bpoints?\b")  # French counts in points too
SIZES = {"tv": (TV, "screen"), "laptop": (WIDE, "screen"), "panel": (WIDE, "panel")}
#: What each step shows whole in the window.
IN_VIEW = {"lobby": [".ts-code", ".ts-qr", ".ts-players"], "playing": [".ts-clock", ".ts-players"],
           "board": [".ts-board"], "scored": ["#ts-podium", "#ts-best .ts-board", "#ts-missed", "#ts-standings"],
           "waiting": ["#ts-standings"], "over": ["#ts-champion", "#ts-standings", "#ts-next-code", ".ts-qr"]}


def english_left(text: str, lang: str) -> list[str]:
    found = ENGLISH.findall(text)
    return [w for w in found if not (lang == "fr" and FRENCH_POINTS.fullmatch(w.lower()))]


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_every_step_fits_every_screen_in_three_languages(site, phones, axe, lang):
    """Each step's real view drawn at 1920 x 1080, 1280 x 800 and beside the host's
    controls at 1280 px: nothing scrolls, the step's parts are whole in the window, no
    name is cut or broken, no English is left on a German or French screen."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    live, _ = site
    names = ["Annabelle-Marguerite", "Grandpa", "Ann", "Bob"]
    family = Game(live.url, names, [{"Annabelle-Marguerite": ["plaster", "rest"], "Grandpa": ["rest", "pert", "tern"],
                                     "Ann": ["slate"], "Bob": ["xyzzy"]},
                                    {"Annabelle-Marguerite": ["plasters"], "Ann": ["last", "stern"]}], target=8)
    club = Game(live.url, [f"{n} {k}" for k, n in enumerate(["Marie-Hélène", "Grandpa Joe", "Wilhelmina", "Jean-Baptiste",
                                                             "Bartholomew", "Oluwaseun", "Guðrún", "Ana", "Li", "Zoë",
                                                             "Maximilian", "Tom"], 1)],
                [{f"Marie-Hélène 1": ["plaster"], "Grandpa Joe 2": ["rest"], "Wilhelmina 3": ["rest"], "Ana 8": ["slate"]}],
                target=50)
    assert set(family.views) == set(IN_VIEW) and {"lobby", "playing", "board", "scored"} <= set(club.views)
    for label, (device, where) in SIZES.items():
        page = phones.open(f"{lang}-{label}", device={**device, "locale": lang})
        page.goto(live.url + "/")
        page.wait_for_selector("body[data-ready]")
        box = "#room-screen" if where == "panel" else "#screen"
        shown = [(f"family-{s}", v, family.join_url) for s, v in family.views.items()] + \
                [(f"club-{s}", v, club.join_url) for s, v in club.views.items()]
        for name, view, join_url in shown:
            got = draw(page, view, join_url, where)
            assert got == name.split("-", 1)[1], (name, got)
            page.wait_for_timeout(50)
            for sel in IN_VIEW[got]:
                assert visible_in(page, f"{box} {sel}"), (lang, label, name, sel)
            assert fits(page), (lang, label, name)
            assert names_whole(page, box) == [], (lang, label, name)
            if lang != "en":
                text = page.inner_text(box)
                left = english_left(text.replace(view["code"], ""), lang)
                assert not left, (lang, label, name, left, text[:300])
            if where == "screen":
                assert violations(page, axe) == [], (lang, label, name)
            else:
                assert violations(page, axe, box) == [], (lang, label, name)
            page.screenshot(path=str(SHOTS / f"layout-{lang}-{label}-{name}.png"))
        if lang == "en" and label == "tv":
            cells_as_on_the_phones(page, family.views["board"], family.join_url)
        page.context.close()


def cells_as_on_the_phones(page: Any, board_view: dict[str, Any], join_url: str) -> None:
    """The board step says of each cell what the phones say (cellstate.js): doubtful
    while a question is open about it (whatever the reading's own list), ✓ confirmed as
    read, ✎ corrected; its heading counts the open questions."""
    view = json.loads(json.dumps(board_view))
    view["round"]["questions"] = [{"kind": "cell", "cell": [1, 1], "options": ["A", "O"]}]
    view["round"]["board"]["doubtful"] = [[3, 3], [1, 1], [0, 0]]  # the reading's own doubts: not the screen's word
    view["round"]["board"]["corrections"] = {"r1c1": {"face": "P", "by": "Ann", "confirmed": True},
                                             "r3c3": {"face": "N", "by": "Bob", "confirmed": False}}
    assert draw(page, view, join_url) == "board"
    cells = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#screen .ts-board .cell')]
        .filter((c) => c.classList.length > 1).map((c) => [c.dataset.cell, c.getAttribute('class')]))""")
    assert cells == {"0,0": "cell confirmed", "1,1": "cell doubtful", "2,2": "cell fixed"}, cells
    assert page.inner_text("#screen .ts-boardstep h1") == "1 doubtful cell"


def test_the_screen_says_when_it_is_reconnecting_and_catches_up(site, tmp_path, scanner_factory, dictionary, axe):
    """The server stops during the clock: the table screen (a TV) and the host's panel
    say they are reconnecting and their clocks no longer look live; the server comes
    back (same database, same port) and the host locks the lists at once: both catch up
    to the board step and the banners go. A TV whose network drops (it hears of a change
    it cannot read) says so too, and catches up once it can read the room again."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    _, browser = site  # the module's chromium, on a server of this test's own
    db = tmp_path / "games.sqlite3"
    live = LiveServer(make_app(db, scanner_factory, dictionary)).__enter__()
    port = live.port
    try:
        with phones_on(browser, live.url) as devices:
            host, _, code = new_room(devices, device=WIDE)
            token = host.evaluate("(c) => JSON.parse(localStorage.getItem('boggle-cv.rooms'))[c].host", code)
            api = Api(live.url)
            for name in ("Ann", "Bob"):
                api("POST", f"/api/rooms/{code}/players", {"name": name})
            host_click(host, "#start", "playing")  # the clock runs: 3 minutes
            tv = devices.open("tv", device=TV)
            tv.goto(live.url + host.get_attribute("#screen-link", "href"))
            tv.wait_for_selector("#screen[data-step=playing][data-conn=live]")
            wait_until(tv, "() => /^\\d:\\d\\d$/.test(document.querySelector('#ts-clock').textContent)")
            assert tv.is_hidden("#screen .ts-conn")
            host.wait_for_selector("#room-screen[data-step=playing][data-conn=live]")

            live.__exit__(None, None, None)  # the server stops: its streams end
            for page, box in ((tv, "#screen"), (host, "#room-screen")):
                page.wait_for_selector(f"{box}[data-conn=reconnecting], {box}[data-conn=offline]")
                banner = page.inner_text(f"{box} .ts-conn")
                assert banner in ("Reconnecting to the room…", "No connection to the room: retrying…"), banner
                assert visible_in(page, f"{box} .ts-conn")
                clock = page.evaluate("(b) => { const s = getComputedStyle(document.querySelector(`${b} .ts-clock`));"
                                      " return [s.color, s.textDecorationLine]; }", box)
                assert clock[1] == "line-through" and clock[0] != "rgb(255, 255, 255)", clock
            assert fits(tv) and violations(tv, axe) == []
            tv.screenshot(path=str(SHOTS / "screen-outage-tv.png"))
            host.screenshot(path=str(SHOTS / "screen-outage-host.png"))

            live = LiveServer(make_app(db, scanner_factory, dictionary), port=port).__enter__()
            api("POST", f"/api/rooms/{code}/rounds/current/lock", {}, token)
            api("PUT", f"/api/rooms/{code}/rounds/current/board", {"board": BOARD}, token)
            tv.wait_for_selector("#screen[data-step=board][data-conn=live] .ts-board", timeout=30_000)
            host.wait_for_selector("#room-screen[data-step=board][data-conn=live] .ts-board", timeout=30_000)
            assert tv.is_hidden("#screen .ts-conn") and host.is_hidden("#room-screen .ts-conn")
            tv.screenshot(path=str(SHOTS / "screen-back-tv.png"))

            # the TV's network drops while the host scores: the change is announced, the room
            # cannot be read; the screen says so, and catches up once the network is back
            tv.context.set_offline(True)
            api("POST", f"/api/rooms/{code}/rounds/current/score", {}, token)
            tv.wait_for_selector("#screen[data-step=board][data-conn=offline] .ts-conn:not([hidden])")
            tv.context.set_offline(False)
            tv.wait_for_selector("#screen[data-step=scored][data-conn=live] #ts-podium", timeout=30_000)
            assert tv.is_hidden("#screen .ts-conn")
    finally:
        live.__exit__(None, None, None)
