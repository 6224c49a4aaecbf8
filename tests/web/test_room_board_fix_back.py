"""A cell put back to its first reading is no longer corrected. (A doubtful cell of a
photo confirmed with the face read stays confirmed: tests/web/test_e2e_page.py.)"""
from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("segno")

from .test_rooms_api import Table, client  # noqa: E402,F401

BOARD = "PERS/LATG/SINE/TERS"


def test_a_cell_put_back_to_its_first_reading_is_no_longer_corrected(client):  # noqa: F811
    t = Table(client, ["Ann"], seconds=None)
    assert t.as_host("POST", "/rounds").status_code == 201
    t.as_host("POST", "/rounds/current/lock")
    t.as_player("Ann", "PUT", "/rounds/current/board", json={"board": BOARD})
    board = t.as_player("Ann", "PUT", "/rounds/current/board", json={"fix": {"r1c1": "W", "r2c2": "E"}}).json()
    assert set(board["room"]["round"]["board"]["corrections"]) == {"r1c1", "r2c2"}
    back = t.as_player("Ann", "PUT", "/rounds/current/board", json={"fix": {"r1c1": "P"}}).json()["room"]["round"]["board"]
    assert set(back["corrections"]) == {"r2c2"} and back["faces"][0][0] == "P"
    back = t.as_host("PUT", "/rounds/current/board", json={"fix": {"r2c2": "A"}}).json()["room"]["round"]["board"]
    assert back["corrections"] == {} and back["text"] == BOARD

