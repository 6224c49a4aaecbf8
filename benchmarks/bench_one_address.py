"""Tables behind one public address, measured: how many connections a family (or a
club) holds open to `boggle-cv serve` from the one address its router shows, and
whether any of them is refused. A benchmark that prints figures, not a timed test.

Starts `python -m boggle_cv serve` (this checkout, or --checkout's) on a free port of
127.0.0.1 with its own temporary --db and its default limits, then plays one round at
--tables tables in real browsers (Debian's chromium through Playwright, one browser
context per device, every device from 127.0.0.1: one address, as behind NAT). Each
table is a host's laptop (1280 x 800, the table screen beside the controls), a TV
showing the table screen (1920 x 1080) and --phones phones (390 x 844):

  load    the hosts make their rooms, the TVs open the table screen, then every phone
          opens the join link at once (the QR code scanned around the table);
  join    every phone joins;
  play    the hosts start the round (no timer), every phone types words (saved as typed);
  board   the hosts lock the lists and type the board;
  score   the hosts score: every phone and screen shows the report and the story;
  rest    the 10 s after (and what is held at their end: the live streams alone).

Printed for each step: the most connections the server held from the address at
once (its own sockets in /proc/net/tcp, sampled every 5 ms) and the answers refused
(429, 503) on any page, with the pages that never showed their step (a page whose
script was refused stays blank). The peak per device is what sizes
ServeConfig.max_connections_per_client (docs/hosting.md).

    python benchmarks/bench_one_address.py                       # a family: 1 table, 8 phones
    python benchmarks/bench_one_address.py --tables 5            # a club night on one Wi-Fi
    python benchmarks/bench_one_address.py --checkout ../main    # another checkout's server
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench_club_night import start_server, stop_server

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
LAPTOP = {"viewport": {"width": 1280, "height": 800}}
TV = {"viewport": {"width": 1920, "height": 1080}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
STEPS = ["load", "join", "play", "board", "score", "rest"]
WORDS = ["rest", "last", "pert", "tern", "slate", "stern", "aster", "plaster"]


def held(port: int) -> int:
    """The established connections the server's port holds (its side of each, IPv4 and IPv6)."""
    n = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for line in lines:
            cols = line.split()
            if cols[3] == "01" and int(cols[1].rsplit(":", 1)[1], 16) == port:
                n += 1
    return n


@dataclass
class Watch:
    """The peak of held(port) during each step, sampled in a thread."""

    port: int
    step: str = "load"
    peaks: dict[str, int] = field(default_factory=dict)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        while not self.stop.is_set():
            n = held(self.port)
            self.peaks[self.step] = max(self.peaks.get(self.step, 0), n)
            time.sleep(0.005)


@dataclass
class Table:
    host: Any
    tv: Any
    phones: list[Any]
    link: str = ""


