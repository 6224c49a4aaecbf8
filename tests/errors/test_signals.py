"""Ctrl-C at any moment once boggle-cv's code runs: one line, exit 130.

That includes the moments between importing boggle_cv.entry and calling main() (the
console script's wrapper runs a line there) and inside the package's __init__, whose
first statements set the guard. The start-up tests are deterministic: a trace
function sends the SIGINT at chosen lines (random moments would make the result
depend on the machine's load).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from child_sigint import RESTORED

from .conftest import BOARD

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="POSIX signals")

_WRAPPER_WINDOW = (
    "import os, signal, time\n"
    "from boggle_cv.entry import main\n"
    "os.kill(os.getpid(), signal.SIGINT)\n"  # as if Ctrl-C came while the wrapper was still busy
    "time.sleep(1)\n"
    "main()\n"
)


def test_ctrl_c_between_import_and_main_is_one_line():
    p = subprocess.run([sys.executable, "-c", _WRAPPER_WINDOW, "solve", BOARD], capture_output=True, text=True,
                       timeout=60, **RESTORED)
    assert p.returncode == 130, p.stderr
    assert p.stderr == "boggle-cv: interrupted\n" and p.stdout == ""


def test_guard_hands_over_to_python_handler_in_main():
    """Once main() runs, KeyboardInterrupt unwinds normally (finally blocks run)."""
    code = ("import signal\nimport boggle_cv.entry as e\n"
            "assert signal.getsignal(signal.SIGINT) is e._interrupted_while_starting\n"
            "import boggle_cv.cli as c\nc.main = lambda: print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n"
            "e.main()\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, **RESTORED)
    assert p.returncode == 0 and p.stdout.strip() == "True", p.stderr


# A sitecustomize for the child: a trace function that, at one chosen line of
# start-up, sends the process a real SIGINT (os.kill runs the handler at once), as a
# Ctrl-C landing just there would; or that records every line start-up runs.
_SITECUSTOMIZE = r"""
import json, os, signal, sys
_mode, _arg = os.environ.pop("BOGGLE_CV_TEST_SIGINT", "record:").split(":", 1)
_pkg = os.environ.pop("BOGGLE_CV_TEST_PKG") + os.sep
_seen, _lines = set(), []

def _guarded():
    return signal.getsignal(signal.SIGINT) is not signal.default_int_handler

def _record(frame, event, arg):
    if event == "line":
        code = frame.f_code
        if code.co_filename.endswith(os.sep + "cli" + os.sep + "solve.py") and code.co_name != "<module>":
            sys.settrace(None)  # the command itself runs: start-up is over
            frame.f_trace = None
            with open(_arg, "w") as f:
                json.dump(_lines, f)
            return None
        key = (code.co_filename, frame.f_lineno)
        if key not in _seen:
            _seen.add(key)
            _lines.append([code.co_filename[len(_pkg):], frame.f_lineno, code.co_name, _guarded()])
    return _record

def _record_calls(frame, event, arg):
    name = frame.f_code.co_filename
    if name.startswith(_pkg):
        return _record
    if event == "call" and frame.f_code.co_name == "<module>" and name not in _seen:
        _seen.add(name)  # another library's module starts: its first line
        _lines.append(["lib:" + name, frame.f_code.co_firstlineno, "<module>", _guarded()])
    return None

_file, _, _line = _arg.rpartition(":")
_lib = _file.startswith("lib:")
_file = _file[4:] if _lib else _file

def _fire(frame, event, arg):
    if event == "line" and frame.f_lineno == int(_line):
        sys.settrace(None)
        frame.f_trace = None
        os.kill(os.getpid(), signal.SIGINT)
    return _fire

def _fire_calls(frame, event, arg):
    name = frame.f_code.co_filename
    if (name == _file) if _lib else (name == _pkg + _file):
        if _lib:  # another library's module: fire at its first line
            sys.settrace(None)
            os.kill(os.getpid(), signal.SIGINT)
            return None
        return _fire
    return None

