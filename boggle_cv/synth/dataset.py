"""Write a folder of rendered photos with truth.json, a contact sheet, and players'
word lists for sample boards.

Photo i of a dataset is rendered with `np.random.default_rng([seed, i])`, so the
same seed gives the same files whatever the count, and photo i does not depend on
the photos before it.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Callable, TypedDict

import cv2
import numpy as np
import numpy.typing as npt

from ..errors import StorageError
from .scene import SynthConfig, render_photo
from .truth import PhotoTruth

if TYPE_CHECKING:
    from ..game.dictionary import Dictionary

SCHEMA_VERSION = 1
JPEG_QUALITY = 90
ABOUT = ("Synthetic tray photos rendered by boggle-cv synth. faces: rows of faces in the board's "
         "frame (turned so that most letters read upright; 'Qu' one face, '#' blank). corners: the "
         "outer corners of the cell grid at the height of the cube tops, photo pixels (x, y), order "
         "row 0 col 0, row 0 col N-1, row N-1 col N-1, row N-1 col 0; outside the frame where outer "
         "cubes are cut off. turns: degrees each letter is rotated clockwise from upright in that "
         "frame. centres: each cube top's centre (x, y) in photo pixels. no_board: null for a "
         "complete board, else why there is none (empty-tray, incomplete, spilled).")


class DatasetDoc(TypedDict):
    """truth.json of a dataset: each photo is {"file": name, **PhotoTruth} (plus
    "players": [word-list file names] when asked for)."""

    schema_version: int
    about: str
    generator: str
    seed: int
    photos: list[dict[str, object]]


def photo_name(i: int) -> str:
    """File name of photo i of a dataset."""
    return f"synth_{i:05d}.jpg"


def write_dataset(out_dir: Path | str, count: int, seed: int, size: int | None = None,
                  set_name: str | None = None, long_side: int | tuple[int, int] | None = None,
                  config: SynthConfig = SynthConfig(), sheet: bool = False,
                  progress: Callable[[int, int], None] | None = None,
                  kind: str | None = None, players: int = 0,
                  jpeg_quality: int = JPEG_QUALITY, lone_q: bool | None = None) -> DatasetDoc:
    """Render `count` photos into out_dir with truth.json (and sheet.jpg); returns the truth.

    size: 4, 5, 6 or None (mixed); set_name: a cube set name (see cubesets.set_names);
    long_side: pixels of the photos' long side (int, or a (lo, hi) range; default
    config.long_side). players: write that many players' word lists per board
    (synth_00000.player1.txt ..., see `player_lists`). lone_q: print the Qu face as a
    lone "Q" in every photo (True), none (False), or on half the French sets' photos
    (None; scene.render_photo). Raises StorageError when
    out_dir cannot be written.
    """
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StorageError(f"cannot create {out}: {e.strerror}") from None
    photos: list[dict[str, object]] = []
    names: list[str] = []
    thumbs: list[npt.NDArray[np.uint8]] = []
    for i in range(count):
        rng = np.random.default_rng([seed, i])
        img, truth = render_photo(rng, size=size, set_name=set_name, long_side=long_side, kind=kind,
                                  config=config, lone_q=lone_q)
        name = photo_name(i)
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality])
        try:
            (out / name).write_bytes(buf.tobytes())
        except OSError as e:
            raise StorageError(f"cannot write {out / name}: {e.strerror}") from None
        entry: dict[str, object] = {"file": name, **truth}
        if players and truth["faces"]:
            lists = player_lists(truth["faces"], np.random.default_rng([seed, i, 1]), players)
            list_files: list[str] = []
            entry["players"] = list_files
            for k, words in enumerate(lists, start=1):
                lname = f"{Path(name).stem}.player{k}.txt"
                (out / lname).write_text("".join(w + "\n" for w in words), encoding="utf-8")
                list_files.append(lname)
        photos.append(entry)
        names.append(name)
        if sheet:
            thumbs.append(annotate(img, truth))
        if progress:
            progress(i + 1, count)
    doc = DatasetDoc(schema_version=SCHEMA_VERSION, about=ABOUT, generator="boggle-cv synth",
                     seed=seed, photos=photos)
    (out / "truth.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    if sheet:
        cv2.imwrite(str(out / "sheet.jpg"), contact_sheet(thumbs, names),
                    [cv2.IMWRITE_JPEG_QUALITY, 85])
    return doc


def annotate(img: npt.NDArray[np.uint8], truth: PhotoTruth) -> npt.NDArray[np.uint8]:
    """A copy of the photo (uint8 (H, W, 3) BGR) with its truth drawn: grid corners
    (green, row 0 col 0 red) and each cube's face and quarter turns at its centre."""
    out: npt.NDArray[np.uint8] = img.copy()
    s = max(1, int(max(img.shape[:2]) / 500))
    if truth.get("corners"):
        c = np.array(truth["corners"], np.float32)
        cv2.polylines(out, [c.astype(np.int32)], True, (0, 220, 0), s, cv2.LINE_AA)
        cv2.circle(out, tuple(int(v) for v in c[0]), 4 * s, (0, 0, 255), -1)
    faces, turns, centres = truth.get("faces"), truth.get("turns"), truth.get("centres")
    if centres and faces and turns:
        for r, row in enumerate(centres):
            for col, (x, y) in enumerate(row):
                label = f"{faces[r][col]}{turns[r][col] // 90}"
                cv2.putText(out, label, (int(x) - 6 * s, int(y) + 14 * s), cv2.FONT_HERSHEY_SIMPLEX,
                            0.4 * s, (255, 0, 255), s, cv2.LINE_AA)
    return out


