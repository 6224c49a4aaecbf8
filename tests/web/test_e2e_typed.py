"""Anything a sheet read can be typed, in real browsers at phone size (390 x 844): a
host and a player on two phones, a second tab of the player, and a player without a
phone whom the host adds on the host's own page.

- The host adds Grandpa ("Someone without a phone?"): a row of the players list with
  his own words box; the host's page stays the host's ("Room X · host", no "Your
  words", never "you" in the report).
- Ann types a word and photographs her sheet; the host types Grandpa's words in his
  row and photographs his sheet there.
- Once the lists are locked, before Score: Ann types a word of her sheet over from the
  list (the box is closed, the sheet's words are not), answers its question with a
  typed word and confirms another; her second tab, behind, types over the word she
  already changed and is told so, its typed word kept in its field; the host does the
  same in Grandpa's row.
- The board is typed: the words nobody confirmed or typed are read again (a recorded
  word reader), the others are left alone, and each phone shows which words changed,
  "tale → tile"; the message goes once the word is put back or kept.
- Score: the report holds the words as the people set them.

The taps each needs are counted (every tap on the page, a photo as two: the button and
the camera's shutter) and printed: `pytest -s tests/web/test_e2e_typed.py`.

The readings are recorded (the sheet reader gives chosen words with real handwriting
images, the word reader chosen readings by image), so that what changes is known.
Skips without chromium or Playwright.
"""
from __future__ import annotations

from typing import Any, Iterator

import cv2
import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from .phones import CHROMIUM, PHONE, WIDTH, browser_site, make_app, phones_on, scroll_width, shot  # noqa: E402
from .test_e2e_table import host_click, join, new_room, saved  # noqa: E402
from .test_room_sheet_images import webp  # noqa: E402
from .test_room_sheets import word  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no chromium at {CHROMIUM}")

BOARD = "PERS/LATG/SINE/TERS"
SHEET_PHOTO = b"\xff\xd8\xff\xe0" + b"\0" * 64  # what the phones send: the recorded reader reads the words below
ANN = [word("lite", free="life"), word("rise"), word("pest", True, [("pest", 0.6), ("past", 0.3)], free="pcst"),
       word("tale")]
GRANDPA = [word("rid", free="rind"), word("cat"), word("set", True, [("set", 0.5), ("sat", 0.4)], free="sef")]
#: What the word reader reads again once the board is known, by the word an image shows.
REREAD = {"lite": "late", "rise": "ruse", "pest": "past", "tale": "tile", "rid": "rod", "cat": "cart", "set": "sit"}

#: Counts every tap a person makes on the page (trusted clicks: Playwright's clicks are real input events).
COUNT_TAPS = """document.addEventListener('click', (e) => { if (e.isTrusted) {
  const n = Number(sessionStorage.getItem('taps') || 0) + 1; sessionStorage.setItem('taps', String(n)); } }, true);"""


class Readers:
    """The sheet reader gives ANN, then GRANDPA (with each word's handwriting); the word
    reader reads each image again as REREAD says, knowing the image by its pixels."""

    def __init__(self) -> None:
        self.sheets = [ANN, GRANDPA]
        self.images = {w: webp(w) for w in REREAD}
        self.pixels = {w: cv2.imdecode(np.frombuffer(d, np.uint8), cv2.IMREAD_GRAYSCALE) for w, d in self.images.items()}
        self.reread: list[str] = []

    def sheet(self, data: bytes, lexicon: Any, lang: str = "en") -> dict[str, Any]:
        words = self.sheets.pop(0) if self.sheets else GRANDPA
        return {"corners": [], "turn": 0, "words": words, "images": [self.images[w["word"]] for w in words]}

    def words(self, images: list[np.ndarray], lexicon: list[str], lang: str = "en") -> list[Any]:
        from types import SimpleNamespace
        out = []
        for img in images:
            shown = next(w for w, px in self.pixels.items() if px.shape == img.shape and np.array_equal(px, img))
            self.reread.append(shown)
            out.append(SimpleNamespace(alternatives=[(REREAD[shown], 0.9)], flagged=False, free=shown))
        return out


@pytest.fixture(scope="module")
def site(tmp_path_factory: Any, scanner_factory: Any, dictionary: Any) -> Iterator[tuple[Any, Any, Readers]]:
    app = make_app(tmp_path_factory.mktemp("typed") / "games.sqlite3", scanner_factory, dictionary)
    readers = Readers()
    app.state.web.sheet_reader = readers.sheet
    app.state.web.word_reader = readers.words
    with browser_site(app) as (live, browser):
        yield live, browser, readers


