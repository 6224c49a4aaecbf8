"""What the commands write with --json / --jsonl, checked against docs/json.schema.json
(validated with jsonschema, as a script reading the documents would), and
docs/json.md checked against that schema: every key the page shows is in the schema,
every key of the schema is on the page."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
SAMPLE = SAMPLES / "sample-4x4-a.jpg"
SCHEMA = json.loads((REPO / "docs" / "json.schema.json").read_text())
SHEET = SAMPLES / "sheets" / "sheet-4x4-a.jpg"
#: Keys the page shows as examples of free-form maps: a stage of timings_ms, a
#: player's name in sheets.
MAP_EXAMPLES = {"load", "read", "ann"}


def run(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boggle_cv", *map(str, args)], capture_output=True, text=True,
                          input="", env=dict(os.environ), timeout=180)


def players(name: str) -> list[str]:
    stem = name.rsplit(".", 1)[0]
    return [f"--player={p.name.split('.')[-2]}={p}" for p in sorted(SAMPLES.glob(f"{stem}.*.txt"))]


def check(doc: object, kind: str) -> None:
    """Validate `doc` against the schema's definition `kind`."""
    schema = {**SCHEMA, "$ref": f"#/$defs/{kind}"}
    jsonschema.Draft202012Validator(schema).validate(doc)


def test_the_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_solve_and_score(tmp_path):
    out = run("solve", "PERS/LATG/SINE/TERS", "--json")
    assert out.returncode == 0, out.stderr
    check(json.loads(out.stdout), "solve")
    (tmp_path / "ann.txt").write_text("Pert\nlast\nzzz\nta\npert\n")
    (tmp_path / "bob.txt").write_text("last\n")
    out = run("score", "PERS/LATG/SINE/TERS", "--json", "-p", f"ann={tmp_path / 'ann.txt'}",
              "-p", f"bob={tmp_path / 'bob.txt'}")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    check(doc, "score")
    assert [p["name"] for p in doc["players"]] == ["ann", "bob"]


def test_scan_with_a_sheet_and_a_game_keeps_the_players_in_the_order_given(tmp_path):
    """--sheet ann=... before --player bob=...: ann is reported first."""
    out = run("scan", SAMPLE, "--json", "--sheet", f"ann={SHEET}", "--player",
              f"bob={SAMPLES / 'sample-4x4-a.bob.txt'}", "--game", "g", "--db", tmp_path / "g.sqlite3")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    check(doc, "scan")
    assert [p["name"] for p in doc["players"]] == ["ann", "bob"] and list(doc["sheets"]) == ["ann"]


def test_scan_without_players_is_the_solve_document_with_the_reading():
    out = run("scan", SAMPLE, "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    check(doc, "scan")
    assert not {"players", "winners", "missed"} & set(doc)
    assert {k: doc[k] for k in SCHEMA["$defs"]["solve"]["required"] if k != "board"} == {
        k: v for k, v in json.loads(run("solve", doc["board"]["text"], "--json").stdout).items() if k != "board"}
    from boggle_cv.game.referee import RoundResult
    result = RoundResult.from_dict(doc)
    assert not result.sheet.players and len(result.sheet.missed) == doc["word_count"]


def test_scan_with_a_given_board_keeps_the_photo_and_no_tray():
    out = run("scan", SAMPLE, "--json", "--board", "PERS/LATG/SINE/TERS", *players(SAMPLE.name))
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    check(doc, "scan")
    assert doc["board"]["given"] is True and doc["tray"] is None


def test_several_photos_are_one_list_with_an_error_record_and_the_worst_exit_code(tmp_path):
    bad = tmp_path / "bad.jpg"
    bad.write_text("not an image")
    folder = tmp_path / "folder.jpg"
    folder.mkdir()
    out = run("scan", SAMPLE, bad, folder, SAMPLES / "sample-5x5-a.jpg", "--json")
    docs = json.loads(out.stdout)  # one document
    check(docs, "scan_several")
    assert [d.get("board", {}).get("size") for d in docs] == [4, None, None, 5]
    assert docs[1] == {"schema_version": 1, "photo": str(bad),
                       "error": {"exit_code": 4, "message": docs[1]["error"]["message"]}}
    assert str(bad) in docs[1]["error"]["message"] and docs[2]["error"]["exit_code"] == 4
    assert out.returncode == 4


def test_the_worst_exit_code_wins():
    from boggle_cv.cli.scan_documents import worst_exit_code
    assert worst_exit_code([6, 4, 5]) == 4 and worst_exit_code([5, 7, 4]) == 7 and worst_exit_code([6]) == 6


def test_jsonl_writes_a_line_a_photo(tmp_path):
    bad = tmp_path / "bad.jpg"
    bad.write_text("not an image")
    out = run("scan", SAMPLE, bad, "--jsonl")
    lines = out.stdout.splitlines()
    assert out.returncode == 4 and len(lines) == 2
    check(json.loads(lines[0]), "scan")
    check(json.loads(lines[1]), "scan_error")


def test_a_strict_refusal_among_several_keeps_its_document():
    out = run("scan", SAMPLES / "sample-4x4-b.jpg", SAMPLE, "--json", "--strict")
    docs = json.loads(out.stdout)
    check(docs, "scan_several")
    refused = [d for d in docs if "error" in d]
    assert out.returncode == (6 if refused else 0)
    assert all(d["error"]["exit_code"] == 6 and d["unresolved"] for d in refused)


def test_sheet_json_has_a_schema_version():
    out = run("sheet", SHEET, "--board", "DRML/HCNL/XEHD/YTOC", "--json")
    assert out.returncode == 0, out.stderr
    check(json.loads(out.stdout), "sheet")


def test_standings_and_the_list_of_games(tmp_path):
    db = tmp_path / "g.sqlite3"
    out = run("scan", SAMPLE, "--board", "PERS/LATG/SINE/TERS", "--game", "friday", "--db", db, *players(SAMPLE.name))
    assert out.returncode == 0, out.stderr
    st = run("standings", "friday", "--db", db, "--target", "1", "--json")
    assert st.returncode == 0, st.stderr
    check(json.loads(st.stdout), "standings")
    games = run("standings", "--list", "--db", db, "--json")
    check(json.loads(games.stdout), "games")


def _schema_keys(node: object) -> set[str]:
    """Every property name anywhere in the schema."""
    if isinstance(node, dict):
        keys = set(node.get("properties", {})) if isinstance(node.get("properties"), dict) else set()
        return keys | {k for v in node.values() for k in _schema_keys(v)}
    if isinstance(node, list):
        return {k for v in node for k in _schema_keys(v)}
    return set()


def _page_blocks() -> str:
    text = (REPO / "docs" / "json.md").read_text()
    return "\n".join(re.findall(r"```json\n(.*?)```", text, re.S))


@pytest.mark.parametrize("direction", ["page in schema", "schema on page"])
def test_json_md_and_the_schema_are_in_step(direction):
    schema_keys = _schema_keys(SCHEMA["$defs"])
    page_keys = set(re.findall(r'"([a-z_+]+)":', _page_blocks())) - MAP_EXAMPLES
    if direction == "page in schema":
        assert page_keys - schema_keys == set()
    else:
        text = (REPO / "docs" / "json.md").read_text()
        assert {k for k in schema_keys if not re.search(rf'"{re.escape(k)}"|[`.]{re.escape(k)}`', text)} == set()
