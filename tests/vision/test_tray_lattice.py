"""Lattice re-indexing: a lattice grown on a sheared basis (a diagonal of the cube
grid taken as a step) is brought back to the square index box of the tray."""
import cv2
import numpy as np
import pytest

from boggle_cv.vision.tray.lattice import unshear


def _project(H, k):
    return cv2.perspectiveTransform(np.array([[k]], np.float64), H)[0, 0]


@pytest.mark.parametrize("shear", [((1, 1), (0, 1)), ((1, 0), (-1, 1)), ((1, 2), (0, 1))])
def test_unshear_recovers_square_index_box(shear):
    # true grid: 4x4 cube tops seen obliquely (index (col, row) -> image)
    H = np.array([[40.0, -40.0, 300.0], [15.0, 15.0, 80.0], [0.0, 0.0001, 1.0]])
    true = [(c, r) for r in range(4) for c in range(4)]
    T = np.array(shear, np.float64)  # true index = T @ sheared index
    Ti = np.linalg.inv(T)
    members = {}
    for j, k in enumerate(true):
        s = Ti @ np.array(k, np.float64)
        members[(int(round(s[0])), int(round(s[1])))] = j
    A = np.eye(3)
    A[:2, :2] = T
    Hs = H @ A
    span = np.ptp(np.array(list(members)), axis=0) + 1
    assert span.prod() > 16  # the sheared indices span more than 4x4
    new, H2 = unshear(members, Hs)
    keys = np.array(list(new))
    assert (np.ptp(keys, axis=0) + 1).tolist() == [4, 4]
    for k, j in new.items():  # every member still projects onto its own cube
        assert np.allclose(_project(H2, k), _project(H, true[j]), atol=1e-6)


def test_unshear_keeps_a_square_lattice():
    H = np.array([[50.0, 0.0, 10.0], [0.0, 50.0, 20.0], [0.0, 0.0, 1.0]])
    members = {(c, r): 5 * r + c for r in range(5) for c in range(5)}
    new, H2 = unshear(members, H)
    assert new == members and np.array_equal(H2, H)
