"""The table screen's views, played through the room API of a live server (urllib, as a
script would) and drawn in a browser page as they are, step by step: the layout tests
of test_e2e_screen.py draw each real view at every screen size and in several
languages without playing the game again in each browser.

A `Game` keeps the room as the table screen's pass reads it at each step: `views`
maps a step ("lobby", "playing", "board", "scored", "waiting", "over") to the room's
view (GET /api/rooms/CODE with the screen's pass) and `join_url` is the room's link.
`draw(page, view, join_url, where)` draws one of them on the screen's own page
("screen") or beside the host's column ("panel", the host's laptop).
"""
from __future__ import annotations

import json
import urllib.request
from typing import Any

BOARD = "PERS/LATG/SINE/TERS"


class Api:
    """The room API of the server at `base_url`, as a script calls it."""

    def __init__(self, base_url: str) -> None:
        self.base = base_url

    def __call__(self, method: str, path: str, doc: Any = None, token: str | None = None) -> Any:
        body = json.dumps({} if doc is None else doc).encode() if method in ("POST", "PUT") else None
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        req = urllib.request.Request(self.base + path, data=body, method=method, headers=headers)
        with urllib.request.urlopen(req, timeout=30) as res:
            return json.load(res)


class Game:
    """A room with `names` playing `rounds` (each: name -> words) to `target` points.

    The first round is played and scored as it comes; every round after it too; the
    room's views are kept at each step as the table screen reads them."""

    def __init__(self, base_url: str, names: list[str], rounds: list[dict[str, list[str]]],
                 target: int, seconds: int = 180) -> None:
        self.api = Api(base_url)
        made = self.api("POST", "/api/rooms", {"seconds": seconds, "target": target})
        self.code, self.host = made["code"], made["host_token"]
        self.join_url: str = made["join_url"]
        self.tokens: dict[str, tuple[str, str]] = {}
        for name in names:
            doc = self.api("POST", self.room("/players"), {"name": name})
            self.tokens[name] = (doc["player_id"], doc["token"])
        self.screen_key = self.view(self.host)["you"]["screen_key"]
        self.views: dict[str, dict[str, Any]] = {"lobby": self.view()}
        for k, lists in enumerate(rounds):
            if k:
                self.api("POST", self.room("/rounds"), {"wait": True}, self.host)
                self.views.setdefault("waiting", self.view())
            self.play(lists, last=k == len(rounds) - 1)

    def room(self, tail: str = "") -> str:
        return f"/api/rooms/{self.code}{tail}"

    def view(self, token: str | None = None) -> dict[str, Any]:
        """The room as the table screen (or `token`) reads it."""
        room: dict[str, Any] = self.api("GET", self.room(), token=token or self.screen_key)["room"]
        return room

    def play(self, lists: dict[str, list[str]], last: bool) -> None:
        self.api("POST", self.room("/rounds"), {}, self.host)
        for name, words in lists.items():
            pid, token = self.tokens[name]
            self.api("PUT", self.room(f"/players/{pid}/words"), {"words": words, "base": 0}, token)
        self.views.setdefault("playing", self.view())
        self.api("POST", self.room("/rounds/current/lock"), {}, self.host)
        self.api("PUT", self.room("/rounds/current/board"), {"board": BOARD}, self.host)
        self.views.setdefault("board", self.view())
        self.api("POST", self.room("/rounds/current/score"), {}, self.host)
        view = self.view()
        self.views["over" if view["game_state"]["over"] else "scored"] = view


#: Draws a view on the page already open at "/" (body[data-ready]): the screen's own
#: page ("screen") or the host's wide page, the screen on its left ("panel").
DRAW = """async ({view, joinUrl, where}) => {
  const { drawScreen } = await import('/static/screensteps.js');
  const clock = document.querySelector('#ts-clock-test') || Object.assign(document.createElement('p'),
    {id: 'ts-clock-test', className: 'ts-clock', textContent: '2:47'});
  clock.setAttribute('role', 'timer');
  for (const id of ['landing', 'join', 'room', 'practice', 'screen']) document.getElementById(id).hidden = true;
  const panel = where === 'panel';
  document.body.classList.toggle('screen-mode', !panel);
  document.body.classList.toggle('host-wide', panel);
  document.getElementById(panel ? 'room' : 'screen').hidden = false;
  const box = document.getElementById(panel ? 'room-screen' : 'screen');
  box.hidden = false;
  if (panel) box.style.top = `${document.querySelector('header').offsetHeight}px`;
  return drawScreen(box, view, joinUrl, clock, {level: panel ? 2 : 1});
}"""


def draw(page: Any, view: dict[str, Any], join_url: str, where: str = "screen") -> str:
    """Draw `view` on `page` (screen or panel); the step drawn."""
    return str(page.evaluate(DRAW, {"view": view, "joinUrl": join_url, "where": where}))
