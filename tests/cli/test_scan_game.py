"""`scan --game` stores a round once: the same photo with the same lists again is
refused (exit 7, one line, nothing drawn or printed) or, with --replace, takes the
stored round's place; `standings NAME --remove N` removes a round."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
SAMPLE = SAMPLES / "sample-4x4-a.jpg"
BOB = f"bob={SAMPLES / 'sample-4x4-a.bob.txt'}"
ALICE = f"alice={SAMPLES / 'sample-4x4-a.alice.txt'}"


def run(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boggle_cv", *map(str, args)], capture_output=True, text=True,
                          input="", env=dict(os.environ), timeout=180)


def test_a_repeated_round_is_refused_then_replaced_then_removed(tmp_path):
    db = tmp_path / "g.sqlite3"
    first = run("scan", SAMPLE, "--game", "sat", "--db", db, "-p", BOB, "-p", ALICE)
    assert first.returncode == 0 and "Stored as round 1 of game 'sat'." in first.stdout
    lists_reordered = run("scan", SAMPLE, "--game", "sat", "--db", db, "-p", ALICE, "-p", BOB,
                          "--annotate", tmp_path / "again.png")
    assert lists_reordered.returncode == 7 and lists_reordered.stdout == ""
    assert lists_reordered.stderr.splitlines() == [
        "boggle-cv: error: this photo with these lists is already round 1 of game 'sat' "
        "(add --replace to replace it, or remove it: boggle-cv standings sat --remove 1)"]
    assert not (tmp_path / "again.png").exists()
    other = run("scan", SAMPLE, "--game", "sat", "--db", db, "-p", BOB)  # other lists: another round
    assert other.returncode == 0 and "Stored as round 2 of game 'sat'." in other.stdout
    replaced = run("scan", SAMPLE, "--game", "sat", "--db", db, "-p", BOB, "-p", ALICE, "--fix", "r1c1=Qu",
                   "--replace", "--json")
    assert replaced.returncode == 0, replaced.stderr
    assert json.loads(replaced.stdout)["game"] == {"name": "sat", "round": 1, "replaced": True}
    standings = json.loads(run("standings", "sat", "--db", db, "--json").stdout)
    assert standings["rounds"] == 2
    removed = run("standings", "sat", "--db", db, "--remove", "1", "--json")
    assert removed.returncode == 0 and removed.stderr == "removed round 1 of game 'sat' (1 round left)\n"
    after = json.loads(removed.stdout)
    assert after["rounds"] == 1 and [p["player"] for p in after["players"]] == ["bob"]
    again = run("scan", SAMPLE, "--game", "sat", "--db", db, "-p", BOB)
    assert again.returncode == 7 and "already round 1 of game 'sat'" in again.stderr


def test_remove_refuses_a_round_the_game_does_not_have(tmp_path):
    db = tmp_path / "g.sqlite3"
    assert run("scan", SAMPLE, "--board", "PERS/LATG/SINE/TERS", "--game", "sat", "--db", db, "-p", BOB).returncode == 0
    out = run("standings", "sat", "--db", db, "--remove", "2")
    assert out.returncode == 2 and out.stderr.splitlines() == [
        "boggle-cv: error: game 'sat' has 1 round(s): there is no round 2 (give a round from 1 to 1)"]
    out = run("standings", "--db", db, "--remove", "1")
    assert out.returncode == 2 and "--remove needs the game's name" in out.stderr


def test_replace_without_a_game_is_a_usage_error():
    out = run("scan", SAMPLE, "--replace")
    assert out.returncode == 2 and out.stderr.splitlines() == [
        "boggle-cv: error: --replace applies to --game (name the game the round replaces one of)"]
