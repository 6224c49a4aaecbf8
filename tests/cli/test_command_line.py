"""The command line as a newcomer meets it: a usage error is one line on stderr and
exit 2, with or without the click package installed (Typer 0.26 and later carry their
own copy of click, and the base install brings no other); `--version`; every
command's --help reads as whole sentences and ends with an example; and every
command function stays short (it parses, calls and prints: the work is elsewhere).
"""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer

import boggle_cv
from boggle_cv.cli import COMMAND_MODULES, app, help_text

REPO = Path(__file__).resolve().parents[2]
CLI = REPO / "boggle_cv" / "cli"
MAX_STATEMENTS = 25

# Run the console script's main with the click package made unimportable, as in an
# install that has none.
WITHOUT_CLICK = """
import importlib.abc, sys
class NoClick(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "click" or name.startswith("click."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, NoClick())
for name in [m for m in sys.modules if m == "click" or m.startswith("click.")]:
    del sys.modules[name]
sys.argv = ["boggle-cv", *sys.argv[1:]]
from boggle_cv.entry import main
main()
"""

USAGE_ERRORS = [
    (["scan", "--bogus"], "No such option"),
    (["--bogus"], "No such option"),
    (["nosuchcommand"], "No such command"),
    (["solve"], "Missing argument"),
    (["scan", "tray.jpg", "--size", "7"], "Invalid value"),
    (["synth", "out", "--count", "0"], "Invalid value"),
]


def typer_vendors_click() -> bool:
    return tuple(int(x) for x in typer.__version__.split(".")[:2]) >= (0, 26)


def run(args: list[str], without_click: bool = False, columns: int | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    if columns is not None:
        env["COLUMNS"] = str(columns)
    cmd = [sys.executable, "-c", WITHOUT_CLICK, *args] if without_click else [sys.executable, "-m", "boggle_cv", *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=REPO, timeout=120)


@pytest.mark.parametrize("without_click", [False, True], ids=["installed", "no-click"])
@pytest.mark.parametrize("args, says", USAGE_ERRORS, ids=[" ".join(a) for a, _ in USAGE_ERRORS])
def test_a_usage_error_is_one_line_and_exit_2(args, says, without_click):
    if without_click and not typer_vendors_click():
        pytest.skip(f"typer {typer.__version__} needs the click package")
    out = run(args, without_click)
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("boggle-cv: error: ") and says in lines[0], out.stderr
    assert out.stdout == ""


@pytest.mark.parametrize("without_click", [False, True], ids=["installed", "no-click"])
def test_version(without_click):
    if without_click and not typer_vendors_click():
        pytest.skip(f"typer {typer.__version__} needs the click package")
    out = run(["--version"], without_click)
    assert out.returncode == 0, out.stderr
    assert out.stdout == f"boggle-cv {boggle_cv.__version__}\n" and out.stderr == ""


def test_the_version_is_the_packages():
    from importlib.metadata import version
    assert version("boggle-cv") == boggle_cv.__version__


def commands() -> list[str]:
    return [c.name or "" for c in app.registered_commands]


def test_every_command_module_registers_its_command():
    assert len(commands()) == len(COMMAND_MODULES) and set(commands()) == set(COMMAND_MODULES)


@pytest.mark.parametrize("name", COMMAND_MODULES)
def test_help_is_sentences_that_end_with_an_example(name):
    """Each paragraph of a command's help is one line of text (the help wraps it at the
    terminal's width, so no sentence breaks where the docstring did), the first is one
    sentence, and the last is `Example: boggle-cv NAME ...`."""
    command = next(c for c in app.registered_commands if c.name == name)
    paragraphs = (command.help or "").split("\n\n")
    assert all(p and "\n" not in p for p in paragraphs), command.help
    assert paragraphs[0].endswith(".") and paragraphs[0].count(". ") == 0, paragraphs[0]
    assert paragraphs[-1].startswith(f"Example: boggle-cv {name} "), paragraphs[-1]
    assert len(paragraphs[-1]) <= 78  # the example stays on one line at 80 columns


@pytest.mark.parametrize("name", ["", *COMMAND_MODULES])
def test_help_at_80_columns(name):
    """`boggle-cv [NAME] --help` at 80 columns: nothing wider, the example whole on one
    line, and at 1000 columns each paragraph of the help on one line (no docstring line
    breaks in the middle of a sentence)."""
    args = [name, "--help"] if name else ["--help"]
    narrow, wide = run(args, columns=80), run(args, columns=1000)
    assert narrow.returncode == 0 and wide.returncode == 0, narrow.stderr
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 80
    doc = app.info.help if not name else next(c.help for c in app.registered_commands if c.name == name)
    assert isinstance(doc, str)
    example = doc.split("\n\n")[-1]
    assert any(line.strip() == example for line in narrow.stdout.splitlines()), narrow.stdout
    for paragraph in help_text(doc).split("\n\n"):
        assert paragraph in wide.stdout, (paragraph, wide.stdout)


def test_help_text_joins_the_lines_of_each_paragraph():
    assert help_text("""One sentence
        over two lines.

        Example: boggle-cv solve X""") == "One sentence over two lines.\n\nExample: boggle-cv solve X"


def command_functions() -> list[tuple[str, ast.FunctionDef]]:
    found = []
    for path in sorted(CLI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(
                    isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "command"
                    for d in node.decorator_list):
                found.append((f"{path.name}:{node.name}", node))
    return found


def statements(fn: ast.FunctionDef) -> int:
    """Statements in a function's body, nested ones included (its docstring is one)."""
    return sum(isinstance(n, ast.stmt) for n in ast.walk(fn)) - 1


def test_every_command_function_is_found():
    assert len(command_functions()) == len(COMMAND_MODULES)


@pytest.mark.parametrize("where, fn", command_functions(), ids=[w for w, _ in command_functions()])
def test_a_command_function_has_at_most_25_statements(where, fn):
    assert statements(fn) <= MAX_STATEMENTS, f"{where}: {statements(fn)} statements; move the work into helpers"
