"""Train the face/turn classifier and export it to ONNX (training only; needs torch).

    python -m boggle_cv.train --boards ../shared/boggle-boards --out models/ --seed 0

The recipe and its data: boggle_cv.train.reader_training. This module only parses
the options (Typer), runs the training and turns failures into one stderr line and
an exit code: 0 done, 1 the export check failed, 2 a bad option, 3 torch or onnx
missing.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer

PROG = "python -m boggle_cv.train"
EXIT_EXPORT, EXIT_USAGE, EXIT_MISSING = 1, 2, 3

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False,
                  help="Train the face/turn classifier and export it to ONNX (needs torch and onnx).")


def log(msg: str) -> None:
    """One progress line on stderr, time-stamped."""
    sys.stderr.write(f"[train {time.strftime('%H:%M:%S')}] {msg}\n")
    sys.stderr.flush()


@app.command()
def train(
    boards: Annotated[Path, typer.Option(
        "--boards", exists=True, file_okay=False, help="boggle-boards folder (truth.json + photos).")],
    out: Annotated[Path, typer.Option(
        "--out", help="Folder for reader.onnx, its .sha256 and reader_metrics.json.")] = Path("models"),
    seed: Annotated[int, typer.Option(
        "--seed", help="Random seed of the data, the split and the training.")] = 0,
    n_synth: Annotated[int, typer.Option(
        "--n-synth", min=1, help="Synthetic crops (boggle_cv.train.crops).")] = 60000,
    real_copies: Annotated[int, typer.Option(
        "--real-copies", min=0, help="Jittered copies of each real training crop.")] = 5,
    jitter: Annotated[float, typer.Option(
        "--jitter", min=0.0, help="Corner jitter, fraction of a pitch.")] = 0.06,
    real_degrade: Annotated[float, typer.Option(
        "--real-degrade", min=0.0, max=1.0,
        help="Share of the real training crops given the synthetic camera damage.")] = 0.4,
    holdout: Annotated[float, typer.Option(
        "--holdout", min=0.0, max=1.0, help="Share of layouts held out.")] = 0.15,
    steps: Annotated[int, typer.Option(
        "--steps", min=1, help="Training steps (the LR schedule follows them).")] = 5200,
    minutes: Annotated[float, typer.Option(
        "--minutes", min=0.0,
        help="Safety cap on training time; when hit, the schedule is compressed (less reproducible).")] = 26.0,
    batch: Annotated[int, typer.Option("--batch", min=1, help="Crops per training step.")] = 128,
    width: Annotated[int, typer.Option(
        "--width", min=1, help="Channels of the first conv layer (FaceNet).")] = 24,
    real_share: Annotated[float, typer.Option(
        "--real-share", min=0.0, max=1.0, help="Share of each batch from real crops.")] = 0.35,
    scene_photos: Annotated[int, typer.Option(
        "--scene-photos", min=0,
        help="Whole synthetic tray photos rendered for crops (boggle_cv.train.scenedata).")] = 5000,
    scene_share: Annotated[float, typer.Option(
        "--scene-share", min=0.0, max=1.0, help="Share of each batch from those crops.")] = 0.35,
    threads: Annotated[int, typer.Option(
        "--threads", min=1, help="Torch threads and data-generation processes.")] = 2,
    cache: Annotated[Optional[Path], typer.Option(
        "--cache", help="npz cache of the generated synthetic set.")] = None,
) -> None:
    """Train the reader on synthetic, scene and real crops; write OUT/reader.onnx,
    OUT/reader.onnx.sha256 and OUT/reader_metrics.json."""
    if real_share + scene_share > 1.0:
        raise typer.BadParameter(
            f"--real-share {real_share} and --scene-share {scene_share} add up to more than 1",
            param_hint="'--real-share' / '--scene-share'")
    try:
        import onnx  # noqa: F401  (torch.onnx.export needs it)
        import torch  # noqa: F401
    except ImportError as e:
        typer.echo(f"{PROG}: error: training needs {e.name} (pip install 'boggle-cv[train]')", err=True)
        raise typer.Exit(EXIT_MISSING) from None
    from .reader_training import ExportMismatchError, TrainOptions, train_reader
    opts = TrainOptions(boards=boards, out=out, seed=seed, n_synth=n_synth, real_copies=real_copies,
                        jitter=jitter, real_degrade=real_degrade, holdout=holdout, steps=steps,
                        minutes=minutes, batch=batch, width=width, real_share=real_share,
                        scene_photos=scene_photos, scene_share=scene_share, threads=threads, cache=cache)
    try:
        train_reader(opts, log)
    except ExportMismatchError as e:
        typer.echo(f"{PROG}: error: {e}", err=True)
        raise typer.Exit(EXIT_EXPORT) from None


def main(argv: list[str] | None = None) -> int:
    """Run the command on argv (default sys.argv[1:]); returns the exit code. A bad
    option gives one line on stderr and EXIT_USAGE."""
    try:
        rc = app(args=argv, prog_name=PROG, standalone_mode=False)
    except typer.Exit as e:
        return e.exit_code
    except typer.Abort:
        typer.echo(f"{PROG}: interrupted", err=True)
        return 130
    except Exception as e:  # click's usage errors (typer raises its vendored click's)
        code, message = getattr(e, "exit_code", None), getattr(e, "format_message", None)
        if not isinstance(code, int) or message is None:
            raise
        typer.echo(f"{PROG}: error: {message()} (see --help)", err=True)
        return code
    return rc if isinstance(rc, int) else 0


if __name__ == "__main__":
    raise SystemExit(main())
