"""Fine-tune the word reader's sequence part (PP-OCR's SVTR neck and last layer)
together with the adapted head, on real handwriting.

The recogniser (models/word_reader.onnx) is split after its backbone (the output of
its last pooling, ``BOUNDARY``). The backbone stays frozen: its output is computed
once by cv2.dnn for each training crop and ``--copies`` random distortions of it
(``word_head.distort``; each read at a random horizontal stretch in ``--stretch``, as
the reader reads it: ``preprocess.normalise``, ``resized``) and cached. The rest of
the graph runs in torch through ``onnx_torch`` with its float constants trainable,
and the head (models/word_head.npz) sits on top as at run time
(``vision/handwriting/head.py``). Both start from the shipped files, so step 0 is the
shipped reader. Loss: CTC over the folded classes (blank, a-z; each letter's
probability the sum over the model's classes that fold to it, as
``recogniser.fold``). Batches hold crops of one width (no padding: a crop is read
alone at run time). Data: the "train" split of ../shared/handwriting-public
(``word_head.split_of``) only, or with ``--splits train,tune`` the tune split too (the
final fit, once a recipe is chosen on tune). Writes the same graph with new constant values (still
run by cv2.dnn), the new head, each with its .sha256, and the charset file.

usage: python -m boggle_cv.train.word_finetune ../shared/handwriting-public --out DIR \\
           [--copies 3] [--steps 3000] [--lr 3e-4] [--head-lr 1e-3] [--cache FILE]
           [--splits train[,tune]] [--blur P]  (P: share of copies defocused: word_head.defocused)
           [--renders N --render-copies 1]  (N words drawn in handwriting fonts too:
           train.word_renders; the fonts are installed at training time only)
           [--fonts DIR]  (the renders written by synthetic writers instead: the faces
           fetched into DIR by ``python -m boggle_cv.train.font_hands fetch --cache DIR``,
           each with its own style: train.font_hands)
           [--recombined N --recombined-copies 1]  (N words joined from letters cut
           from Jeremy's crops: train.word_recombine; tried, not shipped: models/README.md)
"""
from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import shutil
import time
from pathlib import Path

import cv2
import numpy as np

from boggle_cv.train.word_head import (defocused, distort, harsher, load, parse_splits, photographed,
                                       training_items)
from boggle_cv.vision.handwriting import preprocess
from boggle_cv.vision.handwriting.reading import fold_candidate

ROOT = Path(__file__).resolve().parents[2]
#: PP-OCRv5 mobile's backbone output (N, 480, 1, T), for a charset file that does not
#: name its model's ("boundary", written by ``word_model``): everything after it is
#: fine-tuned; ``--boundary`` picks another node.
BOUNDARY = "p2o.pd_op.pool2d.2.0"
#: PP-OCRv5 mobile's input of the final softmax (its kept classes' logits), for a
#: charset file without "logits".
LOGITS = "Add.223"


def sha_file(path: Path) -> None:
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    path.with_name(path.name + ".sha256").write_text(f"{digest}  {path.name}\n")


def backbone_net(model: Path, boundary: str = BOUNDARY) -> cv2.dnn.Net:
    """The recogniser with `boundary` (a 4-D node) as an extra output, for cv2.dnn."""
    import onnx
    from onnx import helper
    m = onnx.load(str(model))
    m.graph.output.append(helper.make_tensor_value_info(boundary, onnx.TensorProto.FLOAT, ["N", "C", "H", "T"]))
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        onnx.save(m, f"{d}/backbone.onnx")
        return cv2.dnn.readNet(f"{d}/backbone.onnx")


Cached = tuple[np.ndarray, str, int]


