"""The word reader's shipped data files: which one is in use, and the hash check."""
from __future__ import annotations

import hashlib

import pytest

from boggle_cv.errors import EngineMissingError
from boggle_cv.vision.handwriting import doubt, head, shipped


@pytest.mark.parametrize("module", [head, doubt])
def test_without_the_variable_the_shipped_file_is_used(monkeypatch, module):
    monkeypatch.delenv(module.ENV, raising=False)
    p = shipped.data_path(module.ENV, module.FILE)
    assert p is not None and p.name == module.FILE and p.is_file()
    key = shipped.in_use(module.ENV, module.FILE, "a file")
    assert key is not None and key[0] == str(p) and key[1] == p.stat().st_mtime_ns


def test_none_means_no_file_and_a_missing_path_says_which_variable(tmp_path, monkeypatch):
    monkeypatch.setenv("BOGGLE_CV_TEST_FILE", "None")
    assert shipped.in_use("BOGGLE_CV_TEST_FILE", "word_head.npz", "a file") is None
    monkeypatch.setenv("BOGGLE_CV_TEST_FILE", str(tmp_path / "gone.npz"))
    with pytest.raises(EngineMissingError, match="a file not found") as err:
        shipped.in_use("BOGGLE_CV_TEST_FILE", "word_head.npz", "a file")
    assert "unset BOGGLE_CV_TEST_FILE" in str(err.value.hint)


def test_bytes_are_given_only_with_a_matching_hash(tmp_path):
    p = tmp_path / "data.bin"
    p.write_bytes(b"weights")
    with pytest.raises(EngineMissingError, match="hash not found"):
        shipped.verified_bytes(p, "a file")
    sha = p.with_name(p.name + ".sha256")
    sha.write_text(hashlib.sha256(b"weights").hexdigest().upper() + "  data.bin\n")
    assert shipped.verified_bytes(p, "a file") == b"weights"
    p.write_bytes(b"weights, changed")
    with pytest.raises(EngineMissingError, match="SHA-256 mismatch"):
        shipped.verified_bytes(p, "a file")
