"""The table screen and a game to its target, in real browsers (Debian's chromium
through Playwright): the host on a 1280 x 800 laptop (the table screen beside the
controls), the table screen's own link on a 1920 x 1080 TV and a 1280 x 800 laptop,
three phones at 390 x 844, one browser context each.

At each step it checks what is in the viewport, not just on the page: the join code
and the QR code in the lobby, the players arriving, the clock, the board read, the
podium and the standings, all without scrolling on both screens; on every phone the
player's own rank at the top once scored. The game ends when a total reaches the
target (3 points) and "New game" keeps the players. Each step is checked with
axe-core (zero serious or critical violations) when it is installed: `npm install
axe-core` here (node_modules/ is ignored) or `$BOGGLE_CV_AXE` naming axe.min.js.
Screenshots in the test's tmp folder. Skips without chromium or Playwright.
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

from .conftest import REPO  # noqa: E402
from .phones import CHROMIUM, LAPTOP, WIDTH, scroll_width, table_fixtures, wait_until  # noqa: E402
from .test_e2e_table import host_click, join, new_room, saved, typed_board  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no chromium at {CHROMIUM}")

BOARD = "PERS/LATG/SINE/TERS"
TV = {"viewport": {"width": 1920, "height": 1080}, "device_scale_factor": 1, "reduced_motion": "reduce"}
WIDE = {**LAPTOP, "reduced_motion": "reduce"}  # a player arriving bounces: axe reads colours at rest
AXE = [Path(os.environ.get("BOGGLE_CV_AXE", "/nonexistent")), REPO / "node_modules" / "axe-core" / "axe.min.js"]
SHOTS = Path(os.environ.get("BOGGLE_CV_SCREEN_SHOTS", "/tmp/screen-shots"))

site, phones = table_fixtures("screen")


def axe_source() -> str | None:
    return next((p.read_text(encoding="utf-8") for p in AXE if p.is_file()), None)


def serious(page: Any, source: str | None) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now ([] without axe)."""
    if source is None:
        return []
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source + "\n;0")
    found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
      .filter((v) => ['serious', 'critical'].includes(v.impact))
      .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)""")
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


def step(screens: dict[str, Any], name: str, axe: str | None, *in_view: str) -> None:
    """Every screen on step `name`: each selector whole in its window, no scrolling, no
    serious axe violation; a screenshot of each."""
    for label, page in screens.items():
        page.wait_for_selector(f"#screen[data-step={name}], #room-screen[data-step={name}]")
        for sel in in_view:
            assert visible_in(page, sel), (label, name, sel)
        if label != "host":
            assert fits(page), (label, name)
        assert serious(page, axe) == [], (label, name)
        page.screenshot(path=str(SHOTS / f"screen-{name}-{label}.png"))


def test_a_game_to_its_target_on_the_table_screen_and_the_phones(phones):
    SHOTS.mkdir(parents=True, exist_ok=True)
    axe = axe_source()
    host, link, code = new_room(phones, device=WIDE)
    host.wait_for_selector("body.host-wide #room-screen[data-step=lobby]")
    screen_url = host.get_attribute("#screen-link", "href")
    assert screen_url.startswith(f"/?screen={code}#") and len(screen_url.split("#")[1]) == 32
    screens = {"host": host}
    for label, device in (("tv", TV), ("laptop", WIDE)):
        page = phones.open(label, device=device)
        page.goto(phones.base_url + screen_url)
        screens[label] = page
    tv = screens["tv"]
    tv.wait_for_selector("#screen[data-step=lobby] .ts-qr")
    step(screens, "lobby", axe, ".ts-code", ".ts-qr")
    assert tv.inner_text("#ts-code") == code and font_px(tv, "#ts-code") >= 120  # readable across the room

    # the players appear on the screens as they join
    names = ["Ann", "Bob", "Cy"]
    pages = {}
    for n, name in enumerate(names, start=1):
        pages[name] = join(phones, name, link, name.lower())
        for page in (tv, screens["laptop"]):
            page.wait_for_selector(f".ts-players li >> nth={n - 1}")
    assert tv.evaluate("() => [...document.querySelectorAll('.ts-players .ts-name')].map((e) => e.textContent)") == names
    step(screens, "lobby", axe, ".ts-code", ".ts-qr", ".ts-players")

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
    host_click(host, "#lock", "locked")
    typed_board(host, BOARD)
    step(screens, "board", axe, ".ts-board")
    # the lists locked and the board read: on every phone the board is the next thing in view
    for name, page in pages.items():
        page.wait_for_selector("#room[data-phase=locked] #board .cell >> nth=15")
        assert visible_in(page, "#board"), name
        assert serious(page, axe) == [], name
        page.screenshot(path=str(SHOTS / f"phone-board-{name}.png"))
    host_click(host, "#score", "scored")
    step(screens, "between", axe, ".ts-podium", "#ts-standings")
    assert tv.evaluate("() => [...document.querySelectorAll('.ts-step')].map((e) => e.dataset.player + ':' + e.dataset.rank)") \
        == ["Bob:1", "Cy:1"]  # tied on the top step; Ann scored nothing, off the podium
    for name, page in pages.items():
        page.wait_for_selector("#room[data-phase=scored] #my-rank")
        assert visible_in(page, "#my-rank"), name
        assert page.inner_text("#my-rank").startswith("You: " + ("tied for 1" if name != "Ann" else "#3")), name
        assert scroll_width(page) <= WIDTH
        assert serious(page, axe) == [], name
        page.screenshot(path=str(SHOTS / f"phone-scored-{name}.png"))
    # a word tapped in the report: its path beside it, numbered cube by cube, in view
    bob = pages["Bob"]
    bob.click("#report .pw[data-player='Bob'] button.chip[data-word='tern']")
    bob.wait_for_selector("#report .path-box[data-word='tern'] .pr-grid")
    steps = bob.evaluate("() => [...document.querySelectorAll('#report .path-box .pr-cube.on')].map((c) => Number(c.dataset.step))")
    assert sorted(steps) == [1, 2, 3, 4]
    assert visible_in(bob, "#report .path-box") and bob.locator("#board polyline.path").count() == 1
    bob.screenshot(path=str(SHOTS / "phone-path-Bob.png"))

    # round 2: Ann's "slate" and "pert" (3) against Bob's "tern" (1 + 1 = 2): Ann reaches 3 and wins
    host_click(host, "#next", "waiting")
    host_click(host, "#start", "playing")
    for name, words, n in (("Ann", "slate\npert", "2 words"), ("Bob", "last", "1 word")):
        pages[name].wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
        pages[name].fill("textarea.words-box", words)
        saved(pages[name], n)
    host_click(host, "#lock", "locked")
    typed_board(host, BOARD)
    host_click(host, "#score", "scored")
    step(screens, "between", axe, ".ts-podium", "#ts-standings", ".ts-over")
    assert tv.inner_text(".ts-over") == "Ann wins the game!"
    bars = tv.evaluate("() => [...document.querySelectorAll('.ts-bars li')].map((li) => [li.dataset.player, li.querySelector('.ts-total').textContent])")
    assert bars == [["Ann", "3"], ["Bob", "2"], ["Cy", "1"]]
    for page in pages.values():
        page.wait_for_selector("#phase-line:has-text('Ann wins the game!')")
    assert host.is_visible("#new-game") and host.is_hidden("#next")
    # a reload of the TV keeps the screen (its pass is in its link)
    tv.reload()
    tv.wait_for_selector("#screen[data-step=between] .ts-over")
    assert tv.inner_text(".ts-over") == "Ann wins the game!" and fits(tv)

    # a new game: the same players, everyone at 0, back in the lobby (the join code for latecomers)
    host_click(host, "#new-game", "waiting")
    step(screens, "lobby", axe, ".ts-code", ".ts-players")
    assert tv.evaluate("() => [...document.querySelectorAll('.ts-players .ts-name')].map((e) => e.textContent)") == names
    assert tv.inner_text(".ts-head .ts-game") == "Game 2"
    host.wait_for_selector("#standings-table tbody tr >> nth=2", state="detached")  # no round of game 2 scored yet
