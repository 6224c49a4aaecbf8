"""Sheet words read again when the board becomes known or changes (docs/web.md,
"Paper lists"): the pure rule (room.sheets.reread: sure and doubtful words, a word a
person set never touched), the service's compare-and-swap (service.reread_plan /
apply_reread: a word confirmed or typed meanwhile, a board changed again, a round
scored), what the view shows of a change (sheet_words' "was", gone once no longer
true), and the real app (a sheet sent before the board, read against the
dictionary, its words read again from their images once the board is typed; a word
read with the board is not read again).

The readings are recorded: the sheet reader as in test_room_sheets, and the word reader
(WebState.word_reader) a stand-in that gives chosen readings for each image it is
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
from boggle_cv.room.sheets import RereadExpect, SheetEntry, SheetWords, WordReread  # noqa: E402
from boggle_cv.web import ServeConfig, create_app  # noqa: E402
from boggle_cv.web.state import read_word_images, read_word_readings  # noqa: E402

from .test_room_sheet_images import read_with_images, webp  # noqa: E402
from .test_room_sheets import me, playing, send, settle, word  # noqa: E402

BOARD = "PERS/LATG/SINE/TERS"
OTHER = "DRML/HCNL/XEHD/YTOC"


# ---- the pure rule ---------------------------------------------------------------------------------

def tables(words: list[str], marks: sheets.Marks, against: str = "") -> SheetWords:
    """Every word of `words` an entry of a sheet, as first read, read against `against`,
    its image "i<k>"."""
    return SheetWords(dict(marks), {w: f"i{k}" for k, w in enumerate(words)}, {w: against for w in words},
                      {w: SheetEntry(w, f"{w}?") for w in words})


def expect(sheet: SheetWords, w: str) -> RereadExpect:
    return RereadExpect(w, tuple(sheet.marks.get(w, ())), sheet.images[w], sheet.against.get(w))


def test_a_new_best_word_replaces_the_doubtful_one_in_place_with_its_tables():
    words = ["zone", "pest", "lats", "rest"]
    sheet = tables(words, {"pest": [("pest", 0.6), ("past", 0.3)], "lats": [("lats", 0.5), ("last", 0.4)]})
    reading = WordReread.of({"alternatives": [("past", 0.81234), ("pest", 0.1), ("post", 0.05), ("pasta", 0.01),
                                              ("paste", 0.01), ("pests", 0.01)], "flagged": False, "free": "pcst"})
    assert reading is not None
    got = sheets.reread(words, sheet, expect(sheet, "pest"), reading, BOARD)
    assert got is not None
    new_words, new, now = got
    assert now == "past" and new_words == ["zone", "past", "lats", "rest"]  # same place, nothing lost
    # a doubtful word stays doubtful (flagged or not), five alternatives, rounded; each table keeps its order
    assert list(new.marks) == ["past", "lats"] and new.marks["past"] == [("past", 0.812), ("pest", 0.1),
                                                                         ("post", 0.05), ("pasta", 0.01),
                                                                         ("paste", 0.01)]
    assert list(new.images) == ["zone", "past", "lats", "rest"] and new.images["past"] == "i1"
    assert new.against["past"] == BOARD and new.against["lats"] == ""
    # the entry remembers the word as first read (the change shown) and the open reading
    assert new.entries["past"] == SheetEntry("pest", "pcst") and sheets.reread_change("past", new.entries["past"]) == "pest"
    # the inputs are left as they were
    assert words == ["zone", "pest", "lats", "rest"] and "pest" in sheet.marks and sheet.images["pest"] == "i1"


def test_a_sure_word_read_again_is_replaced_and_asked_about_only_when_the_reader_doubts_it():
    words = ["life", "rise"]
    sheet = tables(words, {})
    sure = WordReread((("lite", 0.9), ("life", 0.05)), False, "life")
    doubted = WordReread((("ruse", 0.5), ("rise", 0.4)), True, "rise")
    unsaid = WordReread((("lite", 0.9),), None, "")
    got = sheets.reread(words, sheet, expect(sheet, "life"), sure, BOARD)
    assert got is not None and got[0] == ["lite", "rise"] and got[1].marks == {} and got[2] == "lite"
    assert sheets.reread_change("lite", got[1].entries["lite"]) == "life"
    got = sheets.reread(words, sheet, expect(sheet, "rise"), doubted, BOARD)
    assert got is not None and got[0] == ["life", "ruse"] and got[1].marks == {"ruse": [("ruse", 0.5), ("rise", 0.4)]}
    got = sheets.reread(words, sheet, expect(sheet, "life"), unsaid, BOARD)  # a reader that does not say: as it was
    assert got is not None and got[1].marks == {}


def test_a_new_best_word_already_in_the_list_is_not_added_twice():
    words = ["rest", "pest"]
    sheet = tables(words, {"pest": [("pest", 0.6), ("rest", 0.3)]})
    reading = WordReread.of([("Rest", 0.7), ("post", 0.2)])  # as the photo readers answer: alternatives alone
    assert reading == WordReread((("rest", 0.7), ("post", 0.2)), None, "")
    got = sheets.reread(words, sheet, expect(sheet, "pest"), reading, BOARD)
    assert got is not None
    new_words, new, now = got
    # the word stays (doubtful), its alternatives the new reading's, itself first (not read: 0)
    assert now == "pest" and new_words == ["rest", "pest"] and new.images == sheet.images
    assert new.marks == {"pest": [("pest", 0.0), ("rest", 0.7), ("post", 0.2)]}


def test_a_word_a_person_set_typed_away_or_changed_meanwhile_is_left_alone():
    words = ["pest"]
    sheet = tables(words, {"pest": [("pest", 0.6), ("past", 0.3)]})
    before = expect(sheet, "pest")
    new = WordReread((("past", 0.9),))
    # confirmed or typed by a person (the entry is theirs), typed away (no entry), read again meanwhile (another
    # mark, or against another board), another sheet's word of the same spelling (another image)
    _, confirmed = sheets.correct(words, sheet, "pest", "pest", "Ann")
    assert sheets.reread(words, confirmed, before, new, BOARD) is None
    typed_words, typed = sheets.correct(words, sheet, "pest", "pesto", "host")
    assert typed_words == ["pesto"] and sheets.reread(typed_words, typed, before, new, BOARD) is None
    assert sheets.reread(["zone"], sheet.pruned(["zone"]), before, new, BOARD) is None
    remarked = SheetWords({"pest": [("pest", 0.5)]}, sheet.images, sheet.against, sheet.entries)
    assert sheets.reread(words, remarked, before, new, BOARD) is None
    moved_on = SheetWords(sheet.marks, sheet.images, {"pest": OTHER}, sheet.entries)
    assert sheets.reread(words, moved_on, before, new, BOARD) is None
    other_ink = SheetWords(sheet.marks, {"pest": "i9"}, sheet.against, sheet.entries)
    assert sheets.reread(words, other_ink, before, new, BOARD) is None
    # a reading with no word: nothing changes but what it was read against
    got = sheets.reread(words, sheet, before, WordReread(()), BOARD)
    assert got is not None and got[0] == words and got[1].marks == sheet.marks and got[1].against == {"pest": BOARD}


def test_a_person_types_over_confirms_or_drops_any_entry():
    words = ["zone", "lite", "rise"]
    sheet = tables(["lite", "rise"], {"rise": [("rise", 0.5), ("ruse", 0.4)]})
    # typed over: in its place, with its handwriting and open reading; the person's now (no mark, never read again)
    out, new = sheets.correct(words, sheet, "LITE", "life", "host")
    assert out == ["zone", "life", "rise"] and new.images["life"] == "i0" and "life" not in new.against
    assert new.entries["life"] == SheetEntry("lite", "lite?", "host") and sheets.reread_change("life", new.entries["life"]) is None
    # confirmed: kept, no longer asked about
    out, new = sheets.correct(words, sheet, "rise", "rise", "Ann")
    assert out == words and new.marks == {} and new.entries["rise"].by == "Ann" and "rise" not in new.against
    # typed as a word already in the list: the entry goes (no word twice); dropped
    for choice in ("zone", None):
        out, new = sheets.correct(words, sheet, "lite", choice, "Ann")
        assert out == ["zone", "rise"] and "lite" not in new.images and "lite" not in new.entries
    with pytest.raises(KeyError):
        sheets.correct(words, sheet, "zone", "zones", "Ann")  # typed, not from a sheet


def test_a_round_stored_before_loads_without_what_its_words_were_read_against():
    doc = Round(3).to_dict()
    assert doc["read_against"] == {} and doc["sheet_words"] == {}
    del doc["read_against"], doc["sheet_words"]
    r = Round.from_dict(doc)
    assert r.read_against == {} and r.sheet_words == {}
    r = Round(3, read_against={"p1": {"pest": ""}}, sheet_words={"p1": {"pest": SheetEntry("pest", "pcst", None)}})
    again = Round.from_dict(r.to_dict())
    assert again.read_against == {"p1": {"pest": ""}} and again.sheet_words == r.sheet_words


# ---- the service: plan, compare and swap ---------------------------------------------------------

RIFF = b"RIFF\x10\x00\x00\x00WEBPVP8 " + b"\0" * 40  # passes the stored-image check (its first bytes)
SHEET = [word("rest"), word("pest", True, [("pest", 0.6), ("past", 0.3)]), word("lats", True, [("lats", 0.5)])]


@pytest.fixture()
def svc(games_db, dictionary):
    return RoomService(RoomDB(games_db), dictionary)


def sheet_room(svc: RoomService) -> tuple[str, str, str, str]:
    """A playing room whose player Ann sent SHEET before the board was known: (code,
    host token, Ann's id, Ann's token)."""
    room, host = svc.create("t", seconds=None)
    _, ann, token = svc.join(room.code, "Ann")
    svc.start(room.code, host, None)
    svc.add_sheet(room.code, ann.id, token, 1, SHEET, [RIFF + b"0", RIFF + b"1", RIFF + b"2"], "")
    return room.code, host, ann.id, token


def readings(*words: tuple[str, float] | str, flagged: bool | None = None) -> list[dict[str, Any]]:
    """One reading a word: its best alternative (a word alone: p 0.9)."""
    return [{"alternatives": [w if isinstance(w, tuple) else (w, 0.9)], "flagged": flagged, "free": ""}
            for w in words]


def test_the_plan_holds_every_word_still_the_readers(svc):
    code, host, ann, _ = sheet_room(svc)
    assert svc.room(code).round.read_against == {ann: {"rest": "", "pest": "", "lats": ""}}
    assert svc.reread_plan(code) is None  # no board yet: nothing to read against
    svc.set_board(code, host, BOARD)
    plan = svc.reread_plan(code)
    assert plan is not None and plan.board_text == BOARD and plan.lang == "en" and plan.number == 1
    assert [(i.word, i.mark) for i in plan.items] == [("rest", ()), ("pest", (("pest", 0.6), ("past", 0.3))),
                                                      ("lats", (("lats", 0.5),))]
    assert plan.images == (RIFF + b"0", RIFF + b"1", RIFF + b"2")
    room = svc.apply_reread(code, plan, [{"alternatives": [("rest", 0.95)], "flagged": False, "free": "rest"},
                                         [("past", 0.8), ("pest", 0.1)], [("last", 0.7), ("lats", 0.2)]])
    assert room is not None
    r = room.round
    assert r.lists[ann] == ["rest", "past", "last"] and r.revisions[ann] == 2
    assert r.doubtful[ann] == {"past": [("past", 0.8), ("pest", 0.1)], "last": [("last", 0.7), ("lats", 0.2)]}
    assert set(r.images[ann]) == {"rest", "past", "last"}
    assert r.read_against[ann] == {"rest": BOARD, "past": BOARD, "last": BOARD}
    assert room.last_change["what"] == "reread" and room.last_change["player_ids"] == [ann]
    assert room.last_change["words"] == 3 and room.last_change["replaced"] == 2
    # read against this board now: nothing more to do
    assert svc.reread_plan(code) is None


def test_a_word_confirmed_or_typed_between_the_reading_and_its_answer_stays_as_the_person_set_it(svc):
    code, host, ann, token = sheet_room(svc)
    svc.set_board(code, host, BOARD)
    plan = svc.reread_plan(code)
    assert plan is not None
    svc.settle_word(code, ann, token, "pest", "pest")  # Ann confirms "pest" while it is read again
    svc.correct_entry(code, ann, host, "rest", "rust")  # the host types over "rest"
    room = svc.apply_reread(code, plan, readings("rent", "past", "last"))
    assert room is not None
    r = room.round
    assert r.lists[ann] == ["rust", "pest", "last"] and r.doubtful[ann] == {"last": [("last", 0.9)]}
    assert set(r.images[ann]) == {"rust", "pest", "last"}
    assert room.last_change["words"] == 1
    # the people's words are never read again, whatever the board
    svc.set_board(code, host, OTHER)
    plan = svc.reread_plan(code)
    assert plan is not None and [i.word for i in plan.items] == ["last"]
    # a word typed away meanwhile: the re-read changes nothing, writes nothing
    svc.put_words(code, ann, token, ["rust", "pest"], svc.room(code).round.revision(ann))
    before = svc.room(code)
    assert svc.apply_reread(code, plan, readings("lats")) is None
    assert svc.room(code).version == before.version


def test_a_stale_board_or_a_scored_round_takes_no_reading(svc):
    code, host, ann, _ = sheet_room(svc)
    svc.set_board(code, host, BOARD)
    plan = svc.reread_plan(code)
    assert plan is not None
    svc.set_board(code, host, OTHER)  # the board changed again while the first re-read ran
    before = svc.room(code)
    assert svc.apply_reread(code, plan, readings("rent", "past", "last")) is None
    after = svc.room(code)
    assert after.version == before.version and after.round.lists[ann] == ["rest", "pest", "lats"]
    # a fix that changes the board's text is a new board too
    plan = svc.reread_plan(code)
    assert plan is not None and plan.board_text == OTHER
    svc.set_board(code, host, fixes={"r1c1": "Qu"})
    assert svc.apply_reread(code, plan, readings("rent", "past", "last")) is None
    # scored meanwhile
    plan = svc.reread_plan(code)
    assert plan is not None and plan.board_text == "QRML/HCNL/XEHD/YTOC"
    svc.lock(code, host)
    svc.score(code, host)
    assert svc.apply_reread(code, plan, readings("rent", "past", "last")) is None
    assert svc.room(code).round.lists[ann] == ["rest", "pest", "lats"]
    assert svc.reread_plan(code) is None


def test_what_a_word_was_read_against_goes_once_a_person_sets_it_or_it_leaves_the_list(svc):
    code, host, ann, token = sheet_room(svc)
    svc.settle_word(code, ann, token, "pest", "post")
    assert svc.room(code).round.read_against == {ann: {"rest": "", "lats": ""}}
    svc.put_words(code, ann, token, ["rest"], svc.room(code).round.revision(ann))
    r = svc.room(code).round
    assert r.read_against == {ann: {"rest": ""}} and list(r.sheet_words[ann]) == ["rest"]


def test_the_view_shows_a_change_while_it_is_true(svc):
    code, host, ann, token = sheet_room(svc)
    svc.set_board(code, host, BOARD)
    plan = svc.reread_plan(code)
    assert plan is not None
    svc.apply_reread(code, plan, readings("rent", "past", "lats"))

    def shown() -> dict[str, Any]:
        view = svc.view(code, token)
        got: dict[str, Any] = me(view, "Ann")["sheet_words"]
        return got
    assert shown() == {"rent": {"free": "rest", "was": "rest", "by": None}, "past": {"free": "pest", "was": "pest", "by": None},
                       "lats": {"free": "lats", "was": None, "by": None}}
    # confirmed: no longer a change to show; typed over by the host: the person's word
    svc.correct_entry(code, ann, token, "rent", "rent")
    svc.settle_word(code, ann, host, "past", "pest")
    assert shown() == {"rent": {"free": "rest", "was": None, "by": "Ann"}, "pest": {"free": "pest", "was": None, "by": "host"},
                       "lats": {"free": "lats", "was": None, "by": None}}
    # the others see it once the lists are locked, as the words themselves
    _, bob, bob_token = svc.join(code, "Bob")
    assert me(svc.view(code, bob_token), "Ann")["sheet_words"] is None
    svc.lock(code, host)
    assert me(svc.view(code, bob_token), "Ann")["sheet_words"] == shown()


# ---- the real app ----------------------------------------------------------------------------------

class WordReader:
    """A stand-in for boggle_cv.read_words: for the k-th image of a call, the reading
    answers[order[k]] (by the word the image shows, found by its position in the order
    the room lists its sheet's words): alternatives, or (alternatives, flagged, free);
    keeps each call's images and lexicon."""

    def __init__(self, answers: dict[str, Any]) -> None:
        self.answers = answers
        self.calls: list[tuple[list[np.ndarray], list[str], str]] = []
        self.order: list[str] = []

    def __call__(self, images: list[np.ndarray], lexicon: list[str], lang: str = "en") -> list[Any]:
        self.calls.append((list(images), list(lexicon), lang))
        out = []
        for w in self.order[:len(images)]:
            got = self.answers[w]
            if isinstance(got, tuple):
                out.append(SimpleNamespace(alternatives=got[0], flagged=got[1], free=got[2]))
            else:
                out.append(SimpleNamespace(alternatives=got))
        return out


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
    reader = WordReader({"rest": ([("rest", 0.95)], False, "rest"), "pest": [("past", 0.8), ("pest", 0.15)],
                         "lats": [("last", 0.9), ("lats", 0.05)]})
    reader.order = ["rest", "pest", "lats"]
    app.state.web.word_reader = reader
    t = playing(client)
    sent = send(t, "Ann", "Ann").json()
    assert sent["sheet"]["lexicon"] == "dictionary" and sent["sheet"]["doubtful"] == ["pest", "lats"]
    wait_for(app)
    assert reader.calls == []  # no board: nothing to read again
    images = dict(me(t.view("Ann"), "Ann")["images"])
    # the board typed: the sheet's words are read again from their images, against the board's lexicon
    assert t.as_player("Bob", "PUT", "/rounds/current/board", json={"board": BOARD}).status_code == 200
    wait_for(app)
    assert len(reader.calls) == 1
    crops, lexicon, lang = reader.calls[0]
    assert len(crops) == 3 and all(c.ndim == 2 and c.shape[0] <= 48 and c.shape[1] <= 320 for c in crops)
    assert lang == "en" and "last" in lexicon and "rest" in lexicon and "zebra" not in lexicon
    view = t.view("Ann")
    ann = me(view, "Ann")
    assert ann["words"] == ["rest", "past", "last"] and ann["revision"] == 2
    assert ann["doubtful"] == {"past": [["past", 0.8], ["pest", 0.15]], "last": [["last", 0.9], ["lats", 0.05]]}
    assert ann["images"] == {"rest": images["rest"], "past": images["pest"], "last": images["lats"]}
    assert ann["sheet_words"]["past"]["was"] == "pest" and ann["sheet_words"]["rest"]["was"] is None
    assert view["last_change"]["what"] == "reread" and view["last_change"]["player_ids"] == [t.players["Ann"][0]]
    # still doubtful: Ann confirms as before; the change is no longer shown
    assert settle(t, "Ann", "Ann", "past", "past").status_code == 200
    assert me(t.view("Ann"), "Ann")["sheet_words"]["past"] == {"free": "pest", "was": None, "by": "Ann"}
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
    # the whole reading: the reader's doubt and the open reading (as written) with it
    full = read_word_readings([webp("bar")], ["baer"], "de", reader=lambda images, lexicon, lang="en": [
        SimpleNamespace(alternatives=[("bar", 0.5)], flagged=True, free="bxr") for _ in images])
    assert full == [{"alternatives": [("baer", 0.5)], "flagged": True, "free": "bxr"}]


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
        full = anyio.run(pool.run, read_word_readings, [images[w] for w in asked], lexicon, "en")
    finally:
        pool.close()
    assert all(r is not None and isinstance(r["flagged"], bool) and isinstance(r["free"], str) for r in full)
    got = [r["alternatives"] for r in full if r is not None]
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
