"""Doubtful sheet words read again when the board becomes known or changes
(docs/web.md, "Paper lists"): the pure rule (room.sheets.reread), the service's
compare-and-swap (service.reread_plan / apply_reread: a word settled meanwhile, a board
changed again, a round scored), and the real app (a sheet sent before the board, read
against the dictionary, its doubtful words read again from their images once the board
is typed; a word read with the board is not read again).

The readings are recorded: the sheet reader as in test_room_sheets, and the word reader
(WebState.word_reader) a stand-in that gives chosen alternatives for each image it is
handed (the images are the room's real stored WebPs, decoded as the server does)."""
from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from boggle_cv.room import sheets  # noqa: E402
from boggle_cv.room.db import RoomDB  # noqa: E402
from boggle_cv.room.model import Round  # noqa: E402
from boggle_cv.room.service import RoomService  # noqa: E402
from boggle_cv.web import ServeConfig, create_app  # noqa: E402
from boggle_cv.web.state import read_word_images  # noqa: E402

from .test_room_sheet_images import read_with_images, webp  # noqa: E402
from .test_room_sheets import me, playing, send, settle, word  # noqa: E402

BOARD = "PERS/LATG/SINE/TERS"
OTHER = "DRML/HCNL/XEHD/YTOC"


# ---- the pure rule ---------------------------------------------------------------------------------

def test_a_new_best_word_replaces_the_doubtful_one_in_place_with_its_mark_and_image():
    words = ["zone", "pest", "lats", "rest"]
    marks = {"pest": [("pest", 0.6), ("past", 0.3)], "lats": [("lats", 0.5), ("last", 0.4)]}
    images = {"rest": "i0", "pest": "i1", "lats": "i2"}
    got = sheets.reread(words, marks, images, "pest", marks["pest"], "i1",
                        [("past", 0.81234), ("pest", 0.1), ("post", 0.05), ("pasta", 0.01), ("paste", 0.01),
                         ("pests", 0.01)])
    assert got is not None
    new_words, new_marks, new_images, now = got
    assert now == "past" and new_words == ["zone", "past", "lats", "rest"]  # same place, nothing lost
    # the mark and the image go with the word, in their places; five alternatives, rounded
    assert list(new_marks) == ["past", "lats"] and new_marks["past"] == [("past", 0.812), ("pest", 0.1), ("post", 0.05),
                                                                         ("pasta", 0.01), ("paste", 0.01)]
    assert list(new_images) == ["rest", "past", "lats"] and new_images["past"] == "i1"
    # the inputs are left as they were
    assert words == ["zone", "pest", "lats", "rest"] and "pest" in marks and images["pest"] == "i1"


def test_a_new_best_word_already_in_the_list_is_not_added_twice():
    words, marks, images = ["rest", "pest"], {"pest": [("pest", 0.6), ("rest", 0.3)]}, {"pest": "i1"}
    got = sheets.reread(words, marks, images, "pest", marks["pest"], "i1", [("Rest", 0.7), ("post", 0.2)])
    assert got is not None
    new_words, new_marks, new_images, now = got
    # the word stays (doubtful), its alternatives the new reading's, itself first (not read: 0)
    assert now == "pest" and new_words == ["rest", "pest"] and new_images == images
    assert new_marks == {"pest": [("pest", 0.0), ("rest", 0.7), ("post", 0.2)]}


def test_the_same_best_word_takes_the_new_alternatives_and_stays_doubtful():
    words, marks, images = ["PEST"], {"pest": [("pest", 0.6), ("past", 0.3)]}, {"pest": "i1"}
    got = sheets.reread(words, marks, images, "pest", marks["pest"], "i1", [("pest", 0.9), ("pert", 0.05)])
    assert got == (["PEST"], {"pest": [("pest", 0.9), ("pert", 0.05)]}, {"pest": "i1"}, "pest")


def test_a_word_settled_typed_away_or_changed_meanwhile_is_left_alone():
    mark = [("pest", 0.6), ("past", 0.3)]
    new = [("past", 0.9)]
    # settled (no mark), typed away (pruned: no mark, not in the list), read again meanwhile (another mark),
    # another sheet's word of the same spelling (another image)
    assert sheets.reread(["pest"], {}, {"pest": "i1"}, "pest", mark, "i1", new) is None
    assert sheets.reread(["zone"], {"pest": mark}, {"pest": "i1"}, "pest", mark, "i1", new) is None
    assert sheets.reread(["pest"], {"pest": [("pest", 0.5)]}, {"pest": "i1"}, "pest", mark, "i1", new) is None
    assert sheets.reread(["pest"], {"pest": mark}, {"pest": "i9"}, "pest", mark, "i1", new) is None
    # a reading with no word: nothing changes
    assert sheets.reread(["pest"], {"pest": mark}, {"pest": "i1"}, "pest", mark, "i1", [("", 0.9)]) == \
        (["pest"], {"pest": mark}, {"pest": "i1"}, "pest")


