"""The room at a real table, in real browsers (chromium through
Playwright) at phone size, one server and one chromium for the module:

- two tabs of one player never lose a list: tab 1 saves three words, tab 2 (which
  heard nothing of it) types one: the server keeps all four and both tabs show four,
  saved; a later save in one tab reaches the other, unedited, live; a tab with words
  it could not save merges another tab's save into its box; the merge itself;
- the table's rhythm: "Next round" opens a waiting round (no clock) and the host
  starts the clock; nobody scoring says so; once scored, the winner and the score
  table are on screen first (phones and the host's laptop); a 500-word list of
  words that do not count is one line that opens; the header never cuts the
  player's name;
- renaming a player, and bonus / challenge cells tapped on the board.

Set BOGGLE_CV_DOCS_SCREENSHOT=1 to refresh docs/images/web_waiting.png and
docs/images/web_report_long.png. Skips without chromium or Playwright.
"""
from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from .phones import (CHROMIUM, LAPTOP, WIDTH, Phones, in_view, scroll_width, shot, table_fixtures,  # noqa: E402
                     wait_until)

pytestmark = pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no chromium at {CHROMIUM}")

BOARD = "PERS/LATG/SINE/TERS"   # rest: r4c3 e4c2 s3c1 t4c1; last: l2c1 a2c2 s3c1 t4c1


site, phones = table_fixtures("table")


def new_room(phones: Phones, device: dict[str, Any] | None = None, clock: bool = False) -> tuple[Any, str, str]:
    """The host's page on a new room: (page, join link, code); clock: as Phones.open."""
    host = phones.open("host", device=device, clock=clock)
    host.goto(phones.base_url + "/")
    host.wait_for_selector("body[data-ready]")
    host.click("#create")
    host.wait_for_selector("#join-link[href*='?room=']")
    return host, host.get_attribute("#join-link", "href"), host.inner_text("#join-code")


def join(phones: Phones, name: str, link: str, phone: str) -> Any:
    page = phones.open(phone)
    page.goto(link)
    page.wait_for_selector("#join:not([hidden])")
    page.fill("#join-name", name)
    page.click("#join-form button[type=submit]")
    page.wait_for_selector("#room:not([hidden]) #words-section:not([hidden])")
    return page


def host_click(page: Any, button: str, phase: str) -> None:
    page.click(button)
    page.wait_for_selector(f"#room[data-phase={phase}]")


def typed_board(page: Any, text: str) -> None:
    if not page.locator("#type-board[open]").count():
        page.click("#type-board summary")
    page.fill("#board-input", text)
    page.click("#board-form button[type=submit]")
    n = text.count("/") + 1
    page.wait_for_selector(f"#board[data-size='{n}'] .cell >> nth={n * n - 1}")
    # the live update may draw the board before the answer to this request closes the
    # form: wait for that too, or the next board typed finds the form closing under it
    page.wait_for_selector("#type-board:not([open])", state="attached")


def saved(page: Any, count: str) -> str:
    """Wait until the words box says saved with `count` ("4 words"); the status line."""
    page.wait_for_selector(f".save-state[data-state=saved]:has-text('· {count}')")
    return str(page.inner_text(".save-state"))


def box_words(page: Any) -> list[str]:
    return sorted(page.input_value("textarea.words-box").split())


def server_list(page: Any, code: str) -> dict[str, Any]:
    """The player's entry in the room as the server holds it (read with the phone's token)."""
    token = page.evaluate("(c) => Object.values(JSON.parse(localStorage.getItem('boggle-cv.rooms'))[c].players)[0]",
                          code)
    req = urllib.request.Request(f"{page.url.split('/?')[0]}/api/rooms/{code}",
                                 headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=20) as res:
        room = json.load(res)["room"]
    me: dict[str, Any] = next(p for p in room["players"] if p["id"] == room["you"]["player_id"])
    return me


