"""Phones for the browser tests: Debian's chromium driven by Playwright, one browser
context per phone (390 x 844, touch), each page watched for uncaught errors and for
requests to any other host.

The page's Content-Security-Policy forbids eval, so waits use selectors or poll
`page.evaluate` (never `wait_for_function` with a string).
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

from boggle_cv.web import ServeConfig, create_app

from .conftest import REPO, LiveServer

CHROMIUM = Path(os.environ.get("BOGGLE_CV_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1}
WIDTH = PHONE["viewport"]["width"]
TIMEOUT_MS = 20_000
DOCS_IMAGES = REPO / "docs" / "images"

# Records navigator.vibrate calls (headless chromium has no vibration motor to ask).
RECORD_VIBRATION = """
Object.defineProperty(Navigator.prototype, "vibrate", { configurable: true,
  value: function (pattern) { window.__vibrations = (window.__vibrations || 0) + 1; return true; } });
"""
# A browser without server-sent events: the page must fall back to polling.
NO_EVENTSOURCE = "delete window.EventSource; window.EventSource = undefined;"


class ServerClock:
    """The rooms' clock for a test (epoch seconds): real time, moved forward when the
    test says so, so that a round's timer runs out when the test is ready for it (after
    the words are typed), however slow the machine."""

    def __init__(self) -> None:
        self.ahead_s = 0.0

    def __call__(self) -> float:
        return time.time() + self.ahead_s

    def past(self, deadline: float) -> None:
        """Move the clock just past `deadline` (epoch s, on this clock)."""
        self.ahead_s += max(0.0, deadline - self() + 0.5)


def make_app(db: Path, scanner_factory: Any, dictionary: Any, min_seconds: int = 2,
             clock: ServerClock | None = None) -> Any:
    """The server's app with the timer allowed down to `min_seconds` (tests run short
    rounds); its rooms on `clock` when given (a test that runs a timer out)."""
    app = create_app(ServeConfig(db_path=db), scanner_factory, dictionary)
    app.state.rooms.limits = dataclasses.replace(app.state.rooms.limits, seconds=(min_seconds, 3600))
    if clock is not None:
        app.state.rooms.clock = clock
    return app


@contextlib.contextmanager
def browser_site(app: Any) -> Iterator[tuple[LiveServer, Any]]:
    """`app` served on a free port and a headless Debian chromium: (live server, browser)."""
    from playwright import sync_api
    with LiveServer(app) as live, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            yield live, browser
        finally:
            browser.close()


@contextlib.contextmanager
def phones_on(browser: Any, base_url: str) -> Iterator["Phones"]:
    """Phones for one test: every context closed after it, and no page problem allowed."""
    p = Phones(browser, base_url)
    yield p
    for ctx in {id(page.context): page.context for page in p.pages.values()}.values():
        ctx.close()
    assert p.problems == [], p.problems


def table_fixtures(name: str) -> tuple[Any, Any]:
    """A browser test module's two fixtures, `site, phones = table_fixtures("table")`:
    `site` (per module: the real app on its own database in a temp folder `name`,
    served, and a chromium: (live server, browser)) and `phones` (per test: phones_on
    that site)."""
    import pytest

    @pytest.fixture(scope="module")
    def site(tmp_path_factory: Any, scanner_factory: Any, dictionary: Any) -> Iterator[tuple[LiveServer, Any]]:
        db = tmp_path_factory.mktemp(name) / "games.sqlite3"
        with browser_site(make_app(db, scanner_factory, dictionary)) as live_and_browser:
            yield live_and_browser

    @pytest.fixture()
    def phones(site: tuple[LiveServer, Any]) -> Iterator[Phones]:
        live, browser = site
        with phones_on(browser, live.url) as p:
            yield p

    return site, phones


def photo_fixtures(name: str, reading: Callable[[], Any]) -> tuple[Any, Any]:
    """table_fixtures whose tray photos are read by the real tray finder and cutter with
    a recorded reading, `reading()` (a conftest.RecordedReader: each cell's faces and
    doubts chosen by the test); skips where the photo pipeline cannot run."""
    import pytest

    @pytest.fixture(scope="module")
    def site(tmp_path_factory: Any, dictionary: Any, photo_ready: Any) -> Iterator[tuple[LiveServer, Any]]:
        from boggle_cv.vision.pipeline import Scanner
        recorded = reading()
        db = tmp_path_factory.mktemp(name) / "games.sqlite3"
        with browser_site(make_app(db, lambda: Scanner(reader=recorded), dictionary)) as live_and_browser:
            yield live_and_browser

    return site, table_fixtures(name)[1]  # its phones: on the module's `site`, this one


class Phones:
    """Browser contexts as phones; `problems` collects uncaught page errors and
    requests to other hosts."""

    def __init__(self, browser: Any, base_url: str) -> None:
        self.browser, self.base_url = browser, base_url
        self.problems: list[str] = []
        self.pages: dict[str, Any] = {}

    def open(self, name: str, *init_scripts: str, device: dict[str, Any] | None = None, clock: bool = False) -> Any:
        """A new phone (its own storage) or, with device=LAPTOP, the host's laptop;
        clock: its time is the test's to hold or move (page.clock, installed before
        anything loads)."""
        ctx = self.browser.new_context(**(device or PHONE))
        for script in (RECORD_VIBRATION, *init_scripts):
            ctx.add_init_script(script)
        page = ctx.new_page()
        if clock:
            page.clock.install()
        return self._watch(name, page)

    def tab(self, name: str, of: str) -> Any:
        """A second tab of phone `of` (the same storage, so the same passes)."""
        return self._watch(name, self.pages[of].context.new_page())

    def _watch(self, name: str, page: Any) -> Any:
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda e: self.problems.append(f"{name}: {e}"))
        page.on("console", lambda m: self._console(name, m))
        page.on("request", lambda r: None if r.url.startswith((self.base_url, "blob:", "data:"))
                else self.problems.append(f"{name} asked another host: {r.url}"))
        self.pages[name] = page
        return page

    def _console(self, name: str, message: Any) -> None:
        # refused requests (4xx answers, the server restarting) are logged by the browser itself
        if message.type == "error" and "Failed to load resource" not in message.text \
                and "EventSource" not in message.text and "ERR_CONNECTION" not in message.text:
            self.problems.append(f"{name} console: {message.text}")


@contextlib.contextmanager
def time_held(page: Any) -> Iterator[None]:
    """The page's time of day stands still inside the block (page.clock, installed
    before the page loaded; its timers still run, so the page draws and settles as
    ever): what a person does in a moment (two taps of a confirmation the page keeps
    for a few seconds) takes no time, however slow the machine."""
    page.clock.set_fixed_time(page.evaluate("() => Date.now()") / 1000)  # seconds
    try:
        yield
    finally:
        page.clock.set_system_time(page.evaluate("() => Date.now()") / 1000)  # and on again from there


def wait_until(page: Any, js: str, timeout_s: float = 20.0, every_s: float = 0.05) -> Any:
    """Poll `page.evaluate(js)` until it is truthy; its value."""
    end = time.monotonic() + timeout_s
    while True:
        value = page.evaluate(js)
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {js}")
        time.sleep(every_s)


def scroll_width(page: Any) -> int:
    return int(page.evaluate("() => document.documentElement.scrollWidth"))


def in_view(page: Any, selector: str) -> bool:
    """Is the element's box inside the screen (the page's viewport: 390 x 844 on a phone)?"""
    box = page.locator(selector).bounding_box()
    height = (page.viewport_size or PHONE["viewport"])["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height and box["width"] > 0


def cli_score(board: str, lists: dict[str, list[str]], tmp: Path) -> dict[str, Any]:
    """`python -m boggle_cv score BOARD --player NAME=FILE ... --json` (a separate process)."""
    args = [sys.executable, "-m", "boggle_cv", "score", board, "--json"]
    for k, (name, words) in enumerate(lists.items()):
        f = tmp / f"list{k}.txt"
        f.write_text("\n".join(words) + "\n", encoding="utf-8")
        args += ["--player", f"{name}={f}"]
    out = subprocess.run(args, capture_output=True, text=True, timeout=120, cwd=REPO)
    assert out.returncode == 0, out.stderr
    doc: dict[str, Any] = json.loads(out.stdout)
    return doc


def page_report(page: Any) -> dict[str, Any]:
    """The report as the page shows it: scores, each word's status and points (sorted:
    the page shows the words that do not count last, behind their count), the winner
    line and every missed word (after "Show all")."""
    if page.locator("#more-missed").count():
        page.click("#more-missed")
    shown: dict[str, Any] = page.evaluate("""() => {
      const players = [...document.querySelectorAll('#report .pw')].map((d) => ({
        name: d.dataset.player,
        score: Number(document.querySelector(`#scores tr[data-player="${CSS.escape(d.dataset.player)}"] .score`).textContent),
        words: [...d.querySelectorAll('button.chip')].map((b) => [b.dataset.word, b.dataset.status,
               Number((b.querySelector('.pts') || {textContent: '0'}).textContent.replace('+', ''))]),
      }));
      return { players, winner: document.querySelector('#winner').textContent,
               missed: [...document.querySelectorAll('#missed button.chip')].map((b) => b.dataset.word) };
    }""")
    for p in shown["players"]:
        p["words"] = sorted(p["words"])
    return shown


def expected_report(doc: dict[str, Any]) -> dict[str, Any]:
    """What the page must show of `score --json`'s document (page_report's shape, no winner line)."""
    players = [{"name": p["name"], "score": p["score"],
                "words": sorted([w["word"], w["status"], w["points"] if w["status"] == "scored" else 0] for w in p["words"])}
               for p in doc["players"]]
    # the page leads with the words a player would know: the common ones first, each part best first
    missed = [w["word"] for w in doc["missed"] if w.get("common")] + [w["word"] for w in doc["missed"] if not w.get("common")]
    return {"players": players, "missed": missed}


#: Resolves once the page has not scrolled for five animation frames.
SCROLL_SETTLES = """() => new Promise((done) => { let last = -1, still = 0;
  const tick = () => { const y = window.scrollY; still = y === last ? still + 1 : 0; last = y;
    if (still >= 5) done(); else requestAnimationFrame(tick); }; tick(); })"""


def shot(page: Any, tmp: Path, name: str, top: str | None = None) -> None:
    """A screenshot of the phone's screen, scrolled to the top of the page (or of the
    element `top`; in the room, its screen shown at that element), into tmp; into
    docs/images too when BOGGLE_CV_DOCS_SCREENSHOT=1.
    A smooth scroll the page started (to a sheet's doubtful words) is let finish first,
    so the picture is never taken mid-scroll."""
    path = tmp / f"{name}.png"
    page.evaluate(SCROLL_SETTLES)
    page.evaluate("""(sel) => { const e = sel && document.querySelector(sel);
      if (e && e.closest('.screen')) {  // the room: its screen brought into view, at that element
        e.scrollIntoView({block: "start", inline: "start", behavior: "instant"});
        return;
      }
      const header = document.querySelector('header').offsetHeight;
      window.scrollTo({top: e ? e.getBoundingClientRect().top + window.scrollY - header - 8 : 0,
                       behavior: "instant"}); }""", top)
    page.evaluate(SCROLL_SETTLES)
    page.screenshot(path=str(path), scale="css")
    if os.environ.get("BOGGLE_CV_DOCS_SCREENSHOT") == "1":
        DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
        (DOCS_IMAGES / f"{name}.png").write_bytes(path.read_bytes())


def timed(fn: Callable[[], Any]) -> float:
    t0 = time.monotonic()
    fn()
    return time.monotonic() - t0


def score_settling(host: Any, timeout_s: float = 30.0) -> int:
    """The host taps Score; while the referee refuses with a question (a doubtful word
    whose answer changes a score), the host keeps the first doubtful word shown and taps
    Score again. How many times Score was refused."""
    refused = 0
    host.click("#score")
    while True:
        host.wait_for_selector("#room[data-phase=scored], #round-msg.error:has-text('Before scoring')",
                               timeout=timeout_s * 1000)
        if host.get_attribute("#room", "data-phase") == "scored":
            return refused
        refused += 1
        owner, word = host.evaluate("""() => {
          const li = document.querySelector('.doubtful-words[data-owner] li[data-word]');
          return [li.closest('.doubtful-words').dataset.owner, li.dataset.word];
        }""")
        row = f".doubtful-words[data-owner='{owner}'] li[data-word='{word}']"
        for _ in range(3):  # a tap that lands as the list is drawn again (a re-read arriving) is tapped again, as a person would
            host.click(f"{row} button.reading")
            try:
                wait_until(host, f"() => !document.querySelector(\"{row}\")", timeout_s=10.0)
                break
            except AssertionError:
                continue
        else:
            raise AssertionError(f"the host's answer to {word!r} never settled it")
        host.click("#score")
