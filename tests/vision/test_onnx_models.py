"""The one model loader: the hash is checked once per file, a changed file again."""
from __future__ import annotations

import hashlib
import os
import shutil

import pytest

from boggle_cv.errors import EngineMissingError
from boggle_cv.vision import onnx_models
from boggle_cv.vision.onnx_models import DETECTOR, READER, hash_path, load_net, model_path


def _copy_detector(tmp_path):
    src = model_path(DETECTOR)
    if not src.is_file():
        pytest.skip("the shipped detector model is not installed")
    dst = tmp_path / "cube_detector.onnx"
    shutil.copy(src, dst)
    shutil.copy(hash_path(src), hash_path(dst))
    return dst


@pytest.fixture
def hash_calls(monkeypatch):
    """Counts the SHA-256 hashes the loader computes."""
    calls = []
    real = hashlib.sha256

    def counting(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(hashlib, "sha256", counting)  # onnx_models imports hashlib where it hashes
    return calls


def test_second_load_reuses_the_verified_network(tmp_path, hash_calls):
    path = _copy_detector(tmp_path)
    first = load_net(DETECTOR, path)
    assert load_net(DETECTOR, path) is first
    assert len(hash_calls) == 1


def test_a_changed_file_is_checked_again(tmp_path, hash_calls):
    path = _copy_detector(tmp_path)
    good = path.read_bytes()
    load_net(DETECTOR, path)
    data = bytearray(good)
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # a new mtime even on a coarse clock
    with pytest.raises(EngineMissingError, match="corrupt"):
        load_net(DETECTOR, path)
    path.write_bytes(good)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000))
    assert load_net(DETECTOR, path) is not None
    assert len(hash_calls) == 3


def test_missing_files_name_the_model(tmp_path):
    with pytest.raises(EngineMissingError, match="reader model not found") as e:
        load_net(READER, tmp_path / "reader.onnx")
    assert e.value.exit_code == 3
    (tmp_path / "cube_detector.onnx").write_bytes(b"x")
    with pytest.raises(EngineMissingError, match="cube detector model hash not found"):
        load_net(DETECTOR, tmp_path / "cube_detector.onnx")


def test_environment_variable_overrides_the_path(tmp_path, monkeypatch):
    monkeypatch.setenv(READER.env, str(tmp_path / "mine.onnx"))
    assert model_path(READER) == tmp_path / "mine.onnx"


def test_a_new_process_skips_the_hash_of_an_unchanged_model_but_checks_a_changed_one(tmp_path, hash_calls):
    """The check passed once is remembered in the cache folder (a new process = the
    in-process cache cleared); a model whose time or size changed is hashed again."""
    path = _copy_detector(tmp_path)
    onnx_models.cache_clear()
    load_net(DETECTOR, path)
    assert len(hash_calls) == 1
    onnx_models.cache_clear()
    load_net(DETECTOR, path)
    assert len(hash_calls) == 1            # remembered across the "process"
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    onnx_models.cache_clear()
    load_net(DETECTOR, path)
    assert len(hash_calls) == 2            # touched: checked again
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))          # damaged, same size: a new time
    onnx_models.cache_clear()
    with pytest.raises(EngineMissingError, match="corrupt"):
        load_net(DETECTOR, path)
