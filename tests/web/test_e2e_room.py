"""A table of phones in real browsers (chromium through Playwright): a host and three
players, each on their own 390 px phone, play two full rounds of a room. The first
round's timer runs out (the test moves the server's clock past the deadline once every
list is typed, so a slow machine never locks a list before it is typed); the host
locks the second. In the middle one phone reloads and the server restarts on the same
database; a correction made on one phone shows on another (the time it took printed);
every report on every phone equals `python -m boggle_cv score BOARD --player ... --json`
run on the board and lists the page shows; the games database holds each round once.

One phone has no EventSource (it polls). Set BOGGLE_CV_DOCS_SCREENSHOT=1 to refresh
docs/images/web_*.png and game-night-report.png. Skips without chromium
(/usr/bin/chromium or $BOGGLE_CV_CHROMIUM) or Playwright.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from boggle_cv.store import database as store  # noqa: E402

from .conftest import SAMPLE, SAMPLES, LiveServer, sample_truth  # noqa: E402
from .phones import (ARGS, CHROMIUM, NO_EVENTSOURCE, WIDTH, Phones, ServerClock, cli_score,  # noqa: E402
                     expected_report, make_app, page_report, scroll_width, shot, wait_until)
from .screen_views import Api  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no chromium at {CHROMIUM}")

NAMES = {"Ann": "alice", "Bob": "bob", "Cy": "carol"}   # player -> the sample list they type
ROUND_SECONDS = 600     # the timer: never the machine's speed (round 1's runs out by the test's clock)
LOCK_WAIT_MS = 40_000   # a stream notices a deadline the clock jumped past at its next keep-alive (15 s)
TARGET = 25


def sample_list(stem: str, who: str) -> list[str]:
    return (SAMPLES / f"{stem}.{who}.txt").read_text(encoding="utf-8").split()


def board_text(faces: list[list[str]]) -> str:
    return "/".join("".join("Q" if f == "Qu" else f"[{f}]" if len(f) == 2 else f for f in row) for row in faces)


def set_settings(host: Any, seconds: int, target: int) -> None:
    host.fill("#set-seconds", str(seconds))
    host.fill("#set-target", str(target))
    host.click("#settings-form button[type=submit]")
    host.wait_for_selector("#settings-msg:not(.busy):not(.error):has-text('Saved')")


def type_words(page: Any, words: list[str]) -> None:
    page.fill("textarea.words-box", "\n".join(words))
    page.wait_for_selector(f".save-state[data-state=saved]:has-text('{len(words)} word')")


def implied_deadlines(pages: dict[str, Any]) -> list[float]:
    """Each phone's end of the round (epoch s, this machine's clock): the time it shows
    plus the moment it showed it, so that reading the phones one after another takes
    nothing away (the time shown is rounded up: one phone may be up to 1 s later)."""
    ends = []
    for page in pages.values():
        shown, now_ms = page.evaluate("() => [document.querySelector('#timer').textContent, Date.now()]")
        minutes, seconds = shown.split(":")
        ends.append(now_ms / 1000 + int(minutes) * 60 + int(seconds))
    return ends


def check_report(pages: dict[str, Any], tmp: Path, lists: dict[str, list[str]]) -> dict[str, Any]:
    """Every phone's report against `score --json` on the board the host's page shows."""
    board = pages["host"].inner_text("#board-text").strip()
    doc = cli_score(board, lists, tmp)
    want = expected_report(doc)
    for name, page in pages.items():
        page.wait_for_selector("#report #winner")
        shown = page_report(page)
        assert page.inner_text("#board-text").strip() == board, name
        # the same players and words as score --json, in rank order (winner first)
        assert sorted(shown["players"], key=lambda p: p["name"]) == sorted(want["players"], key=lambda p: p["name"]), name
        assert [p["score"] for p in shown["players"]] == sorted((p["score"] for p in want["players"]), reverse=True), name
        assert shown["missed"] == want["missed"], name
        assert all(w in shown["winner"] for w in doc["winners"]), (name, shown["winner"])
        assert " 1 points" not in shown["winner"]
    return doc


def test_a_host_and_three_phones_play_two_rounds(tmp_path, games_db, scanner_factory, dictionary, photo_ready):
    """The whole table in a browser, on each backend of the games database."""
    db = games_db
    clock = ServerClock()  # the rooms' clock, kept across the restart
    live = LiveServer(make_app(db, scanner_factory, dictionary, clock=clock)).__enter__()
    port = live.port
    reports: list[dict[str, Any]] = []
    try:
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
            phones = Phones(browser, live.url)
            host = phones.open("host")
            host.goto(live.url + "/")
            host.wait_for_selector("body[data-ready]")
            host.click("#create")
            host.wait_for_selector("#join-link[href*='?room=']")
            link = host.get_attribute("#join-link", "href")
            code = host.inner_text("#join-code")
            assert link == f"{live.url}/?room={code}"
            wait_until(host, "() => document.querySelector('#qr').naturalWidth > 100")
            set_settings(host, ROUND_SECONDS, TARGET)
            host_token = host.evaluate("(c) => JSON.parse(localStorage.getItem('boggle-cv.rooms'))[c].host", code)

            players: dict[str, Any] = {}
            for name in NAMES:
                page = phones.open(name, *([NO_EVENTSOURCE] if name == "Cy" else []))
                page.goto(link)
                page.wait_for_selector("#join:not([hidden])")
                page.fill("#join-name", name)
                page.click("#join-form button[type=submit]")
                page.wait_for_selector("#room:not([hidden]) #words-section:not([hidden])")
                assert page.inner_text(".words-label") == f"{name}'s words"
                players[name] = page
            pages = {"host": host, **players}
            ann_id = players["Ann"].get_attribute("textarea.words-box", "data-player")
            host.wait_for_selector("#players li[data-player] >> nth=2")
            shot(host, tmp_path, "web_host", top="#invite-section")
            assert players["Cy"].inner_text("#conn") == "polling every 2 s"
            assert host.inner_text("#conn") == "live"

            # ---- round 1: typed on every phone, one reload, the timer locks the lists
            host.click("#start")
            for page in pages.values():
                page.wait_for_selector("#room[data-phase=playing]")
            ends = implied_deadlines(pages)
            assert max(ends) - min(ends) < 2, f"the timers are not in step: {ends}"
            lists1 = {name: sample_list("sample-4x4-a", who) for name, who in NAMES.items()}
            for name, page in players.items():
                type_words(page, lists1[name])
            players["Bob"].reload()
            players["Bob"].wait_for_selector("#room[data-phase=playing] .words-box")
            assert players["Bob"].input_value("textarea.words-box").split() == lists1["Bob"]
            assert players["Bob"].inner_text(".words-label") == "Bob's words"
            shot(players["Ann"], tmp_path, "web_player")
            # every list typed: the round's time runs out (the server's clock past its deadline)
            clock.past(Api(live.url)("GET", f"/api/rooms/{code}", token=host_token)["room"]["round"]["deadline"])
            for page in pages.values():
                page.wait_for_selector("#room[data-phase=locked]", timeout=LOCK_WAIT_MS)
                assert page.inner_text("#timer") == "Time's up!"
            for name in ("Ann", "Cy"):  # the end is signalled on phones that counted down
                assert "vibrate" in (players[name].evaluate("() => document.body.dataset.timeUp") or "")

            # ---- the server restarts on the same database, the phones reconnect
            live.__exit__(None, None, None)
            wait_until(host, "() => document.querySelector('#conn').dataset.state !== 'live'", 10)
            live = LiveServer(make_app(db, scanner_factory, dictionary, clock=clock), port=port).__enter__()
            for page in (host, players["Ann"], players["Bob"]):
                page.wait_for_selector("#conn[data-state=live]", timeout=15_000)

            # ---- the board: Ann's photo, Bob's correction seen on Ann's phone within a second
            players["Ann"].set_input_files("#photo", str(SAMPLE))
            for page in pages.values():
                page.wait_for_selector("#board .cell >> nth=15")
            bob = players["Bob"]
            bob.click("#board .cell[data-cell='3,3']")
            bob.wait_for_selector("#picker[open]")
            face = "E" if bob.get_attribute("#board .cell[data-cell='3,3']", "data-face") != "E" else "A"
            t0 = time.monotonic()
            bob.click(f"#picker-faces button[data-face='{face}']")
            players["Ann"].wait_for_selector("#corrections li:has-text('by Bob')")
            seen_s = time.monotonic() - t0  # printed: how fast is a benchmark's question, not a test's
            assert players["Ann"].get_attribute("#board .cell[data-cell='3,3']", "data-face") == face
            players["Cy"].wait_for_selector("#corrections li:has-text('by Bob')")  # polling

            host.dblclick("#score")  # a double tap stores the round once
            host.wait_for_selector("#room[data-phase=scored] #report #winner")
            reports.append(check_report(pages, tmp_path, lists1))
            # the winner and the score table first (docs/web.md; the README's "Game night in the room")
            shot(players["Bob"], tmp_path, "web_report")
            shot(players["Ann"], tmp_path, "game-night-report")
            players["Ann"].click("#report button.chip[data-status=scored] >> nth=0")
            players["Ann"].wait_for_selector("#board polyline.path")
            shot(players["Ann"], tmp_path, "web_board", top="#board-section")

            # ---- round 2: a typed 5x5 board, accented and foreign words; the host locks the lists
            host.click("#next")  # the next round waits while the table shakes the tray
            for page in pages.values():
                page.wait_for_selector("#room[data-phase=waiting]")
            assert "shake the tray" in players["Ann"].inner_text("#phase-line")
            host.click("#start")
            for page in pages.values():
                page.wait_for_selector("#room[data-phase=playing]")
                assert page.locator("#report-section").is_hidden()
                assert page.locator("#board polyline").count() == 0
            lists2 = {name: sample_list("sample-5x5-a", who) for name, who in NAMES.items()}
            lists2["Ann"] += ["élan", "naïve", "xyzzy"]
            for name, page in players.items():
                type_words(page, lists2[name])
                assert page.evaluate("() => document.querySelectorAll('#players .their-words').length") == 0
            # the others' saves redraw Ann's page; her box keeps the focus (a phone keeps its keyboard)
            players["Ann"].wait_for_selector(f"#players li:has-text('Cy') .count:has-text('{len(lists2['Cy'])} words')")
            assert players["Ann"].evaluate("() => document.activeElement.id") == f"words-{ann_id}"
            host.click("#lock")
            for page in pages.values():
                page.wait_for_selector("#room[data-phase=locked]")
            assert players["Ann"].inner_text("#timer") == "Locked"
            cy = players["Cy"]
            cy.click("#type-board summary")
            cy.fill("#board-input", board_text(sample_truth("sample-5x5-a.jpg")["faces"]))
            cy.click("#board-form button[type=submit]")
            for page in pages.values():
                page.wait_for_selector("#board .cell >> nth=24")
                assert page.locator("#board .cell").count() == 25
            host.click("#score")
            host.wait_for_selector("#round-msg:has-text('Saved as round 2')")
            reports.append(check_report(pages, tmp_path, lists2))

            # ---- the game: standings on every phone from both reports
            totals = {name: sum(next(p["score"] for p in r["players"] if p["name"] == name) for r in reports)
                      for name in NAMES}
            for page in pages.values():
                page.wait_for_selector("#standings-table")
                shown = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
                    '#standings-table tbody tr')].map((tr) => [tr.dataset.player, Number(tr.querySelector('.score').textContent)]))""")
                assert shown == totals
                assert scroll_width(page) <= WIDTH
            cumulative, first = dict.fromkeys(NAMES, 0), []
            for report in reports:
                for p in report["players"]:
                    cumulative[p["name"]] += p["score"]
                first = first or [n for n in NAMES if cumulative[n] >= TARGET]
            line = host.inner_text("#target-line")
            if first:
                assert line.startswith(" and ".join(first)) and "first" in line, line
            else:
                assert "nobody has reached it yet" in line, line
            assert phones.problems == [], phones.problems
            browser.close()
    finally:
        live.__exit__(None, None, None)
    games = store.list_games(db)
    assert len(games) == 1 and store.standings(db, games[0], TARGET).rounds == 2
    print(f"correction seen on another phone after {seen_s:.2f} s")