def test_a_round_stored_before_loads_without_what_its_words_were_read_against():
    doc = Round(3).to_dict()
    assert "read_against" in doc and doc["read_against"] == {}
    del doc["read_against"]
    assert Round.from_dict(doc).read_against == {}
    r = Round(3, read_against={"p1": {"pest": ""}})
    assert Round.from_dict(r.to_dict()).read_against == {"p1": {"pest": ""}}


# ---- the service: plan, compare and swap ---------------------------------------------------------

RIFF = b"RIFF\x10\x00\x00\x00WEBPVP8 " + b"\0" * 40  # passes the stored-image check (its first bytes)
SHEET = [word("rest"), word("pest", True, [("pest", 0.6), ("past", 0.3)]), word("lats", True, [("lats", 0.5)])]


@pytest.fixture()
def svc(tmp_path, dictionary):
    return RoomService(RoomDB(tmp_path / "g.sqlite3"), dictionary)


def sheet_room(svc: RoomService) -> tuple[str, str, str, str]:
    """A playing room whose player Ann sent SHEET before the board was known: (code,
    host token, Ann's id, Ann's token)."""
    room, host = svc.create("t", seconds=None)
    _, ann, token = svc.join(room.code, "Ann")
    svc.start(room.code, host, None)
    svc.add_sheet(room.code, ann.id, token, 1, SHEET, [RIFF + b"0", RIFF + b"1", RIFF + b"2"], "")
    return room.code, host, ann.id, token


def test_the_plan_holds_the_doubtful_words_read_against_another_lexicon(svc):
    code, host, ann, _ = sheet_room(svc)
    assert svc.room(code).round.read_against == {ann: {"pest": "", "lats": ""}}
    assert svc.reread_plan(code) is None  # no board yet: nothing to read against
    svc.set_board(code, host, BOARD)
    plan = svc.reread_plan(code)
    assert plan is not None and plan.board_text == BOARD and plan.lang == "en" and plan.number == 1
    assert [(i.word, i.mark) for i in plan.items] == [("pest", (("pest", 0.6), ("past", 0.3))), ("lats", (("lats", 0.5),))]
    assert plan.images == (RIFF + b"1", RIFF + b"2")
    room = svc.apply_reread(code, plan, [[("past", 0.8), ("pest", 0.1)], [("last", 0.7), ("lats", 0.2)]])
    assert room is not None
    r = room.round
    assert r.lists[ann] == ["rest", "past", "last"] and r.revisions[ann] == 2
    assert r.doubtful[ann] == {"past": [("past", 0.8), ("pest", 0.1)], "last": [("last", 0.7), ("lats", 0.2)]}
    assert set(r.images[ann]) == {"rest", "past", "last"}
    assert r.read_against[ann] == {"past": BOARD, "last": BOARD}
    assert room.last_change["what"] == "reread" and room.last_change["player_ids"] == [ann]
    assert room.last_change["words"] == 2 and room.last_change["replaced"] == 2
    # read against this board now: nothing more to do
    assert svc.reread_plan(code) is None


def test_a_word_settled_between_the_reading_and_its_answer_stays_settled(svc):
    code, host, ann, token = sheet_room(svc)
    svc.set_board(code, host, BOARD)
    plan = svc.reread_plan(code)
    assert plan is not None
    svc.settle_word(code, ann, token, "pest", "pest")  # Ann confirms "pest" while it is read again
    room = svc.apply_reread(code, plan, [[("past", 0.8)], [("last", 0.7)]])
    assert room is not None
    r = room.round
    assert r.lists[ann] == ["rest", "pest", "last"] and r.doubtful[ann] == {"last": [("last", 0.7)]}
    assert set(r.images[ann]) == {"rest", "pest", "last"}
    assert room.last_change["words"] == 1
    # a word typed away meanwhile: the re-read changes nothing, writes nothing
    svc.set_board(code, host, OTHER)
    plan = svc.reread_plan(code)
    assert plan is not None and [i.word for i in plan.items] == ["last"]
    svc.put_words(code, ann, token, ["rest", "pest"], svc.room(code).round.revision(ann))
    before = svc.room(code)
    assert svc.apply_reread(code, plan, [[("lats", 0.9)]]) is None
    assert svc.room(code).version == before.version


