"""Run the program as users do and measure its peak memory.

`run_peak(...)` starts `python -m boggle_cv ARGS` through a small parent process of
its own, which reports the child's peak resident set size (getrusage
RUSAGE_CHILDREN, so only that one child counts). Returns (CompletedProcess, peak MiB).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

_PARENT = (
    "import json, resource, subprocess, sys\n"
    "p = subprocess.run(sys.argv[1:], stdin=sys.stdin, stdout=sys.stdout, stderr=sys.stderr)\n"
    "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
    "sys.stderr.write('\\n@@peak ' + json.dumps([p.returncode, peak]) + '\\n')\n"
)


def run_peak(*args: Any, stdin: Any = subprocess.DEVNULL, timeout: float = 120,
             env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run boggle-cv ARGS (stdin: a file object, bytes or DEVNULL); (proc, peak MiB).

    proc.stderr has the measurement line removed; proc.returncode is the program's.
    """
    e = dict(os.environ)
    e.pop("BOGGLE_CV_DEBUG", None)
    e.update(env or {})
    cmd = [sys.executable, "-c", _PARENT, sys.executable, "-m", "boggle_cv", *map(str, args)]
    kw: dict[str, Any] = {"input": stdin} if isinstance(stdin, bytes) else {"stdin": stdin}
    proc = subprocess.run(cmd, capture_output=True, env=e, timeout=timeout, **kw)
    err = proc.stderr.decode("utf-8", "replace")
    head, _, tail = err.rpartition("\n@@peak ")
    rc, peak_kb = json.loads(tail.strip())
    out = subprocess.CompletedProcess(proc.args, rc, proc.stdout.decode("utf-8", "replace"), head)
    return out, peak_kb / 1024.0
