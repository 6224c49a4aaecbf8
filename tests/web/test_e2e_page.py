"""The page as tried on phones, each case checked in a real browser at 390 px: one
server and one chromium for the module, a fresh room per test.

The photo is read by the real tray finder and cutter with a recorded reading
(`as_photographed`: the sample's true faces where the cutter finds them, turned as
they lie in the photo, one cell doubtful), so that the "?" and the turned board are
tested whatever the reader model reads. Skips without chromium or Playwright.
"""
from __future__ import annotations

from typing import Any, Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from boggle_cv.store import database as store  # noqa: E402

from boggle_cv.vision.stages import Reading  # noqa: E402

from .conftest import SAMPLE, LiveServer, RecordedReader, sample_truth  # noqa: E402
from .phones import ARGS, CHROMIUM, WIDTH, Phones, in_view, make_app, scroll_width  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no chromium at {CHROMIUM}")

BOARDS = {6: "ABCDEF/GHIJKL/MNOPRS/TUVWXY/ZABCDE/FGHIJK", 5: "RALHS/SDANT/CRRTN/ITOXA/CAVIS",
          4: "PERS/LATG/SINE/TERS"}


class TurnedReader(RecordedReader):
    """A RecordedReader whose letters all lie turned by `turn` quarters (clockwise)."""

    def __init__(self, faces: list[str], doubtful: dict[int, tuple[str, str, float]], turn: int) -> None:
        super().__init__(faces, doubtful)
        self.turn = turn

    def read(self, crops: Any) -> Reading:
        got = super().read(crops)
        turns = got.turns * 0
        turns[:, self.turn] = 1.0
        return Reading(got.faces, turns)


def as_photographed() -> TurnedReader:
    """samples/sample-4x4-a.jpg as the reader model sees it: the tray lies a quarter
    turned, so board cell (r, c) is the cutter's crop (c, n-1-r) and every letter is
    turned 270 degrees; board cell r3c2 is doubtful (read O, runner-up its true E)."""
    truth = sample_truth()["faces"]
    n = len(truth)
    faces = [""] * (n * n)
    for r in range(n):
        for c in range(n):
            faces[c * n + (n - 1 - r)] = truth[r][c]
    k = 1 * n + (n - 1 - 2)
    faces[k] = "O"
    return TurnedReader(faces, {k: ("O", truth[2][1], 0.55)}, turn=1)


@pytest.fixture(scope="module")
def site(tmp_path_factory, dictionary, photo_ready) -> Iterator[tuple[Any, Any]]:
    from boggle_cv.vision.pipeline import Scanner
    reader = as_photographed()
    db = tmp_path_factory.mktemp("page") / "games.sqlite3"
    with LiveServer(make_app(db, lambda: Scanner(reader=reader), dictionary)) as live, \
            sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            yield live, browser, db
        finally:
            browser.close()


@pytest.fixture()
def phones(site) -> Iterator[Phones]:
    live, browser, _ = site
    p = Phones(browser, live.url)
    yield p
    for page in p.pages.values():
        page.context.close()
    assert p.problems == [], p.problems


def table_room(phones: Phones, *names: str) -> Any:
    """One phone for the whole table: a room whose host device holds every player."""
    page = phones.open("table")
    page.goto(phones.base_url + "/")
    page.click("#table")
    page.wait_for_selector("#room:not([hidden]) #add-form:not([hidden])")
    for name in names:
        add_player(page, name)
    return page


def add_player(page: Any, name: str) -> None:
    page.fill("#add-name", name)
    page.click("#add-form button[type=submit]")
    page.wait_for_selector("#add-msg:not(.busy)")


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


def host_click(page: Any, button: str, phase: str) -> None:
    page.click(button)
    page.wait_for_selector(f"#room[data-phase={phase}]")


def next_round(page: Any) -> None:
    """Next round: it waits (no clock) until the host starts the clock."""
    host_click(page, "#next", "waiting")
    host_click(page, "#start", "playing")


def words(page: Any, name: str, text: str) -> None:
    page.get_by_label(f"{name}'s words").fill(text)
    page.wait_for_selector(f".wordbox:has(label:text-is(\"{name}'s words\")) .save-state[data-state=saved]")


def screen_top_left_cell(page: Any) -> str:
    return page.evaluate("""() => [...document.querySelectorAll('#board .cell')].map((c) => {
        const r = c.getBoundingClientRect(); return [r.x + r.y + r.width / 2 + r.height / 2, c.dataset.cell]; })
        .sort((a, b) => a[0] - b[0])[0][1]""")