def test_a_stale_board_or_a_scored_round_takes_no_reading(svc):
    code, host, ann, _ = sheet_room(svc)
    svc.set_board(code, host, BOARD)
    plan = svc.reread_plan(code)
    assert plan is not None
    svc.set_board(code, host, OTHER)  # the board changed again while the first re-read ran
    before = svc.room(code)
    assert svc.apply_reread(code, plan, [[("past", 0.8)], [("last", 0.7)]]) is None
    after = svc.room(code)
    assert after.version == before.version and after.round.lists[ann] == ["rest", "pest", "lats"]
    # a fix that changes the board's text is a new board too
    plan = svc.reread_plan(code)
    assert plan is not None and plan.board_text == OTHER
    svc.set_board(code, host, fixes={"r1c1": "Qu"})
    assert svc.apply_reread(code, plan, [[("past", 0.8)], [("last", 0.7)]]) is None
    # scored meanwhile
    plan = svc.reread_plan(code)
    assert plan is not None and plan.board_text == "QRML/HCNL/XEHD/YTOC"
    svc.lock(code, host)
    svc.score(code, host)
    assert svc.apply_reread(code, plan, [[("past", 0.8)], [("last", 0.7)]]) is None
    assert svc.room(code).round.lists[ann] == ["rest", "pest", "lats"]
    assert svc.reread_plan(code) is None


def test_what_a_word_was_read_against_goes_with_its_mark(svc):
    code, host, ann, token = sheet_room(svc)
    svc.settle_word(code, ann, token, "pest", "post")
    assert svc.room(code).round.read_against == {ann: {"lats": ""}}
    svc.put_words(code, ann, token, ["rest"], svc.room(code).round.revision(ann))
    assert svc.room(code).round.read_against == {}


# ---- the real app ----------------------------------------------------------------------------------

class WordReader:
    """A stand-in for boggle_cv.read_words: for the k-th image of a call, the
    alternatives answers[k] (by the word the image shows, found by its position in
    the order the room lists its doubtful words); keeps each call's images and lexicon."""

    def __init__(self, answers: dict[str, list[tuple[str, float]]]) -> None:
        self.answers = answers
        self.calls: list[tuple[list[np.ndarray], list[str], str]] = []
        self.order: list[str] = []

    def __call__(self, images: list[np.ndarray], lexicon: list[str], lang: str = "en") -> list[Any]:
        self.calls.append((list(images), list(lexicon), lang))
        return [SimpleNamespace(alternatives=self.answers[w]) for w in self.order[:len(images)]]


def wait_for(app, timeout_s: float = 20.0) -> None:
    end = time.monotonic() + timeout_s
    while app.state.rereads.busy():
        assert time.monotonic() < end, "the re-read did not finish"
        time.sleep(0.02)


@pytest.fixture()
def app(tmp_path, dictionary):
    return create_app(ServeConfig(db_path=tmp_path / "games.sqlite3"), dictionary=dictionary)


@pytest.fixture()
def client(app):
    with TestClient(app) as c:
        yield c


