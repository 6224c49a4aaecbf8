"""Ranked tables and what the page says at each step, in real browsers at phone size
(chromium through Playwright, one server and one chromium for the module):

- a round on three phones and the host's: the words box stops saying it "opens when
  the host starts the clock" once the clock runs; once the board is typed the round's
  line asks to check it, not to photograph the tray; a cell corrected and put back to
  its first reading is no longer marked corrected; the report's table is in rank order
  (Ann, who joined first, last), equal scores sharing a rank ("=1"); the players list
  gives each one's points; a cell tapped after scoring says why nothing opens; the
  sections' bar reaches the players in one tap; the game's standings are ranked too;
- the landing page: "Practice alone" as wide as the other buttons, the language menu a
  44 px tap target, the tray photo's icon apart from its words;
- practice: the cube sets by their family names, the board and the words box both in
  view with the keyboard open (390 x 544), "I'm done" asking once more while more
  than 10 s are left, no "average of the last 1".

Skips without chromium or Playwright.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from .phones import CHROMIUM, WIDTH, scroll_width, shot, table_fixtures, time_held, wait_until  # noqa: E402

SHOTS = Path(os.environ.get("BOGGLE_CV_SCREEN_SHOTS", "/tmp/screen-shots"))
from .test_e2e_table import host_click, join, new_room, saved, typed_board  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no chromium at {CHROMIUM}")

BOARD = "PERS/LATG/SINE/TERS"
site, phones = table_fixtures("ranked")


def table_rows(page: Any, table: str) -> list[tuple[str, str]]:
    """(rank cell, player) for each row of a score table, top to bottom."""
    rows = page.evaluate("""(sel) => [...document.querySelectorAll(`${sel} tbody tr`)]
      .map((tr) => [tr.querySelector('.rank').textContent, tr.dataset.player])""", table)
    return [(str(rank), str(name)) for rank, name in rows]


def fix_cell(page: Any, cell: str, face: str) -> None:
    page.click(f"#board .cell[data-cell='{cell}']")
    page.click(f"#picker-faces button[data-face='{face}']")
    page.wait_for_selector(f"#board .cell[data-cell='{cell}'][data-face='{face}']")


def test_a_ranked_round_and_the_page_at_each_step(phones, tmp_path):
    host, link, code = new_room(phones)
    ann, bob, cy = (join(phones, name, link, name.lower()) for name in ("Ann", "Bob", "Cy"))
    assert "opens when the host starts the clock" in ann.inner_text(".save-state")
    host_click(host, "#start", "playing")
    ann.wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
    wait_until(ann, "() => !document.querySelector('.save-state').textContent.includes('opens when')")
    assert ann.inner_text(".save-state") == "open: type your words"
    for page, words, n in ((ann, "xyzzy", "1 word"), (bob, "slate\ntern", "2 words"), (cy, "slate\nrest", "2 words")):
        page.fill("textarea.words-box", words)
        saved(page, n)
    host_click(host, "#lock", "locked")
    bob.wait_for_selector("#room[data-phase=locked]")
    assert "Take a photo of the tray" in bob.inner_text("#phase-line")
    # "📷 Photo of the tray": the icon stands apart from its words
    gap = bob.evaluate("""() => { const label = document.querySelector('#photo-button'), span = label.querySelector('span');
      const r = document.createRange(); r.selectNodeContents(label.firstChild);
      return span.getBoundingClientRect().left - r.getBoundingClientRect().right; }""")
    assert gap >= 3, gap

    # the board typed: the line now asks to check it, on every phone
    typed_board(host, BOARD)
    for page in (host, bob):
        wait_until(page, "() => document.querySelector('#phase-line').textContent.includes('Check the board')")
        assert "Take a photo" not in page.inner_text("#phase-line")
    assert host.inner_text("#phase-line").endswith("Then score the round.")
    assert bob.inner_text("#phase-line").endswith("Then the host scores it.")

    # a cell corrected, then put back as it was typed: no longer corrected
    fix_cell(bob, "0,0", "W")
    bob.wait_for_selector("#board .cell.fixed[data-cell='0,0']")
    fix_cell(bob, "0,0", "P")
    wait_until(bob, "() => !document.querySelector('#board .cell.fixed')")
    assert bob.inner_text("#corrections") == ""
    cy.wait_for_selector("#board .cell[data-cell='0,0'][data-face='P']:not(.fixed)")

    # scored: the table in rank order, Bob and Cy tied on top, Ann (joined first) last
    host_click(host, "#score", "scored")
    for page in (host, ann, bob, cy):
        page.wait_for_selector("#room[data-phase=scored] #scores")
        assert table_rows(page, "#scores") == [("=1", "Bob"), ("=1", "Cy"), ("3", "Ann")]
        assert page.locator("#scores tr.won").count() == 2
        assert scroll_width(page) <= WIDTH
    assert [p for p in ann.evaluate("() => [...document.querySelectorAll('#report .pw')].map((d) => d.dataset.player)")] \
        == ["Bob", "Cy", "Ann"]
    # English on an English page is not said on every card; no room code in the report's sentences
    assert ann.is_hidden("#edition") and ann.is_hidden("#report-edition")
    assert ann.locator("#report #stored").count() == 0 and code not in ann.inner_text("#report")
    # the missed words a family would know lead; the others are folded behind "Show all"
    common = ann.evaluate("() => [...document.querySelectorAll('#missed button.chip')].map((b) => b.classList.contains('common'))")
    assert common and all(common) and ann.is_visible("#more-missed")
    # the players list gives points, not "no words yet"
    counts = host.evaluate("() => [...document.querySelectorAll('#players li .count')].map((e) => e.textContent)")
    assert counts == ["0 points", "1 point", "1 point"] and "no words yet" not in host.inner_text("#players")
    # a cell tapped once scored says why nothing opens
    ann.click("#board .cell[data-cell='1,1']")
    ann.wait_for_selector("#board-msg:has-text('This round is scored')")
    assert not ann.is_visible("#picker")
    shot(ann, tmp_path, "ranked_report")
    # everything else one tap away: the sections' bar at the foot of the screen
    assert ann.is_hidden("#room-nav a[href='#settings-section']") and host.is_visible("#room-nav a[href='#settings-section']")
    ann.click("#room-nav a[href='#players-section']")
    wait_until(ann, "() => { const r = document.querySelector('#players-section').getBoundingClientRect(); "
                    "return r.top >= 40 && r.top < innerHeight - 120; }")  # in view, under the header

    # the game's standings, ranked
    for page in (ann, host):
        page.wait_for_selector("#standings-table tbody tr >> nth=2")
        assert table_rows(page, "#standings-table") == [("=1", "Bob"), ("=1", "Cy"), ("3", "Ann")]


def test_the_landing_page_buttons_and_language_menu(phones):
    page = phones.open("landing")
    page.goto(phones.base_url + "/")
    page.wait_for_selector("body[data-ready]")
    widths = {sel: page.locator(sel).bounding_box()["width"] for sel in ("#table", "#practice-start")}
    assert abs(widths["#table"] - widths["#practice-start"]) < 1, widths
    assert page.locator("#ui-lang").bounding_box()["height"] >= 44


def open_practice(phones: Any, name: str) -> Any:
    """Practice on a new phone, its clock the test's to hold (page.clock)."""
    page = phones.open(name)
    page.clock.install()
    page.goto(phones.base_url + "/?practice")
    page.wait_for_selector("#practice:not([hidden]) #pr-setup:not([hidden])")
    wait_until(page, "() => document.querySelector('#pr-dice').options.length > 0")
    return page


