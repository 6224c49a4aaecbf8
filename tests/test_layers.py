"""The package's imports run one way (docs/ARCHITECTURE.md, "The layers"): no module
imports, through any chain, a module that imports it back, and no part (a top-level
module, or a sub-package such as cli/, web/, room/, vision/) imports a part that
imports it. Every import counts: at the top of a file, inside a function, or only for
the type checker."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "boggle_cv"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports(name: str, path: Path) -> set[str]:
    """The package's modules that `name` imports."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in MODULES}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            subs = {f"{source}.{a.name}" for a in node.names} & set(MODULES)
            found |= subs or ({source} if source in MODULES else set())
    return found - {name}


GRAPH = {name: imports(name, path) for name, path in MODULES.items()}


def part(name: str) -> str:
    """boggle_cv.room.service.core -> boggle_cv.room; boggle_cv.game.scoring -> itself."""
    parts = name.split(".")
    return ".".join(parts[:2])


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_is_read():
    assert GRAPH["boggle_cv.game.wordlists"] >= {"boggle_cv.game.names", "boggle_cv.files.textfiles"}
    assert "boggle_cv.room.service.core" in GRAPH["boggle_cv.room.service.players"]


def test_no_module_imports_itself_through_others():
    assert cycles(GRAPH) == []


def test_no_part_imports_a_part_that_imports_it():
    parts: dict[str, set[str]] = {}
    for name, targets in GRAPH.items():
        parts.setdefault(part(name), set()).update(part(t) for t in targets if part(t) != part(name))
    assert cycles(parts) == []


#: Which part may import which (docs/ARCHITECTURE.md, "The layers"), top to bottom:
#: the console script; the commands; the page; the room and practice; training;
#: the photo readers and the renderer; the game and its referee; the games database;
#: the files; the errors. Every part may also read the package's __version__.
LOWER = {"files": {"errors", "error_codes"}}
LOWER["store"] = {"files"} | LOWER["files"]
LOWER["game"] = {"store", "files"} | LOWER["files"]
LOWER["vision"] = {"game"} | LOWER["game"]
LOWER["synth"] = {"game"} | LOWER["game"]
LOWER["train"] = {"vision", "synth"} | LOWER["vision"]
LOWER["room"] = {"vision"} | LOWER["vision"]
LOWER["practice"] = {"vision"} | LOWER["vision"]
LOWER["web"] = {"room", "practice"} | LOWER["practice"]
LOWER["cli"] = {"web", "synth"} | LOWER["web"]
LOWER["entry"] = {"cli"} | LOWER["cli"]
LOWER["__main__"] = {"entry"}
LOWER["errors"] = {"error_codes"}
LOWER["error_codes"] = set()


def test_every_import_points_down_the_layers():
    """No part imports a part above it or beside it (cli and web above room and
    practice, above vision and synth, above game, above store and files)."""
    top = {name.split(".")[1] for name in MODULES if name != "boggle_cv"}
    assert top == set(LOWER), "a new top-level module or folder: give it its layer here"
    up = sorted(f"{name} -> {t}" for name, targets in GRAPH.items() if name != "boggle_cv"
                for t in targets if t != "boggle_cv"
                and part(t) != part(name) and part(t).split(".")[1] not in LOWER[part(name).split(".")[1]])
    assert up == []


def test_the_top_of_the_package_keeps_only_the_entry_points_and_the_errors():
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "entry.py", "error_codes.py", "errors.py"]


def test_the_game_imports_no_photo_reader_page_or_command():
    reached = {t for name, targets in GRAPH.items() if name.startswith("boggle_cv.game") for t in targets}
    assert not {part(t) for t in reached} & {"boggle_cv.vision", "boggle_cv.room", "boggle_cv.web", "boggle_cv.cli"}


MAX_LINES = 450


def test_no_module_is_over_450_lines():
    """A module over this has more than one job: split it by its jobs, as room/service/ is."""
    long = {name: n for name, path in MODULES.items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}
