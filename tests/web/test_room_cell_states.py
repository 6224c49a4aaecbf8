"""What the room's view says of a board cell, so that a phone shows each state as it
is (room/view.py): a doubtful cell confirmed with the face read is `confirmed` (✓), a
cell given another face is corrected (✎); the faces offered for a cell are the ones
the referee weighs (a runner-up at 0.1% is none); a cell is in doubt while the
referee has a question open about it (`round.questions`, once the lists are locked),
not because the reader flagged it; the questions are worked out once per change.

The photo is the shipped sample, read by the real tray finder and cutter with a
recorded reading: cell r2c2 read O (true C) at 55%, cell r4c4 read C (runner-up E)
at 60%; the other cells at 97%, their runner-ups far under the referee's threshold.
"""
from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("segno")
from starlette.testclient import TestClient  # noqa: E402

from boggle_cv.game.questions import MIN_P  # noqa: E402
from boggle_cv.web import ServeConfig, create_app  # noqa: E402

from .conftest import SAMPLE, RecordedReader, sample_truth  # noqa: E402
from .test_rooms_api import Table  # noqa: E402

# r2c2 (index 5) read O at 55%, truly C: "echo" needs the C, so its answer changes Ann's score;
# r4c4 (index 15) read C at 60%, runner-up E: no word of the lists goes through it
DOUBTS = {5: ("O", "C", 0.55), 15: ("C", "E", 0.6)}


@pytest.fixture()
def client(games_db, dictionary, photo_ready):
    """The room's app on each backend of the games database (SQLite, PostgreSQL)."""
    from boggle_cv.vision.pipeline import Scanner
    faces = [f for row in sample_truth()["faces"] for f in row]
    faces[5] = "O"
    reader = RecordedReader(faces, DOUBTS)
    app = create_app(ServeConfig(db_path=games_db), lambda: Scanner(reader=reader), dictionary)
    with TestClient(app) as c:
        yield c


def _photographed(client: TestClient, words: dict[str, list[str]]) -> Table:
    """A round played with these lists, locked, its board the sample photo."""
    t = Table(client, list(words), seconds=None)
    assert t.as_host("POST", "/rounds").status_code == 201
    for name, ws in words.items():
        assert t.words(name, ws).status_code == 200
    res = t.as_player(next(iter(words)), "POST", "/rounds/current/photo", content=SAMPLE.read_bytes(),
                      headers={"content-type": "image/jpeg"})
    assert res.status_code == 200, res.text
    board = res.json()["room"]["round"]["board"]
    assert board["faces"][1][1] == "O" and board["faces"][3][3] == "C", board["faces"]
    return t


def test_a_doubtful_cell_said_to_be_right_is_confirmed_not_corrected(client):
    t = _photographed(client, {"Ann": ["echo"], "Bob": ["hex"]})
    t.as_host("POST", "/rounds/current/lock")
    board = t.as_player("Bob", "PUT", "/rounds/current/board", json={"fix": {"r2c2": "O", "r1c1": "A"}}).json()
    corrections = board["room"]["round"]["board"]["corrections"]
    assert corrections["r2c2"]["face"] == "O" and corrections["r2c2"]["confirmed"] is True   # ✓ by Bob
    assert corrections["r1c1"]["face"] == "A" and corrections["r1c1"]["confirmed"] is False  # ✎ by Bob
    assert corrections["r2c2"]["by"] == "Bob"


def test_the_faces_offered_are_the_ones_the_referee_weighs(client):
    t = _photographed(client, {"Ann": ["echo"]})
    read = t.view("Ann")["round"]["board"]["read"]
    options = read["options"]
    # the doubtful cell: its reading and a runner-up worth weighing
    assert [f for f, _ in options["1,1"]] == ["O", "C"] and options["1,1"][1][1] >= MIN_P
    # a sure cell: its runner-up (well under 1%) is no choice
    sure = next(c for c in read["cells"] if not c["flagged"])
    assert sure["runner_up_confidence"] < 0.01
    assert [f for f, _ in options[f"{sure['row']},{sure['col']}"]] == [sure["face"]]


def test_a_cell_is_in_doubt_while_the_referee_has_a_question_about_it(client, monkeypatch):
    t = _photographed(client, {"Ann": ["echo"], "Bob": ["hex"]})
    playing = t.view("Bob")["round"]
    assert playing["questions"] is None  # the lists are still open: nothing to ask yet
    assert sorted(map(tuple, playing["board"]["doubtful"])) == [(1, 1), (3, 3)]  # what the reader flagged
    t.as_host("POST", "/rounds/current/lock")
    asked = t.view("Bob")["round"]["questions"]
    # r2c2 decides Ann's "echo"; r4c4 changes no score: flagged, but nobody is asked about it
    assert [(q["kind"], q["cell"]) for q in asked] == [("cell", [1, 1])]
    assert [f for f, _ in asked[0]["options"]] == ["O", "C"]
    # the table screen reads the same
    screen = t.view()["you"]["screen_key"]
    seen = client.get(t.url(""), headers={"Authorization": f"Bearer {screen}"}).json()["room"]["round"]["questions"]
    assert seen == asked
    # confirmed as read: no question left, though r4c4 is still flagged
    t.as_player("Bob", "PUT", "/rounds/current/board", json={"fix": {"r2c2": "C"}})
    after = t.view("Ann")["round"]
    assert after["questions"] == [] and after["board"]["doubtful"] == [[3, 3]]
    assert t.as_host("POST", "/rounds/current/score").status_code == 200
    assert t.view("Ann")["round"]["questions"] is None  # scored: no question is open any more


def test_the_questions_are_worked_out_once_per_change(client, monkeypatch):
    from boggle_cv.room.service import RoomService
    t = _photographed(client, {"Ann": ["echo"]})
    t.as_host("POST", "/rounds/current/lock")
    calls = []
    real = RoomService._referee

    def counted(self, room):
        calls.append(room.version)
        return real(self, room)

    monkeypatch.setattr(RoomService, "_referee", counted)
    changed = t.as_player("Ann", "PUT", "/rounds/current/board", json={"fix": {"r1c1": "A"}}).json()["room"]
    seen = [t.view(name)["round"]["questions"] for name in ("Ann", "Ann")] + [t.view()["round"]["questions"]]
    assert seen[0] == seen[1] == seen[2] == changed["round"]["questions"] and seen[0]
    assert calls == [changed["version"]]  # four views of this version (the change's answer too), one referee


def test_a_typed_board_has_no_cell_questions_and_no_confirmations(client):
    t = Table(client, ["Ann"], seconds=None)
    t.as_host("POST", "/rounds")
    t.words("Ann", ["rest"])
    t.as_host("POST", "/rounds/current/lock")
    t.as_player("Ann", "PUT", "/rounds/current/board", json={"board": "PERS/LATG/SINE/TERS"})
    r = t.view("Ann")["round"]
    assert r["questions"] == [] and "read" not in r["board"]
    fixed = t.as_player("Ann", "PUT", "/rounds/current/board", json={"fix": {"r1c1": "W"}}).json()["room"]["round"]
    assert fixed["board"]["corrections"]["r1c1"]["confirmed"] is False