def test_two_tabs_of_one_player_never_lose_a_list(phones):
    """Ann has the room in two tabs; tab 1 saves three words, tab 2 still shows an
    empty box and one word is typed there: the server keeps all four (the one word
    must not replace the three while tab 1 says "saved ✓ · 3 words")."""
    host, link, code = new_room(phones)
    tab1 = join(phones, "Ann", link, "ann")
    tab2 = phones.tab("ann, tab 2", of="ann")
    stale = {"on": False}

    def hold_back(route: Any) -> None:  # tab 2 hears nothing of tab 1's saves while `stale`
        if stale["on"] and route.request.method == "GET":
            route.abort()
        else:
            route.continue_()

    tab2.route(f"**/api/rooms/{code}", hold_back)
    tab2.goto(link)
    tab2.wait_for_selector("#room:not([hidden]) #words-section:not([hidden])")
    host_click(host, "#start", "playing")
    for tab in (tab1, tab2):
        tab.wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
    stale["on"] = True

    tab1.fill("textarea.words-box", "rest\nlast\nsilt")
    assert saved(tab1, "3 words").startswith("saved ✓")
    assert tab2.input_value("textarea.words-box") == ""   # tab 2 is behind
    tab2.fill("textarea.words-box", "pest")
    status = saved(tab2, "4 words")                        # 409 StaleList, merged, saved again
    assert "merged" in status, status
    four = sorted(["rest", "last", "silt", "pest"])
    assert box_words(tab2) == four
    assert sorted(server_list(tab2, code)["words"]) == four
    # tab 1 had no unsaved edits: it takes the new list, live, and never claims 3 words
    saved(tab1, "4 words")
    assert box_words(tab1) == four

    # tab 2 hears again; a save in tab 1 reaches it, unedited, live
    stale["on"] = False
    tab1.fill("textarea.words-box", tab1.input_value("textarea.words-box") + "\ntape")
    saved(tab1, "5 words")
    saved(tab2, "5 words")
    assert box_words(tab2) == sorted([*four, "tape"]) == box_words(tab1)
    me = server_list(tab1, code)
    assert sorted(me["words"]) == box_words(tab1) and me["revision"] == 3


def test_a_tab_with_unsaved_words_merges_another_tabs_save(phones):
    """Tab 2 has words it could not save yet (no connection for its saves) when tab 1's
    save is announced: it merges the new list into its box at once (nothing typed is
    dropped, nothing saved elsewhere is hidden), and saves the merge when it can."""
    host, link, code = new_room(phones)
    tab1 = join(phones, "Ann", link, "ann")
    tab2 = phones.tab("ann, tab 2", of="ann")
    offline = {"on": True}

    def no_saves(route: Any) -> None:
        if offline["on"]:
            route.abort()
        else:
            route.continue_()

    tab2.route("**/players/*/words", no_saves)
    tab2.goto(link)
    host_click(host, "#start", "playing")
    for tab in (tab1, tab2):
        tab.wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
    tab2.fill("textarea.words-box", "pest\ntape")
    tab2.wait_for_selector(".save-state[data-state=error]:has-text('no connection')")
    tab1.fill("textarea.words-box", "rest\nlast")
    saved(tab1, "2 words")
    want = sorted(["rest", "last", "pest", "tape"])
    wait_until(tab2, "() => document.querySelector('textarea.words-box').value.split('\\n').length === 4")
    assert box_words(tab2) == want
    offline["on"] = False
    assert "merged" in saved(tab2, "4 words")
    saved(tab1, "4 words")
    assert box_words(tab1) == want == sorted(server_list(tab1, code)["words"])


