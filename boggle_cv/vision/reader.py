"""Read cube crops: per crop, probabilities over faces and over turns.

Every reader has ``read(crops) -> Reading`` where ``crops`` is uint8 BGR
(K, S, S, 3) (one cell pitch per crop, as ``cells.cut_cells`` makes them, reshaped
to K crops) and the result holds
  * ``faces``: float32 (K, len(FACES)) probabilities, columns in ``FACES`` order
    ("A".."Z" without "Q", "An", "Er", "He", "In", "Qu", "Th", "#" blank);
  * ``turns``: float32 (K, 4) probabilities of the face's turn: column k means the
    printed face appears rotated k * 90 degrees CLOCKWISE from upright in the crop
    (``np.rot90(crop, k)`` makes it read upright).

This module holds the classifier (the shipped ONNX network run by cv2.dnn); the
engines by name (classifier, tesseract, both) are in ``engines``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from . import onnx_models
from .reader_model import FACES, TURNS, InputSpec, preprocess
from .stages import ImageU8, Reading, check_crops

MODEL_ENV = onnx_models.READER.env
MODEL_NAME = onnx_models.READER.file_name

F32 = npt.NDArray[np.float32]


def default_model_path() -> Path:
    """$BOGGLE_CV_MODEL if set, else the shipped models/reader.onnx (boggle_cv.files.resources)."""
    return onnx_models.model_path(onnx_models.READER)


def _softmax(z: F32) -> F32:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: F32 = e / e.sum(axis=-1, keepdims=True)
    return out


class ClassifierReader:
    """The trained face/turn classifier (ONNX through cv2.dnn; no torch at run time).

    model_path: the .onnx file; its SHA-256 must match the ``<model>.sha256`` file
    beside it (``onnx_models.load_net``: checked once per file, then cached). Raises
    EngineMissingError when the model or its hash is missing, or the file is corrupt.
    tta: test-time augmentation: crops whose best face probability is below
    ``tta_below`` are also read turned by 90, 180 and 270 degrees and the four
    readings averaged (geometric mean for faces); confident crops are read once.
    tta_below=1.0 applies it to every crop.
    """

    name = "classifier"

    def __init__(self, model_path: str | Path | None = None, tta: bool = True,
                 tta_below: float = 0.85, spec: InputSpec = InputSpec()) -> None:
        self.model_path = Path(model_path) if model_path else default_model_path()
        self.tta = tta
        self.tta_below = float(tta_below)
        self.spec = spec
        self._net = onnx_models.load_net(onnx_models.READER, self.model_path)

    def _logits(self, x: F32) -> F32:
        self._net.setInput(x)
        return np.asarray(self._net.forward(), dtype=np.float32).reshape(len(x), -1)

    def read(self, crops: ImageU8) -> Reading:
        a = check_crops(crops)
        x = preprocess(a, self.spec)
        nf, nt = len(FACES), len(TURNS)
        z = self._logits(x)
        faces, turns = _softmax(z[:, :nf]), _softmax(z[:, nf:nf + nt])
        if not self.tta:
            return Reading(faces, turns)
        doubt = np.flatnonzero(faces.max(1) < self.tta_below)
        if len(doubt) == 0:
            return Reading(faces, turns)
        # Doubtful crops are also read turned counter-clockwise by q quarter turns: a
        # turn t becomes t - q, so the reading at t' belongs to the original turn t' + q.
        xd = x[doubt]
        xs = np.ascontiguousarray(np.concatenate([np.rot90(xd, q, axes=(2, 3)) for q in (1, 2, 3)]))
        zr = self._logits(xs).reshape(3, len(doubt), -1)
        logp = np.log(faces[doubt] + 1e-9)
        td = turns[doubt].copy()
        for i, q in enumerate((1, 2, 3)):
            logp += np.log(_softmax(zr[i, :, :nf]) + 1e-9)
            td += np.roll(_softmax(zr[i, :, nf:nf + nt]), q, axis=-1)
        faces = faces.copy()
        turns = turns.copy()
        faces[doubt] = _softmax(logp / 4)
        turns[doubt] = td / 4
        return Reading(faces.astype(np.float32), turns.astype(np.float32))
