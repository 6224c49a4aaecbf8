"""Run an ONNX graph in torch with its float constants as trainable parameters
(training only; the shipped network stays the ONNX file, run by cv2.dnn).

Written for models/word_reader.onnx (PP-OCR's recognisers: PP-OCRv6 small and
PP-OCRv5 mobile, whole). The
graph is executed node by node in its stored (topological) order; every ``Constant``
holding a float tensor of more than one value becomes a ``torch.nn.Parameter`` named
after its output, so after training ``write_back`` puts the values into the same
constants of the same graph: same ops, same names, still loadable by cv2.dnn.
BatchNormalization runs with its stored statistics (inference mode).
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F


def _attrs(node) -> dict:  # type: ignore[no-untyped-def]
    from onnx import helper
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


class OnnxModule(torch.nn.Module):
    """``forward(x)`` -> {output name: tensor} for the requested outputs."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        import onnx
        from onnx import numpy_helper
        self.model = onnx.load(str(path))
        self.nodes = list(self.model.graph.node)
        self.params = torch.nn.ParameterDict()
        self.consts: dict[str, torch.Tensor] = {}
        self.key: dict[str, str] = {}
        for n in self.nodes:
            if n.op_type != "Constant":
                continue
            a = numpy_helper.to_array(n.attribute[0].t)
            t = torch.from_numpy(np.array(a))
            if a.dtype == np.float32 and a.size > 1:
                k = f"p{len(self.params)}"
                self.key[n.output[0]] = k
                self.params[k] = torch.nn.Parameter(t)
            else:
                self.consts[n.output[0]] = t
        self.input_name = self.model.graph.input[0].name
        self.compute = compute = [n for n in self.nodes if n.op_type != "Constant"]
        #: per parameter, the index (among non-Constant nodes) of its first consumer
        self.first_use: dict[str, int] = {}
        for i, n in enumerate(compute):
            for x in n.input:
                if x in self.key:
                    self.first_use.setdefault(self.key[x], i)
        self.n_compute = len(compute)
        self.attrs = [_attrs(n) for n in compute]

    def freeze_before(self, start: int) -> int:
        """Freeze the parameters first used before compute node ``start``; returns how
        many values stay trainable."""
        n = 0
        for k, p in self.params.items():
            p.requires_grad_(self.first_use.get(k, 0) >= start)
            n += p.numel() if p.requires_grad else 0
        return n

    def index_of(self, output: str) -> int:
        """The index among compute nodes of the node that writes ``output``."""
        return next(i for i, n in enumerate(self.compute) if output in n.output)

    def forward(self, x: torch.Tensor, outputs: Sequence[str], start: int = 0,
                start_name: str | None = None) -> dict[str, torch.Tensor]:
        """Run compute nodes ``start``.. (0: the whole graph, ``x`` its input; else
        ``x`` is the tensor ``start_name``, the only one those nodes read from before)."""
        env: dict[str, torch.Tensor] = {start_name if start else self.input_name: x}

        def get(name: str) -> torch.Tensor:
            if name in env:
                return env[name]
            if name in self.key:
                return self.params[self.key[name]]
            return self.consts[name]

        for n, at in zip(self.compute[start:], self.attrs[start:]):
            ins = [get(i) if i else None for i in n.input]
            env[n.output[0]] = _run(n.op_type, ins, at)
        return {o: env[o] for o in outputs}

    def write_back(self, out: Path) -> None:
        """Save the graph with the trained parameter values in place of the originals."""
        import onnx
        from onnx import numpy_helper
        for n in self.nodes:
            k = self.key.get(n.output[0]) if n.op_type == "Constant" else None
            if k is None:
                continue
            t = n.attribute[0].t
            arr = self.params[k].detach().numpy().astype(np.float32)
            n.attribute[0].t.CopyFrom(numpy_helper.from_array(np.ascontiguousarray(arr), t.name))
        onnx.checker.check_model(self.model)
        onnx.save(self.model, str(out))


def _ints(t: torch.Tensor | None) -> list[int]:
    assert t is not None
    return [int(v) for v in t.reshape(-1).tolist()]


