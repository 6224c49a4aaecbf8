"""Nothing stale, states shown as they are: the cases tried at a real table, each in
real browsers (Debian's chromium through Playwright, one context per phone, 390 x 844),
each failing the moment a message outlives the state it was about.

Stale: a cell put back (its "is now F" goes), the photo's "check the 2 doubtful cells"
once they are settled elsewhere, the host's Score refusal once its question is settled,
"saved in another tab or phone" once the lists are locked, "saved ✓" after a reload,
the host told that he locked the lists. Words: a question says "Row 2, column 2" and
"blank", never "r2c2" or "#"; the game's name "room CODE" is never said. States: a cell
confirmed as read shows ✓, not ✎; a flagged cell no score depends on is not doubtful; a
runner-up under the referee's threshold is not offered; a refusal (429, 503) is said in
the phone's language and tried again by itself, a page whose script was refused loads
again by itself; the phone and the host's page say "reconnecting" while the server is
down, and catch up after. Skips without chromium or Playwright.
"""
from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from .conftest import SAMPLE, LiveServer, RecordedReader, sample_truth  # noqa: E402
from .phones import CHROMIUM, LAPTOP, PHONE, Phones, make_app, photo_fixtures, wait_until  # noqa: E402
from .screen_views import Api  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no chromium at {CHROMIUM}")

BOARD = "PERS/LATG/SINE/TERS"
# the sample photo as read: r2c2 read O (truly C) and r3c1 read A (truly X), both at 55%; r4c4
# read C at 60% (runner-up E). Ann's "echo" needs r2c2's C, Bob's "hex" r3c1's X; nothing rides on r4c4.
DOUBTS = {5: ("O", "C", 0.55), 8: ("A", "X", 0.55), 15: ("C", "E", 0.6)}


def reader() -> RecordedReader:
    faces = [f for row in sample_truth()["faces"] for f in row]
    faces[5], faces[8] = "O", "A"
    return RecordedReader(faces, DOUBTS)


site, phones = photo_fixtures("stale", reader)


def open_phone(phones: Phones, name: str, lang: str = "en", *scripts: str) -> Any:
    return phones.open(name, *scripts, device={**PHONE, "locale": lang})


def new_room(phones: Phones, lang: str = "en") -> tuple[Any, str]:
    host = open_phone(phones, "host", lang)
    host.goto(phones.base_url + "/")
    host.wait_for_selector("body[data-ready]")
    host.click("#create")
    host.wait_for_selector("#join-link[href*='?room=']")
    return host, host.get_attribute("#join-link", "href")


def join(phones: Phones, name: str, link: str, lang: str = "en") -> Any:
    page = open_phone(phones, name, lang)
    page.goto(link)
    page.wait_for_selector("#join:not([hidden])")
    page.fill("#join-name", name)
    page.click("#join-form button[type=submit]")
    page.wait_for_selector("#room:not([hidden])[data-phase=waiting]")
    return page


def play(host: Any, lists: dict[Any, str]) -> None:
    """The clock started, each page's list typed and saved, the lists locked."""
    host.click("#start")
    for page, words in lists.items():
        page.wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
        page.fill("textarea.words-box", words)
        page.wait_for_selector(".save-state[data-state=saved]")
    host.click("#lock")
    host.wait_for_selector("#room[data-phase=locked]")


def typed(page: Any, text: str) -> None:
    page.click("#type-board summary")
    page.fill("#board-input", text)
    page.click("#board-form button[type=submit]")
    page.wait_for_selector(f"#board .cell >> nth={(text.count('/') + 1) ** 2 - 1}")


def pick(page: Any, cell: str, face: str) -> None:
    page.click(f"#board .cell[data-cell='{cell}']")
    page.click(f"#picker-suggest button[data-face='{face}'], #picker-faces button[data-face='{face}'] >> nth=0")
    page.wait_for_selector(f"#board .cell[data-cell='{cell}'][data-face='{face}']")