def test_practice_names_the_cubes_asks_before_an_early_end_and_skips_an_average_of_one(phones):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_practice(phones, "solo")
    page.fill("#pr-name", "Solo")
    page.select_option("#pr-size", "4")
    options = page.evaluate("() => [...document.querySelectorAll('#pr-dice option')].map((o) => o.textContent)")
    assert options[0] == "Modern cubes (1987 on) (usual)" and "Classic cubes (1976–86)" in options, options
    assert not any("-4" in o for o in options), options
    # the first option is not cut at 390 px
    assert page.evaluate("() => { const s = document.querySelector('#pr-dice'); return s.scrollWidth <= s.clientWidth + 1; }")
    page.fill("#pr-minutes", "3")
    page.click("#pr-shake")
    page.wait_for_selector("#pr-play:not([hidden]) .pr-grid")
    page.fill("#pr-words", "tea")
    # the keyboard open (390 x 544 left): the board and the words box both in view, under the header
    page.set_viewport_size({"width": 390, "height": 544})
    page.focus("#pr-words")
    page.evaluate("() => document.querySelector('#pr-words').scrollIntoView({block: 'nearest'})")
    header = page.evaluate("() => document.querySelector('header').getBoundingClientRect().bottom")
    for sel in ("#pr-board .pr-grid", "#pr-words"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["y"] >= header - 1 and box["y"] + box["height"] <= 544, (sel, box, header)
    page.screenshot(path=str(SHOTS / "practice-keyboard.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    with time_held(page):  # the two taps within the few seconds the question stays
        page.click("#pr-done")  # 3 minutes left: asks once more
        page.wait_for_selector("#pr-done:has-text('Stop now?')")
        assert page.is_visible("#pr-play") and not page.is_visible("#pr-result")
        page.click("#pr-done")
    page.wait_for_selector("#pr-result:not([hidden])")
    summary = page.inner_text("#pr-summary")
    assert "Average of the last" not in summary, summary
