"""Train the adapted head of the handwriting reader (``vision/handwriting/head.py``)
on real handwriting, with the base recogniser frozen (its features come through
cv2.dnn; torch only here, at training time).

Data: ../shared/handwriting-public (open part). The split is by WRITER for DHSD and
by WORD for Jeremy (``split_of``), so the held-out part has writers / words the head
never saw; only the "train" part is trained on. Each training crop is also read in
``--copies`` random distortions (scale, shear, rotation, stroke width, contrast,
blur, stretch).

usage: python -m boggle_cv.train.word_head ../shared/handwriting-public --out models/
"""
from __future__ import annotations

import argparse
import hashlib
import json
import time
import zlib
from pathlib import Path

import cv2
import numpy as np

from boggle_cv.vision.handwriting import recogniser
from boggle_cv.vision.handwriting.head import context
from boggle_cv.vision.handwriting.reading import fold_candidate

#: DHSD writers held out (about 40% of the open crops, big and small writers).
DHSD_TEST_WRITERS = {"dhsd-2", "dhsd-29", "dhsd-32", "dhsd-5", "dhsd-10", "dhsd-14", "dhsd-20", "dhsd-23"}


#: Of those, the writers whose crops set the flag threshold and temperature ("tune").
DHSD_TUNE_WRITERS = {"dhsd-2", "dhsd-5", "dhsd-10", "dhsd-14"}


def split_of(item: dict) -> str:
    """'train', 'tune' or 'test' for a manifest entry: DHSD by writer, Jeremy by word.
    The head is trained on 'train' only; 'tune' sets the flagging (never trained on);
    'test' is neither trained nor tuned on: the figures."""
    if item["set"] == "dhsd":
        w = item["writer"]
        return ("tune" if w in DHSD_TUNE_WRITERS else "test") if w in DHSD_TEST_WRITERS else "train"
    return word_split(fold_candidate(item["transcription"]))


