"""Anything a sheet read can be typed over, and the host acts for a player without a
phone (docs/web.md, "Paper lists" and "The room API"), on SQLite and on PostgreSQL:

- who may type over a sheet's word (the player, the host; not another player, not the
  table screen's pass, not without a token);
- lock or no lock: until Score, a word a sheet added is confirmed, typed over or
  dropped, and a question about one answered with a typed word; the lock stops new
  words and changes of typed ones, Score stops everything;
- races: two tabs typing over the same word (a compare-and-swap: one wins, the other
  is told, nothing typed is lost silently), a re-read arriving while a word is typed
  (the person's word wins either way round), many corrections at once;
- a player added on the host's device (`hosted`): the host types their words, sends
  their sheet, sees their list while the round is played; nobody else may.

The sheet's readings are recorded (test_room_sheets.Recorded) so that each rule is
checked on words the test chooses.
"""
from __future__ import annotations

import dataclasses
import threading
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from boggle_cv.room.db import RoomDB  # noqa: E402
from boggle_cv.room.service import RoomService  # noqa: E402
from boggle_cv.errors import NotOnSheet  # noqa: E402
from boggle_cv.web import ServeConfig, create_app  # noqa: E402

from .test_room_reread import BOARD, RIFF, readings  # noqa: E402
from .test_room_sheet_images import read_with_images, webp  # noqa: E402
from .test_room_sheets import me, playing, send, settle, word  # noqa: E402
from .test_rooms_api import Table  # noqa: E402

READ = [word("lite", free="life"), word("rise"), word("pest", True, [("pest", 0.6), ("past", 0.3)], free="pcst")]


@pytest.fixture()
def app(games_db, dictionary):
    app = create_app(ServeConfig(db_path=games_db), dictionary=dictionary)
    # no grace after the lock (a save in flight then still counts): the lock holds at once here
    app.state.rooms.limits = dataclasses.replace(app.state.rooms.limits, grace_s=-1.0)
    return app


@pytest.fixture()
def client(app):
    with TestClient(app) as c:
        yield c


def sheet_sent(client: TestClient, app: Any, names: list[str] = ["Ann", "Bob"]) -> Table:
    """A playing room whose Ann typed "zone" and sent READ (with its handwriting)."""
    app.state.web.sheet_reader = read_with_images(READ, [webp("lite"), webp("rise"), webp("pest")])
    t = playing(client, names)
    assert t.words("Ann", ["zone"]).status_code == 200
    assert send(t, "Ann", "Ann").status_code == 200
    return t


def entry(t: Table, name: str | None, player: str, w: str, choice: str | None, image: str | None = None,
          token: str | None = "own"):
    """POST .../players/{id}/entry as `name` (None: the host); token None: none at all."""
    pid = t.players[player][0]
    body: dict[str, Any] = {"word": w, "choice": choice, **({"image": image} if image else {})}
    if token is None:
        return t.c.post(t.url(f"/players/{pid}/entry"), json=body)
    if token != "own":
        return t.c.post(t.url(f"/players/{pid}/entry"), json=body, headers={"Authorization": f"Bearer {token}"})
    if name is None:
        return t.as_host("POST", f"/players/{pid}/entry", json=body)
    return t.as_player(name, "POST", f"/players/{pid}/entry", json=body)


# ---- who may type over a sheet's word ------------------------------------------------------------

