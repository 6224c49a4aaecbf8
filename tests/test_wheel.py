"""The wheel as a new user meets it: `python -m build`, the wheel installed into a fresh
virtual environment (the base install, then the web extra), and the commands run from
a folder outside the repository, so that the models, dictionaries, page and
catalogues can only come from inside the wheel.

The base install brings no click package (Typer 0.26 and later carry their own), so
the usage errors are tried there too.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from boggle_cv.game.board import Board

pytest.importorskip("build")
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"
SAMPLE = SAMPLES / "sample-4x4-a.jpg"
SHEET = SAMPLES / "sheets" / "sheet-4x4-a.jpg"
SAMPLE_BOARD = "DRML/HCNL/XEHD/YTOC"


def run(cmd: list[str], cwd: Path, timeout: float = 600, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    if check:
        assert out.returncode == 0, f"{' '.join(cmd)}: {out.stdout[-2000:]}{out.stderr[-2000:]}"
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The wheel, and what building it printed."""
    dist = tmp_path_factory.mktemp("dist")
    out = run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(REPO)], REPO)
    (found,) = dist.glob("boggle_cv-*.whl")
    return found, out.stdout + out.stderr


@pytest.fixture(scope="module")
def wheel(built: tuple[Path, str]) -> Path:
    return built[0]


def test_every_package_is_declared(built: tuple[Path, str]):
    """The folders of data files are declared packages: setuptools warns of none it
    would leave out ("Package would be ignored"), and the metadata is current (a
    licence expression, no deprecated table)."""
    log = built[1]
    assert "would be ignored" not in log and "absent from the `packages` configuration" not in log, log[-3000:]
    assert "deprecated" not in log.lower(), log[-3000:]


def test_the_wheel_carries_every_licence(wheel: Path):
    """The code's MIT licence and each shipped word list's and model's own notice are in
    the wheel's metadata (License-File), as the licence expression names them."""
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = next(z.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    assert "License-Expression: MIT AND" in meta, meta[:800]
    licences = {n.split(".dist-info/licenses/", 1)[1] for n in names if ".dist-info/licenses/" in n}
    assert "LICENSE" in licences and "models/word_reader.LICENSE" in licences, licences
    assert {f"boggle_cv/data/{p.name}" for p in (REPO / "boggle_cv" / "data").glob("*.LICENSE")} <= licences


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel's base install; its bin folder."""
    where = tmp_path_factory.mktemp("venv")
    run([sys.executable, "-m", "venv", str(where)], where)
    bin_dir = where / ("Scripts" if os.name == "nt" else "bin")
    run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel)], where)
    return bin_dir