sys.settrace(_record_calls if _mode == "record" else _fire_calls)
"""


def _run_traced(tmp_path, mode: str, arg: str) -> subprocess.CompletedProcess:
    import boggle_cv
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(_SITECUSTOMIZE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(Path(boggle_cv.__file__).parents[1]),
                                                         os.environ.get("PYTHONPATH", "")]),
           "BOGGLE_CV_TEST_SIGINT": f"{mode}:{arg}", "BOGGLE_CV_TEST_PKG": str(Path(boggle_cv.__file__).parent)}
    env.pop("BOGGLE_CV_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "boggle_cv", "solve", BOARD], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=120, **RESTORED)


def _start_up_lines(tmp_path) -> list[tuple[str, int, str, bool]]:
    """Every line of boggle_cv that `python -m boggle_cv solve` runs before the command
    (file under the package, line, function, guarded?), in order, and the first line of
    each other library's module it imports ("lib:" and its path)."""
    out = tmp_path / "lines.json"
    p = _run_traced(tmp_path, "record", str(out))
    assert p.returncode == 0, p.stderr
    return [tuple(x) for x in json.loads(out.read_text())]


def _guard_line() -> int:
    import boggle_cv
    lines = Path(boggle_cv.__file__).read_text().splitlines()
    return lines.index("_guard_start()") + 1 if "_guard_start()" in lines else 0


def _before_the_guard(lines: list) -> int:
    """How many of start-up's lines run before the SIGINT handler is first ours."""
    return next(i for i, ln in enumerate(lines) if ln[3])


def test_only_the_packages_first_statements_run_before_the_ctrl_c_guard(tmp_path):
    """A SIGINT inside `import boggle_cv`'s __init__ is guarded too: the package's
    first statements set the guard, so before it only those lines of ours run (after
    it, our handler or main()'s own try blocks take a Ctrl-C: the next test)."""
    lines = _start_up_lines(tmp_path)
    before = [ln for ln in lines[:_before_the_guard(lines)] if not ln[0].startswith("lib:")]
    assert before and all(ln[0] == "__init__.py" for ln in before), before
    assert len(before) <= 20, before
    assert max(ln[1] for ln in before if ln[2] == "<module>") <= _guard_line(), before


def test_ctrl_c_at_each_moment_of_start_up_is_one_line(tmp_path):
    """A real SIGINT at chosen lines of start-up, deterministic (a trace function sends
    it there; before, 30 SIGINTs at random moments made this test pass or fail by the
    machine's load): every line of __init__ after the guard, __main__, entry and the
    two main()s, the first line of each of our modules and of typer, click and NumPy:
    each ends with exactly `boggle-cv: interrupted` and exit 130, no traceback."""
    lines = _start_up_lines(tmp_path)
    guard = _guard_line()
    ours = [ln for ln in lines if not ln[0].startswith("lib:") and not (ln[0] == "__init__.py" and (
        ln[2] in ("_guard_start", "_started_as_command") or (ln[2] == "<module>" and ln[1] <= guard)))]
    after = lines[_before_the_guard(lines):]
    first_of_module: dict[str, tuple] = {}
    for ln in ours:
        first_of_module.setdefault(ln[0], ln)
    targets = [ln for ln in ours if ln[0] in ("__init__.py", "__main__.py", "entry.py") or ln[2] == "main"
               or ln == first_of_module[ln[0]]]
    libraries = [ln for ln in after if ln[0].startswith("lib:") and any(
        ln[0].endswith(os.sep.join(("", lib, "__init__.py"))) for lib in ("typer", "click", "numpy"))]
    assert len(libraries) >= 2, [ln[0] for ln in after if ln[0].startswith("lib:")][:50]
    assert len(targets) >= 20, targets
    failures = []
    for where in targets + libraries:
        p = _run_traced(tmp_path, "fire", f"{where[0]}:{where[1]}")
        if (p.returncode, p.stderr, p.stdout) != (130, "boggle-cv: interrupted\n", ""):
            failures.append((where, p.returncode, p.stderr[-1500:]))
    assert not failures, failures