@pytest.fixture()
def phones(site: Any) -> Iterator[Any]:
    live, browser, _ = site
    with phones_on(browser, live.url) as p:
        yield p


def taps(page: Any) -> int:
    return int(page.evaluate("() => Number(sessionStorage.getItem('taps') || 0)"))


def photo(page: Any, selector: str) -> None:
    """The sheet's photo sent through the file input `selector` (the camera: the button, then the shutter)."""
    page.set_input_files(selector, files=[{"name": "sheet.jpg", "mimeType": "image/jpeg", "buffer": SHEET_PHOTO}])


def box_value(page: Any, scope: str = "#wordboxes") -> list[str]:
    return str(page.input_value(f"{scope} textarea.words-box")).split("\n")


def open_word(page: Any, scope: str, w: str) -> str:
    """Unfold the words from the sheet in `scope` and tap `w`: the selector of its row."""
    if not page.locator(f"{scope} details.sheet-words[open]").count():
        page.click(f"{scope} details.sheet-words summary")
    row = f"{scope} .sheet-word-list li[data-word='{w}']"
    page.click(f"{row} button.sheet-word")
    page.wait_for_selector(f"{row} form.typed-form input")
    return row


def type_in(page: Any, form: str, text: str) -> None:
    """Tap the field of `form`, type `text` in it and tap its ✓."""
    write(page, f"{form} input.typed", text)
    page.click(f"{form} button.typed-send")


def write(page: Any, field: str, text: str) -> None:
    """Tap a text field (a tap a person makes, counted) and type `text` into it."""
    page.click(field)
    page.fill(field, text)


class Taps:
    """Each step's taps of each person: what the page counted since the last step, and
    `photos` sent meanwhile at two taps each (the button, then the camera's shutter;
    a file chooser in the test, no tap)."""

    def __init__(self, **pages: Any) -> None:
        self.pages, self.seen = pages, {who: 0 for who in pages}
        self.steps: list[tuple[str, str, int]] = []

    def step(self, who: str, what: str, photos: int = 0) -> None:
        now = taps(self.pages[who])
        self.steps.append((who, what, now - self.seen[who] + 2 * photos))
        self.seen[who] = now

    def print(self) -> None:
        total: dict[str, int] = {}
        for who, what, n in self.steps:
            total[who] = total.get(who, 0) + n
            print(f"  {who:<5} {what:<64} {n:>3}")
        print("  taps in the round: " + ", ".join(f"{who} {n}" for who, n in total.items()))