def test_the_tables_rhythm_waiting_step_winner_first_and_collapsed_words(phones, tmp_path):
    host, link, code = new_room(phones, device=LAPTOP)
    name = "Annabelle-Marguerite"
    ann = join(phones, name, link, "ann")
    bo = join(phones, "Bo", link, "bo")

    # round 1 waits for the clock; nobody types: nobody scored (the CLI says the same)
    assert host.inner_text("#start") == "Start the clock (3:00)"
    assert "Get ready: shake the tray" in ann.inner_text("#phase-line")
    host_click(host, "#start", "playing")
    host_click(host, "#lock", "locked")
    typed_board(host, BOARD)
    host_click(host, "#score", "scored")
    for page in (host, ann, bo):
        page.wait_for_selector("#room[data-phase=scored] #winner")
        assert page.inner_text("#winner") == "Nobody scored this round."

    # "Next round" opens a waiting round: no clock until the host starts it
    host_click(host, "#next", "waiting")
    for page in (ann, bo):
        page.wait_for_selector("#room[data-phase=waiting]")
        assert "Get ready: shake the tray" in page.inner_text("#phase-line")
        assert page.get_attribute("textarea.words-box", "readonly") is not None
        assert page.locator("#report-section").is_hidden()
    assert host.inner_text("#start") == "Start the clock (3:00)" and host.locator("#next").is_hidden()
    assert in_view(host, "#start")  # above the invitation, which came first only in round 1
    shot(ann, tmp_path, "web_waiting")
    host_click(host, "#start", "playing")

    # Bo's 500 words, 499 of them not on the board (no X): one line that opens
    junk = [f"x{chr(97 + k // 26 % 26)}{chr(97 + k % 26)}{chr(97 + k // 676)}" for k in range(499)]
    ann.wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
    ann.fill("textarea.words-box", "rest\nlast")
    saved(ann, "2 words")
    bo.wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
    bo.fill("textarea.words-box", "\n".join(["rest", *junk]))
    saved(bo, "500 words")
    host_click(host, "#lock", "locked")
    typed_board(host, BOARD)
    for page in (host, ann):  # looking at the board (scrolled down) when the round is scored
        page.evaluate("() => document.querySelector('#board-section').scrollIntoView()")
    host_click(host, "#score", "scored")

    # the winner and the score table first, on screen, on every phone and the host's laptop
    for page in (host, ann, bo):
        page.wait_for_selector("#room[data-phase=scored] #scores")
        assert page.inner_text("#winner") == f"{name} wins with 1 point!"
        assert in_view(page, "#winner") and in_view(page, "#scores"), page.evaluate("() => window.scrollY")
        assert scroll_width(page) <= page.viewport_size["width"]
    details = ann.locator('.pw[data-player="Bo"] details.invalid')
    assert details.get_attribute("open") is None
    assert ann.inner_text('.pw[data-player="Bo"] details.invalid summary') == \
        "499 words that do not count: 499 not on the board"
    assert ann.locator('.pw[data-player="Bo"] details.invalid button.chip').count() == 499
    height = ann.evaluate("() => document.documentElement.scrollHeight")
    assert height < 4000, f"the report is {height} px tall"
    shot(ann, tmp_path, "web_report_long")

    # opened, it stays open when the room changes (Ann renames herself)
    ann.click('.pw[data-player="Bo"] details.invalid summary')
    assert details.get_attribute("open") is not None
    ann.click("#players button.rename")
    ann.fill("#rename-name", "Annabelle")
    ann.click("#rename-form button[type=submit]")
    ann.wait_for_selector("#rename-msg:has-text('is now Annabelle')")
    bo.wait_for_selector("#players li:has-text('Annabelle')")
    assert details.get_attribute("open") is not None

    # reconnecting: the header gives way on the room code, never on the player's name
    ann.evaluate("""() => { const c = document.querySelector('#conn');
        c.dataset.state = 'reconnecting'; c.textContent = 'reconnecting…'; }""")
    for who in ("Annabelle", name):
        ann.evaluate("(n) => { document.querySelector('#room-badge .who').textContent = '· ' + n; }", who)
        cut = ann.evaluate("""() => { const w = document.querySelector('#room-badge .who');
            const r = w.getBoundingClientRect(); return w.scrollWidth > w.clientWidth || r.right > innerWidth; }""")
        assert not cut, f"the header cuts {who!r}"
    assert scroll_width(ann) <= WIDTH