@pytest.mark.parametrize("argv, orig, started", [
    (["-m", "solve"], ["python", "-m", "boggle_cv", "solve"], True),
    (["-m"], ["python", "-X", "importtime", "-mboggle_cv"], True),
    (["/venv/bin/boggle-cv", "solve"], ["/venv/bin/python", "/venv/bin/boggle-cv", "solve"], True),
    (["-m", "x"], ["python", "-m", "mytool", "x"], False),  # another package's -m imports boggle_cv
    (["-c"], ["python", "-c", "import boggle_cv"], False),  # a library user
    (["app.py"], ["python", "app.py"], False),
    # a worker spawned by multiprocessing: its argv is its parent's, its orig_argv not
    (["/venv/bin/boggle-cv", "serve"], ["python", "-c", "from multiprocessing.spawn import spawn_main",
                                        "--multiprocessing-fork"], False),
    ([], [], False),
])
def test_the_package_guards_only_the_command_start(monkeypatch, argv, orig, started):
    import boggle_cv
    monkeypatch.setattr(sys, "argv", argv)
    monkeypatch.setattr(sys, "orig_argv", orig, raising=False)
    assert boggle_cv._started_as_command() is started


def test_importing_the_library_leaves_sigint_alone():
    code = "import signal, boggle_cv.game.scoring\nprint(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, **RESTORED)
    assert p.returncode == 0 and p.stdout.strip() == "True", p.stderr


def test_ctrl_c_after_the_debug_images_leaves_none_of_them(tmp_path):
    """`scan --debug-dir D --annotate A --sheet ...`: a Ctrl-C once the tray's stage
    images are written (the sheet still being read) removes them, and D which the run
    made: exit 130, one line, no output file."""
    import time
    samples = Path(__file__).resolve().parents[2] / "samples"
    debug, drawn = tmp_path / "debug", tmp_path / "board.png"
    (tmp_path / "keep").mkdir()
    env = {k: v for k, v in os.environ.items() if k != "BOGGLE_CV_DEBUG"}
    proc = subprocess.Popen([sys.executable, "-m", "boggle_cv", "scan", str(samples / "sample-4x4-a.jpg"),
                             "--sheet", f"ann={samples / 'sheets' / 'sheet-4x4-a.jpg'}", "--debug-dir", str(debug),
                             "--annotate", str(drawn)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path, **RESTORED)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (debug / "sample-4x4-a_7_cells.png").exists():
        time.sleep(0.01)  # the last of the tray's stage images: all of them written
    time.sleep(0.2)
    assert len(list(debug.glob("*.png"))) == 8 and proc.poll() is None  # the sheet is still being read
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err == "boggle-cv: interrupted\n" and out == ""
    assert not debug.exists() and not drawn.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep"]


def test_ctrl_c_keeps_the_debug_images_of_earlier_runs(tmp_path):
    """Images already in --debug-dir before the run (another photo's, and this photo's
    unchanged) stay; only what the interrupted run wrote goes."""
    from boggle_cv.files.outputs import undone_on_interrupt
    debug = tmp_path / "debug"
    debug.mkdir()
    (debug / "other_1_tray.png").write_bytes(b"x")
    (debug / "tray_0_old.png").write_bytes(b"y")
    with pytest.raises(KeyboardInterrupt):
        with undone_on_interrupt(debug, ["tray"], [tmp_path / "out.png"]):
            (debug / "tray_1_new.png").write_bytes(b"z")
            (tmp_path / "out.png").write_bytes(b"w")
            raise KeyboardInterrupt
    assert sorted(p.name for p in debug.iterdir()) == ["other_1_tray.png", "tray_0_old.png"]
    assert not (tmp_path / "out.png").exists()


def test_the_interrupted_line_clears_the_terminal_s_echo_of_the_key():
    """On a terminal the key is echoed as "^C" where the cursor stood: the line starts
    at the first column and clears the rest, so the screen shows the line alone; a
    pipe or a file gets the plain line."""
    import io

    import pyte

    from boggle_cv import _interrupted_line

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert _interrupted_line(io.StringIO()) == "boggle-cv: interrupted\n"
    screen = pyte.Screen(40, 3)
    pyte.Stream(screen).feed("  1 pt  (51): CHE CHON\r\n^C" + _interrupted_line(Terminal()).replace("\n", "\r\n"))
    assert [line.rstrip() for line in screen.display] == ["  1 pt  (51): CHE CHON", "boggle-cv: interrupted", ""]
    screen = pyte.Screen(40, 3)
    pyte.Stream(screen).feed("reading 3 of 8 [#####     ]^C" + _interrupted_line(Terminal()).replace("\n", "\r\n"))
    assert [line.rstrip() for line in screen.display][0] == "boggle-cv: interrupted"
