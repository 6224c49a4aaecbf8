"""The handwriting of the words a sheet added, in real browsers at phone size:
a host and three players on four phones.

- Ann sends the shipped rendered sample sheet (samples/sheets/sheet-4x4-a.jpg): each
  doubtful word under her box shows its handwriting (an image loaded, with alt text,
  no wider than the phone), its alternatives still one tap away; the other words from
  the sheet are folded under one line, and a tap on one shows it as written. A word
  replaced by an alternative keeps its ink (it moves to the folded words).
- Bob sees neither Ann's words nor their ink while the round plays.
- The host locks and photographs Cy's sheet for him: the host settles Cy's doubtful
  words beside their handwriting; once locked Bob taps one of Ann's words and sees it;
  once scored, in the report too.

Screenshots in the test's tmp folder (docs/images/web_sheet_crops*.png with
BOGGLE_CV_DOCS_SCREENSHOT=1: the words box and the host's list, cut to the element).
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

from boggle_cv.room.sheets import add_sheet, settle  # noqa: E402

from .phones import CHROMIUM, DOCS_IMAGES, WIDTH, score_settling, scroll_width, table_fixtures, wait_until  # noqa: E402
from .test_e2e_sheet import BOARD, MSG, READ_S, SHEET, reading  # noqa: E402,F401 (reading: a fixture)
from .test_e2e_table import host_click, join, new_room, saved, typed_board  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no chromium at {CHROMIUM}")


site, phones = table_fixtures("sheet-images")


def inks(page: Any, scope: str) -> list[dict[str, Any]]:
    """The handwriting images shown under `scope`: alt text, natural and shown size, loaded."""
    got: list[dict[str, Any]] = page.evaluate("""(scope) => [...document.querySelectorAll(`${scope} img.ink`)]
      .filter((i) => i.offsetParent !== null)
      .map((i) => ({ alt: i.alt, loaded: i.complete && i.naturalWidth > 0, natural: [i.naturalWidth, i.naturalHeight],
                     shown: [i.getBoundingClientRect().width, i.getBoundingClientRect().height],
                     right: i.getBoundingClientRect().right, src: i.src.slice(0, 5) }))""", scope)
    return got


def all_loaded(scope: str, n: int) -> str:
    return (f"() => {{ const i = [...document.querySelectorAll(`{scope} img.ink`)].filter((e) => e.offsetParent !== null);"
            f" return i.length === {n} && i.every((e) => e.complete && e.naturalWidth > 0); }}")


def element_shot(page: Any, selector: str, tmp: Path, name: str) -> None:
    """A screenshot of one element (small), into tmp; into docs/images with BOGGLE_CV_DOCS_SCREENSHOT=1."""
    path = tmp / f"{name}.png"
    page.evaluate("() => { document.querySelector('header').style.position = 'static'; }")  # not over the element
    try:
        for attempt in range(4):  # the live page may redraw the element under the shot (an update
            try:                  # from another phone): take it again once the redraw is done
                page.locator(selector).screenshot(path=str(path), scale="css")
                break
            except Exception as e:  # playwright's Error
                if "not attached" not in str(e) or attempt == 3:
                    raise
                page.wait_for_timeout(250)
    finally:
        page.evaluate("() => { document.querySelector('header').style.position = ''; }")
    if os.environ.get("BOGGLE_CV_DOCS_SCREENSHOT") == "1" and name.startswith("web_"):
        from PIL import Image
        DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
        with Image.open(path) as im:  # 64 colours: a third of the bytes, the same to the eye
            im.convert("RGB").quantize(64).save(DOCS_IMAGES / f"{name}.png", optimize=True)


def test_the_handwriting_beside_each_word(phones, reading, tmp_path):
    expected, marks, done = add_sheet([], {}, reading)
    assert done.doubtful, "the sample's free reading flags no word: this test needs one doubtful word"
    host, link, code = new_room(phones)
    ann = join(phones, "Ann", link, "ann")
    bob = join(phones, "Bob", link, "bob")
    cy = join(phones, "Cy", link, "cy")
    host_click(host, "#start", "playing")
    ann.wait_for_selector("#room[data-phase=playing] textarea.words-box:not([readonly])")
    ann_id = str(ann.get_attribute(".wordbox", "data-player"))
    ann.set_input_files(".sheet-input", str(SHEET))
    ann.wait_for_selector(f"{MSG}:not([hidden]):not(.busy)", timeout=READ_S)
    saved(ann, f"{len(expected)} words")

    # each doubtful word beside its handwriting, loaded, with alt text, inside the phone's width
    panel = f".doubtful-words[data-owner='{ann_id}']"
    wait_until(ann, all_loaded(panel, len(marks)))
    shown = inks(ann, panel)
    assert sorted(i["alt"] for i in shown) == sorted(f"“{w}” as written on the sheet" for w in marks)
    for i in shown:
        assert i["src"] == "blob:" and i["natural"][1] <= 48 and i["natural"][0] <= 320, i
        assert 30 <= i["shown"][1] <= 48 and i["right"] <= WIDTH, i
    # the alternatives are still one tap away, on the same line as before
    for w in marks:
        assert ann.locator(f"{panel} li[data-word='{w}'] button.alt.reading").is_visible()
    # the other words from the sheet: folded; a tap shows one as written
    folded = f".sheet-words[data-owner='{ann_id}']"
    others = [w for w in expected if w not in marks]
    assert ann.inner_text(f"{folded} summary").startswith(f"{len(others)} words from the sheet")
    assert not ann.locator(f"{folded} .sheet-word").first.is_visible()
    ann.click(f"{folded} summary")
    first = others[0]
    ann.click(f"{folded} button.sheet-word[data-word='{first}']")
    assert ann.get_attribute(f"{folded} button.sheet-word[data-word='{first}']", "aria-expanded") == "true"
    wait_until(ann, all_loaded(f"{folded} li[data-word='{first}']", 1))
    assert scroll_width(ann) <= WIDTH
    # the sheet's words unfolded below the box never squeeze the questions above it
    held = ann.evaluate("(sel) => document.querySelector(sel).parentElement.getBoundingClientRect().height", panel)
    assert held >= 88, held  # at least two of its rows (44 px targets)
    # Ann keeps all but two of the doubtful words: they join the folded words, ink and all
    for w in list(marks)[2:]:
        ann.click(f"{panel} li[data-word='{w}'] button.alt.reading")
        ann.wait_for_selector(f"{MSG}:has-text('“{w}” confirmed')")
        expected, marks = settle(expected, marks, w, w)
    others = [w for w in expected if w not in marks]
    wait_until(ann, f"() => document.querySelectorAll(\"{folded} button.sheet-word\").length === {len(others)}")
    assert ann.get_attribute(f"{folded} button.sheet-word[data-word='{first}']", "aria-expanded") == "true"
    element_shot(ann, ".wordbox", tmp_path, "web_sheet_crops")

    # Bob sees a count, not Ann's words nor their ink
    bob.wait_for_selector(f"#players li[data-player='{ann_id}'] .count:has-text('{len(expected)} words')")
    assert bob.locator("img.ink").count() == 0 and bob.locator(f".sheet-words[data-owner='{ann_id}']").count() == 0

    # a doubtful word replaced by an alternative keeps its ink: among the folded words now
    word = list(marks)[0]
    alternative = next(a for a, _ in marks[word][1:]) if len(marks[word]) > 1 else word
    ann.click(f"{panel} li[data-word='{word}'] button[data-choice='{alternative}']")
    ann.wait_for_selector(f"{MSG}:has-text('“{alternative}”')")
    expected, marks = settle(expected, marks, word, alternative)
    wait_until(ann, f"() => !!document.querySelector(\"{folded} button.sheet-word[data-word='{alternative}']\")")
    # the unfolded list and the word shown stay as the player left them after the redraw
    assert ann.locator(f"{folded}[open]").count() == 1
    wait_until(ann, all_loaded(f"{folded} li[data-word='{first}']", 1))

    # the host locks and photographs Cy's sheet; Cy's doubtful words beside their ink, for the host
    host_click(host, "#lock", "locked")
    cy_id = str(cy.get_attribute(".wordbox", "data-player"))
    with host.expect_file_chooser() as chooser:
        host.click(f"#players button.sheet[data-player='{cy_id}']")
    chooser.value.set_files(str(SHEET))
    host.wait_for_selector("#players-msg:has-text(\"Cy's sheet: \")", timeout=READ_S)
    cy_words, cy_marks, _ = add_sheet([], {}, reading)
    host_panel = f"#players .doubtful-words[data-owner='{cy_id}']"
    wait_until(host, all_loaded(host_panel, len(cy_marks)))
    for i in inks(host, host_panel):
        assert i["right"] <= WIDTH and i["natural"][1] <= 48, i
    dropped = list(cy_marks)[0]
    host.click(f"{host_panel} li[data-word='{dropped}'] button.drop")
    host.wait_for_selector(f"#players-msg:has-text('“{dropped}” removed')")
    cy_words, cy_marks = settle(cy_words, cy_marks, dropped, None)
    for w in list(cy_marks)[2:]:  # the host confirms all but two for the picture
        host.click(f"{host_panel} li[data-word='{w}'] button.alt.reading")
        host.wait_for_selector(f"#players-msg:has-text('“{w}” confirmed')")
        cy_words, cy_marks = settle(cy_words, cy_marks, w, w)
    wait_until(host, all_loaded(host_panel, len(cy_marks)))
    host.click(f"#players .sheet-words[data-owner='{cy_id}'] summary")
    element_shot(host, f"#players li[data-player='{cy_id}']", tmp_path, "web_sheet_crops_host")
    # Cy's phone: his box shows his doubtful words with their ink too
    wait_until(cy, all_loaded(f".doubtful-words[data-owner='{cy_id}']", len(cy_marks)))

    # once locked every list is open: Bob taps one of Ann's words from her sheet and sees it written
    bob_folded = f"#players .sheet-words[data-owner='{ann_id}']"
    bob.wait_for_selector(bob_folded)
    bob.click(f"{bob_folded} summary")
    bob.click(f"{bob_folded} button.sheet-word[data-word='{first}']")
    wait_until(bob, all_loaded(f"{bob_folded} li[data-word='{first}']", 1))
    assert scroll_width(bob) <= WIDTH

    # scored: in the report a word from a sheet shows its handwriting while it is tapped
    typed_board(host, BOARD)
    score_settling(host)
    bob.wait_for_selector("#room[data-phase=scored] #winner")
    chip = f"#report .pw[data-player='Ann'] button.chip[data-word='{first}']"
    assert bob.get_attribute(chip, "data-ink") == "1"
    assert bob.locator("#report .pw[data-player='Bob'] button.chip[data-ink]").count() == 0  # typed, no ink
    bob.click(chip)
    wait_until(bob, all_loaded(f"#report .pw[data-player='Ann'] li.with-ink:has(button[aria-pressed=true])", 1))
    element_shot(bob, "#report .pw[data-player='Ann']", tmp_path, "report_ink")  # tmp only: not in the docs
    bob.click(chip)
    wait_until(bob, f"() => !document.querySelector(\"#report .ink-box:not([hidden])\")")