def word_split(word: str) -> str:
    """The split of Jeremy's crops of `word` (a-z): by the crc32 of the word, two thirds
    'train', the rest halved into 'tune' and 'test'. Words made up for training
    (``word_recombine``) are drawn from the training splits' words only, so the test
    words stay never seen."""
    h = zlib.crc32(word.encode())
    return ("tune" if (h // 3) % 2 == 0 else "test") if h % 3 == 0 else "train"


def training_items(folder: Path, splits: tuple[str, ...] = ("train",)) -> list[dict]:
    """The manifest entries of `folder` the word models train on: the DHSD writers' and
    Jeremy's words of `splits` (``split_of``; 'train' alone by default) whose
    transcription folds to letters."""
    items = json.loads((folder / "manifest.json").read_text())
    return [x for x in items if x["set"] in ("dhsd", "jeremy-words") and split_of(x) in splits
            and fold_candidate(x["transcription"])]


def parse_splits(text: str) -> tuple[str, ...]:
    """'train' or 'train,tune' -> the splits to train on. The test split is refused:
    the figures come from it."""
    splits = tuple(p.strip() for p in text.split(",") if p.strip())
    bad = [p for p in splits if p not in ("train", "tune")]
    if not splits or bad:
        raise SystemExit(f"--splits takes train and tune only (the test split is held out for the figures), not {text!r}")
    return splits


def load(path: Path) -> np.ndarray:
    from boggle_cv.vision.handwriting.preprocess import to_bgr
    im = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    return to_bgr(im)


def distort(im: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random plausible variant of a word crop (BGR uint8)."""
    grey = cv2.cvtColor(im, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    pad = int(0.15 * h)
    grey = cv2.copyMakeBorder(grey, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=int(np.percentile(grey, 90)))
    h, w = grey.shape
    sx = rng.uniform(0.75, 1.3)
    shear = rng.uniform(-0.3, 0.3)
    ang = np.deg2rad(rng.uniform(-4, 4))
    a = np.array([[sx * np.cos(ang), -np.sin(ang) + shear, 0], [np.sin(ang), np.cos(ang), 0]], np.float32)
    corners = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], np.float32) @ a.T
    a[:, 2] -= corners.min(0)
    size = np.ceil(corners.max(0) - corners.min(0)).astype(int)
    grey = cv2.warpAffine(grey, a, (int(size[0]), int(size[1])), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
    k = rng.integers(0, 4)
    if k == 1:
        grey = cv2.erode(grey, np.ones((2, 2), np.uint8))
    elif k == 2:
        grey = cv2.dilate(grey, np.ones((2, 2), np.uint8))
    if rng.random() < 0.3:
        grey = cv2.GaussianBlur(grey, (0, 0), rng.uniform(0.5, 1.2))
    if rng.random() < 0.4:  # pencil: low contrast
        lo = rng.uniform(60, 150)
        grey = (lo + grey.astype(np.float32) * (235 - lo) / 255).astype(np.uint8)
    if rng.random() < 0.3:
        grey = np.clip(grey.astype(np.float32) + rng.normal(0, 6, grey.shape), 0, 255).astype(np.uint8)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)


def harsher(im: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One more of what a phone does to a word (BGR uint8 in and out): a shadow across
    it, a small photo upscaled (the word 14-28 px high), heavy sensor noise, a strong
    blur or a low JPEG quality; picked at random, one at a time."""
    grey = cv2.cvtColor(im, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    k = rng.integers(0, 5)
    if k == 0:
        lo = rng.uniform(0.35, 0.8)
        ramp = np.linspace(lo, 1.0, w) if rng.random() < 0.5 else np.linspace(1.0, lo, w)
        grey = (grey * ramp[None, :]).astype(np.uint8)
    elif k == 1:
        target = rng.uniform(14, 28)
        s = min(1.0, target / h)
        small = cv2.resize(grey, (max(4, int(w * s)), max(4, int(h * s))), interpolation=cv2.INTER_AREA)
        grey = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    elif k == 2:
        grey = np.clip(grey + rng.normal(0, rng.uniform(10, 25), grey.shape), 0, 255).astype(np.uint8)
    elif k == 3:
        grey = cv2.GaussianBlur(grey, (0, 0), rng.uniform(1.2, 2.2))
    else:
        grey = cv2.imdecode(cv2.imencode(".jpg", grey, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(15, 40))])[1], 0)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)


def defocused(im: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A word from a blurred whole-sheet photo (BGR uint8 in and out): shrunk so that
    the crop is 28-56 px high, blurred by 1-4% of that height (a phone that focused
    on the table, or shook) and JPEG 40-85 at that size.
    Returned small, as ``photographed``."""
    grey = cv2.cvtColor(im, cv2.COLOR_BGR2GRAY).astype(np.float32)
    h, w = grey.shape
    target = rng.uniform(28, 56)
    s = target / h
    grey = cv2.resize(grey, (max(4, round(w * s)), max(4, round(h * s))), interpolation=cv2.INTER_AREA)
    grey = cv2.GaussianBlur(grey, (0, 0), rng.uniform(0.01, 0.04) * target)
    u8 = np.clip(grey, 0, 255).astype(np.uint8)
    u8 = cv2.imdecode(cv2.imencode(".jpg", u8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 86))])[1], 0)
    return cv2.cvtColor(u8, cv2.COLOR_GRAY2BGR)


def photographed(im: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A word as a whole-sheet photo shows it (BGR uint8 in and out): its ink laid on
    paper of a random shade in a random ink colour, shrunk so that the crop is 24-60 px
    high (its ink 18-46 px) (a phone photo of a whole page, or ../shared/tools/compose_sheets.py's sheets),
    blurred by the camera before the shrink, a little sensor noise and JPEG 70-92.
    Returned small: the reader upscales it as it does a word cut from a sheet."""
    grey = cv2.cvtColor(im, cv2.COLOR_BGR2GRAY).astype(np.float32)
    ink = np.clip((np.percentile(grey, 95) - grey) / max(float(np.percentile(grey, 95) - grey.min()), 1.0), 0, 1)
    paper, colour = rng.uniform(170, 245), rng.uniform(20, 130)
    grey = paper * (1 - ink) + colour * ink
    h, w = grey.shape
    target = rng.uniform(24, 60)  # the crop with its margin; its ink about 18-46 px
    big = 1.5 * target / h  # blur at 1.5x the final size, as a camera before downscaling
    grey = cv2.resize(grey, (max(4, round(w * big)), max(4, round(h * big))), interpolation=cv2.INTER_AREA)
    grey = cv2.GaussianBlur(grey, (0, 0), rng.uniform(0.6, 1.6))
    grey = cv2.resize(grey, (max(4, round(w * big / 1.5)), max(4, round(h * big / 1.5))), interpolation=cv2.INTER_AREA)
    grey = grey + rng.normal(0, 4, grey.shape)
    u8 = np.clip(grey, 0, 255).astype(np.uint8)
    u8 = cv2.imdecode(cv2.imencode(".jpg", u8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 93))])[1], 0)
    return cv2.cvtColor(u8, cv2.COLOR_GRAY2BGR)