def shown(page: Any, selector: str) -> str:
    """The text of a message as the phone shows it ("" when hidden)."""
    return str(page.evaluate("(s) => { const e = document.querySelector(s); return e && !e.hidden ? e.textContent : ''; }",
                             selector))


def test_a_cell_put_back_takes_its_message_with_it(phones):
    """Marie (French) makes row 1, column 1 an F; Ann puts the P back: Marie's phone no
    longer says the cell is now F."""
    host, link = new_room(phones)
    marie, ann = join(phones, "Marie", link, "fr"), join(phones, "Ann", link)
    play(host, {marie: "rest", ann: "last"})
    typed(host, BOARD)
    marie.wait_for_selector("#board .cell >> nth=15")
    pick(marie, "0,0", "F")
    marie.wait_for_selector("#board-msg:has-text('Ligne 1, colonne 1 est maintenant F.')")
    ann.wait_for_selector("#board .cell[data-cell='0,0'][data-face='F']")
    pick(ann, "0,0", "P")
    marie.wait_for_selector("#board .cell[data-cell='0,0'][data-face='P']")
    wait_until(marie, "() => document.querySelector('#board-msg').hidden")
    assert "F" not in shown(marie, "#board-msg")


def test_the_photos_doubtful_cells_line_follows_the_cells_settled_elsewhere(phones):
    """Marie's photo: "check the 2 doubtful cells"; Hans settles one: it says 1; he
    settles the other: the line is gone."""
    host, link = new_room(phones)
    marie, hans = join(phones, "Marie", link, "fr"), join(phones, "Hans", link, "de")
    play(host, {marie: "echo", hans: "hex"})
    marie.set_input_files("#photo", str(SAMPLE))
    marie.wait_for_selector("#board-msg:has-text('Vérifiez les 2 cases douteuses')")
    hans.wait_for_selector("#board .cell.doubtful >> nth=1")
    assert hans.locator("#board .cell.doubtful").count() == 2  # r4c4 is flagged too, but no score depends on it
    pick(hans, "1,1", "C")
    marie.wait_for_selector("#board-msg:has-text('Vérifiez la case douteuse')")
    assert "2" not in shown(marie, "#board-msg")
    pick(hans, "2,0", "X")
    wait_until(marie, "() => document.querySelector('#board-msg').hidden")
    assert marie.locator("#board .cell.doubtful").count() == 0


def test_the_hosts_score_refusal_goes_once_its_question_is_settled(phones):
    """Score refused with the question in words (row 2, column 2; no "r2c2"); Ann settles
    it: the host's message is gone, and Score scores."""
    host, link = new_room(phones)
    ann = join(phones, "Ann", link)
    play(host, {ann: "echo"})
    ann.set_input_files("#photo", str(SAMPLE))
    host.wait_for_selector("#board .cell.doubtful")
    host.click("#score")
    host.wait_for_selector("#round-msg.error")
    said = shown(host, "#round-msg")
    assert said == "Before scoring, settle this question: Row 2, column 2: O or C?", said
    assert not re.search(r"\br\d+c\d+\b|#|cell\(s\)", said), said
    pick(ann, "1,1", "C")
    wait_until(host, "() => document.querySelector('#round-msg').hidden")
    assert "Row 2, column 2" not in host.inner_text("#phase-line")
    host.click("#score")
    host.wait_for_selector("#room[data-phase=scored]")
    assert shown(host, "#round-msg") == "Saved as round 1 of this game."  # no "room CODE" said


def test_another_tabs_save_is_old_news_once_the_lists_are_locked(phones):
    host, link = new_room(phones)
    tab1 = join(phones, "Ann", link)
    tab2 = phones.tab("Ann, tab 2", of="Ann")
    tab2.goto(link)
    tab2.wait_for_selector("#room:not([hidden])")
    host.click("#start")
    for tab in (tab1, tab2):
        tab.wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
    tab2.fill("textarea.words-box", "rest\nlast\nsilt\npest")
    tab1.wait_for_selector(".save-state:has-text('saved in another tab or phone')")
    host.click("#lock")
    tab1.wait_for_selector("#room[data-phase=locked] .save-state:has-text('lists locked')")
    assert tab1.inner_text(".save-state") == "saved ✓ · 4 words · lists locked"
    # and after a reload: saved, with its tick
    tab1.reload()
    tab1.wait_for_selector("#room[data-phase=locked] .save-state[data-state=saved]")
    assert tab1.inner_text(".save-state").startswith("saved ✓ · 4 words")


