"""Word lists and dictionaries are read with bounded memory and never block.

Each case runs the program as a user does and measures its peak memory
(measure.run_peak): /dev/zero is refused instead of filling memory, and a FIFO is read
with a bounded wait (a test that blocks times out).
"""
from __future__ import annotations

import json
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boggle_cv.game.dictionary import MAX_LIST_GRAPH_LETTERS, graph_letters, load_word_list
from boggle_cv.errors import WordListError
from boggle_cv.files.textfiles import DICTIONARY, WORD_LIST
from boggle_cv.game.wordlists import MAX_ROUND_ENTRIES, read_word_list

from .conftest import BOARD, REPO, one_error_line
from .measure import run_peak

SHARED_WORDS = Path(__file__).resolve().parents[2].parent / "shared" / "words"
# Python, the CLI and the default dictionary take about 65 MiB; a refused list must
# not add much to that.
SMALL_MB = 150


@pytest.mark.parametrize("option", ["--player", "--dict"])
def test_dev_zero_as_a_file_is_refused_at_once(option, tmp_path):
    ok = tmp_path / "ok.txt"
    ok.write_text("rats\n")
    args = ["-p", "a=/dev/zero"] if option == "--player" else ["-p", f"a={ok}", "--dict", "/dev/zero"]
    proc, peak = run_peak("score", BOARD, *args, timeout=60)
    one_error_line(proc, 2, "/dev/zero", "not a regular file")
    assert peak < SMALL_MB, peak


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_endless_stdin_is_refused(device):
    with open(device, "rb") as f:
        proc, peak = run_peak("score", BOARD, "-p", "a=-", stdin=f, timeout=60)
    one_error_line(proc, 2, "stdin")
    assert peak < SMALL_MB, peak


