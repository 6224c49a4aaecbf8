"""Practice alone on a phone (chromium through Playwright, 390 x 844, touch), one
server and one chromium for the module:

- a virtual shake: the board of the real cubes, words typed against the clock, which
  ends by itself once the test moves the phone's clock past it (Playwright's clock:
  however slow the machine, the words are typed first); the words lock, the round is
  scored and recorded;
  the summary (points, the share of the board, new best, average of the last ten)
  is the server's own scoring; a missed word tapped shows its path cube by cube;
- a reload in the middle of a round keeps the round and its words;
- a real tray: the clock, then the tray's photo (read by the server's reader) and
  the player's words; the record lists both kinds of rounds;
- nothing is wider than the screen.

Screenshots go to the test's temp folder (and docs/images with
BOGGLE_CV_DOCS_SCREENSHOT=1). Skips without chromium or Playwright.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from boggle_cv.game.board import Board  # noqa: E402
from boggle_cv.practice import record  # noqa: E402
from boggle_cv.game.scoring import solve  # noqa: E402

from .conftest import SAMPLE  # noqa: E402
from .phones import CHROMIUM, WIDTH, scroll_width, shot, table_fixtures, time_held, wait_until  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no chromium at {CHROMIUM}")

site, phones = table_fixtures("practice")

SHOTS = Path(os.environ.get("BOGGLE_CV_PRACTICE_SHOTS", "/tmp/practice-shots"))


def db_of(site: Any) -> Path:
    live, _ = site
    return Path(live.server.config.app.state.practice.db_path)


def open_practice(phones: Any, name: str, clock: bool = False) -> Any:
    """Practice on a new phone; clock: the page's time is the test's to move or hold
    (page.clock)."""
    page = phones.open(name)
    if clock:
        page.clock.install()
    page.goto(phones.base_url + "/")
    page.wait_for_selector("body[data-ready]")
    page.click("#practice-start")
    page.wait_for_selector("#practice:not([hidden]) #pr-setup:not([hidden])")
    wait_until(page, "() => document.querySelector('#pr-dice').options.length > 0")
    return page


def board_faces(page: Any) -> list[list[str]]:
    return page.evaluate("""() => { const g = document.querySelector('#pr-board .pr-grid');
      const n = Number(g.dataset.n), cubes = [...g.querySelectorAll('.pr-cube')].map((c) => c.firstChild ? c.firstChild.textContent : '#');
      return Array.from({length: n}, (_, r) => cubes.slice(r * n, r * n + n)); }""")


def test_a_virtual_round_against_the_clock(site, phones, dictionary, tmp_path):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = open_practice(phones, "ann", clock=True)
    page.fill("#pr-name", "Ann")
    page.select_option("#pr-size", "4")
    page.fill("#pr-minutes", "10")
    page.click("#pr-shake")
    page.wait_for_selector("#pr-play:not([hidden]) #pr-board .pr-grid[data-n='4']")
    faces = board_faces(page)
    assert len(faces) == 4 and all(len(r) == 4 for r in faces)
    board = Board.from_rows(faces)
    best = [w.word for w in solve(board, dictionary)[:3]]
    page.fill("#pr-words", "\n".join(best + ["zzzq"]))
    assert "4 words" in page.inner_text("#pr-count")
    assert re.fullmatch(r"(10|[1-9]):[0-5]\d", page.inner_text("#pr-timer"))  # counting down from 10:00
    shot(page, SHOTS, "practice-playing")
    assert scroll_width(page) <= WIDTH
    # the clock ends the round; the words lock and the round is scored
    page.clock.fast_forward("10:01")
    page.wait_for_selector("#pr-result:not([hidden])", timeout=60_000)
    summary = page.inner_text("#pr-summary")
    expected = sum(w.points for w in solve(board, dictionary)[:3])
    assert f"{expected} point" in page.inner_text(".pr-score")
    assert "New personal best! (your first round of this kind)" in summary
    assert "Average of the last" not in summary and "of the board's points" in summary  # no average of one round
    rec = record.record(db_of(site), "ann", 4, "en", 600)
    assert rec is not None and rec.rounds[-1].score == expected and rec.rounds[-1].board == board.to_text()
    # a missed word tapped shows its path, numbered cube by cube
    first = page.locator("#pr-missed button").first
    first.click()
    n = len(page.inner_text("#pr-missed li:first-child .w"))
    steps = page.evaluate("() => [...document.querySelectorAll('#pr-result-board .pr-cube.on')].map((c) => Number(c.dataset.step))")
    assert sorted(steps) == list(range(1, len(steps) + 1)) and 3 <= len(steps) <= n
    shot(page, SHOTS, "practice-result")
    assert scroll_width(page) <= WIDTH


def test_a_reload_keeps_the_round_and_its_words(site, phones):
    page = open_practice(phones, "bo", clock=True)
    page.fill("#pr-name", "Bo")
    page.fill("#pr-minutes", "5")
    page.click("#pr-shake")
    page.wait_for_selector("#pr-play:not([hidden]) .pr-grid")
    faces = board_faces(page)
    page.fill("#pr-words", "tea\neat")
    page.reload()
    page.wait_for_selector("#pr-play:not([hidden]) .pr-grid")
    assert board_faces(page) == faces and page.input_value("#pr-words") == "tea\neat"
    with time_held(page):  # the two taps within the few seconds the question stays
        page.click("#pr-done")  # minutes left: "I'm done" asks once more
        page.wait_for_selector("#pr-done:has-text('Stop now?')")
        page.click("#pr-done")
    page.wait_for_selector("#pr-result:not([hidden])")
    page.click("#pr-again")
    page.wait_for_selector("#pr-setup:not([hidden])")
    wait_until(page, "() => document.querySelector('#pr-best').textContent.includes('Your best')")


def test_a_tray_round_with_its_photo(site, phones, photo_ready):
    page = open_practice(phones, "cy", clock=True)
    page.fill("#pr-name", "Cy")
    page.fill("#pr-minutes", "3")
    page.click("#pr-tray")
    page.wait_for_selector("#pr-play:not([hidden]) #pr-tray-help:not([hidden])")
    assert page.locator("#pr-board .pr-grid").count() == 0
    page.fill("#pr-words", "cote\nhex")
    with time_held(page):  # the two taps within the few seconds the question stays
        page.click("#pr-done")  # minutes left: "I'm done" asks once more
        page.wait_for_selector("#pr-done:has-text('Stop now?')")
        page.click("#pr-done")
    page.wait_for_selector("#pr-after:not([hidden])")
    assert page.input_value("#pr-after-words") == "cote\nhex"
    page.set_input_files("#pr-photo", str(SAMPLE))
    wait_until(page, "() => document.querySelector('#pr-board-text').value.split('/').length === 4", 60)
    page.wait_for_selector("#pr-read .pr-grid[data-n='4']")
    shot(page, SHOTS, "practice-tray")
    assert scroll_width(page) <= WIDTH
    page.fill("#pr-after-words", "cote\nhex\nnext")
    page.click("#pr-score")
    page.wait_for_selector("#pr-result:not([hidden])")
    words = page.evaluate("() => [...document.querySelectorAll('#pr-summary .chips button .w')].map((e) => e.textContent)")
    assert words == ["cote", "hex", "next"]
    rec = record.history(db_of(site), "cy")
    assert len(rec) == 1 and rec[0].rounds[0].source == "tray" and rec[0].seconds == 180
    page.click("#pr-history-box summary")
    page.wait_for_selector("#pr-history .pr-record")
    assert "1 round" in page.inner_text("#pr-history")


def test_the_api_refuses_what_it_did_not_deal(site, phones):
    """A deal altered on the phone is refused (400, its code); the same deal sent twice
    is recorded once."""
    import urllib.error
    import urllib.request
    live, _ = site

    def post(path: str, doc: dict) -> tuple[int, dict]:
        req = urllib.request.Request(live.url + path, json.dumps(doc).encode(), {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())
    status, deal = post("/api/practice/deals", {"size": 5, "lang": "en"})
    assert status == 201 and deal["dice"] == "big-1979" and len(deal["faces"]) == 5 and deal["seconds"] == 180
    body, mac = deal["deal"].split(".")
    import base64
    doc = json.loads(base64.urlsafe_b64decode(body))
    doc["board"] = "PERSL/ATGSI/NETER/SPERS/LATGS"
    forged = base64.urlsafe_b64encode(json.dumps(doc).encode()).decode() + "." + mac
    status, err = post("/api/practice/rounds", {"deal": forged, "name": "Eve", "words": "pert"})
    assert status == 400 and err["code"] == "practice.deal"
    first = post("/api/practice/rounds", {"deal": deal["deal"], "name": "Eve", "words": "tea"})
    again = post("/api/practice/rounds", {"deal": deal["deal"], "name": "Eve", "words": "tea"})
    assert first[0] == again[0] == 201 and again[1]["sent_before"] and again[1]["round_count"] == 1
    for bad, code in (({"size": 7}, None), ({"seconds": 0}, "practice.clock"), ({"lang": "xx"}, None),
                      ({"lang": "de"}, None), ({"mode": "nope"}, None)):
        status, err = post("/api/practice/deals", bad)
        assert status == 400 and (code is None or err["code"] == code), (bad, err)
    status, err = post("/api/practice/rounds", {"deal": deal["deal"], "name": "Eve", "words": "  ,, "})
    assert status == 400 and err["code"] == "practice.no_words"
