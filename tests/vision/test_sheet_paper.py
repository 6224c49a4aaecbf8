"""paper: the sheet found in a photo, flattened, and turned upright."""
from __future__ import annotations

import numpy as np
import pytest

from boggle_cv.vision.sheet.ink import ink_mask
from boggle_cv.vision.sheet.paper import find_paper, paper_mask, white_balanced
from boggle_cv.vision.sheet.upright import upright_turn
from boggle_cv.vision.stages import DebugImages

from sheet_helpers import photo_of, sheet


def _corner_error(found, truth) -> float:
    return float(np.abs(np.asarray(found) - np.asarray(truth)).max())


@pytest.mark.parametrize("angle", [-12.0, 0.0, 9.0])
def test_paper_on_a_table_found_within_a_few_pixels(angle):
    paper, _ = sheet(1)
    photo, corners = photo_of(paper, 1, angle=angle, tilt=0.06)
    found = find_paper(photo)
    assert found.found
    # the same corners, the same order (clockwise from the paper's top-left)
    assert _corner_error(found.corners, corners) < 12, (found.corners, corners)
    h, w = found.flat.shape[:2]
    assert 1.2 < h / w < 1.45  # the paper's 3:4 shape back


def test_a_close_up_with_no_edge_is_taken_whole():
    paper, _ = sheet(2)
    crop = np.ascontiguousarray(paper[100:900, 50:1100])
    found = find_paper(crop)
    assert found.flat.shape[0] > 700
    assert upright_turn(ink_mask(found.flat)) == 0


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
@pytest.mark.parametrize("columns", [1, 2])
def test_turned_sheets_are_turned_upright(turn, columns):
    paper, _ = sheet(3, columns=columns, ruled=columns == 1)
    photo, _ = photo_of(paper, 3, angle=5.0, turn=turn)
    found = find_paper(photo)
    assert upright_turn(ink_mask(found.flat)) == (360 - turn) % 360


def test_turned_paper_keeps_its_corners_and_mapping():
    paper, _ = sheet(4)
    photo, corners = photo_of(paper, 4, turn=90)
    found = find_paper(photo).turned(270)
    assert _corner_error(found.corners, corners) < 12
    h, w = found.flat.shape[:2]
    back = found.to_photo(np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], float))
    assert _corner_error(back, corners) < 12


def test_debug_images_go_to_the_sink():
    paper, _ = sheet(5)
    photo, _ = photo_of(paper, 5)
    sink = DebugImages()
    find_paper(photo, sink)
    assert set(sink.images) == {"s1_paper", "s2_flat"}
    assert all(im.dtype == np.uint8 and im.ndim == 3 for im in sink.images.values())


def _on_a_light_table(paper, angle: float, falloff: tuple[float, float]):
    """The paper on a pale grey table, lit from one side: the light falls from
    falloff[1] to falloff[0] across the photo, so the table's lit side is as bright
    as the paper's dim side (photo BGR uint8 (1000, 800), the paper's corners)."""
    import cv2
    ph, pw = paper.shape[:2]
    W, H = 800, 1000
    s = 0.55 * min(W / pw, H / ph)
    a = np.deg2rad(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float64)
    dst = (src - [pw / 2, ph / 2]) * s @ rot.T + [W / 2, H / 2]
    m = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    page = cv2.warpPerspective(paper.astype(np.float32), m, (W, H))
    cover = cv2.warpPerspective(np.ones((ph, pw), np.float32), m, (W, H))[..., None]
    table = np.full((H, W, 3), (175, 180, 182), np.float32)
    img = table * (1 - cover) + page * cover
    light = np.linspace(falloff[0], falloff[1], W, dtype=np.float32)[None, :, None] \
        * np.linspace(falloff[0], falloff[1], H, dtype=np.float32)[:, None, None] ** 0.5
    img = cv2.GaussianBlur(img * light, (0, 0), 1.0)
    return np.clip(img, 0, 255).astype(np.uint8), dst