def test_board_turns_sizes_doubtful_cells_paths_reload_and_double_tap(site, phones):
    page = table_room(phones, "Ann")
    host_click(page, "#start", "playing")
    # hex runs through the doubtful cell (read O, truly E): a question the referee asks
    words(page, "Ann", "rest\nlast\nplaster\nhex")
    host_click(page, "#lock", "locked")

    # the photo's board is turned in the photo: row 1, column 1 is the top-left cell on screen
    page.set_input_files("#photo", str(SAMPLE))
    page.wait_for_selector("#board .cell >> nth=15")
    assert page.get_attribute("#board", "data-turn") != "0"  # the sample's tray lies turned
    assert screen_top_left_cell(page) == "0,0"
    page.click("#board .cell[data-cell='0,0']")
    assert page.inner_text("#picker-h") == "Row 1, column 1"
    assert page.inner_text("#board-text")[0] == page.get_attribute("#board .cell[data-cell='0,0']", "data-face")
    page.click("#picker-cancel")

    # a doubtful cell: choosing the face it already shows confirms it (✓, not ✎) and clears the "?"
    doubtful = page.locator("#board .cell.doubtful")
    assert doubtful.count() == 1 and page.locator("#board text.face:text-matches('\\\\?$')").count() == 1
    where, face = doubtful.get_attribute("data-cell"), doubtful.get_attribute("data-face")
    doubtful.click()
    page.click(f"#picker-suggest button[data-face='{face}']")
    page.wait_for_selector(f"#board .cell.confirmed[data-cell='{where}'][data-face='{face}']")
    assert page.locator("#board .cell.doubtful").count() == 0 and page.locator("#board .cell.fixed").count() == 0
    assert page.locator("#board text.face:text-matches('\\\\?$')").count() == 0
    assert "✓ confirmed by the host" in page.inner_text("#corrections")

    # nothing is drawn over the board before the round is scored; then a double tap stores it once
    assert page.locator("#board polyline").count() == 0
    page.dblclick("#score")
    page.wait_for_selector("#room[data-phase=scored] #report #winner")
    game = page.evaluate("""async () => { const c = new URLSearchParams(location.search).get('room');
      const t = JSON.parse(localStorage.getItem('boggle-cv.rooms'))[c].host;
      return (await (await fetch(`/api/rooms/${c}`, {headers: {Authorization: `Bearer ${t}`}})).json()).room.game; }""")
    assert store.standings(site[2], game).rounds == 1
    assert page.locator("#board polyline").count() == 0  # paths only for a tapped word
    page.click("#missed button.chip >> nth=0")
    assert page.locator("#board polyline.path").count() == 1

    # a reload keeps the board, the correction and the report
    before = (page.inner_text("#board-text"), page.inner_text("#corrections"), page.inner_text("#winner"))
    page.reload()
    page.wait_for_selector("#report #winner")
    page.wait_for_selector("#board image")
    assert (page.inner_text("#board-text"), page.inner_text("#corrections"), page.inner_text("#winner")) == before

    # a smaller board after a bigger one, with a path of the bigger one drawn
    next_round(page)
    host_click(page, "#lock", "locked")
    for n in (6, 5, 4, 6):
        typed_board(page, BOARDS[n])
        assert page.locator("#board .cell").count() == n * n
        assert page.inner_text("#board-text") == BOARDS[n]
        assert scroll_width(page) <= WIDTH
    host_click(page, "#score", "scored")
    page.click("#missed button.chip >> nth=0")
    page.wait_for_selector("#board polyline.path")
    next_round(page)
    assert page.locator("#board polyline").count() == 0 and page.locator("#report-section").is_hidden()
    for n in (5, 4):
        typed_board(page, BOARDS[n])
        assert page.locator("#board .cell").count() == n * n
    assert page.locator("#board-msg.error").count() == 0


def test_looks_right_confirms_every_doubtful_cell_at_once(site, phones):
    page = table_room(phones, "Ann")
    host_click(page, "#start", "playing")
    words(page, "Ann", "hex")  # through the doubtful cell: the referee asks about it
    host_click(page, "#lock", "locked")
    page.set_input_files("#photo", str(SAMPLE))
    page.wait_for_selector("#board .cell.doubtful")
    assert page.inner_text("#looks-right") == "Looks right: confirm the doubtful cell"
    where = page.get_attribute("#board .cell.doubtful", "data-cell")
    page.click("#looks-right")
    page.wait_for_selector(f"#board .cell.confirmed[data-cell='{where}']")
    assert page.locator("#board .cell.doubtful").count() == 0 and page.is_hidden("#looks-right")
    # said once the room holds the cell confirmed (the board is drawn a moment before it), and kept
    page.wait_for_selector("#board-msg:not([hidden]):text-is('1 cell confirmed as read.')")
    assert page.get_attribute(f"#corrections li[data-cell='r{int(where.split(',')[0]) + 1}c{int(where.split(',')[1]) + 1}']",
                              "data-confirmed") == "1"


