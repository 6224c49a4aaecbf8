"""The command line as a newcomer meets it: a usage error is one line on stderr and
exit 2, with or without the click package installed (Typer 0.26 and later carry their
own copy of click, and the base install brings no other); `--version`; every
command's --help reads as whole sentences and ends with an example; and every
function of the command line stays short (a command parses, calls and prints: the
work is elsewhere).
"""
from __future__ import annotations

import ast
import os
import re
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
    (["scan", "--frobnicate"], "scan has no option --frobnicate (see 'boggle-cv scan -h')"),
    (["scan", "x.jpg", "--stirct"], "scan has no option --stirct: did you mean --strict?"),
    (["scan", "x.jpg", "--jsn"], "scan has no option --jsn: did you mean --json?"),
    (["--frobnicate"], "boggle-cv has no option --frobnicate (see 'boggle-cv -h')"),
    (["scna", "x.jpg"], "boggle-cv has no command 'scna': did you mean scan?"),
    (["nosuchcommand"], "boggle-cv has no command 'nosuchcommand' (its commands: demo, scan,"),
    (["solve"], "Missing argument"),
    (["db"], "Missing argument 'ACTION'. Choose from: copy (see 'boggle-cv db -h')"),
    (["scan", "x.jpg", "--json", "--jsonl"], "--json and --jsonl cannot be used together"),
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
    assert "\t" not in lines[0] and "  " not in lines[0], lines[0]
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
    assert wide.stdout == narrow.stdout  # the help's width is 78 columns whatever the terminal's (as ripgrep's)
    words = " ".join(narrow.stdout.split())
    for paragraph in help_text(doc).split("\n\n"):
        assert paragraph in words, (paragraph, narrow.stdout)


def click_commands() -> dict[str, typer.core.TyperCommand]:
    group = typer.main.get_command(app)
    return {name: group.commands[name] for name in COMMAND_MODULES}  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["", *COMMAND_MODULES])
def test_h_is_help(name):
    args = [name] if name else []
    short, long = run([*args, "-h"], columns=80), run([*args, "--help"], columns=80)
    assert short.returncode == 0, short.stderr
    assert short.stdout == long.stdout and short.stdout.startswith("Usage: boggle-cv")


@pytest.mark.parametrize("name, usage", [
    ("demo", "boggle-cv demo [OPTIONS]"), ("scan", "boggle-cv scan [OPTIONS] PHOTO..."), ("sheet", "boggle-cv sheet [OPTIONS] PHOTO"),
    ("solve", "boggle-cv solve [OPTIONS] BOARD"), ("score", "boggle-cv score [OPTIONS] BOARD"),
    ("synth", "boggle-cv synth [OPTIONS] FOLDER"), ("standings", "boggle-cv standings [OPTIONS] [GAME]"),
    ("practice", "boggle-cv practice [OPTIONS]"), ("serve", "boggle-cv serve [OPTIONS]")])
def test_help_names_each_value_and_wraps_the_text_under_its_option(name, usage):
    """The usage line writes the arguments as typed (no braces); every option's value
    is named (NAME=FILE, PHOTO, N, a list of choices, never <str> or <path>); each
    option stands alone on its line, its text wrapped under it across the help's
    width; --debug is listed."""
    out = run([name, "--help"], columns=80).stdout
    lines = out.splitlines()
    assert lines[0] == f"Usage: {usage}"
    assert not re.search(r"<(str|path|int|float|text|int range|float range)>|[{}]", out, re.I), out
    assert re.search(r"^  --debug$", out, re.M)
    for i, line in enumerate(lines):
        if line.startswith("  -"):
            assert not re.search(r"\S {2,}\S", line.strip()), line      # the option alone on its line
            if i + 1 < len(lines) and lines[i + 1].startswith("      "):
                assert lines[i + 1].startswith("        ") or lines[i + 1].strip() == ""
    texts = [line for line in lines if line.startswith("        ")]
    assert max(len(line) for line in texts) > 60  # the text uses the width, not a narrow box


def test_each_default_is_said_once():
    """An option whose text says its default shows no `[default: ...]` beside it."""
    for name, command in click_commands().items():
        ctx = command.make_context(name, [], resilient_parsing=True)
        for param in command.params:
            record = param.get_help_record(ctx)
            if record is not None:
                assert not ("(default" in record[1] and "[default:" in record[1]), (name, record)


OPTION_NAMED = re.compile(r"\b((?:scan|sheet|solve|score|synth|standings|practice|serve)"
                          r"(?:/(?:scan|sheet|solve|score|synth|standings|practice|serve))*) (--[a-z][a-z-]*)")