def test_anything_a_sheet_read_can_be_typed(site, phones, tmp_path):
    _, _, readers = site
    readers.sheets, readers.reread = [ANN, GRANDPA], []
    host, link, code = new_room(phones)
    host.add_init_script(COUNT_TAPS)
    ann = join(phones, "Ann", link, "ann")
    ann.add_init_script(COUNT_TAPS)
    for page in (host, ann):  # the counter from here on (the scripts run on the next load)
        page.reload()
        page.wait_for_selector("#room:not([hidden])")

    # the host adds Grandpa, who has no phone: a row the host acts for; the page stays the host's
    count = Taps(host=host, ann=ann)
    write(host, "#hosted-name", "Grandpa")
    host.click("#hosted-form button[type=submit]")
    gp = "#players li.hosted"
    host.wait_for_selector(f"{gp} .wordbox label:has-text(\"Grandpa's words\")")
    count.step("host", "add Grandpa, without a phone (once a game)")
    assert host.inner_text("#room-badge").endswith("· host")
    assert host.is_hidden("#words-section")
    gp_id = host.get_attribute(gp, "data-player")
    ann.wait_for_selector(f"#players li[data-player='{gp_id}']")

    host_click(host, "#start", "playing")
    count.step("host", "start the clock")
    ann.wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
    write(ann, "textarea.words-box", "zone")
    saved(ann, "1 word")
    count.step("ann", "type her words (a tap into the box)")
    write(host, f"{gp} textarea.words-box", "slate")
    host.wait_for_selector(f"{gp} .save-state[data-state=saved]:has-text('· 1 word')")
    count.step("host", "type Grandpa's words in his row (a tap into his box)")

    # the sheets: Ann's from her phone, Grandpa's from his row on the host's
    photo(ann, ".sheet-input")
    ann.wait_for_selector("[data-role=sheet-msg]:has-text('From the sheet')")
    assert box_value(ann) == ["zone", "lite", "rise", "pest", "tale"]
    count.step("ann", "photo of her sheet", photos=1)
    photo(host, f"{gp} .sheet-input")
    host.wait_for_selector(f"{gp} [data-role=sheet-msg]:has-text('From the sheet')")
    assert box_value(host, gp) == ["slate", "rid", "cat", "set"]
    count.step("host", "photo of Grandpa's sheet, in his row", photos=1)
    ann2 = phones.tab("ann, tab 2", of="ann")  # a second tab, opened now: it shows the sheet's words as they are
    behind = {"on": False}
    ann2.route(f"**/api/rooms/{code}", lambda route: route.abort() if behind["on"] and route.request.method == "GET"
               else route.continue_())
    ann2.goto(link)
    ann2.wait_for_selector("#wordboxes .sheet-words summary")

    # locked: the boxes close; every word of the sheets can still be typed over, before Score
    host_click(host, "#lock", "locked")
    count.step("host", "lock the lists (or the timer: none)")
    ann.wait_for_selector("#room[data-phase=locked] textarea.words-box[readonly]")
    ann2.wait_for_selector("#room[data-phase=locked]")
    behind["on"] = True  # tab 2 hears nothing more for now: it still shows "lite"
    row = open_word(ann, "#wordboxes", "lite")
    type_in(ann, f"{row} form.typed-form", "life")
    ann.wait_for_selector("[data-role=sheet-msg]:has-text('“lite” replaced with “life”')")
    ann.wait_for_selector("#wordboxes .sheet-word-list li[data-word='life'] .checked")
    count.step("ann", "type one word over (unfold, tap it, tap its field, type, ✓)")
    # the question: the word as written is offered; Ann types another
    q = "#wordboxes .doubtful-words li[data-word='pest']"
    assert ann.get_attribute(f"{q} button.alt.other", "data-choice") == "pcst"
    type_in(ann, f"{q} form.typed-form", "pets")
    ann.wait_for_selector("[data-role=sheet-msg]:has-text('“pest” replaced with “pets”')")
    count.step("ann", "answer a question with a typed word (tap its field, type, ✓)")
    row = open_word(ann, "#wordboxes", "rise")
    ann.click(f"{row} button.typed-send")  # kept as it is: checked by a person
    ann.wait_for_selector("[data-role=sheet-msg]:has-text('“rise” confirmed')")
    count.step("ann", "confirm a word of the sheet (tap it, ✓)")
    assert box_value(ann) == ["zone", "life", "rise", "pets", "tale"]
    # the second tab still shows "lite": its word is refused, and what it typed stays in its field; once it
    # hears of the change, the field is beside "life", still holding "lift", and sends it
    row2 = open_word(ann2, "#wordboxes", "lite")
    type_in(ann2, f"{row2} form.typed-form", "lift")
    ann2.wait_for_selector("[data-role=sheet-msg].error:has-text('no longer a word from the sheet')")
    assert ann2.input_value(f"{row2} input.typed") == "lift"
    behind["on"] = False
    ann2.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")  # the tab looked at again
    life2 = "#wordboxes .sheet-word-list li[data-word='life']"
    ann2.wait_for_selector(f"{life2} input.typed", timeout=30_000)
    assert ann2.input_value(f"{life2} input.typed") == "lift"
    type_in(ann2, f"{life2} form.typed-form", "lift")
    ann.wait_for_selector("#wordboxes .sheet-word-list li[data-word='lift']")
    assert box_value(ann) == ["zone", "lift", "rise", "pets", "tale"]
    # the host, in Grandpa's row: types over one word, answers his question with the word as written
    row = open_word(host, gp, "rid")
    type_in(host, f"{row} form.typed-form", "rind")
    host.wait_for_selector(f"{gp} [data-role=sheet-msg]:has-text('“rid” replaced with “rind”')")
    count.step("host", "type one of Grandpa's words over")
    host.click(f"{gp} .doubtful-words li[data-word='set'] button.alt.other")
    host.wait_for_selector(f"{gp} [data-role=sheet-msg]:has-text('“set” replaced with “sef”')")
    assert box_value(host, gp) == ["slate", "rind", "cat", "sef"]
    count.step("host", "answer Grandpa's question with the word as written")
    shot(host, tmp_path, "web_hosted_row", top=gp)

    # the board: the words nobody checked are read again; the people's words are left alone
    host.click("#type-board summary")
    write(host, "#board-input", BOARD)
    host.click("#board-form button[type=submit]")
    changes = "#wordboxes .reread-changes li[data-word='tile']"
    ann.wait_for_selector(changes, timeout=30_000)
    assert sorted(readers.reread) == ["cat", "tale"]
    assert ann.inner_text(f"{changes} .dword").replace("\n", "") == "tale → tile"
    assert box_value(ann) == ["zone", "lift", "rise", "pets", "tile"]
    host.wait_for_selector(f"{gp} .reread-changes li[data-word='cart']")
    assert box_value(host, gp) == ["slate", "rind", "cart", "sef"]
    assert scroll_width(ann) <= WIDTH and scroll_width(host) <= WIDTH
    count.step("host", "type the board (or a photo of the tray: 2)")
    shot(ann, tmp_path, "web_reread_changes", top="#wordboxes")
    # the change message goes once it is no longer true: Ann puts "tale" back, the host keeps "cart"
    ann.click(f"{changes} button[data-choice='tale']")
    ann.wait_for_selector("#wordboxes .reread-changes", state="hidden")
    count.step("ann", "put back a word the re-read changed")
    host.click(f"{gp} .reread-changes li[data-word='cart'] button.reading")
    host.wait_for_selector(f"{gp} .reread-changes", state="hidden")
    count.step("host", "keep a word the re-read changed in Grandpa's row")

    # Score: the report holds the words as the people set them; Grandpa is never "you"
    host.click("#score")
    host.wait_for_selector("#room[data-phase=scored] #winner")
    words_of = """(name) => [...document.querySelectorAll(`#report .pw[data-player="${name}"] button.chip`)]
                    .map((b) => b.dataset.word).sort()"""
    assert host.evaluate(words_of, "Ann") == sorted(["zone", "lift", "rise", "pets", "tale"])
    assert host.evaluate(words_of, "Grandpa") == sorted(["slate", "rind", "cart", "sef"])
    assert "Grandpa" not in host.inner_text("#room-badge")
    count.step("host", "score")
    count.print()


