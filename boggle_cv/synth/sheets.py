"""Rendered players' sheets: a list written in a handwriting-like face
(OpenCV's Hershey script faces, drawn with a wobble), on ruled or plain paper, and
photographed (turn, perspective, a table around it). For tests and the shipped sample
sheet; every figure made from these says "rendered".

    paper, boxes = render_paper(words, rng, ...)   # BGR uint8 (H, W, 3); boxes (x0, y0, x1, y1)
    photo, corners = photograph(paper, rng, ...)   # BGR uint8; paper corners (4, 2) (x, y)

All randomness comes from the Generator passed in: same seed, same pixels.
"""
from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]
F64 = npt.NDArray[np.float64]

#: The least space between two words of a line, in letter heights.
SPACE_MIN = 0.45
FACES = (cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX)
INKS = ((120, 40, 20), (40, 30, 25), (70, 70, 70))  # BGR: blue pen, black pen, pencil


def render_paper(lines: Sequence[Sequence[str]], rng: np.random.Generator, *, size: tuple[int, int] = (1200, 1600),
                 columns: int = 1, ruled: bool = True, struck: Sequence[str] = (), margin_marks: Sequence[str] = (),
                 pitch: int = 64, scale: float = 1.5, separator: str = "  ") -> tuple[U8, list[tuple[int, int, int, int]]]:
    """A sheet (BGR uint8 (H, W, 3), size = (W, H) px) with `lines` written top to
    bottom (each line's words joined by `separator`), split into `columns`; words in
    `struck` get a line through them; `margin_marks` (e.g. scores "3") are written at
    the right of the first lines. Returns the paper and each written word's box
    (x0, y0, x1, y1) in writing order (the separator's punctuation not included)."""
    W, H = size
    paper = np.full((H, W, 3), 246, np.uint8)
    paper[:, :, 0] = 240
    if ruled:
        for y in range(pitch + 40, H - 20, pitch):
            cv2.line(paper, (0, y), (W, y), (225, 195, 170), 2)
        cv2.line(paper, (90, 0), (90, H), (170, 170, 235), 2)
    ink = INKS[int(rng.integers(len(INKS)))]
    face = FACES[int(rng.integers(len(FACES)))]
    per_col = -(-len(lines) // columns)
    boxes: list[tuple[int, int, int, int]] = []
    for i, line in enumerate(lines):
        c, r = divmod(i, per_col)
        x = 120 + c * (W // columns) + int(rng.integers(-6, 10))
        base = 40 + pitch * (r + 1) - 10
        for j, word in enumerate(line):
            (tw, th), _ = cv2.getTextSize(word, face, scale, 2)
            yb = base + int(rng.integers(-3, 4))
            cv2.putText(paper, word, (x, yb), face, scale, ink, 2, cv2.LINE_AA)
            boxes.append((x, yb - th, x + tw, yb + int(th * 0.35)))
            if word in struck:
                y_mid = yb - th // 3
                cv2.line(paper, (x - 6, y_mid + 2), (x + tw + 6, y_mid - 2), ink, 2, cv2.LINE_AA)
            x += tw
            if j < len(line) - 1:
                # the mark (a comma) drawn against the word, then the space: at least
                # SPACE_MIN letter heights whatever the face's own space is (OpenCV's
                # faces differ between releases: 5.1's is a narrow sans)
                mark = separator.strip()
                if mark:
                    cv2.putText(paper, mark, (x, yb), face, scale, ink, 2, cv2.LINE_AA)
                    x += cv2.getTextSize(mark, face, scale, 2)[0][0]
                spaces = len(separator) - len(separator.rstrip())
                if spaces:
                    space_w = cv2.getTextSize(" " * spaces, face, scale, 2)[0][0]
                    x += max(space_w, int(SPACE_MIN * th * min(spaces, 2)))
    for k, mark in enumerate(margin_marks):
        cv2.putText(paper, mark, (W - 110, 40 + pitch * (k + 1) - 10), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (40, 40, 200), 2,
                    cv2.LINE_AA)
    return paper, boxes


def table_texture(rng: np.random.Generator, size: tuple[int, int]) -> U8:
    """A wooden-looking table (BGR uint8 (H, W, 3), size = (W, H)): grain and noise."""
    W, H = size
    base = np.array([50, 85, 125], np.float32) * float(rng.uniform(0.7, 1.1))
    ys = np.arange(H, dtype=np.float32)[:, None]
    xs = np.arange(W, dtype=np.float32)[None, :]
    grain = 0.12 * np.sin(ys / 7.0 + 3 * np.sin(xs / 150.0)) + 0.05 * np.sin(ys / 2.3)
    img = base[None, None, :] * (1 + grain[..., None])
    img += rng.normal(0, 6, img.shape).astype(np.float32)
    out: U8 = np.clip(img, 0, 255).astype(np.uint8)
    return out


def photograph(paper: U8, rng: np.random.Generator, *, size: tuple[int, int] = (1600, 1200), angle: float = 0.0,
               tilt: float = 0.05, fill: float = 0.75, turn: int = 0) -> tuple[U8, F64]:
    """The paper lying on a table, photographed: turned `turn` degrees clockwise
    (0/90/180/270) then `angle` degrees more, a perspective of `tilt` (share of the
    side each corner moves), covering about `fill` of the frame. Returns the photo
    (BGR uint8, size = (W, H)) and the paper's corners (4, 2) (x, y), clockwise from
    the paper's own top-left."""
    W, H = size
    paper = np.ascontiguousarray(np.rot90(paper, -(turn // 90) % 4))
    ph, pw = paper.shape[:2]
    s = fill * min(W / pw, H / ph)
    a = np.deg2rad(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float64)
    dst = (src - [pw / 2, ph / 2]) * s @ rot.T + [W / 2, H / 2]
    dst += rng.uniform(-tilt, tilt, (4, 2)) * [pw * s, ph * s]
    m = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    table = table_texture(rng, (W, H))
    warped = cv2.warpPerspective(paper, m, (W, H))
    mask = cv2.warpPerspective(np.full((ph, pw), 255, np.uint8), m, (W, H))
    photo = np.where(mask[..., None] > 127, warped, table)
    shade = np.linspace(0.85, 1.05, W, dtype=np.float32)[None, :, None]
    photo = np.clip(photo.astype(np.float32) * shade + rng.normal(0, 3, photo.shape), 0, 255).astype(np.uint8)
    photo = cv2.GaussianBlur(photo, (0, 0), 0.7)
    k = (turn // 90) % 4
    corners = np.roll(dst, -k, axis=0)  # the paper's own top-left first
    out: U8 = np.asarray(photo, np.uint8)
    return out, corners