def play(browser: Any, base: str, tables: int, phones: int, watch: Watch, refused: list[str]) -> dict[str, int]:
    """One round at every table, step by step (every table's step before the next); the
    pages that did not show a step, by step."""
    missing: dict[str, int] = {}
    broken: set[int] = set()  # pages that did not show a step: left out of the steps after it

    def page(name: str, device: dict[str, Any]) -> Any:
        p = browser.new_context(**device).new_page()
        p.set_default_timeout(60_000)
        p.on("response", lambda r: refused.append(f"{name} {r.status} {r.headers.get('content-type', '')} {r.url}")
             if r.status in (429, 503) else None)
        return p

    def each(pages: list[Any], selector: str, step: str) -> None:
        for p in pages:
            if id(p) in broken:
                continue
            try:
                p.wait_for_selector(selector, timeout=30_000)
            except Exception:  # noqa: BLE001 - a page that never shows its step is counted, not fatal
                missing[step] = missing.get(step, 0) + 1
                broken.add(id(p))

    def working(pages: list[Any]) -> list[Any]:
        return [p for p in pages if id(p) not in broken]

    all_tables = [Table(page(f"host{t}", LAPTOP), page(f"tv{t}", TV), [page(f"t{t}p{k}", PHONE) for k in range(phones)])
                  for t in range(tables)]
    watch.step = "load"
    for t in all_tables:
        t.host.goto(base + "/")
        t.host.wait_for_selector("body[data-ready]")
        t.host.click("#create")
        t.host.wait_for_selector("#join-link[href*='?room=']")
        t.host.check("#set-untimed")  # no timer: a slow machine's typing must not meet the clock
        t.host.click("#settings-form button[type=submit]")
        t.host.wait_for_selector("#settings-msg:not(.busy):not(.error):not([hidden])")
        t.link = t.host.get_attribute("#join-link", "href")
        t.tv.goto(base + t.host.get_attribute("#screen-link", "href"), wait_until="commit")
    for t in all_tables:
        for p in t.phones:
            p.goto(t.link, wait_until="commit")
    each([p for t in all_tables for p in t.phones], "#join:not([hidden])", "load")
    each([t.tv for t in all_tables], "#screen[data-step=lobby]", "load")
    watch.step = "join"
    for t in all_tables:
        for k, p in enumerate(working(t.phones)):
            p.fill("#join-name", f"P{k}")
            p.click("#join-form button[type=submit]")
    each([p for t in all_tables for p in t.phones], "#room[data-phase=waiting] #words-section:not([hidden])", "join")
    watch.step = "play"
    for t in all_tables:
        t.host.click("#start")
    phones_all = [p for t in all_tables for p in t.phones]
    each(phones_all, "#room[data-phase=playing] textarea.words-box:not([readonly])", "play")
    for k in range(2):
        for n, p in enumerate(working(phones_all)):
            p.type("textarea.words-box", WORDS[(n + k) % len(WORDS)] + "\n", delay=15)
    each(phones_all, ".save-state[data-state=saved]", "play")
    watch.step = "board"
    for t in all_tables:
        t.host.click("#lock")
        t.host.wait_for_selector("#room[data-phase=locked]")
        t.host.click("#type-board summary")
        t.host.fill("#board-input", "PERS/LATG/SINE/TERS")
        t.host.click("#board-form button[type=submit]")
    each([t.tv for t in all_tables], "#screen[data-step=board]", "board")
    watch.step = "score"
    for t in all_tables:
        t.host.click("#score")
    each(phones_all, "#room[data-phase=scored] #winner", "score")
    each([t.tv for t in all_tables], "#screen[data-step=scored], #screen[data-step=between]", "score")
    watch.step = "rest"
    time.sleep(10)
    watch.step = "after"  # the live streams alone (keep-alive connections close after 5 s)
    time.sleep(0.1)
    return missing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=1)
    ap.add_argument("--phones", type=int, default=8, help="phones at each table (besides the host's laptop and the TV)")
    ap.add_argument("--checkout", type=Path, default=REPO, help="the checkout whose server is measured")
    ap.add_argument("--json", type=Path, help="also write the figures there")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright
    tmp = Path(tempfile.mkdtemp(prefix="one-address-"))
    proc, port, _ = start_server(tmp, args.checkout.resolve())
    watch = Watch(port)
    thread = threading.Thread(target=watch.run, daemon=True)
    thread.start()
    refused: list[str] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                missing = play(browser, f"http://127.0.0.1:{port}", args.tables, args.phones, watch, refused)
            finally:
                browser.close()
    finally:
        watch.stop.set()
        thread.join()
        stop_server(proc)
    devices = args.tables * (args.phones + 2)
    print(f"{args.tables} table(s) x ({args.phones} phones + a host's laptop + a TV) = {devices} devices behind one "
          f"address; server of {args.checkout.resolve().name}")
    print(f"{'step':<8}{'connections':>13}{'per device':>12}{'pages missing':>15}")
    for step in STEPS:
        peak = watch.peaks.get(step, 0)
        print(f"{step:<8}{peak:>13}{peak / devices:>12.1f}{missing.get(step, 0):>15}")
    print(f"held after 10 s of rest: {watch.peaks.get('after', 0)} ({watch.peaks.get('after', 0) / devices:.1f} a device)")
    print(f"refused answers (429, 503): {len(refused)}" + (f", e.g. {refused[:3]}" if refused else ""))
    if args.json:
        args.json.write_text(json.dumps({"tables": args.tables, "phones": args.phones, "devices": devices,
                                         "peaks": watch.peaks, "missing": missing, "refused": refused}, indent=1))
    return 1 if refused or missing else 0


if __name__ == "__main__":
    sys.exit(main())
