"""The face/turn classifier network (torch; training only).

Input (B, 1, 48, 48) float32 (see reader_model.preprocess); outputs two logit
tensors: faces (B, len(FACES)) and turns (B, 4). Exported to ONNX as one output
(B, len(FACES) + 4) = concatenated logits, so cv2.dnn returns a single blob.
"""
from __future__ import annotations

import torch
from torch import nn


def _block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class FaceNet(nn.Module):
    def __init__(self, n_faces: int, n_turns: int = 4, width: int = 24):
        super().__init__()
        w = width
        self.features = nn.Sequential(
            _block(1, w), nn.MaxPool2d(2),                              # 48 -> 24
            _block(w, 2 * w), nn.MaxPool2d(2),                          # 24 -> 12
            _block(2 * w, 4 * w), _block(4 * w, 4 * w), nn.MaxPool2d(2),  # 12 -> 6
            _block(4 * w, 5 * w),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(5 * w * 36, 128), nn.ReLU(inplace=True),
                                  nn.Dropout(0.2), nn.Linear(128, n_faces + n_turns))
        self.n_faces = n_faces

    def forward(self, x):
        return self.head(self.features(x))
