"""map_concat: the same arrays, in job order, on one process or several."""
import numpy as np

from boggle_cv.train.parallel import map_concat


def _job(k):
    return np.full((k, 2), k), np.arange(k)


def test_same_result_on_one_or_two_workers():
    one = map_concat(_job, [1, 3, 2], 1)
    two = map_concat(_job, [1, 3, 2], 2)
    assert len(one) == 2 and one[0].shape == (6, 2)
    assert one[1].tolist() == [0, 0, 1, 2, 0, 1]
    assert all(np.array_equal(a, b) for a, b in zip(one, two))
