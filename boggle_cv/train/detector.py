"""Train the cube-top detector (CenterNet-like heatmap of cube-top centres).

    python -m boggle_cv.train.detector --boards ../shared/boggle-boards --out models/ --seed 0

Data: the boggle-boards layouts not held out (boggle_cv.train.detector_data.is_val_layout)
and synthetic renders (rendered into --synth-dir first if missing, the renderer's
default camera; optionally --steep-count renders into --steep-dir with camera tilt up
to 75 degrees, detector_data.steep_synth_config), all augmented (any rotation, zoom,
perspective, colour, blur, noise, JPEG; --steep-aug P: a share P of strong keystone
views). Never real-photos, never the held-out synthetic seed 90210.

--init PATH starts from a shipped ONNX model (its Conv+BatchNorm pairs are fused:
the BatchNorm layers are loaded as identity plus bias and kept in eval mode, so only
their affine part trains): a fine-tune.

Network input: (1, 3, S, S) float32 BGR 0..255 letterboxed photo (S = 320 at run time;
trained on random crops); outputs (1, 2, S/4, S/4): channel 0 = heatmap logit of a cube
top centre at that cell, channel 1 = log(cube side in input px). Writes
OUT/cube_detector.onnx and OUT/cube_detector.onnx.sha256.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import numpy as np

from boggle_cv.train.detector_data import (AugConfig, augment, load_boards, load_synth,
                                           render_synth, steep_synth_config, targets)

STRIDE = 4


def build_model():
    """The detector network (torch.nn.Module); ~0.1 M parameters."""
    import torch
    from torch import nn
    import torch.nn.functional as F

    def cbr(i, o, s=1, d=1):
        return nn.Sequential(nn.Conv2d(i, o, 3, s, d, dilation=d, bias=False),
                             nn.BatchNorm2d(o), nn.ReLU(inplace=True))

    class CubeDetector(nn.Module):
        def __init__(self):
            super().__init__()
            self.s1 = cbr(3, 12, 2)                                   # 1/2
            self.s2 = nn.Sequential(cbr(12, 24, 2), cbr(24, 24))      # 1/4
            self.s3 = nn.Sequential(cbr(24, 40, 2), cbr(40, 40))      # 1/8
            self.s4 = nn.Sequential(cbr(40, 56, 2), cbr(56, 56, d=2),
                                    cbr(56, 56, d=4))                 # 1/16
            self.l4 = nn.Conv2d(56, 24, 1)
            self.l3 = nn.Conv2d(40, 24, 1)
            self.l2 = nn.Conv2d(24, 24, 1)
            self.fuse = cbr(24, 24)
            self.head = nn.Conv2d(24, 2, 1)
            with torch.no_grad():
                self.head.bias[0] = -2.2
                self.head.bias[1] = 3.0

        def forward(self, x):
            x = (x - 128.0) / 64.0
            f2 = self.s2(self.s1(x))
            f3 = self.s3(f2)
            f4 = self.s4(f3)
            y = self.l3(f3) + F.interpolate(self.l4(f4), scale_factor=2.0, mode="nearest")
            y = self.l2(f2) + F.interpolate(y, scale_factor=2.0, mode="nearest")
            return self.head(self.fuse(F.relu(y)))

    return CubeDetector()


def focal_loss(logit, heat):
    """CenterNet focal loss (alpha 2, beta 4), normalised by the number of peaks."""
    import torch
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = (heat > 0.99).float()
    neg = 1 - pos
    lp = -torch.log(p) * (1 - p) ** 2 * pos
    ln = -torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * neg
    return (lp.sum() + ln.sum()) / pos.sum().clamp(min=1)


def make_batch(rng, samples, weights, bs, crop, aug):
    """(x (bs,3,crop,crop) float32 BGR 0..255, heat, size, mask (bs,1,crop/4,crop/4))."""
    xs, hs, ss, ms = [], [], [], []
    for _ in range(bs):
        i = int(rng.choice(len(samples), p=weights))
        img, c, s = samples[i]
        view, pts, sd = augment(rng, img, c, s, aug, crop)
        keep = (pts[:, 0] >= -0.3 * sd) & (pts[:, 0] < crop + 0.3 * sd) & (
            pts[:, 1] >= -0.3 * sd) & (pts[:, 1] < crop + 0.3 * sd) if len(pts) else []
        h, sz, m = targets(pts[keep] if len(pts) else pts, sd[keep] if len(sd) else sd, crop, STRIDE)
        xs.append(view.transpose(2, 0, 1))
        hs.append(h[None]), ss.append(sz[None]), ms.append(m[None])
    f = np.float32
    return (np.stack(xs).astype(f), np.stack(hs).astype(f), np.stack(ss).astype(f),
            np.stack(ms).astype(f))


def load_onnx_weights(model, path: Path) -> None:
    """Load an exported cube_detector.onnx into build_model()'s network.

    The export fused each 3x3 Conv with its BatchNorm (unnamed initializers, in
    graph order); each BatchNorm becomes identity (mean 0, var 1 - eps, weight 1)
    with the fused bias. The 1x1 laterals and head keep their names."""
    import onnx
    import torch
    from onnx import numpy_helper
    from torch import nn
    g = onnx.load(str(path)).graph
    inits = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    fused = []
    for node in g.node:
        if node.op_type == "Conv" and not node.input[1].startswith(("l2", "l3", "l4", "head")):
            fused.append((inits[node.input[1]], inits[node.input[2]]))
    pairs = []
    mods = list(model.modules())
    for i, m in enumerate(mods):
        if isinstance(m, nn.Conv2d) and m.kernel_size == (3, 3):
            pairs.append((m, mods[i + 1]))
    if len(pairs) != len(fused):
        raise ValueError(f"{path}: {len(fused)} fused convs, model has {len(pairs)}")
    sd = model.state_dict()
    with torch.no_grad():
        for (conv, bn), (w, b) in zip(pairs, fused):
            conv.weight.copy_(torch.from_numpy(np.array(w)))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(np.array(b)))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        for k in ("l2", "l3", "l4", "head"):
            for t in ("weight", "bias"):
                sd[f"{k}.{t}"].copy_(torch.from_numpy(np.array(inits[f"{k}.{t}"])))


def export_onnx(model, path: Path, in_side: int = 320) -> str:
    """Export to ONNX (opset 13, fixed input (1,3,in_side,in_side)); writes the
    .sha256 side file; returns the hash."""
    import torch
    model.eval()
    dummy = torch.zeros(1, 3, in_side, in_side)
    torch.onnx.export(model, dummy, str(path), input_names=["image"], output_names=["maps"],
                      opset_version=13, dynamo=False)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    path.with_name(path.name + ".sha256").write_text(digest + "\n")
    return digest


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="train the cube-top detector")
    ap.add_argument("--boards", type=Path, required=True, help="../shared/boggle-boards")
    ap.add_argument("--out", type=Path, default=Path("models"))
    ap.add_argument("--synth-dir", type=Path, default=Path("/tmp/boggle_cv_det_synth"))
    ap.add_argument("--synth-count", type=int, default=1600,
                    help="renders with the renderer's default camera (0: none)")
    ap.add_argument("--steep-dir", type=Path, default=Path("/tmp/boggle_cv_det_synth_steep"))
    ap.add_argument("--steep-count", type=int, default=0,
                    help="renders with steep camera tilt (detector_data.steep_synth_config)")
    ap.add_argument("--init", type=Path, default=None,
                    help="fine-tune from this ONNX model (e.g. models/cube_detector.onnx)")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--steep-aug", type=float, default=0.0,
                    help="share of views with a strong keystone (AugConfig.steep_p)")
    ap.add_argument("--min-zoom", type=float, default=0.7,
                    help="smallest zoom of the letterbox (AugConfig.scale[0]; < 1: smaller boards)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--minutes", type=float, default=12.0)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--crop", type=int, default=160)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--real-share", type=float, default=0.35,
                    help="share of samples drawn from the real boards")
    ap.add_argument("--reload", action="store_true",
                    help="re-read --synth-dir every 150 steps (renders still being written)")
    a = ap.parse_args(argv)
    import torch
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    syn = []
    if a.synth_count > 0:
        if not (a.synth_dir / "labels.json").exists():
            print(f"rendering {a.synth_count} synthetic photos into {a.synth_dir}", file=sys.stderr)
            render_synth(a.synth_dir, a.synth_count, seed=1234)
        syn += load_synth(a.synth_dir)
    if a.steep_count > 0:
        if not (a.steep_dir / "labels.json").exists():
            print(f"rendering {a.steep_count} steep-tilt photos into {a.steep_dir}", file=sys.stderr)
            render_synth(a.steep_dir, a.steep_count, seed=4321, config=steep_synth_config())
        syn += load_synth(a.steep_dir)
    real = load_boards(a.boards, "train")
    samples = real + syn
    w = np.r_[np.full(len(real), a.real_share / len(real)),
              np.full(len(syn), (1 - a.real_share) / len(syn))]
    print(f"{len(real)} real, {len(syn)} synthetic samples", file=sys.stderr)
    model = build_model()
    if a.init is not None:
        load_onnx_weights(model, a.init)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    aug = AugConfig(scale=(a.min_zoom, AugConfig.scale[1]), steep_p=a.steep_aug)
    t0 = time.time()
    budget = a.minutes * 60
    step = 0
    hist = []
    while time.time() - t0 < budget:
        frac = (time.time() - t0) / budget
        for g in opt.param_groups:  # warm-up then cosine decay, by wall time
            g["lr"] = a.lr * min(1.0, (step + 1) / 50) * (0.5 * (1 + np.cos(np.pi * frac)) + 0.02)
        if step % 150 == 149 and a.reload:  # renders still being written: take new ones
            syn = (load_synth(a.synth_dir) if a.synth_count > 0 else []) + (
                load_synth(a.steep_dir) if a.steep_count > 0 else [])
            samples = real + syn
            w = np.r_[np.full(len(real), a.real_share / len(real)),
                      np.full(len(syn), (1 - a.real_share) / len(syn))]
        x, h, s, m = (torch.from_numpy(v) for v in make_batch(rng, samples, w, a.batch, a.crop, aug))
        model.train()
        if a.init is not None:  # fused BatchNorm: keep the loaded statistics
            for mod in model.modules():
                if isinstance(mod, torch.nn.BatchNorm2d):
                    mod.eval()
        out = model(x)
        lh = focal_loss(out[:, :1], h)
        ls = (torch.abs(out[:, 1:] - s) * m).sum() / m.sum().clamp(min=1)
        loss = lh + 0.5 * ls
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.append((lh.item(), ls.item()))
        step += 1
        if step % 25 == 0:
            hh = np.mean(hist[-25:], 0)
            print(f"step {step} {time.time() - t0:.0f}s heat {hh[0]:.3f} size {hh[1]:.3f}",
                  file=sys.stderr, flush=True)
    a.out.mkdir(parents=True, exist_ok=True)
    digest = export_onnx(model, a.out / "cube_detector.onnx")
    print(f"wrote {a.out / 'cube_detector.onnx'} sha256 {digest}, {step} steps, "
          f"{time.time() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
