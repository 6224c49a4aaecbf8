"""Run data-generation jobs on worker processes and join their arrays (training only)."""
from __future__ import annotations

import multiprocessing as mp
from typing import Callable, Sequence

import numpy as np


def map_concat(fn: Callable, jobs: Sequence, workers: int) -> tuple[np.ndarray, ...]:
    """fn(job) -> tuple of arrays, for every job (in order; forked processes when
    workers > 1); returns each position's arrays concatenated along axis 0."""
    if workers > 1:
        with mp.get_context("fork").Pool(workers) as pool:
            parts = pool.map(fn, jobs)
    else:
        parts = [fn(j) for j in jobs]
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(len(parts[0])))
