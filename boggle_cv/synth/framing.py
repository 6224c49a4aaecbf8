"""Where the photographer stands: a random camera that sees the whole board.

World units are cell pitches (geometry.py); photo pixels (x, y), origin top-left.
"""
from __future__ import annotations

import numpy as np

from .camera import Camera, look_at_camera
from .geometry import TrayGeometry, at_height, cell_centre, grid_outline

TRIES = 40                       # cameras drawn before falling back to a plain one
CUT_OFF_TRIES = 30               # of those, tries to frame a close-up (grid cut by the frame)
FOCAL = (0.75, 1.3)              # focal length, x the photo's long side
NEAR_TOP_DOWN_P = 0.3            # chance of a near top-down shot ...
NEAR_TOP_DOWN_DEG = 6.0          # ... tilted at most this much
SQUARE_ROLL_P = 0.5              # chance the board is roughly square to the frame ...
SQUARE_ROLL_SIGMA_DEG = 6.0      # ... off by a normal with this sigma
BOARD_FILL = (0.3, 0.95)         # tray width, share of the photo's short side
CUT_OFF_FILL = (1.0, 1.15)       # a close-up: the grid fills this x the short side
SLACK_USE = 0.9                  # the aim point moves within this share of the free view
CENTRE_JITTER = 0.3              # aim jitter when the tray fills the view, pitches
EDGE_PX = 2                      # cube centres at least this far inside the frame
FALLBACK_TILT_DEG = 10.0
FALLBACK_FILL = 0.6


def sample_camera(rng: np.random.Generator, max_tilt_deg: float, w: int, h: int,
                  g: TrayGeometry, cut_off: bool) -> Camera:
    """A camera for a (w, h) photo that sees every cube top's centre.

    Without `cut_off` the whole grid is in the frame too; with it, the first tries
    frame a close-up whose outer cubes the frame cuts. Tilt is near top-down
    (NEAR_TOP_DOWN_P) or uniform up to max_tilt_deg (degrees). After TRIES misses:
    a camera straight above, tilted FALLBACK_TILT_DEG, the tray small in the frame.
    """
    long_side, short = max(w, h), min(w, h)
    grid_pts = at_height(grid_outline(g.n), g.top)
    centres = at_height(np.array([cell_centre(r, c, g.n) for r in range(g.n) for c in range(g.n)]), g.top)
    for attempt in range(TRIES):
        focal = long_side * rng.uniform(*FOCAL)
        tilt = rng.uniform(0, NEAR_TOP_DOWN_DEG) if rng.random() < NEAR_TOP_DOWN_P \
            else rng.uniform(0, max_tilt_deg)
        roll = (int(rng.integers(4)) * 90 + rng.normal(0, SQUARE_ROLL_SIGMA_DEG)) if rng.random() < SQUARE_ROLL_P \
            else rng.uniform(0, 360)
        if cut_off and attempt < CUT_OFF_TRIES:
            frac = rng.uniform(*CUT_OFF_FILL) * (2 * g.half) / g.n
        else:
            frac = rng.uniform(*BOARD_FILL)
        dist = focal * 2 * g.half / (frac * short)
        half_view = dist * short / (2 * focal)
        slack = max(0.0, half_view - g.half) * SLACK_USE
        target = np.array([rng.uniform(-slack, slack), rng.uniform(-slack, slack), -g.wall]) if slack > 0 \
            else np.array([rng.uniform(-CENTRE_JITTER, CENTRE_JITTER),
                           rng.uniform(-CENTRE_JITTER, CENTRE_JITTER), -g.wall])
        cam = look_at_camera(w, h, focal, tilt, rng.uniform(0, 360), roll, target, dist)
        pc = cam.project(centres)
        e = EDGE_PX
        inside = (pc[:, 0] > e) & (pc[:, 0] < w - e) & (pc[:, 1] > e) & (pc[:, 1] < h - e)
        if not inside.all():
            continue
        if not cut_off:
            gp = cam.project(grid_pts)
            if not ((gp[:, 0] > 0) & (gp[:, 0] < w) & (gp[:, 1] > 0) & (gp[:, 1] < h)).all():
                continue
        return cam
    focal = long_side
    return look_at_camera(w, h, focal, FALLBACK_TILT_DEG, 0, 0, np.array([0, 0, -g.wall]),
                          focal * 2 * g.half / (FALLBACK_FILL * short))
