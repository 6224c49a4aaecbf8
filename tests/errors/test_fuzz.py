"""Fuzzing: property tests of the text parsers, a bounded run of mutated photos.

Only our errors (BoggleError subclasses) may come out; everything else is a bug.
A longer image run: scripts/fuzz_scan.py.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boggle_cv.game.board import ALL_FACES, Board
from boggle_cv.files.textfiles import decode_text
from boggle_cv.errors import BoardTextError, BoggleError, WordListError
from boggle_cv.game.scoring import STATUSES, score_round
from boggle_cv.game.wordlists import parse_words

from .conftest import needs_model, run
from .fuzzing import mutate, scan_bytes

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BOARD_CHARS = st.sampled_from(list("ABQUqu#.[]/ Th\nx1é-"))


@FAST
@given(st.one_of(st.text(max_size=60), st.text(BOARD_CHARS, max_size=60)))
def test_board_parse_raises_only_board_text_error(text):
    try:
        b = Board.parse(text)
    except BoardTextError as e:
        assert "\n" not in e.one_line()
        return
    assert Board.parse(b.to_text()) == b


@st.composite
def boards(draw):
    n = draw(st.integers(3, 6))
    return Board(tuple(tuple(draw(st.sampled_from(ALL_FACES)) for _ in range(n)) for _ in range(n)))


@FAST
@given(boards(), st.sampled_from([str.upper, str.lower, str.swapcase]))
def test_board_text_round_trip(b, case):
    assert Board.parse(case(b.to_text())) == b
    assert Board.from_rows(b.to_rows()) == b


@FAST
@given(st.lists(st.text(max_size=40), max_size=20))
def test_word_list_parser_raises_only_word_list_error(lines):
    try:
        words = parse_words(lines, "fuzz")
    except WordListError as e:
        assert "\n" not in e.one_line()
        return
    assert words and all(w == w.lower() and w.strip() for w in words)


@FAST
@given(st.binary(max_size=200))
def test_decoding_any_bytes(raw):
    try:
        parse_words(decode_text(raw, "fuzz"), "fuzz")
    except WordListError:
        pass


WORD = st.text(st.characters(min_codepoint=97, max_codepoint=122), min_size=1, max_size=12)


@FAST
@given(st.lists(WORD, min_size=1, max_size=15), st.sampled_from(["\n", "\r\n", ", ", "; ", " "]),
       st.sampled_from([str, str.upper, lambda w: f'"{w}",']))
def test_word_list_round_trip(words, sep, dress):
    assert parse_words(sep.join(dress(w) for w in words).splitlines(), "fuzz") == words


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=15), max_size=10))
def test_scoring_any_list(lines):
    try:
        words = parse_words(lines, "fuzz")
    except WordListError:
        return
    sheet = score_round(Board.parse("PERS/LATG/SINE/TERS"), {"ann": words, "bob": words[::-1]})
    assert all(w.status in STATUSES for p in sheet.players for w in p.words)


# --- mutated photos ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def seeds(small_photo):
    import cv2
    img = cv2.imread(str(small_photo[".jpg"]))
    small = cv2.resize(img, (320, 320), interpolation=cv2.INTER_AREA)
    out = {}
    for ext in (".jpg", ".png", ".webp"):
        ok, buf = cv2.imencode(ext, small)
        out[ext] = buf.tobytes()
    return out


def test_mutated_photos_in_process(seeds, tray_ready):
    """300 seeded mutations through load -> tray -> cells: only our errors come out."""
    rng = random.Random(20240607)
    codes: Counter = Counter()
    for i in range(300):
        ext = rng.choice(list(seeds))
        kind, data = mutate(seeds[ext], rng)
        try:
            codes[scan_bytes(data)] += 1
        except BoggleError:
            raise
        except Exception as e:  # pragma: no cover - a bug: say which case
            raise AssertionError(f"case {i} ({ext}, {kind}): {type(e).__name__}: {e}") from e
    assert set(codes) <= {0, 4, 5} and codes[4] > 0, codes


def test_mutated_photos_through_the_cli(seeds, tmp_path):
    """A few mutated files through the real command: exit 3/4/5 (or 0), one line, no traceback."""
    rng = random.Random(7)
    paths = []
    for i in range(8):
        ext = rng.choice(list(seeds))
        _, data = mutate(seeds[ext], rng)
        paths.append(tmp_path / f"m{i}{ext}")
        paths[-1].write_bytes(data)
    out = run("scan", *paths, "--json")
    assert "Traceback" not in out.stderr and out.returncode in (0, 3, 4, 5), out.stderr
    assert "internal error" not in out.stderr


@needs_model
def test_mutated_photos_full_scanner(seeds, tray_ready):
    from boggle_cv.vision.pipeline import Scanner
    scanner = Scanner("classifier")
    rng = random.Random(11)
    for _ in range(40):
        ext = rng.choice(list(seeds))
        assert scan_bytes(mutate(seeds[ext], rng)[1], scanner) in (0, 4, 5)