def backbone_cache(words_in: list[tuple[np.ndarray, str]], model: Path, copies: int,
                   stretch: tuple[float, float], seed: int, boundary: str = BOUNDARY,
                   harsh: float = 0.0, photo: float = 0.0, blur: float = 0.0) -> list[Cached]:
    """(the boundary's output (C, H, T') float16, word, output frames T) per (image,
    folded word) and distortion (the image as it is, then `copies` distorted at a
    random stretch; a share `harsh` of those also through ``word_head.harsher``)."""
    rng = np.random.default_rng(seed)
    hrng = np.random.default_rng(seed + 1000)  # its own stream: harsh=0 keeps the old crops
    prng = np.random.default_rng(seed + 2000)  # and photo=0 too
    brng = np.random.default_rng(seed + 3000)  # and blur=0 too
    net = backbone_net(model, boundary)
    crops, words = [], []
    for im, w in words_in:
        for c in range(copies + 1):
            v = im if c == 0 else distort(im, rng)
            if c and harsh and hrng.random() < harsh:
                v = harsher(v, hrng)
            if c and photo and prng.random() < photo:
                v = photographed(v, prng)
            if c and blur and brng.random() < blur:
                v = defocused(v, brng)
            s = 1.0 if c == 0 else rng.uniform(*stretch)
            crops.append(preprocess.resized(preprocess.normalise(v), s))
            words.append(w)
    frames = [-(-c.shape[1] // preprocess.FRAME_PX) for c in crops]
    out: list[Cached] = []
    t0 = time.time()
    for f in sorted(set(frames)):
        idx = [i for i in range(len(crops)) if frames[i] == f]
        for k in range(0, len(idx), 32):
            part = idx[k:k + 32]
            blob, _ = preprocess.batch_blob([crops[i] for i in part])
            net.setInput(blob)
            feats = net.forward(boundary)
            for j, i in enumerate(part):
                out.append((feats[j].astype(np.float16), words[i], f))
        print(f"  {len(out)}/{len(crops)} crops through the backbone, {time.time() - t0:.0f} s", flush=True)
    return out


def recombined_cache(a: argparse.Namespace, items: list[dict]) -> list[Cached]:
    """Backbone outputs of a.recombined words joined from the letters of Jeremy's crops
    among `items` (``word_recombine``; cut where the starting files in a.models align
    them), each also in a.recombined_copies distortions; the words are common English
    words (Zipf 3+, 3-10 letters) of the training splits only (``word_head.word_split``).
    Cached beside a.cache when one is given."""
    import os

    from boggle_cv.train.word_head import word_split
    from boggle_cv.train.word_recombine import letter_pieces, recombined
    from boggle_cv.vision.handwriting.commonness import frequencies
    path = a.cache.with_suffix(f".recombined-{a.recombined}.pkl") if a.cache else None
    if path is not None and path.is_file():
        return list(pickle.loads(path.read_bytes()))
    os.environ["BOGGLE_CV_WORD_READER"] = str(a.models / "word_reader.onnx")
    os.environ["BOGGLE_CV_WORD_HEAD"] = str(a.models / "word_head.npz")
    splits = set(parse_splits(a.splits))
    jeremy = [(load(a.folder / x["file"]), fold_candidate(x["transcription"])) for x in items if x["set"] == "jeremy-words"]
    pieces = letter_pieces(jeremy)
    words = sorted(w for w, z in frequencies().items() if z >= 3.0 and 3 <= len(w) <= 10 and word_split(w) in splits)
    joined = recombined(pieces, words, a.recombined, np.random.default_rng(a.seed + 4000))
    print(f"{len(joined)} words joined from {sum(len(v) for v in pieces.values())} letters of {len(jeremy)} crops", flush=True)
    data = backbone_cache(joined, a.models / "word_reader.onnx", a.recombined_copies, tuple(a.stretch), a.seed + 2,
                          a.boundary, blur=a.blur)
    if path is not None:
        path.write_bytes(pickle.dumps(data))
    return data


def main() -> None:
    import torch

    from boggle_cv.train.onnx_torch import OnnxModule

    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--models", type=Path, default=ROOT / "models", help="where the starting files are")
    ap.add_argument("--copies", type=int, default=3)
    ap.add_argument("--stretch", type=float, nargs=2, default=(0.9, 1.4))
    ap.add_argument("--cache", type=Path, default=None, help="pickle of backbone outputs to reuse")
    ap.add_argument("--renders", type=int, default=0,
                    help="also this many words drawn in handwriting fonts (train.word_renders)")
    ap.add_argument("--render-copies", type=int, default=1, help="distortions of each render")
    ap.add_argument("--fonts", type=Path, default=None,
                    help="the --renders written by synthetic writers of the faces fetched into this folder "
                         "(train.font_hands) instead of the Debian fonts")
    ap.add_argument("--boundary", default=None,
                    help="the node whose output is cached (trained after it); default: the charset file's "
                         "'boundary' (the backbone's last pooling), else BOUNDARY")
    ap.add_argument("--harsh", type=float, default=0.0,
                    help="share of the distorted copies also shadowed, shrunk, noisy, blurred or JPEG'd (word_head.harsher)")
    ap.add_argument("--blur", type=float, default=0.0,
                    help="share of the distorted copies shrunk and defocused as on a blurred sheet photo (word_head.defocused)")
    ap.add_argument("--photo", type=float, default=0.0,
                    help="share of the distorted copies shrunk, blurred and JPEG'd as on a whole-sheet photo (word_head.photographed)")
    ap.add_argument("--recombined", type=int, default=0,
                    help="also this many words joined from letters cut from Jeremy's crops (train.word_recombine)")
    ap.add_argument("--recombined-copies", type=int, default=1, help="distortions of each joined word")
    ap.add_argument("--splits", default="train",
                    help="comma-separated splits to train on (word_head.split_of): 'train', or 'train,tune'")
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--head-lr", type=float, default=1e-3)
    ap.add_argument("--wd", type=float, default=1e-2)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--save-every", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (1 is faster on a busy 2-core box)")
    a = ap.parse_args()
    spec = json.loads((a.models / "word_reader_charset.json").read_text(encoding="utf-8"))
    a.boundary = a.boundary or spec.get("boundary", BOUNDARY)
    logits_name = spec.get("logits", LOGITS)
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    rng = np.random.default_rng(a.seed)

    items = training_items(a.folder, parse_splits(a.splits))
    print(f"{len(items)} training crops", flush=True)
    if a.cache and a.cache.is_file():
        data = pickle.loads(a.cache.read_bytes())
    else:
        real = [(load(a.folder / x["file"]), fold_candidate(x["transcription"])) for x in items]
        data = backbone_cache(real, a.models / "word_reader.onnx", a.copies, tuple(a.stretch), a.seed, a.boundary,
                              a.harsh, a.photo, a.blur)
        if a.renders:
            if a.fonts:
                from boggle_cv.train.font_hands import renders as hand_renders
                drawn = hand_renders(a.renders, a.seed, a.fonts)
            else:
                from boggle_cv.train.word_renders import renders
                drawn = renders(a.renders, a.seed)
            data += backbone_cache(drawn, a.models / "word_reader.onnx", a.render_copies, tuple(a.stretch),
                                   a.seed + 1, a.boundary)
            print(f"{len(drawn)} words drawn in handwriting fonts" + (f" of {a.fonts}" if a.fonts else ""), flush=True)
        if a.cache:
            a.cache.write_bytes(pickle.dumps(data))
    if a.recombined:
        data += recombined_cache(a, items)
    data = [d for d in data if len(d[1]) <= d[2]]
    by_t: dict[int, list[int]] = {}
    for i, (_, _, frames) in enumerate(data):
        by_t.setdefault(frames, []).append(i)

    net = OnnxModule(a.models / "word_reader.onnx")
    start = net.index_of(a.boundary) + 1
    print(f"{net.freeze_before(start)} recogniser values trained", flush=True)
    fold = torch.zeros(len(spec["fold"]), 27)
    fold[torch.arange(len(spec["fold"])), torch.tensor(spec["fold"])] = 1.0
    with np.load(a.models / "word_head.npz") as z:
        head = torch.nn.ParameterDict({k: torch.nn.Parameter(torch.from_numpy(np.asarray(z[k], np.float32)))
                                       for k in ("W1", "b1", "W", "b")})
    width = head["W1"].shape[0] // 120
    trained = [p for p in net.params.values() if p.requires_grad]
    opt = torch.optim.AdamW([{"params": trained, "lr": a.lr},
                             {"params": list(head.values()), "lr": a.head_lr}], weight_decay=a.wd)
    base_lrs = [a.lr, a.head_lr]
    drop = torch.nn.Dropout(0.2)
    a.out.mkdir(parents=True, exist_ok=True)

    def save() -> None:
        net.write_back(a.out / "word_reader.onnx")
        sha_file(a.out / "word_reader.onnx")
        if (a.out / "word_reader_charset.json").resolve() != (a.models / "word_reader_charset.json").resolve():
            shutil.copy(a.models / "word_reader_charset.json", a.out / "word_reader_charset.json")
        np.savez(a.out / "word_head.npz", **{k: v.detach().numpy().astype(np.float32) for k, v in head.items()})
        sha_file(a.out / "word_head.npz")

    # batches of one width, drawn in proportion to how many crops have that width
    widths = sorted(by_t)
    weights = np.array([len(by_t[t]) for t in widths], float)
    weights /= weights.sum()
    t0 = time.time()
    avg = None
    for step in range(a.steps):
        t = widths[rng.choice(len(widths), p=weights)]
        pool = by_t[t]
        idx = rng.choice(pool, size=min(a.batch, len(pool)), replace=False)
        x = torch.from_numpy(np.stack([data[i][0] for i in idx]).astype(np.float32))
        labels = [data[i][1] for i in idx]
        out = net(x, [logits_name, "features"], start=start, start_name=a.boundary)
        probs = torch.softmax(out[logits_name], -1) @ fold  # (n, T, 27)
        logp = torch.log(probs.clamp_min(1e-8))
        feats = out["features"]
        r = width // 2
        padded = torch.nn.functional.pad(feats, (0, 0, r, r))
        ctx = torch.cat([padded[:, i:i + t] for i in range(width)], -1)
        h = drop(torch.relu(ctx @ head["W1"] + head["b1"]))
        logits = logp + h @ head["W"] + head["b"]
        lp = torch.log_softmax(logits, -1).transpose(0, 1)
        targets = torch.tensor([ord(c) - 96 for w in labels for c in w])
        loss = torch.nn.functional.ctc_loss(lp, targets, torch.full((len(idx),), t),
                                            torch.tensor([len(w) for w in labels]), blank=0,
                                            reduction="mean", zero_infinity=True)
        for g, base in zip(opt.param_groups, base_lrs):
            g["lr"] = base * min(1.0, (step + 1) / 100) * 0.5 * (1 + np.cos(np.pi * step / a.steps))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(trained + list(head.values()), 5.0)
        opt.step()
        avg = loss.item() if avg is None else 0.98 * avg + 0.02 * loss.item()
        if step % 100 == 0 or step == a.steps - 1:
            print(f"  step {step} loss {avg:.3f} {time.time() - t0:.0f} s", flush=True)
        if (step + 1) % a.save_every == 0 or step == a.steps - 1:
            save()
            print(f"  saved at step {step + 1}", flush=True)
    print(f"{a.out}: done", flush=True)


if __name__ == "__main__":
    main()
