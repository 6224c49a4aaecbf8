"""End to end in a real headless browser: Debian's chromium driven by Playwright.

Starts the server on 127.0.0.1 (free port), opens the page at phone size, uploads
samples/sample-4x4-a.jpg, corrects a cell by tapping it, types two players' lists,
scores the round and reads the scores off the page; they must equal the library's
score_round on the board the page shows. Also checks that the page asks nothing of
any other host (works offline) and logs no errors.

Skips when chromium (/usr/bin/chromium, or $BOGGLE_CV_CHROMIUM) or Playwright is
missing. Set BOGGLE_CV_DOCS_SCREENSHOT=1 to refresh docs/images/web_phone.png.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from boggle_cv.board import Board  # noqa: E402
from boggle_cv.scoring import score_round  # noqa: E402
from boggle_cv.web import ServeConfig, create_app  # noqa: E402

from .conftest import REPO, SAMPLE, SAMPLES, LiveServer  # noqa: E402

CHROMIUM = Path(os.environ.get("BOGGLE_CV_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
TIMEOUT_MS = 20_000

pytestmark = pytest.mark.skipif(not CHROMIUM.is_file(), reason=f"no chromium at {CHROMIUM}")


def words(name: str) -> str:
    return (SAMPLES / f"sample-4x4-a.{name}.txt").read_text()


def test_photo_correction_lists_and_scores_in_a_real_browser(tmp_path, scanner_factory, dictionary, photo_ready):
    app = create_app(ServeConfig(db_path=tmp_path / "games.sqlite3"), scanner_factory, dictionary)
    with LiveServer(app) as live, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            page = browser.new_page(**PHONE)
            page.set_default_timeout(TIMEOUT_MS)
            elsewhere, errors = [], []
            page.on("request", lambda r: None if r.url.startswith((live.url, "blob:", "data:")) else elsewhere.append(r.url))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(live.url + "/")
            page.wait_for_selector("body[data-ready]")

            # 1. the photo
            page.set_input_files("#photo", str(SAMPLE))
            page.wait_for_selector("#board .cell >> nth=15")
            cells = page.locator("#board .cell")
            assert cells.count() == 16
            assert page.locator("#board image").count() == 1  # drawn over the photo

            # 2. correct a cell: the uncertain one if any (take its runner-up), else r1c1
            doubtful = page.locator("#board .cell.doubtful")
            target = doubtful.first if doubtful.count() else cells.first
            where = target.get_attribute("data-cell")
            before = target.get_attribute("data-face")
            target.click()
            page.wait_for_selector("#picker[open]")
            choices = [b for b in page.locator("#picker-suggest button").all()
                       if b.get_attribute("data-face") != before]
            button = choices[0] if choices else page.locator(
                f"#picker-faces button[data-face='{'E' if before != 'E' else 'A'}']")
            new_face = button.get_attribute("data-face")
            button.click()
            page.wait_for_selector(f"#board .cell.fixed[data-cell='{where}'][data-face='{new_face}']")

            # 3. two players' lists
            names, boxes = page.locator(".player-name"), page.locator(".player-words")
            while names.count() < 2:
                page.click("#add-player")
            names.nth(0).fill("alice")
            boxes.nth(0).fill(words("alice"))
            names.nth(1).fill("bob")
            boxes.nth(1).fill(words("bob"))
            page.click("#score")
            page.wait_for_selector("#scores tbody tr[data-player='bob']")

            # 4. read the page: board and scores
            n = 4
            faces = [[None] * n for _ in range(n)]
            for i in range(cells.count()):
                r, c = map(int, cells.nth(i).get_attribute("data-cell").split(","))
                faces[r][c] = cells.nth(i).get_attribute("data-face")
            shown = {row.get_attribute("data-player"): int(row.locator(".score").inner_text())
                     for row in page.locator("#scores tbody tr").all()}
            winner_line = page.inner_text("#winner")
            missed_shown = page.locator("#missed li").count()
            paths_drawn = page.locator("#board polyline.path").count()

            png = tmp_path / "web_phone.png"
            page.screenshot(path=str(png), full_page=True, scale="css")
            if os.environ.get("BOGGLE_CV_DOCS_SCREENSHOT") == "1":
                (REPO / "docs" / "images").mkdir(parents=True, exist_ok=True)
                shutil.copyfile(png, REPO / "docs" / "images" / "web_phone.png")
        finally:
            browser.close()

    r, c = map(int, where.split(","))
    assert faces[r][c] == new_face != before
    sheet = score_round(Board.from_rows(faces), {"alice": words("alice").split(), "bob": words("bob").split()},
                        dictionary)
    assert shown == {p.name: p.score for p in sheet.players}
    assert all(w in winner_line for w in sheet.winners)
    assert missed_shown == min(len(sheet.missed), 40) and paths_drawn == min(3, len(sheet.missed))
    assert elsewhere == [], f"the page asked other hosts: {elsewhere}"
    assert errors == [], errors