def test_the_player_or_the_host_types_over_a_word_of_the_sheet(client, app):
    t = sheet_sent(client, app)
    ann = me(t.view("Ann"), "Ann")
    assert ann["words"] == ["zone", "lite", "rise", "pest"]
    assert ann["sheet_words"]["lite"] == {"free": "life", "was": None, "by": None}
    ink = ann["images"]["lite"]
    # another player, no token, the table screen's pass: refused, nothing changed
    assert entry(t, "Bob", "Ann", "lite", "life").json()["code"] == "auth.not_yours_sheet"
    assert entry(t, "Bob", "Ann", "lite", "life").status_code == 403
    assert entry(t, "Ann", "Ann", "lite", "life", token=None).status_code == 401
    screen = t.view()["you"]["screen_key"]
    assert entry(t, "Ann", "Ann", "lite", "life", token=screen).status_code == 401
    assert me(t.view("Ann"), "Ann")["words"] == ["zone", "lite", "rise", "pest"]
    # the player types it as written: in its place, with its handwriting; the revision bumps as a save
    res = entry(t, "Ann", "Ann", "lite", "life")
    assert res.status_code == 200, res.text
    ann = me(res.json()["room"], "Ann")
    assert ann["words"] == ["zone", "life", "rise", "pest"] and ann["images"]["life"] == ink and ann["revision"] == 3
    assert ann["sheet_words"]["life"] == {"free": "life", "was": None, "by": "Ann"}
    assert res.json()["room"]["last_change"] == {**res.json()["room"]["last_change"], "what": "words", "by": "Ann",
                                                 "settled": "lite", "choice": "life"}
    # the host types over another (a typo of the reader), and may drop one
    assert entry(t, None, "Ann", "rise", "rose").status_code == 200
    assert entry(t, None, "Ann", "pest", None).status_code == 200
    ann = me(t.view("Ann"), "Ann")
    assert ann["words"] == ["zone", "life", "rose"] and ann["sheet_words"]["rose"]["by"] == "host"
    assert "pest" not in ann["images"] and ann["doubtful"] == {}
    # a word typed in the box is not a sheet's word
    res = entry(t, "Ann", "Ann", "zone", "zones")
    assert res.status_code == 409 and res.json()["code"] == "word.not_on_sheet"
    # one word at a time
    assert entry(t, "Ann", "Ann", "life", "two words").status_code == 400
    assert t.as_player("Ann", "POST", f"/players/{t.players['Ann'][0]}/entry", json={"word": "life"}).status_code == 400


def test_a_question_is_answered_with_a_typed_word_or_the_word_as_written(client, app):
    t = sheet_sent(client, app)
    # the question's options: the reading, its alternatives, and the open reading the room keeps
    ann = me(t.view("Ann"), "Ann")
    assert ann["doubtful"] == {"pest": [["pest", 0.6], ["past", 0.3]]} and ann["sheet_words"]["pest"]["free"] == "pcst"
    assert settle(t, "Ann", "Ann", "pest", "post").status_code == 200  # none of them: typed
    ann = me(t.view("Ann"), "Ann")
    assert ann["words"][-1] == "post" and ann["doubtful"] == {} and ann["sheet_words"]["post"]["by"] == "Ann"
    # the question is gone: answering it again is refused, the word can still be typed over
    assert settle(t, "Ann", "Ann", "post", "pest").json()["code"] == "word.not_doubtful"
    assert entry(t, "Ann", "Ann", "post", "pest").status_code == 200


# ---- lock or no lock ---------------------------------------------------------------------------------

def test_the_lock_stops_new_words_not_corrections_of_what_the_ink_said(client, app):
    t = sheet_sent(client, app)
    assert t.as_host("POST", "/rounds/current/lock").status_code == 200
    # locked: the box takes nothing (a new word, a typed word changed)
    res = t.words("Ann", ["zone", "lite", "rise", "pest", "extra"])
    assert res.status_code == 409 and res.json()["code"] == "round.locked"
    res = entry(t, "Ann", "Ann", "zone", "zones")
    assert res.status_code == 409 and res.json()["code"] == "word.not_on_sheet"
    # ... but every word of the sheet may be typed over, confirmed or dropped, by the player or the host
    assert entry(t, "Ann", "Ann", "lite", "life").status_code == 200
    assert entry(t, None, "Ann", "rise", "rise").status_code == 200
    assert settle(t, None, "Ann", "pest", "pets").status_code == 200
    assert me(t.view("Ann"), "Ann")["words"] == ["zone", "life", "rise", "pets"]
    # and a sheet photographed once the time is up is still read in
    app.state.web.sheet_reader = read_with_images([word("slate")], [webp("slate")])
    assert send(t, None, "Bob").status_code == 200
    assert entry(t, None, "Bob", "slate", "slat").status_code == 200
    # scored: nothing more
    assert t.as_host("PUT", "/rounds/current/board", json={"board": BOARD}).status_code == 200
    assert t.as_host("POST", "/rounds/current/score").status_code == 200
    res = entry(t, "Ann", "Ann", "life", "lift")
    assert res.status_code == 409 and res.json()["code"] == "round.scored_lists"
    report = t.view("Ann")["round"]["report"]
    assert [w["word"] for w in next(p for p in report["players"] if p["name"] == "Ann")["words"]] == \
        ["zone", "life", "rise", "pets"]