@pytest.mark.parametrize("angle", [-10.0, 8.0])
def test_paper_on_a_light_table_under_falling_light(angle):
    """Where the light falls off, a pale table is as bright as the paper: the bright
    region runs from the paper into the table, but its quad's sides then cross the
    table's flat colour; the paper's outline (edges all along) is taken instead."""
    paper, _ = sheet(6)
    photo, corners = _on_a_light_table(paper, angle, (0.62, 1.12))
    found = find_paper(photo)
    assert found.found
    assert _corner_error(found.corners, corners) < 12, (found.corners, corners)


def _lit(photo, gains):
    """The photo under a coloured light: each BGR channel times its gain."""
    return np.clip(photo.astype(np.float32) * np.float32(gains), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("angle", [-8.0, 6.0])
def test_paper_under_a_warm_lamp_is_found(angle):
    """Under a tungsten lamp white paper is orange (HSV saturation over 90, as a wooden
    table's): the light's colour is taken out before saturation rules a region out."""
    import cv2
    paper, _ = sheet(3)
    photo, corners = photo_of(paper, 3, angle=angle, tilt=0.05)
    warm = _lit(photo, (0.62, 0.92, 1.12))
    page = cv2.cvtColor(warm, cv2.COLOR_BGR2HSV)[:, :, 1][warm.sum(axis=2) > 500]
    assert np.median(page) > 90  # as orange as the case it guards
    # the bright region is the paper (before: nothing, and a sheet whose page runs off
    # the frame was taken whole)
    s = 640 / max(warm.shape[:2])
    small = cv2.resize(warm, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    inside = np.zeros(small.shape[:2], np.uint8)
    cv2.fillPoly(inside, [np.round(corners * s).astype(np.int32)], 255)
    mask = paper_mask(small)
    assert (mask[inside > 0] > 0).mean() > 0.9 and (mask[inside == 0] > 0).mean() < 0.02
    found = find_paper(warm)
    assert found.found
    assert _corner_error(found.corners, corners) < 12, (found.corners, corners)


def test_white_balance_takes_out_the_light_and_leaves_a_grey_photo():
    paper, _ = sheet(3)
    photo, _ = photo_of(paper, 3)
    grey = np.repeat(photo.mean(axis=2, keepdims=True), 3, axis=2).astype(np.uint8)
    assert white_balanced(grey) is grey
    warm = _lit(photo, (0.6, 0.9, 1.1))
    levels = [np.percentile(white_balanced(warm)[:, :, c], 98) for c in range(3)]
    assert max(levels) - min(levels) <= 6, levels


def test_a_paper_within_the_first_region_is_taken():
    """When the first region found is a dark board with the sheet on it (lighter
    than the floor around it), the paper inside it is the sheet; a plain sheet, or
    one with a box drawn on it, keeps its quad."""
    import cv2
    from boggle_cv.vision.sheet.paper import _paper_within
    paper, _ = sheet(4)
    small = cv2.resize(paper, (480, 640), interpolation=cv2.INTER_AREA)
    board = np.full((800, 640, 3), (40, 40, 45), np.uint8)
    board[80:720, 80:560] = small
    whole = np.array([[0, 0], [639, 0], [639, 799], [0, 799]], np.float64)
    inner = _paper_within(board, whole)
    assert np.abs(inner - [[80, 80], [559, 80], [559, 719], [80, 719]]).max() < 8, inner
    assert _paper_within(small, np.array([[0, 0], [479, 0], [479, 639], [0, 639]], np.float64)) is not None
    framed = small.copy()
    cv2.rectangle(framed, (60, 60), (420, 580), (30, 30, 30), 3)  # a box of writing, not a sheet
    plain = np.array([[0, 0], [479, 0], [479, 639], [0, 639]], np.float64)
    assert np.array_equal(_paper_within(framed, plain), plain)
    assert np.array_equal(_paper_within(small, plain), plain)


def _shadowed(photo, corners, strength: float):
    """The photo with a sharp shadow (a phone's, under a ceiling light) over the part
    of it beyond a line through the paper's middle, at a slant: that side times
    1 - strength (edge 2 px soft)."""
    import cv2
    h, w = photo.shape[:2]
    c = np.asarray(corners).mean(axis=0)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    side = ((xx - c[0]) * 0.8 + (yy - c[1]) * 0.6 > 0).astype(np.float32)
    f = 1.0 - strength * cv2.GaussianBlur(side, (0, 0), 2.0)
    return np.clip(photo.astype(np.float32) * f[..., None], 0, 255).astype(np.uint8)


@pytest.mark.parametrize("strength", [0.3, 0.5])
def test_a_sheet_half_in_a_sharp_shadow_is_found_whole(strength):
    """A shadow's edge across the sheet splits it into a lit part (the bright region)
    and a darker part: the darker part beside it, even, unsaturated and making one
    convex shape with it, is the same paper (with_shadowed_part)."""
    paper, _ = sheet(5)
    photo, corners = photo_of(paper, 5, angle=-6.0, tilt=0.04)
    found = find_paper(_shadowed(photo, corners, strength))
    assert found.found
    assert _corner_error(found.corners, corners) < 14, (found.corners, corners)


def test_a_shadows_edge_on_the_flat_sheet_is_no_ink():
    """darkness_of estimates the paper's brightness with an edge-keeping median: a sharp
    shadow's edge across blank paper leaves no band of 'ink' along it."""
    from boggle_cv.vision.sheet.ink import INK_DARKNESS, darkness_of
    flat = np.full((1200, 900, 3), 225, np.uint8)
    flat[:, 450:] = (225 * 0.5)  # the right half in a shadow, a sharp edge
    d = darkness_of(flat)
    assert float(d[:, 400:500].max()) < INK_DARKNESS


def test_a_paper_small_in_the_photo_is_enlarged_to_the_flat_size():
    """A small photo (or a sheet far from the phone): the flat page is enlarged to
    FLAT_MAX_SIDE (by at most MAX_UPSCALE), so the layout and the reader see its
    writing at the size a close photo gives; a big one is shrunk to it."""
    import cv2
    from boggle_cv.vision.sheet.paper import FLAT_MAX_SIDE, MAX_UPSCALE
    paper, _ = sheet(7)
    photo, corners = photo_of(paper, 7)
    for side in (400, 800, 2400):
        s = side / max(photo.shape[:2])
        shown = cv2.resize(photo, None, fx=s, fy=s, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
        found = find_paper(shown)
        assert found.found
        long_side = max(found.flat.shape[:2])
        paper_side = max(np.linalg.norm(np.asarray(corners[2]) - corners[1]), np.linalg.norm(np.asarray(corners[1]) - corners[0])) * s
        assert long_side <= FLAT_MAX_SIDE
        assert long_side >= min(FLAT_MAX_SIDE, MAX_UPSCALE * paper_side) - 40, (side, long_side, paper_side)
        if side <= 800:  # enlarged: at least twice the paper's size in the photo
            assert long_side >= min(1600, 2 * paper_side), (side, long_side, paper_side)


def _placed(paper, corners, table_bgr, size=(800, 1000)):
    """The paper warped onto a plain table of colour table_bgr at `corners` (4, 2)
    photo px, clockwise from its top-left (which may lie beyond the photo's frame);
    BGR uint8 (size[1], size[0])."""
    import cv2
    W, H = size
    ph, pw = paper.shape[:2]
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    m = cv2.getPerspectiveTransform(src, np.asarray(corners, np.float32))
    page = cv2.warpPerspective(paper.astype(np.float32), m, (W, H))
    cover = cv2.warpPerspective(np.ones((ph, pw), np.float32), m, (W, H))[..., None]
    img = np.full((H, W, 3), table_bgr, np.float32) * (1 - cover) + page * cover
    return np.clip(cv2.GaussianBlur(img, (0, 0), 1.0), 0, 255).astype(np.uint8)


def test_a_paper_running_off_the_frame_at_a_corner_keeps_that_corner():
    """The frame cuts a corner off the paper: its quad is where its four own sides
    meet, the cut corner beyond the frame (before, the outline's simplest quad cut
    across the corner and through the words along that side)."""
    paper, _ = sheet(7)
    corners = np.array([[-60, 170], [560, 60], [660, 880], [60, 960]], np.float64)
    found = find_paper(_placed(paper, corners, (70, 90, 60)))
    assert found.found
    assert found.corners[0][0] < -30  # beyond the frame
    assert _corner_error(found.corners, corners) < 20, (found.corners, corners)


@pytest.mark.parametrize("strength", [0.45, 0.6])
def test_a_shadow_across_a_sheet_on_a_pale_table_is_no_paper_edge(strength):
    """A sharp shadow across a sheet on a pale table: the lit table is nearly as bright
    as the paper, and the bright region is the whole lit side, bounded by the frame and
    the shadow's edge (all 'edges'). The paper is the two pieces between the edges, the
    lit and the shadowed, that together make one solid quad off the frame."""
    from boggle_cv.vision.sheet.paper import SHADOW_RATIO
    paper, _ = sheet(7)
    corners = np.array([[120, 140], [640, 110], [670, 860], [140, 890]], np.float64)
    photo = _placed(paper, corners, (168, 172, 176))
    h, w = photo.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    side = ((xx - 400) * 0.45 + (yy - 600) * 0.9 > 0).astype(np.float32)
    photo = np.clip(photo * (1.0 - strength * side)[..., None], 0, 255).astype(np.uint8)
    assert SHADOW_RATIO[0] < 1 - strength < SHADOW_RATIO[1]
    found = find_paper(photo)
    assert found.found
    assert _corner_error(found.corners, corners) < 12, (found.corners, corners)


@pytest.mark.parametrize("dimmest", [0.4, 0.5])
def test_a_paper_off_the_frame_with_its_far_end_in_dim_light_is_found_whole(dimmest):
    """Light falling off towards the side where the sheet runs off the frame: the
    bright region is the lit end only, and the watershed takes the dim end, on the
    frame, for the table. The piece between the edges that holds the bright region is
    the paper, its corner beyond the frame."""
    paper, _ = sheet(8)
    corners = np.array([[-60, 170], [560, 60], [660, 880], [60, 960]], np.float64)
    photo = _placed(paper, corners, (60, 80, 50)).astype(np.float32)
    photo *= np.linspace(dimmest, 1.05, photo.shape[1], dtype=np.float32)[None, :, None]
    found = find_paper(np.clip(photo, 0, 255).astype(np.uint8))
    assert found.found
    assert _corner_error(found.corners, corners) < 20, (found.corners, corners)


def test_a_sheet_far_from_the_phone_is_found():
    """A sheet covering under a tenth of the photo (a photo from further off, or a
    big table) is still the paper, not the whole photo; its flat page is enlarged."""
    from boggle_cv.vision.sheet.paper import MAX_UPSCALE, PAPER_MIN_AREA
    paper, _ = sheet(9)
    corners = np.array([[300, 360], [540, 345], [555, 670], [310, 685]], np.float64)
    share = 240 * 325 / (800 * 1000)
    assert PAPER_MIN_AREA < share < 0.12  # under the share it once had to cover
    found = find_paper(_placed(paper, corners, (70, 60, 50)))
    assert found.found
    assert _corner_error(found.corners, corners) < 8, (found.corners, corners)
    assert max(found.flat.shape[:2]) >= 0.95 * 325 * MAX_UPSCALE


def test_a_pale_floor_around_a_dark_table_is_not_the_paper():
    """A dim sheet on a dark table seen from afar, a grey floor all round: the floor is
    the largest bright region but a ring (the table and sheet its hole); the sheet is
    the largest region without one."""
    import cv2
    paper, _ = sheet(10)
    dim = (paper.astype(np.float32) * 0.7).astype(np.uint8)
    corners = np.array([[300, 330], [530, 350], [510, 660], [290, 650]], np.float64)
    photo = _placed(dim, corners, (30, 32, 34))
    floor = np.full_like(photo, 92)
    table = np.zeros(photo.shape[:2], np.uint8)
    cv2.rectangle(table, (180, 225), (620, 775), 255, -1)
    photo = np.where(table[..., None] > 0, photo, floor)
    found = find_paper(photo)
    assert found.found
    assert _corner_error(found.corners, corners) < 10, (found.corners, corners)
