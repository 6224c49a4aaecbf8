"""`solve` and `score` end to end: `python -m boggle_cv` in a subprocess for true exit
codes and stderr; the JSON schema of ARCHITECTURE.md."""
import json
import subprocess
import sys

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def run(*args, stdin: bytes | None = None):
    p = subprocess.run([sys.executable, "-m", "boggle_cv", *args], input=stdin,
                       capture_output=True, cwd=REPO, timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def test_solve_text():
    rc, out, err = run("solve", "PERS/LATG/SINE/TERS")
    assert rc == 0 and err == ""
    assert "11 pts" in out and "words," in out and "points at most" in out


def test_solve_json_schema():
    rc, out, _ = run("solve", "pers/latg/sine/ters", "--json")
    assert rc == 0
    doc = json.loads(out)
    assert doc["schema_version"] == 1
    assert doc["word_count"] == len(doc["words"]) > 1000
    assert doc["max_points"] == sum(w["points"] for w in doc["words"])
    w = doc["words"][0]
    assert {"word", "points", "path"} <= set(w) and all(len(c) == 2 for c in w["path"])
    assert doc["board"]["faces"][0] == ["P", "E", "R", "S"]


def test_solve_with_dict_and_min_length(tmp_path):
    d = tmp_path / "d.txt"
    d.write_bytes(b"\xef\xbb\xbfPERT\r\nlast\r\nit's\r\n12\r\nsine\r\n")
    rc, out, err = run("solve", "PERS/LATG/SINE/TERS", "--dict", str(d), "--min-length", "4", "--json")
    assert rc == 0
    assert sorted(w["word"] for w in json.loads(out)["words"]) == ["last", "pert", "sine"]
    assert "2 line(s)" in err and len(err.strip().splitlines()) == 1


def test_score_json_and_stdin(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("pert\nlast\nlast\nxyzzy\n")
    rc, out, err = run("score", "PERS/LATG/SINE/TERS", "--player", f"ann={a}", "--player", "bob=-",
                       "--json", stdin=b"last\nsine\n")
    assert rc == 0, err
    doc = json.loads(out)
    ann, bob = doc["players"]
    assert ann["name"] == "ann" and bob["name"] == "bob"
    st = {}
    for w in ann["words"]:
        st.setdefault(w["word"], w["status"])
    assert st["last"] == "crossed_off" and st["xyzzy"] == "not_on_board"  # no X on the board: said first
    assert [w["status"] for w in ann["words"]].count("repeated") == 1
    assert doc["winners"] == ["ann", "bob"] and ann["score"] == bob["score"] == 1
    assert all({"word", "points", "path", "common"} <= set(m) for m in doc["missed"])


def test_score_nobody_scored_has_no_winner(tmp_path):
    """Everyone at 0 is "Nobody scored this round", as the page says, not a tie of
    three winners."""
    lists = []
    for name, words in (("ann", "xyzzy\n"), ("bob", "sine\n"), ("cy", "sine\n")):
        f = tmp_path / f"{name}.txt"
        f.write_text(words)
        lists += ["--player", f"{name}={f}"]
    rc, out, err = run("score", "PERS/LATG/SINE/TERS", *lists)
    assert rc == 0, err
    assert "Nobody scored this round (ann 0, bob 0, cy 0)" in out
    assert "Tie:" not in out and "Winner:" not in out
    rc, out, err = run("score", "PERS/LATG/SINE/TERS", *lists, "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["winners"] == [] and [p["score"] for p in doc["players"]] == [0, 0, 0]


def test_score_text_variant_and_bonus(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("pert\n")
    rc, out, _ = run("score", "PERS/LATG/SINE/TERS", "-p", f"ann={a}", "--bonus", "r1c1")
    assert rc == 0 and "Winner: ann" in out
    rc, out, _ = run("score", "PERS/LATG/SINE/TERS", "-p", f"ann={a}", "--variant", "challenge",
                     "--challenge-cell", "r1c1", "--json")
    assert rc == 0 and json.loads(out)["players"][0]["score"] == 2 + 5


@pytest.mark.parametrize("args, fragment", [
    (["solve", "PERS/LATG/SINE"], "row"),
    (["solve", "PE1S/LATG/SINE/TERS"], "row 1"),
    (["solve", "PERS/LATG/SINE/TERS", "--min-length", "0"], "--min-length"),
    (["solve", "PERS/LATG/SINE/TERS", "--dict", "/nonexistent/words.txt"], "does not exist"),
    (["score", "PERS/LATG/SINE/TERS", "--player", "ann"], "NAME=FILE"),
    (["score", "PERS/LATG/SINE/TERS", "--player", "ann=/nonexistent.txt"], "does not exist"),
    (["score", "PERS/LATG/SINE/TERS", "--player", "ann=/"], "directory"),
    (["score", "PERS/LATG/SINE/TERS", "-p", "a=-", "--variant", "speed"], "variant"),
    (["score", "PERS/LATG/SINE/TERS", "-p", "a=-", "--bonus", "x9"], "--bonus"),
    (["score", "PERS/LATG/SINE/TERS", "-p", "a=-", "--bonus", "r5c1"], "outside"),
    (["score", "PERS/LATG/SINE/TERS", "-p", "a=-", "--variant", "challenge"], "--challenge-cell"),
])
def test_bad_input_one_line_exit_2(args, fragment):
    rc, out, err = run(*args, stdin=b"cat\n")
    assert rc == 2
    assert fragment in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert out == ""


def test_binary_and_empty_lists(tmp_path):
    b = tmp_path / "b.bin"
    b.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    e = tmp_path / "e.txt"
    e.write_text("")
    for f, fragment in ((b, "binary"), (e, "no words")):
        rc, out, err = run("score", "PERS/LATG/SINE/TERS", "-p", f"ann={f}")
        assert rc == 2 and fragment in err and len(err.strip().splitlines()) == 1


def test_bad_option_is_usage_exit_2():
    rc, _, err = run("solve", "PERS/LATG/SINE/TERS", "--no-such-option")
    assert rc == 2 and "Traceback" not in err
