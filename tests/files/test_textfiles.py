"""Bounded, streaming text reading (boggle_cv/files/textfiles.py)."""
from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boggle_cv.errors import WordListError
from boggle_cv.files.textfiles import (CHUNK_BYTES, WORD_LIST, TextLimit, decode_lines, decode_text, open_lines, size_text)

TEXT = st.text(st.sampled_from(list("ab \r\n\u2028\x85\u00e9\U0001f642,")), max_size=60)


def _chunks(raw: bytes, n: int) -> list[bytes]:
    return [raw[i:i + n] for i in range(0, len(raw), n)]


@settings(max_examples=400, deadline=None)
@given(TEXT, st.integers(1, 9), st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]))
def test_lines_equal_splitlines_however_the_bytes_are_cut(text, n, encoding):
    raw = text.encode(encoding)
    assert list(decode_lines(_chunks(raw, n), "t")) == raw.decode(encoding).splitlines()


def test_bad_utf8_offset_is_in_the_whole_file_across_chunks():
    raw = b"cat\n" * 10 + b"caf\xe9\n"
    for n in (1, 3, 7, 100):
        with pytest.raises(WordListError, match="offset 43"):
            list(decode_lines(_chunks(raw, n), "t"))


def test_binary_and_bad_utf16():
    with pytest.raises(WordListError, match="binary"):
        decode_text(b"cat\n\x00dog", "t")
    with pytest.raises(WordListError, match="UTF-16"):
        decode_text(b"\xff\xfea\x00\x00\xd8", "t")  # a lone surrogate at the end


def test_stream_over_the_limit_stops_reading():
    limit = TextLimit("word list", 10, "a test", "smaller", stdin_form="NAME=-")
    src = io.BytesIO(b"x\n" * 100)
    with pytest.raises(WordListError, match="larger than 10 bytes, the limit for a test"):
        with open_lines("-", limit, stdin=src) as lines:
            list(lines)
    assert src.tell() <= 10 + CHUNK_BYTES


def test_file_over_the_limit_refused_before_reading(tmp_path):
    p = tmp_path / "x.txt"
    p.write_bytes(b"a\n" * (WORD_LIST.max_bytes // 2 + 1))
    with pytest.raises(WordListError, match="larger than 1 MiB"):
        open_lines(p, WORD_LIST)


def test_size_text():
    assert size_text(1024 * 1024) == "1 MiB"
    assert size_text(8 * 1024 * 1024) == "8 MiB"
    assert size_text(1536) == "1.5 KiB"
    assert size_text(12) == "12 bytes"