#: The row of a player without a phone and its sheet's words, as a host's phone in each language says them.
IN_WORDS = {
    "fr": ("Mots de Grandpa", "sans téléphone\u00a0: sur cet appareil", "ou tapez-le", "Photo de la feuille de Grandpa"),
    "de": ("Wörter von Grandpa", "ohne Handy: auf diesem Gerät", "oder tippe es", "Foto von Grandpas Zettel"),
    "es": ("Palabras de Grandpa", "sin móvil: en este dispositivo", "o escríbela", "Foto de la hoja de Grandpa"),
    "it": ("Parole di Grandpa", "senza telefono: su questo dispositivo", "o scrivila", "Foto del foglio di Grandpa"),
    "nl": ("Woorden van Grandpa", "geen telefoon: op dit apparaat", "of typ het", "Foto van het blad van Grandpa"),
}


@pytest.mark.parametrize("lang", sorted(IN_WORDS))
def test_the_row_of_a_player_without_a_phone_in_each_language(site, phones, lang):
    """A host's phone in `lang` adds Grandpa, photographs his sheet once the lists are
    locked and types one of its words over: every line of his row in that language."""
    site[2].sheets = []  # the sheet reader reads GRANDPA
    label, tag, placeholder, photo_button = IN_WORDS[lang]
    host = phones.open("host", device={**PHONE, "locale": lang})
    host.goto(phones.base_url + "/")
    host.wait_for_selector("body[data-ready]")
    host.click("#create")
    host.wait_for_selector("#join-link[href*='?room=']")
    assert host.evaluate("() => document.documentElement.lang") == lang
    host.fill("#hosted-name", "Grandpa")
    host.click("#hosted-form button[type=submit]")
    gp = "#players li.hosted"
    host.wait_for_selector(f"{gp} .wordbox")
    assert host.inner_text(f"{gp} .words-label") == label and host.inner_text(f"{gp} .hosted-head .tag") == tag
    assert host.inner_text(f"{gp} .sheet-button").strip() == f"📷 {photo_button}"
    host_click(host, "#start", "playing")
    host_click(host, "#lock", "locked")
    photo(host, f"{gp} .sheet-input")
    host.wait_for_selector(f"{gp} .doubtful-words li[data-word='set']")
    assert host.get_attribute(f"{gp} .doubtful-words li[data-word='set'] input.typed", "placeholder") == placeholder
    row = open_word(host, gp, "rid")
    type_in(host, f"{row} form.typed-form", "rind")
    host.wait_for_selector(f"{gp} .sheet-word-list li[data-word='rind'] .checked")
    text = host.inner_text(gp)
    for english in ("words", "to confirm", "sheet", "tap", "not a word", "replaced"):
        assert english not in text, (english, text)
    assert scroll_width(host) <= WIDTH