def test_not_before_the_round_starts(client, app):
    t = Table(client, ["Ann"], seconds=None)
    res = entry(t, "Ann", "Ann", "lite", "life")
    assert res.status_code == 409 and res.json()["code"] == "round.not_started"


# ---- races ---------------------------------------------------------------------------------------------

def test_two_tabs_typing_over_the_same_word(client, app):
    t = sheet_sent(client, app)
    # both tabs show "lite"; the first types "life", the second (behind) "lift"
    assert entry(t, "Ann", "Ann", "lite", "life").status_code == 200
    res = entry(t, "Ann", "Ann", "lite", "lift")
    assert res.status_code == 409 and res.json()["code"] == "word.not_on_sheet" and res.json()["params"] == {"word": "lite"}
    # its handwriting does not reach past a person's word either
    ink = me(t.view("Ann"), "Ann")["images"]["life"]
    assert entry(t, "Ann", "Ann", "lite", "lift", image=ink).status_code == 409
    assert me(t.view("Ann"), "Ann")["words"] == ["zone", "life", "rise", "pest"]


@pytest.fixture()
def svc(games_db, dictionary):
    return RoomService(RoomDB(games_db), dictionary)


def service_sheet(svc: RoomService) -> tuple[str, str, str, str]:
    """A playing room, Ann's sheet "lite rise pest" sent before the board: (code, host, Ann's id, her token)."""
    room, host = svc.create("t", seconds=None)
    _, ann, token = svc.join(room.code, "Ann")
    svc.start(room.code, host, None)
    svc.add_sheet(room.code, ann.id, token, 1, READ, [RIFF + b"0", RIFF + b"1", RIFF + b"2"], "")
    return room.code, host, ann.id, token


def test_a_re_read_arriving_while_a_word_is_typed_never_loses_the_typed_word(svc):
    code, host, ann, token = service_sheet(svc)
    svc.set_board(code, host, BOARD)
    plan = svc.reread_plan(code)
    assert plan is not None and [i.word for i in plan.items] == ["lite", "rise", "pest"]
    # typed before the re-read's answer: the re-read leaves it (compare and swap)
    svc.correct_entry(code, ann, token, "lite", "life")
    room = svc.apply_reread(code, plan, readings("late", "ruse", "past"))
    assert room is not None and room.round.lists[ann] == ["life", "ruse", "past"]
    # the re-read first, the phone still showing "ruse"'s old word: its handwriting finds the entry, the person wins
    ink = room.round.images[ann]["ruse"]
    with pytest.raises(NotOnSheet):
        svc.correct_entry(code, ann, token, "rise", "rise")
    svc.correct_entry(code, ann, token, "rise", "rise", image=ink)
    r = svc.room(code).round
    assert r.lists[ann] == ["life", "rise", "past"] and r.sheet_words[ann]["rise"].by == "Ann"
    # a later board reads only the reader's word again
    svc.set_board(code, host, "DRML/HCNL/XEHD/YTOC")
    plan = svc.reread_plan(code)
    assert plan is not None and [i.word for i in plan.items] == ["past"]