def test_a_reload_while_playing_says_saved_with_its_tick(phones):
    host, link = new_room(phones)
    ann = join(phones, "Ann", link, "de")
    host.click("#start")
    ann.wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
    ann.fill("textarea.words-box", "rest\nlast\nsilt\npest")
    ann.wait_for_selector(".save-state[data-state=saved]:has-text('4 Wörter')")
    ann.reload()
    ann.wait_for_selector("#room[data-phase=playing] .save-state[data-state=saved]")
    assert ann.inner_text(".save-state") == "gespeichert ✓ · 4 Wörter"


def test_the_host_reads_that_he_locked_the_lists(phones):
    host, link = new_room(phones)
    ann = join(phones, "Ann", link, "fr")
    play(host, {ann: "rest"})
    assert host.inner_text("#phase-line").startswith("You locked the lists.")
    assert "The host locked" not in host.inner_text("#phase-line")
    ann.wait_for_selector("#room[data-phase=locked]")
    assert ann.inner_text("#phase-line").startswith("L'hôte a fermé les listes.")


def test_the_questions_words_say_row_column_and_blank(phones):
    """A question in each language, as the phone words it: the cell by its row and column,
    a blank face as "blank", a dropped word as "no word"."""
    page = open_phone(phones, "words")
    page.goto(phones.base_url + "/")
    page.wait_for_selector("body[data-ready]")
    said = page.evaluate("""async () => { const m = await import('/static/errors.js');
      return [m.questionText({kind: 'cell', key: 'r1c4', cell: [0, 3], options: [['E', 0.6], ['#', 0.4]]}),
              m.questionText({kind: 'word', key: 'Ann#2', player: 'Ann', index: 1, options: [['slat', 0.6], ['slab', 0.3], ['', 0.1]]})]; }""")
    assert said == ["Row 1, column 4: E or blank?", "Ann: slat, slab or no word?"]


def test_a_confirmed_cell_shows_a_tick_and_a_corrected_one_a_pen(phones):
    host, link = new_room(phones)
    ann, bob = join(phones, "Ann", link), join(phones, "Bob", link)
    play(host, {ann: "echo", bob: "hex"})
    ann.set_input_files("#photo", str(SAMPLE))
    bob.wait_for_selector("#board .cell.doubtful >> nth=1")
    pick(bob, "1,1", "O")   # the face read, said to be right: confirmed
    pick(bob, "2,0", "X")   # another face: corrected
    for page in (ann, bob, host):
        page.wait_for_selector("#board .cell.confirmed[data-cell='1,1']")
        assert page.locator("#board .cell.fixed[data-cell='1,1']").count() == 0
        assert page.locator("#board .cell.fixed[data-cell='2,0']").count() == 1
        marks = page.evaluate("""() => [...document.querySelectorAll('#board .lab text.ok, #board .lab text.pen')]
          .map((t) => t.textContent)""")
        assert sorted(marks) == ["✎", "✓"], marks
    assert ann.inner_text("#corrections li[data-cell='r2c2']") == "Row 2, column 2: O ✓ confirmed by Bob"
    assert ann.inner_text("#corrections li[data-cell='r3c1']") == "Row 3, column 1: X ✎ by Bob"
    ann.click("#board .cell[data-cell='1,1']")
    assert "✓ confirmed by Bob" in ann.inner_text("#picker-info") and "✎" not in ann.inner_text("#picker-info")
    ann.click("#picker-cancel")