def contact_sheet(images: list[npt.NDArray[np.uint8]], labels: list[str] | None = None, cell: int = 300,
                  cols: int = 6) -> npt.NDArray[np.uint8]:
    """Thumbnails (cell x cell, letterboxed) in a grid with labels; uint8 BGR."""
    cols = max(1, min(cols, len(images)))
    rows = max(1, -(-len(images) // cols))
    sheet = np.full((rows * (cell + 18), cols * cell, 3), 255, np.uint8)
    for k, im in enumerate(images):
        h, w = im.shape[:2]
        f = cell / max(h, w)
        t = cv2.resize(im, (max(1, int(w * f)), max(1, int(h * f))), interpolation=cv2.INTER_AREA)
        y0, x0 = (k // cols) * (cell + 18), (k % cols) * cell
        sheet[y0:y0 + t.shape[0], x0:x0 + t.shape[1]] = t
        if labels:
            cv2.putText(sheet, labels[k][:40], (x0 + 3, y0 + cell + 13), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                        (0, 0, 0), 1, cv2.LINE_AA)
    return sheet


def player_lists(faces: list[list[str]], rng: np.random.Generator, players: int = 3,
                 dictionary: Dictionary | None = None) -> list[list[str]]:
    """Plausible players' word lists for a board: mostly common words that are on it
    (some found by two players), a few misspellings or words not on the board.

    Uses boggle_cv.game.solver and the shipped dictionary (or `dictionary`).
    """
    from ..game.board import Board
    from ..game.solver import find_words
    board = Board.from_rows(faces)
    found = find_words(board, dictionary)
    common = [f.word for f in found if f.common] or [f.word for f in found]
    rare = [f.word for f in found if not f.common]
    lists: list[set[str]] = [set() for _ in range(players)]
    for p in range(players):
        k = min(len(common), int(rng.integers(6, 16)))
        for w in rng.choice(common, size=k, replace=False) if k else []:
            lists[p].add(str(w))
        for w in rng.choice(rare, size=min(len(rare), int(rng.integers(0, 3))), replace=False) if rare else []:
            lists[p].add(str(w))
        # a word or two that is not on the board (misread letter, wishful thinking)
        for w in rng.choice(common, size=min(len(common), int(rng.integers(1, 3))), replace=False) if common else []:
            w = str(w)
            i = int(rng.integers(len(w)))
            alt = "aeioustr"[int(rng.integers(8))]
            lists[p].add(w[:i] + alt + w[i + 1:] if w[i] != alt else w + "s")
    return [sorted(x) for x in lists]