def test_messages_next_to_the_action(site, phones):
    page = table_room(phones, "Ann")
    code = page.inner_text("#join-code")

    # joining: an empty name, a name already playing; the message is by the button, on screen
    bob = phones.open("bob")
    bob.goto(f"{phones.base_url}/?room={code}")
    bob.click("#join-form button[type=submit]")
    assert bob.locator("#join-msg.error").is_visible() and in_view(bob, "#join-msg")
    bob.fill("#join-name", "  ann ")
    bob.click("#join-form button[type=submit]")
    bob.wait_for_selector("#join-msg.error:has-text('already playing')")
    assert in_view(bob, "#join-msg")
    bob.fill("#join-name", "Bob")
    bob.click("#join-form button[type=submit]")
    bob.wait_for_selector("#room:not([hidden]) .words-label:text-is(\"Bob's words\")")

    # a full room: the 13th player is refused next to the Add button; a later success clears it
    for k in range(3, 13):
        add_player(page, f"P{k}")
    add_player(page, "P13")
    assert "full (12 players)" in page.inner_text("#add-msg.error") and in_view(page, "#add-msg")
    page.click("#players li:has-text('P12') button.remove")
    page.click("#players li:has-text('P12') button.remove")  # the second tap confirms
    page.wait_for_selector("#players-msg:has-text('P12 was removed')")
    add_player(page, "P13")
    assert page.locator("#add-msg.error").count() == 0 and "P13 is in" in page.inner_text("#add-msg")

    # scoring without a board: refused next to the button; then stored, the error gone, on screen
    host_click(page, "#start", "playing")
    words(page, "Ann", "rest\nxyzzy\nélan\nnaïve")
    bob.fill("textarea.words-box", "x" * 1_100_000)  # over the 1 MB cap of a request
    bob.wait_for_selector(".save-state[data-state=error]")
    too_long = bob.inner_text(".save-state")
    assert "1 MB" in too_long and "photo" not in too_long, too_long
    bob.fill("textarea.words-box", "pest")
    bob.wait_for_selector(".save-state[data-state=saved]")
    host_click(page, "#lock", "locked")
    page.click("#score")
    page.wait_for_selector("#round-msg.error:has-text('no board')")
    assert in_view(page, "#round-msg") and page.locator("#report-section").is_hidden()

    # files that are not photos: a document is refused on the phone, a broken photo by the
    # server; both in words, shown by the photo button
    pdf = {"name": "scores.pdf", "mimeType": "application/pdf", "buffer": b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"}
    page.set_input_files("#photo", files=[pdf])
    page.wait_for_selector("#board-msg.error")
    msg = page.inner_text("#board-msg")
    assert "not a photo" in msg and "a application" not in msg, msg
    broken = {"name": "tray.jpg", "mimeType": "image/jpeg", "buffer": SAMPLE.read_bytes()[:20_000]}
    page.set_input_files("#photo", files=[broken])
    page.wait_for_selector("#board-msg.error:has-text('uploaded photo')")
    msg = page.inner_text("#board-msg")
    assert "cannot read the uploaded photo" in msg.lower() and "image the" not in msg, msg

    typed_board(page, BOARDS[4])
    assert page.locator("#board-msg.error").count() == 0  # the old error is gone after a success
    page.click("#score")
    page.wait_for_selector("#round-msg:has-text('Saved as round 1')")
    assert page.locator("#round-msg.error").count() == 0 and in_view(page, "#round-msg")
    statuses = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '.pw[data-player="Ann"] button.chip')].map((b) => [b.dataset.word, b.dataset.status]))""")
    assert statuses["xyzzy"] == "not_on_board"  # no X on the board: what players check first
    # accents folded as players mean them: élan is elan (spelled on the board), naïve is naive (no V)
    assert statuses.get("elan") == "not_in_dictionary" and statuses.get("naive") == "not_on_board", statuses
    assert page.inner_text("#winner") == "Ann wins with 1 point!"

    # the next round's failure shows no old report
    next_round(page)
    host_click(page, "#lock", "locked")
    page.click("#score")
    page.wait_for_selector("#round-msg.error:has-text('no board')")
    assert page.locator("#report-section").is_hidden()

    # a removed player's phone is asked to join again, with the reason
    page.click("#players li:has-text('Bob') button.remove")
    page.click("#players li:has-text('Bob') button.remove")
    bob.wait_for_selector("#join:not([hidden]) #join-msg.error:has-text('removed')")


def test_no_sideways_scrolling_labels_and_word_chips(site, phones):
    name = "Bartholomew-Maximilian Featherstonehaugh"[:40]
    page = table_room(phones, name, "Bo")
    assert page.get_by_label(f"{name}'s words").count() == 1 and page.get_by_label("Bo's words").count() == 1
    host_click(page, "#start", "playing")
    words(page, name, "rest\nlast\n" + "supercalifragilisticexpialidocious" * 2 + "\n" + "z" * 70)
    page.get_by_label("Bo's words").fill("rest")  # a reload at once, before the save is due
    page.reload()
    page.wait_for_selector("#room[data-phase=playing] .wordbox:has(label:text-is(\"Bo's words\"))")
    # the box is shown at once, read-only and empty while Bo's saved words are fetched
    # with Bo's token; then it holds what was typed (the unsaved copy, saved now)
    bo = page.get_by_label("Bo's words")
    bo.evaluate("(e) => new Promise((done) => { const t = setInterval(() => { if (e.value || !e.readOnly) "
                "{ clearInterval(t); done(); } }, 20); })")
    assert bo.input_value() == "rest"
    page.wait_for_selector(".wordbox:has(label:text-is(\"Bo's words\")) .save-state[data-state=saved]")
    typed_board(page, BOARDS[6])
    assert scroll_width(page) <= WIDTH
    host_click(page, "#lock", "locked")
    typed_board(page, BOARDS[4])
    host_click(page, "#score", "scored")
    assert page.inner_text("#winner") == f"{name} wins with 1 point!"
    assert scroll_width(page) <= WIDTH
    page.evaluate("() => { document.documentElement.style.fontSize = '200%'; }")
    assert scroll_width(page) <= WIDTH, "sideways scrolling at 200% text size"
    page.evaluate("() => { document.documentElement.style.fontSize = ''; }")

    # word chips: buttons at least 44 px high, reached and pressed with the keyboard
    heights = page.evaluate("() => [...document.querySelectorAll('#report button.chip')].map((b) => b.getBoundingClientRect().height)")
    assert heights and min(heights) >= 44, min(heights)
    page.locator(".pw button.chip >> nth=0").focus()
    page.keyboard.press("Tab")  # the next word, by keyboard
    assert page.evaluate("() => document.activeElement.dataset.word") == "last"
    page.keyboard.press("Enter")
    assert page.get_attribute(".pw button.chip[data-word=last]", "aria-pressed") == "true"
    assert page.locator("#board polyline.path").count() == 1


def test_a_failed_fetch_of_saved_words_never_shows_an_empty_list(site, phones):
    """After a reload the page fetches each player's saved words with that player's
    token; when that fetch fails (no connection, a busy server) the box must not show
    an empty list as the player's (typing into it would then replace the saved list):
    it waits and asks again. Before: the failure was taken for 'no words'."""
    page = table_room(phones, "Ann", "Bo")
    host_click(page, "#start", "playing")
    words(page, "Bo", "rest\nlast")
    code, host = page.evaluate("""() => { const d = JSON.parse(localStorage.getItem('boggle-cv.rooms'));
        const c = Object.keys(d)[0]; return [c, d[c].host]; }""")
    failed = []

    def fail_players_fetch(route: Any) -> None:
        req = route.request
        if req.method == "GET" and req.headers.get("authorization") not in (None, f"Bearer {host}") \
                and len(failed) < 2:
            failed.append(req.url)
            route.abort()
        else:
            route.continue_()

    page.route(f"**/api/rooms/{code}", fail_players_fetch)
    page.reload()
    page.wait_for_selector("#room[data-phase=playing] .wordbox:has(label:text-is(\"Bo's words\"))")
    box = page.get_by_label("Bo's words")
    page.wait_for_function("() => document.querySelector('.wordbox:last-child textarea').value !== ''"
                           " || document.querySelector('.wordbox:last-child .save-state').dataset.state === 'pending'")
    seen = page.evaluate("""() => { const b = document.querySelector('.wordbox:last-child');
        const s = b.querySelector('.save-state'); return [b.querySelector('textarea').value,
        b.querySelector('textarea').readOnly, s.dataset.state, s.textContent, b.dataset.player]; }""")
    assert seen[0] in ("", "rest\nlast") and (seen[0] or seen[1]), seen
    page.wait_for_selector(".wordbox:has(label:text-is(\"Bo's words\")) .save-state[data-state=saved]", timeout=15000)
    assert failed, "the test did not make a fetch fail"
    assert box.input_value() == "rest\nlast" and not box.evaluate("e => e.readOnly")
