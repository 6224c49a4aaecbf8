"""vision.quantiles gives numpy's median and percentile bit for bit, type included,
without importing numpy.ma."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from boggle_cv.vision.quantiles import median, percentile


def _arrays() -> list[np.ndarray]:
    rng = np.random.default_rng(14)
    out: list[np.ndarray] = []
    for n in [1, 2, 3, 4, 5, 7, 8, 16, 25, 36, 99, 100, 101, 1000, 4097]:
        out.append(rng.integers(0, 256, n).astype(np.uint8))
        out.append(rng.integers(0, 256, (n, 3)).astype(np.uint8))
        out.append(rng.integers(-1000, 1000, n))
        out.append(rng.normal(50, 20, n))
        out.append(rng.normal(50, 20, n).astype(np.float32))
        out.append(np.round(rng.normal(5, 2, n), 1))        # ties
        out.append(np.full(n, 7.25))
    return out


def _same(ours: object, theirs: object) -> bool:
    a, b = np.asarray(ours), np.asarray(theirs)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("q", [0, 1, 25, 50, 62.5, 75, 90, 99.9, 100])
def test_percentile_is_numpys(q: float) -> None:
    for a in _arrays():
        assert _same(percentile(a, q), np.percentile(a, q)), (a.dtype, a.shape, q)


def test_median_is_numpys() -> None:
    for a in _arrays():
        assert _same(median(a), np.median(a)), (a.dtype, a.shape)
        assert _same(median(a.tolist()), np.median(a.tolist()))


def test_nan_gives_nan_as_numpy_does() -> None:
    a = np.array([1.0, np.nan, 3.0], np.float32)
    assert np.isnan(median(a)) and np.asarray(median(a)).dtype == np.float32
    assert np.isnan(percentile(a, 75)) and np.asarray(percentile(a, 75)).dtype == np.float32


def test_no_values_and_bad_q_are_refused() -> None:
    with pytest.warns(RuntimeWarning):
        ours = median(np.array([]))
    with pytest.warns(RuntimeWarning):
        theirs = np.median(np.array([]))
    assert _same(ours, theirs)
    with pytest.raises(ValueError):
        percentile([], 50)
    with pytest.raises(ValueError):
        percentile([1, 2], 101)


def test_numpy_ma_is_not_imported() -> None:
    code = ("import sys, numpy as np; from boggle_cv.vision.quantiles import median, percentile; "
            "median(np.arange(10.)); percentile(np.arange(9, dtype=np.uint8), 75); "
            "print('numpy.ma' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_reading_a_photo_does_not_import_numpy_ma() -> None:
    """The vision stages keep to vision.quantiles (a cold scan saves numpy.ma's import)."""
    from pathlib import Path
    photo = Path(__file__).resolve().parents[2] / "samples" / "sample-5x5-a.jpg"
    code = ("import sys; import boggle_cv; from boggle_cv import solve; "
            f"b = boggle_cv.read_board({str(photo)!r}); solve(b.board); "
            "print('numpy.ma' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False", out.stderr