def test_the_help_names_only_options_that_exist():
    """`scan --game`, `scan/score --game`: each command named in a help text has the
    option named after it."""
    commands = click_commands()
    options = {name: {o for p in c.params for o in p.opts} for name, c in commands.items()}
    texts = [c.help or "" for c in commands.values()] + [getattr(p, "help", None) or ""
                                                       for c in commands.values() for p in c.params]
    for text in texts:
        for names, option in OPTION_NAMED.findall(text):
            for name in names.split("/"):
                assert option in options[name], f"{text!r}: `{name}` has no {option}"


def test_one_meaning_per_option_name():
    """Across the commands a short option stands for one long one, and a long option
    is a flag everywhere or takes a value everywhere."""
    long_of: dict[str, str] = {}
    flag_of: dict[str, bool] = {}
    for name, command in click_commands().items():
        for param in command.params:
            if param.param_type_name != "option":
                continue
            longs = [o for o in param.opts if o.startswith("--")]
            for short in (o for o in param.opts if not o.startswith("--")):
                assert long_of.setdefault(short, longs[0]) == longs[0], (name, short, longs, long_of[short])
            for option in longs:
                flag = bool(getattr(param, "is_flag", False))
                assert flag_of.setdefault(option, flag) == flag, (name, option)


def test_help_text_joins_the_lines_of_each_paragraph():
    assert help_text("""One sentence
        over two lines.

        Example: boggle-cv solve X""") == "One sentence over two lines.\n\nExample: boggle-cv solve X"


def command_functions() -> list[tuple[str, ast.FunctionDef]]:
    """The command functions (decorated with `@app.command(...)`)."""
    return [(where, fn) for where, fn in cli_functions() if isinstance(fn, ast.FunctionDef) and any(
        isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "command"
        for d in fn.decorator_list)]


def cli_functions() -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function of cli/: module functions, methods, and functions inside others
    (a command inside its module's register), each as FILE:NAME (FILE:OUTER.NAME)."""
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append((f"{where}{child.name}", child))
                visit(child, f"{where}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{where}{child.name}.")
            else:
                visit(child, where)

    for path in sorted(CLI.glob("*.py")):
        visit(ast.parse(path.read_text(encoding="utf-8")), f"{path.name}:")
    return found


def statements(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Statements in a function's body, those of its nested blocks included (its
    docstring is one); a function or class defined inside it is one statement here
    and is counted on its own."""
    count = 0
    todo: list[ast.AST] = list(fn.body)
    while todo:
        node = todo.pop()
        count += isinstance(node, ast.stmt)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))
    return count


def test_every_command_function_is_found():
    assert len(command_functions()) == len(COMMAND_MODULES)


def test_the_count_takes_every_function_and_each_on_its_own():
    """Methods, nested functions and async functions are counted, each alone."""
    names = {where for where, _ in cli_functions()}
    assert {"__init__.py:main", "scan.py:register", "scan.py:register.scan_cmd",
            "help_format.py:HelpGroup.parse_args", "progress.py:ClearFirst.write"} <= names
    tree = ast.parse("def outer():\n    x = 1\n    def inner():\n        if x:\n            return 2\n    return inner\n")
    outer = tree.body[0]
    inner = outer.body[1]
    assert isinstance(outer, ast.FunctionDef) and isinstance(inner, ast.FunctionDef)
    assert statements(outer) == 3 and statements(inner) == 2


@pytest.mark.parametrize("where, fn", cli_functions(), ids=[w for w, _ in cli_functions()])
def test_a_function_of_the_command_line_has_at_most_25_statements(where, fn):
    assert statements(fn) <= MAX_STATEMENTS, f"{where}: {statements(fn)} statements; move the work into helpers"


@pytest.mark.parametrize("missing, says", [
    (("uvicorn",), "`serve` needs uvicorn, which is not installed (install it with the web extra: "
                   "pip install 'boggle-cv[web]')"),
    (("starlette", "uvicorn", "multipart"), "`serve` needs starlette, uvicorn and python-multipart, which are not "
                                            "installed (install them with the web extra: pip install 'boggle-cv[web]')"),
])
def test_serve_names_what_is_missing_and_how_to_install_it(missing, says):
    blocked = "; ".join(f"sys.modules[{m!r}] = None" for m in missing)
    code = f"import sys; {blocked}; sys.argv = ['boggle-cv', 'serve']; from boggle_cv.cli import main; main()"
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 3 and out.stderr == f"boggle-cv: error: {says}\n"


def test_a_photo_that_is_not_there_is_only_that():
    out = run(["scan", "nope.jpg"])
    assert out.returncode == 4 and out.stderr == "boggle-cv: error: cannot read image nope.jpg: no such file\n"


def test_db_copy_counts_its_rows_in_words():
    from boggle_cv.cli.db import rows_copied
    assert rows_copied({"games": 1, "rounds": 2, "round_players": 1, "practice_rounds": 0, "extra": 1}) == \
        "1 game, 2 rounds, 1 player's score, 0 practice rounds, 1 row of extra"

