"""Synthetic cube-top crops for training the face classifier (training only).

``CropRenderer(seed).sample()`` returns one BGR uint8 crop (S, S, 3) of one cell
pitch centred (with jitter) on a cube, with its face index (into
``reader_model.FACES``) and turn (0..3, quarter turns clockwise, see reader_model).

What it varies: font (bold and regular sans-serif families from Debian font
packages; a few serif for Qu/old sets), ink colour, glyph size, twist, off-centre
placement, underline bars (solid or dotted) under M/W/Z/N at random and rarely
under other letters, cube colour, rounding, shading, visible cube sides, glare,
neighbour cubes at the edges, tray colour, perspective, defocus and camera-shake
blur, dim rooms, noise, JPEG, cubes cut by the photo's edge, and
very low resolution (a real cube can be 8-12 px wide) (``degrade``, shared with
the real training crops).

The lone Q: some French dice print the Qu face as a lone capital "Q" (the scene
renderer's ``FaceStyle.lone_q``: the Q alone, sized as a single letter, no bar).
A share of the Qu crops (``RenderConfig.p_lone_q``) is drawn so, labelled Qu. A
lone Q differs from an O only by its tail, so its crops get the milder damage
(``degrade(..., keep_tail=True)``: no 8-16 px pitch, less blur and shake): a
crop whose tail the damage erased would teach "an O is a Qu". The O class keeps
its full damage and a larger share (``O_WEIGHT``), so a blurred round letter
stays an O.
"""
from __future__ import annotations

import glob
import os
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..synth.effects import jpeg_roundtrip, motion_blur
from ..vision.reader_model import FACES

FONT_PATTERNS = (
    "dejavu/DejaVuSans-Bold.ttf", "dejavu/DejaVuSans.ttf",
    "liberation/LiberationSans-Bold.ttf", "liberation/LiberationSans-Regular.ttf",
    "liberation/LiberationSansNarrow-Bold.ttf",
    "freefont/FreeSansBold.ttf", "freefont/FreeSans.ttf",
    "noto/NotoSans-Bold.ttf", "noto/NotoSans-Regular.ttf",
    "open-sans/OpenSans-Bold.ttf", "open-sans/OpenSans-ExtraBold.ttf", "open-sans/OpenSans-Semibold.ttf",
    "roboto/unhinted/RobotoTTF/Roboto-Black.ttf", "roboto/unhinted/RobotoTTF/Roboto-Bold.ttf",
    "roboto/unhinted/RobotoTTF/Roboto-Medium.ttf",
    "lato/Lato-Black.ttf", "lato/Lato-Bold.ttf", "lato/Lato-Heavy.ttf", "lato/Lato-Semibold.ttf",
    "urw-base35/NimbusSans-Bold.otf", "urw-base35/NimbusSansNarrow-Bold.otf",
    "urw-base35/URWGothic-Demi.otf", "urw-base35/URWGothic-Book.otf",
)
SERIF_PATTERNS = ("dejavu/DejaVuSerif-Bold.ttf", "urw-base35/NimbusRoman-Bold.otf", "urw-base35/C059-Bold.otf")
FONT_ROOTS = ("/usr/share/fonts/truetype", "/usr/share/fonts/opentype")

UNDERLINED = ("M", "W", "Z", "N")
#: sampling weights of the classes (the others 1): Qu is drawn 1.5x as often, so that
#: its lone-Q share does not take from the two-letter Qu; O as often, so that the O
#: class stays well above the lone Q (about 2,700 O, 1,100 lone Q in 60,000 crops).
QU_WEIGHT = 1.5
O_WEIGHT = 1.5


def find_fonts() -> tuple[list[str], list[str]]:
    """Paths of the sans and serif fonts that are installed (sans list must not be empty)."""
    def look(pats):
        out = []
        for p in pats:
            for root in FONT_ROOTS:
                f = os.path.join(root, p)
                if os.path.exists(f):
                    out.append(f)
                    break
        return out
    sans, serif = look(FONT_PATTERNS), look(SERIF_PATTERNS)
    if not sans:
        sans = sorted(glob.glob("/usr/share/fonts/truetype/dejavu/*.ttf"))
    if not sans:
        raise RuntimeError("no fonts found: install fonts-dejavu-core fonts-liberation")
    return sans, serif


