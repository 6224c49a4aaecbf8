"""Outputs never replace inputs; odd option values are refused.

Tested through the command line, so that they keep guarding the behaviour whatever
the CLI modules become: `scan self.jpg --annotate self.jpg` leaves the photo alone;
--fix r1c1=W --fix r1c1=M and --bonus "" are refused; a Cyrillic Е is named as such
when it is not a face; --debug-dir FILE and --db file/x.db say what is wrong; a full
disk leaves no empty --debug-dir folder.
"""
from __future__ import annotations

import errno
import hashlib
import os
import resource
import subprocess
import sys

import numpy as np
import pytest

from boggle_cv.files import outputs
from boggle_cv.errors import OutputError

from .conftest import BOARD, needs_model, one_error_line, run


def _digest(p) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


@pytest.fixture()
def photo(tmp_path, small_photo):
    p = tmp_path / "self.jpg"
    p.write_bytes(small_photo[".jpg"].read_bytes())
    return p


def test_annotate_onto_the_photo_is_refused(photo):
    before = _digest(photo)
    for target in (photo, photo.parent / "." / photo.name, photo.parent / "sub" / ".." / photo.name):
        (photo.parent / "sub").mkdir(exist_ok=True)
        one_error_line(run("scan", photo, "--annotate", target), 7, "same file as the input")
    assert _digest(photo) == before


def test_annotate_onto_a_link_of_the_photo_is_refused(photo):
    hard = photo.parent / "hard.jpg"
    os.link(photo, hard)
    soft = photo.parent / "soft.jpg"
    soft.symlink_to(photo)
    before = _digest(photo)
    for target in (hard, soft):
        one_error_line(run("scan", photo, "--annotate", target), 7, "same file as the input")
    assert _digest(photo) == before


def test_database_onto_an_input_is_refused(photo, tmp_path):
    words = tmp_path / "ann.txt"
    words.write_text("rats\n")
    for db in (photo, words):
        before = _digest(db)
        one_error_line(run("scan", photo, "--board", BOARD, "-p", f"ann={words}", "--game", "g", "--db", db),
                       7, "same file as the input")
        assert _digest(db) == before


def test_debug_images_cannot_overwrite_an_input(tmp_path, photo):
    other = tmp_path / "self_1_gray.png"  # what --debug-dir tmp_path would write for self.jpg
    other.write_bytes(photo.read_bytes())
    one_error_line(run("scan", photo, other, "--debug-dir", tmp_path), 7, "could write over the input")


def test_debug_dir_that_is_a_file(tmp_path, photo):
    f = tmp_path / "afile"
    f.write_text("x")
    line = one_error_line(run("scan", photo, "--debug-dir", f), 7, "not a directory")
    assert "File exists" not in line
    with pytest.raises(OutputError, match="not a directory"):
        outputs.make_folder(f / "sub")


def test_full_disk_leaves_no_debug_folder_in_process(tmp_path, monkeypatch):
    folder = tmp_path / "dbg"
    calls = []

    def full(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)
    img = np.zeros((8, 8, 3), np.uint8)
    with pytest.raises(OutputError, match="No space left"):
        outputs.write_images_into(folder, {"a.png": img, "b.png": img})
    assert not folder.exists()


_FSIZE_LIMITED = """
import resource, subprocess, sys
resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))  # any larger file: EFBIG, as on a full disk
sys.exit(subprocess.run(sys.argv[1:]).returncode)
"""


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="POSIX only")
def test_full_disk_leaves_no_debug_folder_cli(tmp_path, photo, tray_ready):
    """A photo without a board still writes its debug images: with files capped at 2 KB
    the first image fails, exit 7, and the folder made for them is gone."""
    wall = tmp_path / "wall.png"
    import cv2
    rng = np.random.default_rng(7)
    cv2.imwrite(str(wall), rng.integers(0, 255, (300, 400, 3), np.uint8))
    dbg = tmp_path / "dbg"
    out = subprocess.run([sys.executable, "-c", _FSIZE_LIMITED, sys.executable, "-m", "boggle_cv", "scan", str(wall),
                          "--debug-dir", str(dbg)], capture_output=True, text=True, timeout=300)
    one_error_line(out, 7, "cannot write")
    assert not dbg.exists()


def test_conflicting_fixes_are_refused(photo):
    one_error_line(run("scan", photo, "--board", BOARD, "--fix", "r1c1=W", "--fix", "r1c1=M"), 2,
                   "two different faces")
    out = run("scan", photo, "--board", BOARD, "--fix", "r1c1=W", "--fix", "R1C1=w", "--json")
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize("cmd", ["score", "scan"])
@pytest.mark.parametrize("option", ["--bonus", "--challenge-cell"])
def test_empty_cell_options_are_refused(tmp_path, photo, cmd, option):
    words = tmp_path / "ann.txt"
    words.write_text("rats\n")
    args = ["score", BOARD] if cmd == "score" else ["scan", photo, "--board", BOARD]
    extra = ["--variant", "challenge"] if option == "--challenge-cell" else []
    one_error_line(run(*args, "-p", f"ann={words}", option, "", *extra), 2, f"{option} is empty")
    one_error_line(run(*args, "-p", f"ann={words}", option, "r1c1,", *extra), 2, "empty item")


def test_non_latin_letter_names_its_code_point(photo):
    line = one_error_line(run("solve", "P\u0415RS/LATG/SINE/TERS"), 2, "U+0415", "not a Latin letter")
    assert "CYRILLIC" in line
    one_error_line(run("scan", photo, "--board", BOARD, "--fix", "r1c1=\u0415"), 2, "U+0415", "not a Latin letter")
    one_error_line(run("solve", "P\u00c9RS/LATG/SINE/TERS"), 2, "U+00C9", "accented")


@needs_model
def test_annotate_elsewhere_still_works(tmp_path, photo, tray_ready):
    out_png = tmp_path / "out.png"
    r = run("scan", photo, "--annotate", out_png, "--json")
    assert r.returncode == 0 and out_png.stat().st_size > 1000, r.stderr[-500:]