def test_doubtful_means_a_question_is_open_and_no_runner_up_under_the_threshold(phones):
    host, link = new_room(phones)
    ann, marie = join(phones, "Ann", link), join(phones, "Marie", link, "fr")
    play(host, {ann: "echo", marie: "doe"})  # only r2c2 decides a score: r3c1 and r4c4 are flagged, nobody asks
    ann.set_input_files("#photo", str(SAMPLE))
    ann.wait_for_selector("#board .cell.doubtful")
    assert ann.evaluate("() => [...document.querySelectorAll('#board .cell.doubtful')].map((c) => c.dataset.cell)") == ["1,1"]
    assert ann.inner_text("#looks-right") == "Looks right: confirm the doubtful cell"
    assert "1 doubtful cell" in ann.inner_text("#board-summary")
    assert "Check the 1 doubtful cell" in ann.inner_text("#phase-line")
    # a sure cell: its reading alone is offered, no runner-up at 0%
    ann.click("#board .cell[data-cell='0,0']")
    info = ann.inner_text("#picker-info")
    assert "runner-up" not in info and "(0%)" not in info, info
    assert ann.evaluate("() => [...document.querySelectorAll('#picker-suggest button')].map((b) => b.dataset.face)") == ["D"]
    ann.click("#picker-cancel")
    # the doubtful one: its reading and its runner-up, worth weighing
    ann.click("#board .cell[data-cell='1,1']")
    assert ann.evaluate("() => [...document.querySelectorAll('#picker-suggest button')].map((b) => b.dataset.face)") == ["O", "C"]
    ann.click("#picker-cancel")
    # settled: the report's notes say the doubts nobody was asked about, in the phone's language
    ann.click("#looks-right")
    host.wait_for_selector("#board .cell.confirmed[data-cell='1,1']")
    host.click("#score")
    marie.wait_for_selector("#room[data-phase=scored] #report .notes")
    notes = marie.inner_text("#report .notes")
    assert "Ligne 3, colonne 1\u00a0: lu A (peut-être X)\u00a0; aucun score n'en dépend." in notes, notes
    assert "Ligne 4, colonne 4\u00a0: lu C (peut-être E)" in notes, notes
    assert not re.search(r"\br\d+c\d+\b|cell\(s\)|#", notes), notes


REFUSE_TWICE = """
(() => { const real = window.fetch; let refused = 0;
  window.fetch = function (url, opts) {
    if (refused < 2 && String(url).includes('/api/rooms/') && String(url).endsWith('/players') && opts && opts.method === 'POST') {
      refused += 1;
      return Promise.resolve(new Response('too many connections from this address: wait', {status: 429}));
    }
    return real.apply(this, arguments);
  }; })();
"""


def test_a_refusal_is_said_in_the_phones_language_and_tried_again(phones):
    """A German phone refused twice (429, no words of the server's) when it joins: the
    notice says why in German and when it tries again; then it is in, without a tap."""
    host, link = new_room(phones)
    hans = open_phone(phones, "Hans", "de", REFUSE_TWICE)
    hans.goto(link)
    hans.wait_for_selector("#join:not([hidden])")
    hans.fill("#join-name", "Hans")
    hans.click("#join-form button[type=submit]")
    hans.wait_for_selector("#notice:not([hidden])")
    notice = hans.inner_text("#notice")
    assert notice.startswith("Der Server hat dieses Handy kurz abgewiesen") and "neuer Versuch in" in notice, notice
    hans.wait_for_selector("#room:not([hidden])[data-phase=waiting]", timeout=15_000)
    hans.wait_for_selector("#notice", state="hidden")
    assert hans.evaluate("() => Object.keys(JSON.parse(localStorage.getItem('boggle-cv.rooms'))).length") == 1
    host.wait_for_selector("#players li:has-text('Hans')")


def test_a_page_whose_script_was_refused_says_so_and_loads_again(phones):
    """The page's modules refused (429) as it loads: not a blank page; the German phone
    reads why, and the page loads again by itself."""
    page = open_phone(phones, "Hans", "de")
    refused = {"n": 0}

    def once(route: Any) -> None:
        if refused["n"] == 0:
            refused["n"] += 1
            route.fulfill(status=429, body="too many connections from this address: wait", content_type="text/plain")
        else:
            route.continue_()

    page.route("**/static/room.js", once)
    page.goto(phones.base_url + "/")
    page.wait_for_selector("#boot:not([hidden])")
    wait_until(page, "() => document.querySelector('#boot').textContent.startsWith('Die Seite wurde nicht geladen')")
    page.wait_for_selector("body[data-ready]", timeout=15_000)  # loaded again by itself
    assert page.is_visible("#landing") and refused["n"] == 1
    assert phones.problems == [], phones.problems