def test_a_sheet_sent_before_the_board_is_read_again_once_the_board_is_typed(client, app):
    app.state.web.sheet_reader = read_with_images(
        [word("rest"), word("pest", True, [("pest", 0.6), ("past", 0.3)]), word("lats", True, [("lats", 0.5)])],
        [webp("rest"), webp("pest"), webp("lats")])
    reader = WordReader({"pest": [("past", 0.8), ("pest", 0.15)], "lats": [("last", 0.9), ("lats", 0.05)]})
    reader.order = ["pest", "lats"]
    app.state.web.word_reader = reader
    t = playing(client)
    sent = send(t, "Ann", "Ann").json()
    assert sent["sheet"]["lexicon"] == "dictionary" and sent["sheet"]["doubtful"] == ["pest", "lats"]
    wait_for(app)
    assert reader.calls == []  # no board: nothing to read again
    images = dict(me(t.view("Ann"), "Ann")["images"])
    # the board typed: the doubtful words are read again from their images, against the board's lexicon
    assert t.as_player("Bob", "PUT", "/rounds/current/board", json={"board": BOARD}).status_code == 200
    wait_for(app)
    assert len(reader.calls) == 1
    crops, lexicon, lang = reader.calls[0]
    assert len(crops) == 2 and all(c.ndim == 2 and c.shape[0] <= 48 and c.shape[1] <= 320 for c in crops)
    assert lang == "en" and "last" in lexicon and "rest" in lexicon and "zebra" not in lexicon
    view = t.view("Ann")
    ann = me(view, "Ann")
    assert ann["words"] == ["rest", "past", "last"] and ann["revision"] == 2
    assert ann["doubtful"] == {"past": [["past", 0.8], ["pest", 0.15]], "last": [["last", 0.9], ["lats", 0.05]]}
    assert ann["images"] == {"rest": images["rest"], "past": images["pest"], "last": images["lats"]}
    assert view["last_change"]["what"] == "reread" and view["last_change"]["player_ids"] == [t.players["Ann"][0]]
    # still doubtful: Ann confirms as before
    assert settle(t, "Ann", "Ann", "past", "past").status_code == 200
    # a change that leaves the board's text as it is (a bonus cell) reads nothing again
    assert t.as_host("PUT", "/rounds/current/board", json={"bonus": ["r1c1"]}).status_code == 200
    wait_for(app)
    assert len(reader.calls) == 1


def test_a_word_read_with_the_board_is_not_read_again(client, app):
    reader = WordReader({"pest": [("pest", 0.7)]})
    reader.order = ["pest"]
    app.state.web.word_reader = reader
    t = playing(client)
    assert t.as_player("Bob", "PUT", "/rounds/current/board", json={"board": BOARD}).status_code == 200
    app.state.web.sheet_reader = read_with_images([word("pest", True, [("pest", 0.6), ("past", 0.3)])],
                                                  [webp("pest")])
    assert send(t, "Ann", "Ann").json()["sheet"]["lexicon"] == "board"
    assert t.as_player("Bob", "PUT", "/rounds/current/board", json={"board": BOARD}).status_code == 200
    wait_for(app)
    assert reader.calls == [] and me(t.view("Ann"), "Ann")["doubtful"] == {"pest": [["pest", 0.6], ["past", 0.3]]}
    # another board: read again against it
    assert t.as_player("Bob", "PUT", "/rounds/current/board", json={"board": OTHER}).status_code == 200
    wait_for(app)
    assert len(reader.calls) == 1 and me(t.view("Ann"), "Ann")["doubtful"] == {"pest": [["pest", 0.7]]}


def test_a_failing_reader_is_logged_and_the_room_stays_as_it_was(client, app, caplog):
    def broken(images: list[np.ndarray], lexicon: list[str], lang: str = "en") -> list[Any]:
        raise RuntimeError("the model fell over")
    app.state.web.word_reader = broken
    app.state.web.sheet_reader = read_with_images([word("pest", True, [("pest", 0.6), ("past", 0.3)])],
                                                  [webp("pest")])
    t = playing(client)
    assert send(t, "Ann", "Ann").status_code == 200
    before = t.view("Ann")
    assert t.as_player("Bob", "PUT", "/rounds/current/board", json={"board": BOARD}).status_code == 200
    wait_for(app)
    after = t.view("Ann")
    assert me(after, "Ann") == me(before, "Ann") and after["version"] == before["version"] + 1  # the board only
    assert "the model fell over" in caplog.text
    # the server goes on: the next change is answered as ever
    assert t.words("Bob", ["zone"]).status_code == 200


def test_the_images_are_decoded_and_german_written_forms_count_as_their_word():
    seen: list[list[str]] = []

    def reader(images: list[np.ndarray], lexicon: list[str], lang: str = "en") -> list[Any]:
        seen.append(lexicon)
        return [SimpleNamespace(alternatives=[("bar", 0.5), ("baer", 0.3), ("bor", 0.1)]) for _ in images]
    # the dictionary holds "baer" (Bär folded); the reader sees it written "bar"
    got = read_word_images([webp("bar"), b"RIFF not an image", None], ["baer", "boer"], "de", reader=reader)
    assert seen[0][:2] == ["baer", "boer"] and "bar" in seen[0] and "bor" in seen[0]
    assert got[1] is None and got[2] is None
    assert got[0] is not None and [w for w, _ in got[0]] == ["baer", "boer"] and abs(got[0][0][1] - 0.8) < 1e-9


