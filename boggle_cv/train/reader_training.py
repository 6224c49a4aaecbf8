"""Training the face/turn classifier and exporting it to ONNX (training only; needs torch).

Data: synthetic crops (boggle_cv.train.crops), crops cut from whole synthetic tray
photos (boggle_cv.train.scenedata, seed SCENE_SEED_BASE + seed) and real crops cut
from the Boggle Boards photos of the training layouts (corners jittered). Held out:
a seeded share of the Boggle Boards layouts and a fresh synthetic set. Never reads
real-photos/. Writes OUT/reader.onnx, OUT/reader.onnx.sha256 and
OUT/reader_metrics.json. The command line is boggle_cv.train.__main__.
"""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from .parallel import map_concat

#: scene renders for training use seed SCENE_SEED_BASE + --seed: away from the seeds
#: of the held-out synthetic sets (90210, 777) and of the detector's renders (1234, 4321).
SCENE_SEED_BASE = 50000
ONNX_MAX_LOGIT_DIFF = 1e-3   # cv2.dnn must give torch's logits within this


class ExportMismatchError(RuntimeError):
    """The exported ONNX file does not give torch's logits through cv2.dnn."""


@dataclass(frozen=True)
class TrainOptions:
    """The recipe (the command's options, same names; recorded in reader_metrics.json
    under "args", in this order)."""

    boards: Path                  # boggle-boards folder (truth.json + photos)
    out: Path = Path("models")
    seed: int = 0
    n_synth: int = 60000          # synthetic crops
    real_copies: int = 5          # jittered copies of each real training crop
    jitter: float = 0.06          # corner jitter, fraction of a pitch
    real_degrade: float = 0.4     # share of real training crops given the synthetic camera damage
    holdout: float = 0.15         # share of layouts held out
    steps: int = 5200             # training steps (the LR schedule follows them)
    minutes: float = 26.0         # safety cap on training time (then the schedule is compressed)
    batch: int = 128
    width: int = 24               # channels of the first conv layer (FaceNet)
    real_share: float = 0.35      # share of each batch from real crops
    scene_photos: int = 5000      # whole synthetic tray photos rendered for crops
    scene_share: float = 0.35     # share of each batch from those crops
    threads: int = 2
    cache: Path | None = None     # npz cache of the generated synthetic set


def _synth_chunk(args):
    seed, n = args
    from .crops import CropRenderer
    from ..vision.reader_model import preprocess
    x, f, t = CropRenderer(seed).batch(n)
    return preprocess(x), f, t