def test_reconnecting_while_the_server_is_down_and_caught_up_after(site, tmp_path, dictionary):
    """The server stops: the phone and the host's page say "reconnecting" (the phone in
    German); it comes back on the same database: both say "live" again and a change made
    then reaches the phone."""
    _, browser = site
    db = tmp_path / "games.sqlite3"
    live = LiveServer(make_app(db, None, dictionary)).__enter__()
    port = live.port
    phones = Phones(browser, live.url)
    try:
        host, link = new_room(phones)
        hans = join(phones, "Hans", link, "de")
        for page, word in ((host, "live"), (hans, "live")):
            page.wait_for_selector(f"#conn:text-is('{word}')")
        live.__exit__(None, None, None)
        host.wait_for_selector("#conn[data-state=reconnecting]")
        hans.wait_for_selector("#conn[data-state=reconnecting]")
        assert hans.inner_text("#conn") == "verbinde neu…" and host.inner_text("#conn") == "reconnecting…"
        live = LiveServer(make_app(db, None, dictionary), port=port).__enter__()
        for page in (host, hans):
            page.wait_for_selector("#conn[data-state=live]", timeout=20_000)
        host.click("#start")
        hans.wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
    finally:
        for page in phones.pages.values():
            page.context.close()
        live.__exit__(None, None, None)
    assert phones.problems == [], phones.problems


def test_a_network_gone_with_the_stream_still_open_says_reconnecting_and_catches_up(phones):
    """The host's laptop (the table screen's panel beside its controls) and a German
    phone lose their network while their live streams stay open: a change is announced
    that neither can read. Both headers leave "live" ("offline: retrying", the host's
    panel its banner), and once the network is back both say "live" again and show
    the change, without a tap."""
    host = phones.open("host", device={**LAPTOP, "locale": "en"})
    host.goto(phones.base_url + "/")
    host.wait_for_selector("body[data-ready]")
    host.click("#create")
    host.wait_for_selector("#join-link[href*='?room=']")
    hans = join(phones, "Hans", host.get_attribute("#join-link", "href"), "de")
    for page in (host, hans):
        page.wait_for_selector("#conn[data-state=live]")
    host.wait_for_selector("#room-screen[data-step=lobby][data-conn=live]")
    token = host.evaluate("() => Object.values(JSON.parse(localStorage.getItem('boggle-cv.rooms')))[0].host")
    code = host.inner_text("#join-code")
    for page in (host, hans):
        page.context.set_offline(True)
    # the change is announced on the streams still open; fetching the room fails
    Api(phones.base_url)("POST", f"/api/rooms/{code}/rounds", {}, token)
    for page in (host, hans):
        page.wait_for_selector("#conn[data-state=offline]")
    assert host.inner_text("#conn") == "offline: retrying" and hans.inner_text("#conn") == "offline: neuer Versuch"
    host.wait_for_selector("#room-screen[data-conn=offline] .ts-conn:not([hidden])")
    assert host.inner_text("#room-screen .ts-conn") == "No connection to the room: retrying…"
    assert host.get_attribute("#room", "data-phase") == "waiting"  # nothing drawn that it could not read
    for page in (host, hans):
        page.context.set_offline(False)
    for page in (host, hans):
        page.wait_for_selector("#conn[data-state=live]", timeout=15_000)
        page.wait_for_selector("#room[data-phase=playing]")
    host.wait_for_selector("#room-screen[data-step=playing][data-conn=live]")
    assert host.is_hidden("#room-screen .ts-conn")
    hans.wait_for_selector("textarea.words-box:not([readonly])")