def features(folder: Path, items: list[dict], copies: int, seed: int) -> list[tuple[np.ndarray, np.ndarray, str]]:
    """(base probs (T, 27), features (T, 120), word) per crop and distortion."""
    rng = np.random.default_rng(seed)
    out = []
    t0 = time.time()
    for k in range(0, len(items), 64):
        chunk = items[k:k + 64]
        ims = [load(folder / x["file"]) for x in chunk]
        words = [fold_candidate(x["transcription"]) for x in chunk]
        batch, labels = [], []
        for im, w in zip(ims, words):
            batch.append(im)
            labels.append(w)
            for _ in range(copies):
                batch.append(distort(im, rng))
                labels.append(w)
        for (p, f), w in zip(recogniser.frame_outputs(batch), labels):
            out.append((p, f, w))
        print(f"  {k + len(chunk)}/{len(items)} crops, {time.time() - t0:.0f} s", flush=True)
    return out


def train(data: list, steps: int, lr: float, wd: float, seed: int, hidden: int = 0,
          width: int = 3) -> dict[str, np.ndarray]:
    import torch
    torch.manual_seed(seed)
    torch.set_num_threads(2)
    params = {}
    if hidden:
        params["W1"] = (torch.randn(120 * width, hidden) * (2 / (120 * width)) ** 0.5).requires_grad_()
        params["b1"] = torch.zeros(hidden, requires_grad=True)
    params["W"] = torch.zeros(hidden or 120 * width, 27, requires_grad=True)
    params["b"] = torch.zeros(27, requires_grad=True)
    opt = torch.optim.AdamW(list(params.values()), lr=lr, weight_decay=wd)
    drop = torch.nn.Dropout(0.2)
    rng = np.random.default_rng(seed)
    data = [d for d in data if d[2] and len(d[2]) <= d[0].shape[0]]
    for step in range(steps):
        idx = rng.choice(len(data), size=min(64, len(data)), replace=False)
        tmax = max(data[i][0].shape[0] for i in idx)
        n = len(idx)
        logp = torch.full((n, tmax, 27), -30.0)
        ctxs = torch.zeros(n, tmax, 120 * width)
        lens, targets, tlens = [], [], []
        for j, i in enumerate(idx):
            p, f, w = data[i]
            t = p.shape[0]
            logp[j, :t] = torch.from_numpy(np.log(np.maximum(p, 1e-8)))
            logp[j, t:, 0] = 0.0
            ctxs[j, :t] = torch.from_numpy(context(f, width))
            lens.append(t)
            targets.extend(ord(c) - 96 for c in w)
            tlens.append(len(w))
        x = ctxs
        if hidden:
            x = drop(torch.relu(x @ params["W1"] + params["b1"]))
        logits = logp + x @ params["W"] + params["b"]
        lp = torch.log_softmax(logits, -1).transpose(0, 1)
        loss = torch.nn.functional.ctc_loss(lp, torch.tensor(targets), torch.tensor(lens), torch.tensor(tlens),
                                            blank=0, reduction="mean", zero_infinity=True)
        for g in opt.param_groups:
            g["lr"] = lr * 0.5 * (1 + np.cos(np.pi * step / steps))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 200 == 0 or step == steps - 1:
            print(f"  step {step} loss {loss.item():.3f}", flush=True)
    return {k: v.detach().numpy().astype(np.float32) for k, v in params.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("--out", type=Path, default=Path("models"))
    ap.add_argument("--copies", type=int, default=3)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--wd", type=float, default=1e-2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hidden", type=int, default=0, help="a hidden layer of this width (0: linear)")
    ap.add_argument("--context", type=int, default=3, help="frames of features per frame (odd)")
    ap.add_argument("--cache", type=Path, default=None, help="npz of computed features to reuse")
    ap.add_argument("--splits", default="train",
                    help="comma-separated splits to train on (split_of): 'train', or 'train,tune' for the final fit")
    a = ap.parse_args()
    import os
    os.environ["BOGGLE_CV_WORD_HEAD"] = "none"
    items = training_items(a.folder, parse_splits(a.splits))
    print(f"{len(items)} training crops", flush=True)
    if a.cache and a.cache.is_file():
        import pickle
        data = pickle.loads(a.cache.read_bytes())
    else:
        data = features(a.folder, items, a.copies, a.seed)
        if a.cache:
            import pickle
            a.cache.write_bytes(pickle.dumps(data))
    params = train(data, a.steps, a.lr, a.wd, a.seed, a.hidden, a.context)
    a.out.mkdir(parents=True, exist_ok=True)
    out = a.out / "word_head.npz"
    np.savez(out, **params)
    digest = hashlib.sha256(out.read_bytes()).hexdigest()
    (a.out / "word_head.npz.sha256").write_text(f"{digest}  word_head.npz\n")
    print(f"{out}: {out.stat().st_size} bytes, sha256 {digest}")


if __name__ == "__main__":
    main()