def test_endless_text_on_stdin_stops_at_the_limit(tmp_path):
    big = tmp_path / "big.txt"
    big.write_bytes(b"replastering\n" * (3 * WORD_LIST.max_bytes // 13))
    with open(big, "rb") as f:
        proc, peak = run_peak("score", BOARD, "-p", "a=-", stdin=f, timeout=60)
    one_error_line(proc, 2, "stdin", "larger than 1 MiB")
    assert peak < SMALL_MB, peak


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("option", ["--player", "--dict"])
def test_fifo_without_a_writer_ends_after_the_wait(option, tmp_path):
    """A FIFO is read with a bounded wait, neither refused nor waited on for ever. No
    writer: one line, exit 2, after the wait."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    ok = tmp_path / "ok.txt"
    ok.write_text("rats\n")
    args = ["-p", f"a={fifo}"] if option == "--player" else ["-p", f"a={ok}", "--dict", fifo]
    t0 = time.monotonic()
    proc, _ = run_peak("score", BOARD, *args, timeout=60, env={"BOGGLE_CV_PIPE_WAIT_S": "1"})
    one_error_line(proc, 2, str(fifo), "a pipe that nothing was written to within 1 s", "BOGGLE_CV_PIPE_WAIT_S")
    assert time.monotonic() - t0 < 30


@pytest.mark.skipif(shutil.which("bash") is None or not Path("/dev/fd").is_dir(), reason="needs bash and /dev/fd")
def test_process_substitution_lists_and_dictionary(tmp_path):
    """`score B --player ann=<(grep . list.txt)` as a shell user types it: the process
    substitution is read like a file."""
    lst = tmp_path / "list.txt"
    lst.write_text("pert\n\nlast\n")
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("BOGGLE_CV_DEBUG", None)
    script = (f"{shlex.quote(sys.executable)} -m boggle_cv score {BOARD} --json "
              f"--player ann=<(grep . {shlex.quote(str(lst))}) --player bob=<(printf 'rest\\nlast\\n') "
              "--dict <(printf 'pert\\nlast\\nrest\\n')")
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["word_count"] == 3  # the --dict list came through its pipe
    scores = {p["name"]: (p["score"], [w["status"] for w in p["words"]]) for p in doc["players"]}
    assert scores == {"ann": (1, ["scored", "crossed_off"]), "bob": (1, ["scored", "crossed_off"])}


@pytest.mark.skipif(shutil.which("bash") is None or not Path("/dev/fd").is_dir(), reason="needs bash and /dev/fd")
def test_process_substitution_that_never_ends_is_one_line(tmp_path):
    """A writer that writes and then never finishes: one error line, exit 2, after the
    wait (2 s; whether its line came in time depends on the machine's load, so the
    test accepts either message)."""
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "BOGGLE_CV_PIPE_WAIT_S": "2"}
    env.pop("BOGGLE_CV_DEBUG", None)
    script = (f"{shlex.quote(sys.executable)} -m boggle_cv score {BOARD} "
              "--player ann=<(printf 'pert\\n'; exec sleep 60 2>/dev/null)")
    t0 = time.monotonic()
    bash = subprocess.Popen(["bash", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)
    try:
        out, err = bash.communicate(timeout=60)
    finally:
        try:
            os.killpg(bash.pid, signal.SIGKILL)  # the writer still sleeping
        except ProcessLookupError:
            pass
    assert time.monotonic() - t0 < 40  # ended after the 2 s wait, not the writer's 60 s
    line = one_error_line(subprocess.CompletedProcess(bash.args, bash.returncode, out, err), 2, "/dev/fd/",
                          "is a pipe", "within 2 s")
    assert "writer did not finish within 2 s (5 bytes came)" in line or "nothing was written" in line, line


def test_a_list_over_the_limit_names_the_limit(tmp_path):
    at = tmp_path / "at.txt"
    line = b"replastering\n"
    at.write_bytes(line * (WORD_LIST.max_bytes // len(line)))
    over = tmp_path / "over.txt"
    over.write_bytes(at.read_bytes() + line)
    assert at.stat().st_size <= WORD_LIST.max_bytes < over.stat().st_size
    proc, peak = run_peak("score", BOARD, "-p", f"a={at}", "--json", timeout=120)
    assert proc.returncode == 0, proc.stderr[-500:]
    proc, peak = run_peak("score", BOARD, "-p", f"a={over}", timeout=60)
    one_error_line(proc, 2, "larger than 1 MiB", "limit")
    assert peak < SMALL_MB, peak


def test_long_lines_cost_only_their_bytes(tmp_path):
    """Lines of 10,000 characters (100 of them, just under 1 MiB): read, cut to 72."""
    p = tmp_path / "long.txt"
    rng = random.Random(3)
    p.write_text("\n".join("".join(rng.choice("abcdefgh") for _ in range(10_000)) for _ in range(100)) + "\nrats\n")
    proc, peak = run_peak("score", BOARD, "-p", f"a={p}", "--json", timeout=60)
    assert proc.returncode == 0 and "cut" in proc.stderr, proc.stderr[-500:]
    assert peak < SMALL_MB, peak


def test_ten_players_with_big_lists_are_bounded(tmp_path):
    """Ten lists near 1 MiB each: the round's entries pass MAX_ROUND_ENTRIES and the
    reading stops there (before: 1M-line lists took 1.2 GB)."""
    p = tmp_path / "many.txt"
    p.write_bytes(b"tsar\n" * (WORD_LIST.max_bytes // 5))
    players = [a for i in range(10) for a in ("-p", f"p{i}={p}")]
    proc, peak = run_peak("score", BOARD, *players, timeout=120)
    one_error_line(proc, 2, f"{MAX_ROUND_ENTRIES:,} entries")
    assert peak < 300, peak


def test_round_budget_is_shared_between_players(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("rats\n" * (MAX_ROUND_ENTRIES // 2))
    from boggle_cv.game.wordlists import read_lists
    assert len(read_lists([("a", str(a)), ("b", str(a))])["b"]) == MAX_ROUND_ENTRIES // 2
    with pytest.raises(WordListError, match="200,000 entries"):
        read_lists([("a", str(a)), ("b", str(a)), ("c", str(a))])


def test_dictionary_over_its_byte_limit(tmp_path):
    p = tmp_path / "d.txt"
    p.write_bytes(b"cat\n" * (DICTIONARY.max_bytes // 4 + 1))
    with pytest.raises(WordListError, match="larger than 8 MiB"):
        load_word_list(p)
    proc, peak = run_peak("solve", BOARD, "--dict", p, timeout=60)
    one_error_line(proc, 2, "larger than 8 MiB")
    assert peak < SMALL_MB, peak


def test_dictionary_whose_graph_is_too_large(tmp_path):
    """Random 30-letter words share almost no beginnings: 1 MB of them would need about
    a million letters in the graph (before: 465 MB while building); refused, bounded."""
    rng = random.Random(0)
    words = ["".join(rng.choice("abcdefghijklmnoprstvwxyz") for _ in range(30))
             for _ in range(MAX_LIST_GRAPH_LETTERS // 25)]
    p = tmp_path / "d.txt"
    p.write_text("\n".join(words))
    assert graph_letters(sorted(set(words))) > MAX_LIST_GRAPH_LETTERS
    proc, peak = run_peak("solve", BOARD, "--dict", p, timeout=120)
    one_error_line(proc, 2, "too large", f"{MAX_LIST_GRAPH_LETTERS:,}")
    assert peak < SMALL_MB, peak


def test_graph_letters_counts_shared_beginnings_once():
    assert graph_letters(["cat", "cats", "dog"]) == 7
    assert graph_letters([]) == 0
    assert graph_letters(["a", "ab", "abc", "b"]) == 4


@pytest.mark.skipif(not (SHARED_WORDS / "yawl.txt").is_file(), reason="../shared/words absent")
@pytest.mark.parametrize("name", ["enable2k.txt", "yawl.txt"])
def test_real_dictionaries_fit_the_limits(name):
    p = SHARED_WORDS / name
    assert p.stat().st_size < DICTIONARY.max_bytes / 2
    d = load_word_list(p)
    assert len(d) > 150_000


def test_dash_is_a_file_name_for_dict_not_stdin(tmp_path):
    """--dict - is not read from stdin (only lists are): it names a file '-'."""
    with pytest.raises(WordListError, match="does not exist"):
        load_word_list(Path("/nonexistent-dir") / "-")
    cwd = Path.cwd()
    try:
        os.chdir(tmp_path)
        with pytest.raises(WordListError, match="dictionary - does not exist"):
            load_word_list("-")
    finally:
        os.chdir(cwd)


def test_read_word_list_not_a_regular_file_in_process():
    with pytest.raises(WordListError, match="character device"):
        read_word_list("/dev/null")
