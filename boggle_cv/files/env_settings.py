"""Numbers read from the environment ($BOGGLE_CV_*), checked against their range.

`env_number(name, low, high, what, hint, environ)`: the variable's value as a float,
None when it is unset or blank; UsageError (exit 2) for a value that is not a number
from `low` to `high` (NaN and infinities included), naming `what` it should be.
"""
from __future__ import annotations

import os
from collections.abc import Mapping

from ..errors import UsageError


def env_number(name: str, low: float, high: float, what: str, hint: str,
               environ: Mapping[str, str] | None = None) -> float | None:
    raw = (os.environ if environ is None else environ).get(name, "").strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not low <= value <= high:  # NaN fails too
        raise UsageError(f"{name}={raw!r} is not {what} from {low:g} to {high:g}", hint)
    return value