def test_many_corrections_at_once_one_winner_each_nothing_lost(svc):
    """8 threads type over the same word at once, from the word they all saw, each a
    word other than it: exactly one is stored, the others are refused (409), and the
    list holds every other word."""
    code, host, ann, token = service_sheet(svc)
    results: list[str] = []
    gate = threading.Barrier(8)

    def tab(k: int) -> None:
        gate.wait()
        try:
            svc.correct_entry(code, ann, token if k % 2 else host, "lite", f"lit{'abcdfghi'[k]}")
            results.append(f"lit{'abcdfghi'[k]}")
        except NotOnSheet:
            results.append("409")
    threads = [threading.Thread(target=tab, args=(k,)) for k in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    won = [r for r in results if r != "409"]
    assert len(results) == 8 and len(won) == 1
    r = svc.room(code).round
    assert r.lists[ann] == [won[0], "rise", "pest"] and r.revisions[ann] == 2
    assert set(r.images[ann]) == {won[0], "rise", "pest"}


# ---- a player without a phone, on the host's device --------------------------------------------------

def test_the_host_adds_a_player_without_a_phone_and_acts_for_them(client, app):
    t = playing(client, ["Ann"])
    # only the host adds one; no token of their own comes back
    assert client.post(t.url("/players"), json={"name": "Grandpa", "hosted": True}).status_code == 401
    res = t.as_player("Ann", "POST", "/players", json={"name": "Grandpa", "hosted": True})
    assert res.status_code == 403 and res.json()["code"] == "auth.host_only"
    assert t.as_host("POST", "/players", json={"name": "Grandpa", "hosted": "yes"}).status_code == 400
    res = t.as_host("POST", "/players", json={"name": "Grandpa", "hosted": True})
    assert res.status_code == 201 and res.json()["token"] is None
    gp = res.json()["player_id"]
    view = res.json()["room"]
    assert view["you"] == {**view["you"], "host": True, "player_id": None}  # the host's page stays the host's
    assert me(view, "Grandpa")["hosted"] is True and me(view, "Ann")["hosted"] is False
    t.players["Grandpa"] = (gp, "")
    # the host types his words (revisions as any list); Ann may not, nor may the host type Ann's
    res = t.as_host("PUT", f"/players/{gp}/words", json={"words": ["slate", "rest"], "base": 0})
    assert res.status_code == 200 and res.json()["room"]["last_change"]["by"] == "host"
    assert t.as_player("Ann", "PUT", f"/players/{gp}/words", json={"words": ["x"], "base": 1}).status_code == 403
    res = t.as_host("PUT", f"/players/{t.players['Ann'][0]}/words", json={"words": ["x"], "base": 0})
    assert res.status_code == 403 and res.json()["code"] == "auth.not_yours"
    stale = t.as_host("PUT", f"/players/{gp}/words", json={"words": ["slate"], "base": 0})
    assert stale.status_code == 409 and stale.json()["current"]["words"] == ["slate", "rest"]
    # the host sees his list while the round is played; Ann sees how many words only
    assert me(t.view(), "Grandpa")["words"] == ["slate", "rest"] and me(t.view(), "Ann")["words"] is None
    assert me(t.view("Ann"), "Grandpa")["words"] is None and me(t.view("Ann"), "Grandpa")["word_count"] == 2
    # his sheet: sent by the host, its words and handwriting shown to the host before the lock, typed over
    app.state.web.sheet_reader = read_with_images([word("lite", free="life")], [webp("lite")])
    assert send(t, None, "Grandpa").status_code == 200
    grandpa = me(t.view(), "Grandpa")
    assert grandpa["words"] == ["slate", "rest", "lite"]
    ink = grandpa["images"]["lite"]
    assert t.as_host("GET", f"/players/{gp}/images/{ink}").status_code == 200
    assert t.as_player("Ann", "GET", f"/players/{gp}/images/{ink}").status_code == 403
    assert entry(t, None, "Grandpa", "lite", "life").status_code == 200
    # renamed by the host; not by Ann
    assert t.as_host("PUT", f"/players/{gp}", json={"name": "Gramps"}).status_code == 200
    assert t.as_player("Ann", "PUT", f"/players/{gp}", json={"name": "Gran"}).status_code == 403
    # locked: the box closes for him too, the sheet's word can still be typed over
    assert t.as_host("POST", "/rounds/current/lock").status_code == 200
    assert t.as_host("PUT", f"/players/{gp}/words", json={"words": ["zzz"], "base": 3}).json()["code"] == "round.locked"
    assert entry(t, None, "Grandpa", "life", "lift").status_code == 200
    assert me(t.view("Ann"), "Gramps")["words"] == ["slate", "rest", "lift"]


def test_a_hosted_player_survives_a_restart(games_db, dictionary):
    with TestClient(create_app(ServeConfig(db_path=games_db), dictionary=dictionary)) as c:
        t = playing(c, ["Ann"])
        gp = t.as_host("POST", "/players", json={"name": "Grandpa", "hosted": True}).json()["player_id"]
        code, host = t.code, t.host
    with TestClient(create_app(ServeConfig(db_path=games_db), dictionary=dictionary)) as c:
        res = c.put(f"/api/rooms/{code}/players/{gp}/words", json={"words": ["slate"], "base": 0},
                    headers={"Authorization": f"Bearer {host}"})
        assert res.status_code == 200 and me(res.json()["room"], "Grandpa")["hosted"] is True