def _frame_cut(crop: np.ndarray, side: int, frac: float) -> np.ndarray:
    """The crop of a cube cut by the photo's edge, as cut_cells fills it: the band of
    `frac` x the crop beyond the edge on `side` (0 top, 1 right, 2 bottom, 3 left)
    repeats the last row or column inside (BORDER_REPLICATE). Same shape."""
    out = np.rot90(crop, side).copy()   # the cut side is now the top
    k = max(1, int(round(frac * out.shape[0])))
    out[:k] = out[k]
    return np.ascontiguousarray(np.rot90(out, -side))

def degrade(crop: np.ndarray, rng: np.random.Generator, p_dim: float = 0.12,
            keep_tail: bool = False) -> np.ndarray:
    """A camera's damage to a crop (S, S, 3) of one pitch: uint8 or float in 0..255 -> uint8.

    Defocus (sigma 0.3-3.2 px at S=64, about 0.05 pitch), camera shake (15%),
    brightness / contrast / colour cast, a dim room (p_dim: x0.15-0.45 with a
    gamma, then sensor noise that is large next to the signal), low resolution
    (70%: down to 8-56 px a pitch and back, a third of them below 16 px), noise
    and JPEG (40%). Used for the synthetic crops and for a share of the real
    training crops. keep_tail (lone-Q crops): defocus sigma at most 1.4 px at
    S=64, shake at most 0.08 pitch, low resolution 22-56 px a pitch only, so
    that the Q's tail stays visible.
    """
    P = crop.shape[0]
    crop = np.asarray(crop, np.float32)
    if rng.random() < 0.6:
        hi = 2.0 if rng.random() < 0.7 else 3.2
        crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.3, 1.4 * P / 64 if keep_tail else hi))
    if rng.random() < 0.15:
        n = max(3, int(round(rng.uniform(0.04, 0.08 if keep_tail else 0.22) * P))) | 1
        crop = motion_blur(crop, n, rng.uniform(0, 180), cv2.BORDER_REPLICATE)
    crop = crop * rng.uniform(0.6, 1.25) + rng.uniform(-30, 30)
    crop = crop * (1 + rng.normal(0, 0.06, 3))
    if rng.random() < p_dim:
        crop = 255.0 * (np.clip(crop, 0, 255) / 255.0) ** rng.uniform(1.0, 1.5) * rng.uniform(0.15, 0.45)
        crop = crop + rng.normal(0, rng.uniform(2, 7), crop.shape)
    if rng.random() < 0.7:
        # a third of these at 8-16 px a pitch: a small tray in a small photo
        lo = int(rng.integers(8, 16)) if rng.random() < 0.33 else int(rng.integers(14, 56))
        if keep_tail:
            lo = int(rng.integers(22, 56))
        crop = cv2.resize(np.asarray(crop, np.float32), (lo, lo), interpolation=cv2.INTER_AREA)
        crop = crop + rng.normal(0, rng.uniform(0, 8), crop.shape)
        crop = cv2.resize(np.clip(crop, 0, 255).astype(np.float32), (P, P), interpolation=cv2.INTER_LINEAR)
    else:
        crop = crop + rng.normal(0, rng.uniform(0, 8), crop.shape)
    out = np.clip(crop, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        out = jpeg_roundtrip(out, int(rng.integers(25, 90)))
    return out


@dataclass(frozen=True)
class RenderConfig:
    """Crop geometry in units of the cell pitch, canvas in pixels."""

    canvas_px: int = 64
    cube_frac: tuple[float, float] = (0.70, 0.95)   # cube top side / pitch
    offset_frac: float = 0.15                        # max centre offset / pitch
    glyph_frac: tuple[float, float] = (0.36, 0.66)  # glyph box height / cube side
    twist_deg: float = 12.0
    p_underline: float = 0.55
    p_underline_other: float = 0.03
    p_lone_q: float = 0.4                            # share of the Qu crops drawn as a lone "Q"


def _glyph(font_path: str, face: str, px: int = 120) -> np.ndarray:
    """Tight uint8 coverage mask (h, w) of a face as printed, upright."""
    big = ImageFont.truetype(font_path, px)
    img = Image.new("L", (px * 4, px * 2), 0)
    d = ImageDraw.Draw(img)
    if face == "#":
        return np.zeros((1, 1), np.uint8)
    if len(face) == 1:
        d.text((px // 2, int(px * 1.5)), face, font=big, fill=255, anchor="ls")
    else:
        small = ImageFont.truetype(font_path, int(px * (0.62 if face == "Qu" else 0.8)))
        x = px // 2
        d.text((x, int(px * 1.5)), face[0], font=big, fill=255, anchor="ls")
        x += int(d.textlength(face[0], font=big)) + int(px * 0.02)
        d.text((x, int(px * 1.5)), face[1], font=small, fill=255, anchor="ls")
    a = np.asarray(img)
    ys, xs = np.nonzero(a > 20)
    if len(ys) == 0:
        return np.zeros((1, 1), np.uint8)
    return np.ascontiguousarray(a[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


class CropRenderer:
    """Seeded renderer of labelled synthetic cube crops."""

    def __init__(self, seed: int = 0, config: RenderConfig = RenderConfig()):
        self.rng = np.random.default_rng(seed)
        self.cfg = config
        self.sans, self.serif = find_fonts()
        self._cache: dict[tuple[str, str], np.ndarray] = {}
        self.faces = FACES
        # class weights for sampling: the two-letter faces and blanks are rarer on
        # boards but must be learned; sample all classes about equally.
        w = np.ones(len(FACES))
        w[FACES.index("Qu")], w[FACES.index("O")] = QU_WEIGHT, O_WEIGHT
        self.p_face = w / w.sum()

    def glyph(self, font: str, face: str) -> np.ndarray:
        k = (font, face)
        if k not in self._cache:
            self._cache[k] = _glyph(font, face)
        return self._cache[k]

    # ---- pieces -------------------------------------------------------------
    def _colour(self, base, spread):
        return np.clip(np.asarray(base, float) + self.rng.normal(0, spread, 3), 0, 255)

    def _cube_colour(self):
        r = self.rng.random()
        if r < 0.55:
            return self._colour((235, 238, 240), 12)   # white (BGR)
        if r < 0.8:
            return self._colour((200, 225, 235), 14)   # cream
        if r < 0.9:
            return self._colour((190, 190, 195), 20)   # grey-ish / shadowed
        return self._colour((120, 170, 205), 20)       # wood-ish

    def _tray_colour(self):
        choices = [(30, 110, 230), (90, 30, 20), (60, 20, 10), (40, 80, 140), (25, 25, 25),
                   (130, 120, 110), (40, 120, 60), (160, 150, 140), (20, 60, 200)]
        return self._colour(choices[self.rng.integers(len(choices))], 25)

    def _ink(self, face):
        r = self.rng.random()
        if r < 0.45:
            return self._colour((25, 25, 25), 15)
        if r < 0.75:
            return self._colour((120, 40, 20), 25)     # navy / blue
        if r < 0.87:
            return self._colour((200, 90, 30), 30)     # bright blue
        if r < 0.94:
            return self._colour((110, 110, 20), 25)    # teal
        return self._colour((40, 40, 190), 25)         # red

    def _face_patch(self, face: str, font: str, underline: bool, dotted: bool) -> np.ndarray:
        """Upright float mask (h, w) in 0..1 of the glyph with its optional bar."""
        g = self.glyph(font, face).astype(np.float32) / 255.0
        if face == "I" and self.rng.random() < 0.4:
            # an I with slab serifs, as some editions print it
            h, w = g.shape
            bw = max(w * 3, int(h * self.rng.uniform(0.35, 0.6)))
            th = max(2, int(round(min(w, h * 0.16) * self.rng.uniform(0.6, 1.0))))
            out = np.zeros((h, bw), np.float32)
            x0 = (bw - w) // 2
            out[:, x0:x0 + w] = g
            out[:th, :] = 1.0
            out[h - th:, :] = 1.0
            g = out
        if not underline:
            return g
        h, w = g.shape
        gap = max(1, int(h * self.rng.uniform(0.06, 0.16)))
        th = max(2, int(h * self.rng.uniform(0.06, 0.12)))
        bw = int(w * self.rng.uniform(0.6, 1.05))
        out = np.zeros((h + gap + th, max(w, bw)), np.float32)
        x0 = (out.shape[1] - w) // 2
        out[:h, x0:x0 + w] = g
        bx = (out.shape[1] - bw) // 2
        if dotted:
            n = int(self.rng.integers(4, 8))
            step = bw / n
            for i in range(n):
                a = int(bx + i * step)
                out[h + gap:, a:a + max(1, int(step * 0.55))] = 1.0
        else:
            out[h + gap:, bx:bx + bw] = 1.0
        return out

    def _paint_glyph(self, img, centre, height_px, face, font, turn, twist, ink, underline, dotted):
        patch = self._face_patch(face, font, underline, dotted)
        if patch.size <= 1:
            return
        h, w = patch.shape
        s = height_px / float(h)
        if face in ("Qu", "An", "Er", "He", "In", "Th") and w * s > height_px * 1.6:
            s = height_px * 1.6 / float(w)
        # clockwise rotation by angle on screen: cv2 angle is counter-clockwise
        ang = -(turn * 90.0 + twist)
        m = cv2.getRotationMatrix2D((w / 2.0, h / 2.0), ang, s)
        m[0, 2] += centre[0] - w / 2.0
        m[1, 2] += centre[1] - h / 2.0
        # paint only inside a box around the centre (speed)
        R = int(height_px * 1.3) + 2
        x0 = max(0, int(centre[0]) - R); y0 = max(0, int(centre[1]) - R)
        x1 = min(img.shape[1], int(centre[0]) + R); y1 = min(img.shape[0], int(centre[1]) + R)
        if x1 <= x0 or y1 <= y0:
            return
        m[0, 2] -= x0
        m[1, 2] -= y0
        mask = cv2.warpAffine(patch, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderValue=0)
        a = np.clip(mask * self.rng.uniform(0.75, 1.0), 0, 1)[..., None]
        roi = img[y0:y1, x0:x1]
        roi[:] = roi * (1 - a) + np.asarray(ink, np.float32) * a

    def _rounded(self, img, cx, cy, side, radius, colour):
        x0, y0 = cx - side / 2, cy - side / 2
        r = max(1.0, radius)
        sh = 4  # fixed-point bits for sub-pixel drawing
        f = 1 << sh
        pts = []
        for (ax, ay, a0) in ((x0 + side - r, y0 + r, -90), (x0 + side - r, y0 + side - r, 0),
                             (x0 + r, y0 + side - r, 90), (x0 + r, y0 + r, 180)):
            for t in np.linspace(a0, a0 + 90, 6):
                pts.append((ax + r * np.cos(np.deg2rad(t)), ay + r * np.sin(np.deg2rad(t))))
        p = (np.array(pts) * f).astype(np.int32)
        cv2.fillPoly(img, [p], [float(v) for v in colour], lineType=cv2.LINE_AA, shift=sh)

    # ---- one sample ---------------------------------------------------------
    def sample(self) -> tuple[np.ndarray, int, int]:
        cfg, rng = self.cfg, self.rng
        P = cfg.canvas_px
        # work on a 2x2-pitch canvas centred on the cube: neighbours show at the edges
        W = 2 * P
        img = np.empty((W, W, 3), np.float32)
        img[:] = self._tray_colour()
        img += rng.normal(0, 6, (W, W, 1)).astype(np.float32)
        fi = int(rng.choice(len(self.faces), p=self.p_face))
        face = self.faces[fi]
        turn = int(rng.integers(4))
        font_list = self.sans
        if face == "Qu" and self.serif and rng.random() < 0.2:
            font_list = self.serif
        font = font_list[rng.integers(len(font_list))]
        # a lone Q is printed as the Q alone (FaceStyle.lone_q), labelled Qu
        lone_q = face == "Qu" and rng.random() < cfg.p_lone_q
        glyph = "Q" if lone_q else face
        cube_col = self._cube_colour()
        red_cube = rng.random() < 0.06
        if red_cube:
            cube_col = self._colour((40, 40, 190), 20)
        side = P * rng.uniform(*cfg.cube_frac)
        radius = side * rng.uniform(0.05, 0.3)
        off = rng.uniform(-cfg.offset_frac, cfg.offset_frac, 2) * P
        sdx, sdy = rng.normal(0, 0.05, 2) * P  # visible side of the cube (perspective)
        # neighbours first (8 around), each a cube with a random glyph
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if dx == 0 and dy == 0:
                    continue
                if rng.random() < 0.08:
                    continue  # missing neighbour / edge of tray
                j = rng.normal(0, 0.06, 2) * P
                ncx, ncy = W / 2 + dx * P + j[0] + off[0] * 0.3, W / 2 + dy * P + j[1] + off[1] * 0.3
                ncol = np.clip(cube_col + rng.normal(0, 10, 3), 0, 255)
                self._rounded(img, ncx + sdx, ncy + sdy, side, radius, ncol * 0.6)
                self._rounded(img, ncx, ncy, side * rng.uniform(0.95, 1.05), radius, ncol)
                nf = self.faces[int(rng.integers(len(self.faces) - 1))]
                self._paint_glyph(img, (ncx, ncy), side * rng.uniform(*cfg.glyph_frac), nf, font,
                                  int(rng.integers(4)), rng.normal(0, 6), self._ink(nf), False, False)
        cx, cy = W / 2 + off[0], W / 2 + off[1]
        self._rounded(img, cx + sdx, cy + sdy, side, radius, cube_col * rng.uniform(0.45, 0.75))
        self._rounded(img, cx, cy, side, radius, cube_col)
        # shading: linear gradient across the cube and the whole canvas
        gx, gy = np.meshgrid(np.linspace(-1, 1, W), np.linspace(-1, 1, W))
        a, b = rng.normal(0, 0.12, 2)
        shade = 1.0 + a * gx + b * gy
        img *= shade[..., None].astype(np.float32)
        # glyph
        gh = side * rng.uniform(*cfg.glyph_frac)
        if face == "#":
            if rng.random() < 0.4:  # some blank faces carry a printed square
                sq = side * rng.uniform(0.25, 0.45)
                self._rounded(img, cx, cy, sq, sq * 0.05, self._ink(face))
        else:
            goff = rng.normal(0, 0.04, 2) * side
            underline = (face in UNDERLINED and rng.random() < cfg.p_underline) or \
                        (rng.random() < cfg.p_underline_other)
            ink = self._colour((240, 240, 240), 10) if red_cube else self._ink(face)
            self._paint_glyph(img, (cx + goff[0], cy + goff[1]), gh, glyph, font, turn,
                              rng.uniform(-cfg.twist_deg, cfg.twist_deg), ink,
                              underline, rng.random() < 0.3)
        if not red_cube and rng.random() < 0.12:
            # a bonus ring around the letter (red, sometimes another colour)
            col = self._colour((40, 40, 200), 20) if rng.random() < 0.8 else self._ink(face)
            rad = side * rng.uniform(0.36, 0.47)
            thick = max(1, int(side * rng.uniform(0.03, 0.07)))
            cv2.circle(img, (int(cx), int(cy)), int(rad), [float(v) for v in col], thick, cv2.LINE_AA)
        # glare
        if rng.random() < 0.3:
            g = np.zeros((W, W), np.float32)
            gc = (int(cx + rng.normal(0, side / 3)), int(cy + rng.normal(0, side / 3)))
            ax = (int(side * rng.uniform(0.05, 0.3)), int(side * rng.uniform(0.05, 0.3)))
            cv2.ellipse(g, gc, ax, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
            g = cv2.GaussianBlur(g, (0, 0), side * 0.05 + 1)
            img += (g * rng.uniform(60, 200))[..., None]
        # crop one pitch with a random mild perspective
        src = np.float32([[P / 2, P / 2], [1.5 * P, P / 2], [1.5 * P, 1.5 * P], [P / 2, 1.5 * P]])
        src += rng.normal(0, 0.04 * P, (4, 2)).astype(np.float32)
        dst = np.float32([[0, 0], [P, 0], [P, P], [0, P]])
        h = cv2.getPerspectiveTransform(src, dst)
        crop = cv2.warpPerspective(np.clip(img, 0, 255), h, (P, P), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        if rng.random() < 0.06:
            crop = _frame_cut(crop, int(rng.integers(4)), rng.uniform(0.08, 0.4))
        crop = degrade(crop, self.rng, keep_tail=lone_q)
        return crop, fi, turn

    def batch(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """n samples: crops (n, S, S, 3) uint8, faces (n,) int64, turns (n,) int64."""
        S = self.cfg.canvas_px
        x = np.empty((n, S, S, 3), np.uint8)
        f = np.empty(n, np.int64)
        t = np.empty(n, np.int64)
        for i in range(n):
            x[i], f[i], t[i] = self.sample()
        return x, f, t
