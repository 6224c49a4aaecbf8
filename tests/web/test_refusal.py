"""The answer to a connection over its address's cap (web/refusal.py, written by
limits.GuardedH11 before any header is read): a whole HTTP 429 whose page says why in
each of the page's six languages, from their catalogues, and loads again by itself."""
from __future__ import annotations

import re

from boggle_cv.web import limits
from boggle_cv.web.refusal import AGAIN, LANGS, RETRY_S, WHY, too_many_connections, translated


def test_the_refusal_is_a_whole_answer_that_loads_the_page_again():
    answer = too_many_connections()
    head, body = answer.split(b"\r\n\r\n", 1)
    lines = head.decode("ascii").split("\r\n")
    assert lines[0] == "HTTP/1.1 429 Too Many Requests"
    headers = dict(line.split(": ", 1) for line in lines[1:])
    assert int(headers["content-length"]) == len(body)
    assert headers["content-type"] == "text/html; charset=utf-8" and headers["retry-after"] == str(RETRY_S)
    assert headers["connection"] == "close"
    page = body.decode("utf-8")
    assert f'<meta http-equiv="refresh" content="{RETRY_S}">' in page and "<script" not in page
    assert limits._TOO_MANY == answer  # what the server writes


def test_the_refusal_says_why_in_every_language_of_the_page():
    page = too_many_connections().split(b"\r\n\r\n", 1)[1].decode("utf-8")
    said = dict(re.findall(r'<p lang="(\w+)">([^<]*)</p>', page))
    assert list(said) == list(LANGS)
    assert said["de"].startswith("Der Server hat dieses Handy kurz abgewiesen") and f"in {RETRY_S} s" in said["de"]
    assert said["en"].startswith(WHY) and "{n}" not in page
    for lang in LANGS[1:]:  # each its own language, from its catalogue
        assert translated(WHY, lang) != WHY and translated(AGAIN, lang) != AGAIN, lang


def test_a_missing_catalogue_leaves_the_english(tmp_path):
    assert translated(WHY, "de", tmp_path) == WHY
    (tmp_path / "de.po").write_text('msgid "other"\nmsgstr "anders"\n', encoding="utf-8")
    assert translated(WHY, "de", tmp_path) == WHY
    page = too_many_connections(tmp_path).decode("utf-8")
    assert page.count(WHY) == len(LANGS)