@pytest.fixture(scope="module")
def away(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Another folder: nothing of the repository next to the commands."""
    return tmp_path_factory.mktemp("elsewhere")


def test_the_wheel_holds_every_module_and_data_file(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    tree = {p.relative_to(REPO).as_posix() for p in (REPO / "boggle_cv").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    models = {f"boggle_cv/models/{p.name}" for p in (REPO / "models").iterdir() if p.is_file()}
    assert tree - names == set()
    assert models - names == set()
    assert "boggle_cv/web/static/index.html" in names and "boggle_cv/web/static/i18n/fr.po" in names
    demo = {f"boggle_cv/samples/{p.name}" for p in SAMPLES.glob("sample-4x4-a.*")}
    assert len(demo) == 4 and demo <= names                       # the demo's photo and three lists
    assert not any(n.startswith("boggle_cv/samples/") for n in names - demo)  # and no other sample


def test_usage_errors_and_version_without_click(venv: Path, away: Path):
    python = str(venv / "python")
    typer_version = run([python, "-c", "import typer; print(typer.__version__)"], away).stdout.strip()
    has_click = run([python, "-c", "import click"], away, check=False).returncode == 0
    if tuple(int(x) for x in typer_version.split(".")[:2]) >= (0, 26):
        assert not has_click, "the base install should not need click"
    cli = str(venv / "boggle-cv")
    version = run([cli, "--version"], away)
    assert version.stdout.startswith("boggle-cv ") and version.stderr == ""
    for args in (["scan", "--bogus"], ["nosuchcommand"], ["solve"], ["scan", "x.jpg", "--size", "7"]):
        out = run([cli, *args], away, check=False)
        assert out.returncode == 2, (args, out.stderr)
        assert len(out.stderr.splitlines()) == 1 and out.stderr.startswith("boggle-cv: error: "), out.stderr


def test_scan_a_sample_from_another_folder(venv: Path, away: Path):
    players = [f"--player={p.name.split('.')[-2]}={p}" for p in sorted(SAMPLES.glob("sample-4x4-a.*.txt"))]
    out = run([str(venv / "boggle-cv"), "scan", str(SAMPLE), "--json", *players], away)
    doc = json.loads(out.stdout)
    turns = {str(Board.parse(SAMPLE_BOARD).rotated(k)) for k in range(4)}
    assert doc["board"]["text"] in turns
    assert [p["name"] for p in doc["players"]] == ["alice", "bob", "carol"] and doc["winners"]


def test_the_demo_runs_from_another_folder(venv: Path, away: Path):
    """`boggle-cv demo`, the README's first command, from a folder with nothing of the
    repository: the sample inside the wheel refereed, the same report as `scan`."""
    out = run([str(venv / "boggle-cv"), "demo"], away)
    lines = out.stdout.splitlines()
    header = " ".join(" ".join(lines[:2]).split())  # wrapped within 80 columns in a pipe
    assert lines[0].startswith("Board read: 4x4, ") and "cube sets that fit: classic-4" in header
    assert [line.split(":")[0] for line in lines if line.endswith(" points")] == ["alice", "bob", "carol"]
    command = out.stderr.strip()
    assert command.startswith("boggle-cv scan ") and "/site-packages/boggle_cv/samples/sample-4x4-a.jpg" in command
    doc = json.loads(run([str(venv / "boggle-cv"), "demo", "--json"], away).stdout)
    assert doc["board"]["text"] in {str(Board.parse(SAMPLE_BOARD).rotated(k)) for k in range(4)}
    assert [p["name"] for p in doc["players"]] == ["alice", "bob", "carol"] and doc["winners"]


def test_read_the_sample_sheet_from_another_folder(venv: Path, away: Path):
    out = run([str(venv / "boggle-cv"), "sheet", str(SHEET), "--board", SAMPLE_BOARD, "--json"], away)
    words = [w["word"] for w in json.loads(out.stdout)["words"] if not w["crossed_out"]]
    lines = SHEET.with_suffix(".truth.txt").read_text().splitlines()
    truth = [w.strip() for w in lines if w.strip() and not w.startswith("#")]
    assert len(set(words) & set(truth)) >= len(truth) - 2


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.status, answer.read()


def test_serve_the_page_from_another_folder(wheel: Path, venv: Path, away: Path):
    run([str(venv / "python"), "-m", "pip", "install", "--quiet", f"{wheel}[web]"], away)
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    proc = subprocess.Popen([str(venv / "boggle-cv"), "serve", "--port", str(port), "--db", str(away / "games.sqlite3")],
                            cwd=away, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            try:
                status, health = get(f"{base}/api/health")
                break
            except OSError:
                assert time.monotonic() < deadline, "serve did not answer"
                time.sleep(0.2)
        assert status == 200 and json.loads(health)
        status, page = get(f"{base}/")
        assert status == 200 and b"<script" in page
        status, catalogue = get(f"{base}/static/i18n/fr.po")
        assert status == 200 and b"msgid" in catalogue
        status, script = get(f"{base}/static/app.js")
        assert status == 200 and script
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 143, err  # SIGTERM's exit code (128 + 15: web/server.py)