def test_rename_and_red_marks_tapped_on_the_board(phones):
    host, link, code = new_room(phones)
    ann = join(phones, "Ann", link, "ann")

    # a player renames herself from her phone; every phone sees it
    ann.click("#players button.rename")
    ann.fill("#rename-name", "Annie")
    ann.click("#rename-form button[type=submit]")
    ann.wait_for_selector(".words-label:text-is(\"Annie's words\")")
    # the live update may draw the new name before the request's own answer closes the form: wait for both
    ann.wait_for_selector("#rename-form", state="hidden")
    ann.wait_for_function("document.querySelector('#room-badge .who').innerText.includes('Annie')")
    host.wait_for_selector("#players li:has-text('Annie')")
    assert host.locator("#players button.rename").count() == 0  # the host renames nobody

    host_click(host, "#start", "playing")
    ann.wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
    ann.fill("textarea.words-box", "rest\nlast")
    saved(ann, "2 words")
    host_click(host, "#lock", "locked")
    typed_board(host, BOARD)
    ann.wait_for_selector("#board .cell >> nth=15")

    # a bonus cell tapped on one phone shows on the other; tapped again, it goes
    ann.click("#board .cell[data-cell='0,1']")
    assert ann.get_attribute("#picker-bonus", "aria-pressed") == "false"
    ann.click("#picker-bonus")
    for page in (ann, host):
        page.wait_for_selector("#board .cell.bonus[data-cell='0,1'] circle.ring")
    assert "Row 1, column 2" in host.inner_text("#board-marks")
    ann.click("#board .cell[data-cell='0,1']")
    assert ann.get_attribute("#picker-bonus", "aria-pressed") == "true"
    ann.click("#picker-bonus")
    host.wait_for_selector("#board .cell.bonus", state="detached")

    # the challenge cube on "last"'s A (row 2, column 2): +5 for last, not for rest
    host.click("#board .cell[data-cell='1,1']")
    host.click("#picker-challenge")
    ann.wait_for_selector("#board .cell.challenge[data-cell='1,1']")
    assert "challenge cube" in ann.inner_text("#board-marks")
    host_click(host, "#score", "scored")
    ann.wait_for_selector("#report #scores")
    pts = ann.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.pw button.chip')].map((b) =>
        [b.dataset.word, Number((b.querySelector('.pts') || {textContent: '0'}).textContent.replace('+', ''))]))""")
    assert pts["last"] == pts["rest"] + 5, pts


def test_the_word_lists_merge_as_players_mean_them(phones):
    """words.js's three-way merge and tokeniser, run in the browser: what a tab added
    is added to the server's list, what it removed is removed, whatever the case; the
    rest of the server's list stays, in its order."""
    page = phones.open("merge")
    page.goto(phones.base_url + "/")
    page.wait_for_selector("body[data-ready]")
    got = page.evaluate("""async () => {
      const { mergeWords, tokens } = await import('/static/words.js');
      return {
        issue: mergeWords([], ['pest'], ['rest', 'last', 'silt']),
        removed_here: mergeWords(['rest', 'last'], ['rest'], ['rest', 'last', 'tape']),
        removed_there: mergeWords(['rest', 'last'], ['rest', 'last', 'pest'], ['rest']),
        both_added: mergeWords(['rest'], ['rest', 'Tape'], ['rest', 'tape']),
        nothing_new: mergeWords(['rest'], ['rest'], ['rest', 'last']),
        tokens: tokens('"Cat", dog;  x-ray.\\n\\nélan  '),
      };
    }""")
    assert got == {
        "issue": ["rest", "last", "silt", "pest"],
        "removed_here": ["rest", "tape"],
        "removed_there": ["rest", "pest"],
        "both_added": ["rest", "tape"],
        "nothing_new": ["rest", "last"],
        "tokens": ["Cat", "dog", "x-ray", "élan"],
    }
