"""Synthetic photos of Boggle trays, with their truth (training and test data).

API (all randomness comes from the Generator you pass; same seed, same pixels):

    import numpy as np
    from boggle_cv.synth import render_photo, write_dataset, SynthConfig

    img, truth = render_photo(np.random.default_rng(7), size=5, long_side=1200)
    # img: uint8 (H, W, 3) BGR; truth: dict (JSON-ready), keys below
    write_dataset("out/", count=500, seed=1, size=None)   # photos + truth.json

render_photo(rng, size=None, set_name=None, long_side=None, kind=None, config=SynthConfig())
  size: 4, 5, 6 or None (drawn with config.size_weights); set_name: "classic-4",
  "modern-4", "big-1979", "big-deluxe", "super-big-6" or "pocket" (Pocket Boggle
  strips, 4x4, letters upright); long_side: pixels (400..4000; default
  config.long_side); kind: "tray" (a complete board), "pocket", or a negative:
  "empty-tray", "incomplete" (tray not full, loose cubes beside), "spilled" (cubes on
  the table, maybe an empty tray); None draws one (config.negative_p, pocket_p).

truth keys (the format of ../shared/real-photos/truth.json, plus training fields):
  size        N, or None for a spilled photo without a tray
  faces       N rows of N face strings ("A", "Qu", "Th", "#" blank), in the board's
              frame turned so that most letters read upright; None for negatives
  corners     (4, 2) [x, y] photo pixels: outer corners of the cell grid at the
              height of the cube tops (cell (r, c) centre = cube centre up to its
              jitter), order row0col0, row0colN-1, rowN-1colN-1, rowN-1col0; may lie
              outside the frame (cut_off); None when there is no tray
  turns       N x N of 0/90/180/270: degrees the letter is rotated clockwise from
              upright in the board frame (cubes also twist up to 10 deg, not counted)
  centres     N x N of [x, y]: each cube top's centre in photo pixels
  set, underline (letters printed with a bar, e.g. "MWZ"), bonus ([[r, c], ...]
  cells with a red ring), challenge ([r, c] of the red challenge cube or None),
  no_board (None, or "empty-tray" / "incomplete" / "spilled"), kind, tray (look),
  background, font, hand, cut_off, image_size [w, h], camera {tilt_deg, px_per_pitch}

Drawing letters needs Pillow (extra `train`) and system fonts (fonts-dejavu-core,
fonts-liberation, ...); without them render_photo raises EngineMissingError.
Modules, one job each (cube sets themselves are boggle_cv.game.dice's):
  scene        render_photo, SynthConfig: what to draw, in which order
  cubesets     the dice sets as drawn (set names, pocket, underline editions), roll
  geometry     the tray's shape in pitches, world points
  looks        colours of trays, cubes and inks; a render's FaceStyle
  framing      a random camera that sees the board
  backgrounds  table textures, clutter, a hand
  tray         the tray's shadow, walls and top (or a Pocket Boggle frame)
  cubes        cubes in the wells or loose; drawing their sides and tops
  tiles        one cube face as a BGRA tile; fonts: fonts and letter masks
  camera       the pinhole camera, warping tiles and canvases into the photo
  effects      light, blur, noise, JPEG
  truth        the truth dict (PhotoTruth), the upright frame
  dataset      write_dataset, contact sheets, players' word lists
"""
from __future__ import annotations

from .cubesets import set_names
from .dataset import annotate, contact_sheet, player_lists, write_dataset
from .effects import EffectsConfig
from .scene import KINDS, NEGATIVE_KINDS, SynthConfig, render_photo

__all__ = ["render_photo", "write_dataset", "SynthConfig", "EffectsConfig", "KINDS", "NEGATIVE_KINDS",
           "set_names", "annotate", "contact_sheet", "player_lists"]
