"""The answer to a connection refused before its request is read (limits.GuardedH11:
one address over its connection cap): a 429 that a phone's browser shows as a page.

It is written as the connection is made, before any header arrives, so it cannot know
the phone's language: it says why in each of the page's six languages (the sentences
of the page's own catalogues, static/i18n/<lang>.po) and loads the page again by
itself after RETRY_S (a refresh, no script: the page's security policy allows none
inline). A script of the page refused this way is the page's own business
(static/boot.js), a request of the page's is tried again by api.js.
"""
from __future__ import annotations

import html
import re
from pathlib import Path

CATALOGUES = Path(__file__).resolve().parent / "static" / "i18n"
LANGS = ("en", "fr", "de", "es", "it", "nl")
#: Seconds before the refused page loads again by itself.
RETRY_S = 5
WHY = "The server refused this phone for a moment (too many connections from this network)"
AGAIN = "The page did not load: the server is busy or restarting. It loads again by itself in {n} s."


def translated(msgid: str, lang: str, catalogues: Path = CATALOGUES) -> str:
    """`msgid` in `lang` from its catalogue (a one-line entry), the English when missing."""
    try:
        text = (catalogues / f"{lang}.po").read_text(encoding="utf-8")
    except OSError:
        return msgid
    quoted = '"' + msgid.replace("\\", "\\\\").replace('"', '\\"') + '"'
    m = re.search(r"^msgid " + re.escape(quoted) + r'\nmsgstr "((?:[^"\\]|\\.)*)"$', text, re.M)
    if m is None or not m.group(1):
        return msgid
    return re.sub(r"\\(.)", lambda e: {"n": "\n", "t": "\t"}.get(e.group(1), e.group(1)), m.group(1))


def too_many_connections(catalogues: Path = CATALOGUES) -> bytes:
    """The whole HTTP answer (head and body) to a connection over its address's cap."""
    lines = [f'<p lang="{lang}">{html.escape(translated(WHY, lang, catalogues))}. '
             f'{html.escape(translated(AGAIN, lang, catalogues).replace("{n}", str(RETRY_S)))}</p>'
             for lang in LANGS]
    body = ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<meta http-equiv=\"refresh\" content=\"{RETRY_S}\"><title>boggle-cv</title></head>"
            "<body>" + "".join(lines) + "</body></html>").encode("utf-8")
    head = ("HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/html; charset=utf-8\r\n"
            f"retry-after: {RETRY_S}\r\ncache-control: no-store\r\nconnection: close\r\n"
            f"content-length: {len(body)}\r\n\r\n").encode("ascii")
    return head + body