def _pads(a: torch.Tensor, kernel: list[int], at: dict, dilations: list[int] | None = None) -> tuple[int, ...]:  # type: ignore[type-arg]
    """F.pad's (left, right, top, bottom) for a 2-D Conv or pool: its explicit pads, or
    auto_pad SAME_UPPER / SAME_LOWER (the output as large as the input over the
    stride; an odd pixel of padding at the end, or at the start)."""
    strides = list(at.get("strides", [1, 1]))
    dilations = dilations or [1, 1]
    auto = at.get("auto_pad", b"NOTSET")
    auto = auto.decode() if isinstance(auto, bytes) else str(auto)
    if auto in ("SAME_UPPER", "SAME_LOWER"):
        pad = []
        for size, k, st, d in zip(a.shape[2:], kernel, strides, dilations):
            total = max((-(-size // st) - 1) * st + (k - 1) * d + 1 - size, 0)
            small, big = total // 2, total - total // 2
            pad.append((small, big) if auto == "SAME_UPPER" else (big, small))
        (top, bottom), (left, right) = pad
    else:
        top, left, bottom, right = at.get("pads", [0, 0, 0, 0])
    return (left, right, top, bottom)


def _max_pool(a: torch.Tensor, at: dict) -> torch.Tensor:  # type: ignore[type-arg]
    """ONNX MaxPool (2-D), padded with -inf as _pads says."""
    kernel = list(at["kernel_shape"])
    a = F.pad(a, _pads(a, kernel, at), value=float("-inf"))
    return F.max_pool2d(a, kernel, list(at.get("strides", [1, 1])), ceil_mode=bool(at.get("ceil_mode", 0)))


def _run(op: str, ins: list, at: dict) -> torch.Tensor:  # type: ignore[type-arg]
    a = ins[0]
    if op == "Identity":
        return a
    if op == "Add":
        return a + ins[1]
    if op == "Sub":
        return a - ins[1]
    if op == "Mul":
        return a * ins[1]
    if op == "Div":
        return a / ins[1]
    if op == "Pow":
        return a ** ins[1]
    if op == "Sqrt":
        return torch.sqrt(a)
    if op == "Relu":
        return F.relu(a)
    if op == "Sigmoid":
        return torch.sigmoid(a)
    if op == "HardSwish":
        return F.hardswish(a)
    if op == "HardSigmoid":
        return torch.clamp(at.get("alpha", 0.2) * a + at.get("beta", 0.5), 0, 1)
    if op == "MatMul":
        return a @ ins[1]
    if op == "Softmax":
        return torch.softmax(a, at.get("axis", -1))
    if op == "Conv":
        kernel = list(ins[1].shape[2:])
        a = F.pad(a, _pads(a, kernel, at, list(at.get("dilations", [1, 1]))))
        return F.conv2d(a, ins[1], ins[2] if len(ins) > 2 else None, tuple(at.get("strides", [1, 1])),
                        0, tuple(at.get("dilations", [1, 1])), at.get("group", 1))
    if op == "BatchNormalization":
        return F.batch_norm(a, ins[3].detach(), ins[4].detach(), ins[1], ins[2], False, 0.0, at.get("epsilon", 1e-5))
    if op == "GlobalAveragePool":
        return a.mean((2, 3), keepdim=True)
    if op == "AveragePool":
        pads = at.get("pads", [0, 0, 0, 0])
        assert pads == [0, 0, 0, 0], pads
        return F.avg_pool2d(a, tuple(at["kernel_shape"]), tuple(at.get("strides", at["kernel_shape"])),
                            ceil_mode=bool(at.get("ceil_mode", 0)))
    if op == "MaxPool":
        return _max_pool(a, at)
    if op == "Erf":
        return torch.erf(a)
    if op == "ReduceMean":
        axes = at.get("axes") or _ints(ins[1])
        return a.mean(tuple(axes), keepdim=bool(at.get("keepdims", 1)))
    if op == "Reshape":
        shape = _ints(ins[1])
        shape = [a.shape[i] if s == 0 else s for i, s in enumerate(shape)]
        return a.reshape(shape)
    if op == "Transpose":
        return a.permute(*at["perm"])
    if op == "Squeeze":
        axes = _ints(ins[1]) if len(ins) > 1 and ins[1] is not None else at.get("axes")
        if axes is None:
            return a.squeeze()
        for ax in sorted((x % a.dim() for x in axes), reverse=True):
            a = a.squeeze(ax)
        return a
    if op == "Unsqueeze":
        axes = _ints(ins[1]) if len(ins) > 1 and ins[1] is not None else at["axes"]
        out_dim = a.dim() + len(axes)
        for ax in sorted(x % out_dim for x in axes):
            a = a.unsqueeze(ax)
        return a
    if op == "Shape":
        return torch.tensor(a.shape, dtype=torch.int64)
    if op == "Concat":
        if all(t.dtype == torch.int64 for t in ins):
            return torch.cat([t.reshape(-1) if t.dim() == 0 else t for t in ins], at["axis"])
        return torch.cat(ins, at["axis"])
    if op == "Slice":
        starts, ends = _ints(ins[1]), _ints(ins[2])
        axes = _ints(ins[3]) if len(ins) > 3 and ins[3] is not None else list(range(len(starts)))
        steps = _ints(ins[4]) if len(ins) > 4 and ins[4] is not None else [1] * len(starts)
        idx = [slice(None)] * a.dim()
        for s, e, ax, st in zip(starts, ends, axes, steps):
            n = a.shape[ax]
            s = max(0, min(n, s + n if s < 0 else s))
            e = max(0, min(n, e + n if e < 0 else e))
            idx[ax] = slice(s, e, st)
        return a[tuple(idx)]
    raise NotImplementedError(op)