def test_the_sample_sheets_doubtful_words_read_again_for_real(dictionary):
    """The shipped sample sheet read as a sheet sent before the board (against the
    dictionary), then its doubtful words read again by the real word reader from the
    WebPs the room keeps, against its board's lexicon, in the server's worker process
    (the function travels by name): each a word of the lexicon, and no fewer right."""
    import anyio

    from boggle_cv.game.board import Board
    from boggle_cv.cli.sheets import sheet_lexicon
    from boggle_cv.web.state import ReadingPool, read_sheet_bytes

    from .test_room_sheets import JPEG, TRAY_BOARD, truth
    early = read_sheet_bytes(JPEG, None, "en")
    listed, marks, done = sheets.add_sheet([], {}, early["words"])
    images = {w: early["images"][at] for w, at in zip(done.added, done.sources)}
    asked = [w for w in marks if images.get(w)]
    assert asked, "the sample sheet read against the dictionary has doubtful words"
    lexicon = sheet_lexicon(Board.parse(TRAY_BOARD), dictionary)
    pool = ReadingPool(1, "classifier")
    try:
        got = anyio.run(pool.run, read_word_images, [images[w] for w in asked], lexicon, "en")
    finally:
        pool.close()
    assert len(got) == len(asked) and all(alts and alts[0][0] in lexicon for alts in got)
    true = set(truth())
    assert sum(alts[0][0] in true for alts in got) >= sum(w in true for w in asked)


def test_a_board_changed_while_a_re_read_runs_gets_a_fresh_one(client, app):
    """The first re-read is still reading when the board changes again: its answer is
    refused (the board's text moved), and a second re-read against the new board follows."""
    import threading
    release = threading.Event()
    answers = iter([[("past", 0.8)], [("post", 0.9)]])
    lexicons: list[list[str]] = []

    def slow(images: list[np.ndarray], lexicon: list[str], lang: str = "en") -> list[Any]:
        lexicons.append(lexicon)
        if len(lexicons) == 1:
            assert release.wait(20)
        return [SimpleNamespace(alternatives=next(answers))]
    app.state.web.word_reader = slow
    app.state.web.sheet_reader = read_with_images([word("pest", True, [("pest", 0.6), ("past", 0.3)])],
                                                  [webp("pest")])
    t = playing(client)
    assert send(t, "Ann", "Ann").status_code == 200
    assert t.as_player("Bob", "PUT", "/rounds/current/board", json={"board": BOARD}).status_code == 200
    end = time.monotonic() + 20
    while not lexicons:
        assert time.monotonic() < end
        time.sleep(0.02)
    assert t.as_player("Bob", "PUT", "/rounds/current/board", json={"board": OTHER}).status_code == 200
    release.set()
    wait_for(app)
    assert len(lexicons) == 2 and "last" in lexicons[0] and "last" not in lexicons[1]
    ann = me(t.view("Ann"), "Ann")
    assert ann["words"] == ["post"] and ann["doubtful"] == {"post": [["post", 0.9]]}


def test_the_background_runner_runs_again_after_a_request_meanwhile_and_logs_errors(caplog):
    import anyio

    from boggle_cv.web.reread import Rereads
    runs: list[str] = []

    async def main() -> None:
        gate = anyio.Event()

        async def run(code: str) -> None:
            runs.append(code)
            if len(runs) == 1:
                await gate.wait()
            if code == "BAD":
                raise RuntimeError("broken")
        rereads = Rereads(run, timeout_s=5)
        rereads.request("A")  # no lifespan: nothing runs
        assert not rereads.busy()
        async with rereads.running():
            rereads.request("A")
            await anyio.sleep(0.05)
            rereads.request("A")
            rereads.request("A")  # two asks while one runs: one more run
            gate.set()
            rereads.request("BAD")
            with anyio.fail_after(5):
                while rereads.busy():
                    await anyio.sleep(0.01)
        slow = Rereads(lambda code: anyio.sleep(10), timeout_s=0.05)
        async with slow.running():
            slow.request("S")
            with anyio.fail_after(5):
                while slow.busy():
                    await anyio.sleep(0.01)
    anyio.run(main)
    assert runs == ["A", "A", "BAD"] or runs == ["A", "BAD", "A"]
    assert "broken" in caplog.text and "TimeoutError" in caplog.text
