"""Writing output files atomically: a reader never sees half an image.

Each file is written to a temporary name in the destination folder, flushed, then
renamed over the destination (os.replace is atomic on POSIX and Windows).
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np

from .errors import OutputError

IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff")


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """Write `data` to `path` atomically; OutputError with one line on failure."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise OutputError(f"cannot write {path}: it is a directory", "give a file name")
    tmp_name = None
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp_name, 0o644)
        os.replace(tmp_name, path)
        tmp_name = None
    except OSError as e:
        raise OutputError(f"cannot write {path}: {e.strerror or e}", "choose a writable folder") from None
    finally:
        if tmp_name is not None:
            try:
                os.unlink(tmp_name)
            except OSError:
                pass


def write_image_atomic(path: str | Path, image_bgr: np.ndarray) -> None:
    """Encode a BGR uint8 image by the file's extension and write it atomically."""
    import cv2

    path = Path(path)
    ext = path.suffix.lower()
    if ext not in IMAGE_EXTENSIONS:
        raise OutputError(f"cannot write {path}: unknown image type {ext or '(none)'}",
                          "end the name with " + ", ".join(IMAGE_EXTENSIONS))
    ok, buf = cv2.imencode(ext, image_bgr)
    if not ok:
        raise OutputError(f"cannot encode the image as {ext}", "use .png or .jpg")
    write_bytes_atomic(path, buf.tobytes())
