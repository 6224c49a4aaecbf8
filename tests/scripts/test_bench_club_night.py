"""benchmarks/bench_club_night.py: its quantiles, its stream reader, and a tiny club
night against a real `python -m boggle_cv serve` (the figures' shape, not their size)."""
from __future__ import annotations

import asyncio
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_club_night import pct  # noqa: E402
from club_http import EventStream  # noqa: E402


def test_pct_is_nearest_rank():
    assert pct([3.0, 1.0], 0.5) == 1.0 and pct([3.0, 1.0], 0.95) == 3.0
    assert pct(list(map(float, range(1, 101))), 0.95) == 95.0
    assert math.isnan(pct([], 0.5))


def test_event_stream_parses_versions_and_changes():
    async def parse() -> EventStream:
        s = EventStream("127.0.0.1", 1, "127.0.0.1", "/x")
        s._parse('event: room\nid: 7\ndata: {"version": 7, "change": {"what": "photo"}}')
        s._parse(": keep-alive")
        s._parse('event: room\nid: 9\ndata: {"version": 9, "change": {"what": "words"}}')
        return s
    s = asyncio.run(parse())
    assert [(e.version, e.what) for e in s.events] == [(7, "photo"), (9, "words")]
    assert s.first_at(8) == s.events[1].at and s.first_at(10) is None


@pytest.mark.slow
def test_a_tiny_club_night_runs_and_reports(tmp_path):
    pytest.importorskip("starlette")
    out = tmp_path / "fig.json"
    p = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_club_night.py"), "--rooms", "1",
                        "--phones", "2", "--seconds", "4", "--ramp", "0", "--json", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    assert "save latency" in p.stdout and "targets" in p.stdout
    fig = json.loads(out.read_text())
    assert fig["phones_joined"] == 2 and fig["lost_saves"] == 0 and fig["saves_ok"] >= 2
    assert fig["scored"] == 1 and fig["new_room_after_s"] is not None
    assert fig["server_memory_mb"]["rss_peak"] > 0
