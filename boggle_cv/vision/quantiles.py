"""Median and percentile that give numpy's exact results without importing numpy.ma.

Why: `np.median` and `np.percentile` import `numpy.ma` the first time they run
(numpy's NaN check asks `np.ma.isMaskedArray`), about 11 ms that every cold
`boggle-cv scan` paid inside the tray finder. These two functions do the same
arithmetic as numpy 2 (the same partition positions, the same `mean` of the
middle pair, the same linear interpolation, the same result types), so a reading
cannot change; tests/vision/test_quantiles.py compares them with numpy bit for bit.

Only what the vision stages use: a whole array (no `axis`), one quantile, the
default "linear" method.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt


def median(values: npt.ArrayLike) -> Any:
    """The median of all the values, as `np.median(values)` returns it: a numpy
    scalar of the type numpy gives (float64 for integers, the input's float type
    otherwise); NaN if any value is NaN or there are none (with numpy's
    RuntimeWarning for the latter)."""
    a = np.asarray(values).ravel()
    n = a.size
    if n == 0:
        return np.mean(a)
    half = n // 2
    if n % 2:
        part = np.partition(a, half)
        middle = part[half:half + 1]
    else:
        part = np.partition(a, (half - 1, half))
        middle = part[half - 1:half + 1]
    result = np.mean(middle)
    return _nan_if_any(a, result)


def percentile(values: npt.ArrayLike, q: float) -> Any:
    """The q-th percentile (0..100) of all the values by linear interpolation, as
    `np.percentile(values, q)` returns it for a Python float or int q. Raises
    ValueError on no values or q outside 0..100."""
    a = np.asarray(values).ravel()
    n = a.size
    if n == 0:
        raise ValueError("percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError(f"percentile {q} is outside 0..100")
    quantile = np.true_divide(q, 100)
    virtual = float((n - 1) * quantile)   # numpy's virtual index for "linear"
    if virtual >= n - 1:          # the top value (numpy: both neighbours are the last)
        lo_i, gamma = n - 1, 0.0
    else:
        lo_i = math.floor(virtual)
        gamma = virtual - lo_i
    hi_i = min(lo_i + 1, n - 1)
    part = np.partition(a, sorted({lo_i, hi_i}))
    return _nan_if_any(a, _lerp(part[lo_i:lo_i + 1], part[hi_i:hi_i + 1], gamma))


def _lerp(lo: npt.NDArray[Any], hi: npt.NDArray[Any], t: float) -> Any:
    """numpy's `_lerp`: lo + (hi - lo) * t, or hi - (hi - lo) * (1 - t) from t = 0.5 on
    (1-element arrays in, a numpy scalar out)."""
    diff = hi - lo
    out = np.add(lo, diff * t)
    np.subtract(hi, diff * (1 - t), out=out, where=t >= 0.5, casting="unsafe", dtype=type(out.dtype))
    return out[0]


def _nan_if_any(a: npt.NDArray[Any], result: Any) -> Any:
    """numpy's answer when a value is NaN: NaN of the result's type."""
    if np.issubdtype(a.dtype, np.inexact) and np.isnan(a).any():
        return result.dtype.type(np.nan)
    return result