def make_synth(n: int, seed: int, workers: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n synthetic crops, preprocessed (n, 1, 48, 48) float32, with faces and turns (n,)."""
    chunk = 2000
    jobs = [(seed * 100003 + i, min(chunk, n - i * chunk)) for i in range((n + chunk - 1) // chunk)]
    return map_concat(_synth_chunk, jobs, workers)


def train_reader(a: TrainOptions, log: Callable[[str], None]) -> dict:
    """Train, export, check and hash the reader; returns the metrics written to
    OUT/reader_metrics.json. log: one progress line at a time. Raises
    ExportMismatchError when cv2.dnn disagrees with torch on the exported file."""
    import torch
    from torch import nn
    from .model import FaceNet
    from . import realdata
    from ..vision.reader_model import FACES, InputSpec, preprocess

    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    t_start = time.time()

    if a.cache and a.cache.exists():
        z = np.load(a.cache)
        xs, fs, ts = z["x"], z["f"], z["t"]
        log(f"synthetic set from cache {a.cache}: {len(xs)}")
    else:
        xs, fs, ts = make_synth(a.n_synth, a.seed, a.threads)
        if a.cache:
            np.savez(a.cache, x=xs, f=fs, t=ts)
        log(f"synthetic set: {len(xs)} crops in {time.time() - t_start:.0f}s")
    xv, fv, tv = make_synth(3000, a.seed + 7919, 1)
    t_scene = time.time()
    from . import scenedata
    xc, fc, tc = scenedata.build(a.scene_photos, SCENE_SEED_BASE + a.seed, workers=a.threads)
    log(f"scene crops: {len(xc)} from {a.scene_photos} renders in {time.time() - t_scene:.0f}s")

    photos = realdata.load_truth(a.boards)
    train_ids, held_ids = realdata.split_layouts(photos, a.holdout, a.seed)
    crop_px = 64
    xr, fr = realdata.build(a.boards, train_ids, crop_px, a.real_copies, a.jitter, a.seed, a.real_degrade)
    xr = preprocess(xr)
    xh, fh = realdata.build(a.boards, held_ids, crop_px, 0, 0.0, a.seed)
    xh = preprocess(xh)
    log(f"real: {len(xr)} training crops ({len(train_ids)} layouts), {len(xh)} held-out ({len(held_ids)} layouts)")

    # channels_last: the same network, about 30% faster per step on CPU (measured on 2 threads)
    model = FaceNet(len(FACES), width=a.width).to(memory_format=torch.channels_last)
    nf = len(FACES)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    ce = nn.CrossEntropyLoss(label_smoothing=0.05, ignore_index=-1)
    budget = a.minutes * 60.0
    n_real = int(a.batch * a.real_share)
    n_scene = int(a.batch * a.scene_share) if len(xc) else 0
    n_syn = a.batch - n_real - n_scene
    Xs, Fs, Ts = torch.from_numpy(xs), torch.from_numpy(fs), torch.from_numpy(ts)
    Xr, Fr = torch.from_numpy(xr), torch.from_numpy(fr)
    Xc, Fc, Tc = torch.from_numpy(xc), torch.from_numpy(fc), torch.from_numpy(tc)

    def evaluate(x, f, t=None):
        model.eval()
        with torch.no_grad():
            out = torch.cat([model(torch.from_numpy(x[i:i + 512])) for i in range(0, len(x), 512)])
        model.train()
        face_acc = float((out[:, :nf].argmax(1).numpy() == f).mean())
        turn_acc = float((out[:, nf:].argmax(1).numpy() == t).mean()) if t is not None else None
        return face_acc, turn_acc

    t0 = time.time()
    step = 0
    lr_max = 2e-3
    while True:
        el = time.time() - t0
        frac = max(step / a.steps, el / budget)
        if frac >= 1.0:
            break
        lr = lr_max * min(1.0, (step + 1) / 300) * (0.5 * (1 + np.cos(np.pi * frac)) * 0.97 + 0.03)
        for g in opt.param_groups:
            g["lr"] = lr
        i_s = torch.from_numpy(rng.integers(0, len(Xs), n_syn))
        i_r = torch.from_numpy(rng.integers(0, len(Xr), n_real))
        i_c = torch.from_numpy(rng.integers(0, max(1, len(Xc)), n_scene))
        x = torch.cat([Xs[i_s], Xc[i_c], Xr[i_r]])
        f = torch.cat([Fs[i_s], Fc[i_c], Fr[i_r]])
        t = torch.cat([Ts[i_s], Tc[i_c], torch.full((n_real,), -1, dtype=torch.int64)])
        # four-turn augmentation: rotating a crop k quarter turns counter-clockwise
        # changes its turn from t to (t - k) mod 4
        k = torch.from_numpy(rng.integers(0, 4, len(x)))
        xa = x.clone()
        for q in (1, 2, 3):
            m = k == q
            if m.any():
                xa[m] = torch.rot90(x[m], q, dims=(2, 3))
        t = torch.where(t >= 0, (t - k) % 4, t)
        # contrast jitter on the standardised input
        xa = xa * torch.empty(len(xa), 1, 1, 1).uniform_(0.8, 1.2)
        out = model(xa.contiguous(memory_format=torch.channels_last))
        loss = ce(out[:, :nf], f) + 0.5 * ce(out[:, nf:], t)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 250 == 0:
            sa, st = evaluate(xv, fv, tv)
            ra, _ = evaluate(xh, fh)
            log(f"step {step} {el / 60:.1f} min loss {loss.item():.3f} lr {lr:.2e} "
                f"synth face {sa:.4f} turn {st:.4f} real-heldout face {ra:.4f}")

    sa, st = evaluate(xv, fv, tv)
    ra, _ = evaluate(xh, fh)
    log(f"final: {step} steps, synth-heldout face {sa:.4f} turn {st:.4f}, boards-heldout face {ra:.4f}")

    a.out.mkdir(parents=True, exist_ok=True)
    onnx_path = a.out / "reader.onnx"
    model.eval()
    model.to(memory_format=torch.contiguous_format)
    spec = InputSpec()
    dummy = torch.zeros(1, 1, spec.px, spec.px)
    torch.onnx.export(model, dummy, str(onnx_path), input_names=["crops"], output_names=["logits"],
                      opset_version=13, dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, dynamo=False)
    # the exported file must give the same logits through cv2.dnn as torch does
    import cv2
    net = cv2.dnn.readNetFromONNX(str(onnx_path))
    net.setInput(xv[:64])
    with torch.no_grad():
        ref = model(torch.from_numpy(xv[:64])).numpy()
    onnx_diff = float(np.abs(net.forward() - ref).max())
    log(f"cv2 {cv2.__version__} dnn vs torch: max |logit difference| {onnx_diff:.2e}")
    if onnx_diff > ONNX_MAX_LOGIT_DIFF:
        raise ExportMismatchError(f"ONNX export does not match torch (max logit difference {onnx_diff:.2e})")
    digest = hashlib.sha256(onnx_path.read_bytes()).hexdigest()
    (a.out / "reader.onnx.sha256").write_text(f"{digest}  reader.onnx\n")
    metrics = {
        "seed": a.seed, "steps": step, "train_minutes": round((time.time() - t0) / 60, 2),
        "total_minutes": round((time.time() - t_start) / 60, 2),
        "n_synth": int(len(xs)), "n_scene_crops": int(len(xc)), "scene_seed": SCENE_SEED_BASE + a.seed,
        "n_real_train_crops": int(len(xr)), "n_real_heldout_crops": int(len(xh)),
        "heldout_layouts": sorted(held_ids),
        "synth_heldout_face_acc": sa, "cv2_vs_torch_max_logit_diff": onnx_diff,
        "synth_heldout_turn_acc": st, "boards_heldout_face_acc": ra,
        "args": {k: str(v) for k, v in asdict(a).items()},
    }
    (a.out / "reader_metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")
    log(f"wrote {onnx_path} sha256 {digest[:16]}... in {metrics['total_minutes']} min")
    return metrics
