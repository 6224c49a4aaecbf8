"""Writing output files atomically: a reader never sees half an image, and an output
never replaces an input.

Each file is written to a temporary name in the destination folder, flushed, then
renamed over the destination (os.replace is atomic on POSIX and Windows).
`refuse_overwriting_inputs` is checked before any work: an output (--annotate, the
games database, a --debug-dir image) that is the same file as an input (a photo, a
word list, the dictionary) is refused, by resolved path and by inode (so links and
`./x/../photo.jpg` are caught). `write_images_into` makes a folder only when it can
fill it: a failed write removes what it wrote, and the folder if it made it;
`undone_on_interrupt` removes a command's debug images when it is interrupted.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from glob import escape as glob_escape
from pathlib import Path
from typing import Iterable, Mapping

import numpy as np
import numpy.typing as npt

from ..errors import OutputError

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


def check_image_path(path: str | Path) -> str:
    """The image type of an output's name (".png"); OutputError (exit 7) for a folder
    or a name that ends in no known image type."""
    path = Path(path)
    if path.is_dir():
        raise OutputError(f"cannot write {path}: it is a folder",
                          f"give a file name, e.g. {path / 'board.png'}")
    ext = path.suffix.lower()
    if ext not in IMAGE_EXTENSIONS:
        raise OutputError(f"cannot write {path}: unknown image type {ext or '(none)'}",
                          "end the name with " + ", ".join(IMAGE_EXTENSIONS))
    return ext


def write_image_atomic(path: str | Path, image_bgr: npt.NDArray[np.uint8]) -> None:
    """Encode a BGR uint8 image by the file's extension and write it atomically."""
    import cv2

    path = Path(path)
    ext = check_image_path(path)
    ok, buf = cv2.imencode(ext, image_bgr)
    if not ok:
        raise OutputError(f"cannot encode the image as {ext}", "use .png or .jpg")
    write_bytes_atomic(path, buf.tobytes())


def same_file(a: str | Path, b: str | Path) -> bool:
    """True when `a` and `b` name one file: the same resolved path, or (both existing)
    the same device and inode (hard and symbolic links)."""
    pa, pb = Path(a), Path(b)
    try:
        if pa.resolve() == pb.resolve():
            return True
        return pa.exists() and pb.exists() and os.path.samefile(pa, pb)
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop on older Pythons
        return False


def refuse_overwriting_inputs(outputs: Mapping[str, str | Path | None], inputs: Iterable[str | Path | None],
                              debug_dir: str | Path | None = None, debug_stems: Iterable[str] = ()) -> None:
    """OutputError (exit 7) when an output would replace an input file.

    outputs: option name -> path ("--annotate": out.png, "--db": games.sqlite3), None
        for an option not given. inputs: photos, word lists, dictionary (None and "-",
        stdin, are skipped). debug_dir, debug_stems: --debug-dir writes
        STEM_STAGE.png for each photo stem, so an input in that folder named that way
        is refused too.
    """
    files = [Path(i) for i in inputs if i is not None and str(i) != "-"]
    for option, out in outputs.items():
        if out is None:
            continue
        for f in files:
            if same_file(out, f):
                raise OutputError(f"{option} {out} is the same file as the input {f}",
                                  "write the output to another file; the input would be lost")
    if debug_dir is None:
        return
    folder = Path(debug_dir)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"--debug-dir {folder} is a file, not a directory", "give --debug-dir a folder path")
    stems = [s + "_" for s in debug_stems]
    for f in files:
        if f.suffix.lower() == ".png" and any(f.name.startswith(s) for s in stems) and same_file(f.parent, folder):
            raise OutputError(f"--debug-dir {folder} could write over the input {f} "
                              "(debug images are named PHOTO_STAGE.png)", "choose another --debug-dir")


def make_folder(folder: str | Path, option: str = "--debug-dir") -> bool:
    """Make `folder` (and its parents) if missing; True if this call made it.

    OutputError naming the culprit when the folder or one of its parents is a file.
    """
    folder = Path(folder)
    if folder.is_dir():
        return False
    for p in (folder, *folder.parents):
        if p.exists() or p.is_symlink():
            if not p.is_dir():
                where = "it is" if p == folder else f"{p} is"
                raise OutputError(f"cannot create {option} {folder}: {where} a file, not a directory",
                                  f"give {option} a folder path")
            break
    try:
        folder.mkdir(parents=True)
    except FileExistsError:
        return False
    except OSError as e:
        raise OutputError(f"cannot create {option} {folder}: {e.strerror or e}", f"choose a writable {option}") from None
    return True


def write_images_into(folder: str | Path, images: Mapping[str, npt.NDArray[np.uint8]],
                      option: str = "--debug-dir") -> list[Path]:
    """Write each image (file name -> BGR uint8 array) atomically into `folder`, made if
    missing. Returns the paths written. On a failure (a full disk) the files this call
    wrote are removed, and the folder too if this call made it; then OutputError."""
    folder = Path(folder)
    made = make_folder(folder, option)
    written: list[Path] = []
    try:
        for name, image in images.items():
            path = folder / name
            write_image_atomic(path, image)
            written.append(path)
    except BaseException:
        for path in written:
            try:
                path.unlink()
            except OSError:
                pass
        if made:
            try:
                folder.rmdir()
            except OSError:
                pass
        raise
    return written


@contextmanager
def undone_on_interrupt(folder: str | Path | None, stems: Iterable[str],
                        files: Iterable[Path | None] = ()) -> Iterator[None]:
    """On a Ctrl-C (KeyboardInterrupt) inside the block, remove the output files the
    block wrote, by this process or its workers: the debug images in `folder`
    (STEM_*.png, for each photo's stem) and the `files` (--annotate's) that were not
    there before it or have changed since; and `folder` when the block made it and it
    is left empty. An interrupt leaves no output file (docs/errors.md)."""
    named = [f for f in files if f is not None]
    if folder is None and not named:
        yield
        return
    patterns = [f"{glob_escape(stem)}_*.png" for stem in set(stems)]

    def seen() -> dict[Path, tuple[int, int]]:
        paths = [*named, *(p for pattern in patterns for p in Path(folder).glob(pattern))] if folder else named
        out: dict[Path, tuple[int, int]] = {}
        for path in paths:
            try:
                st = path.stat()
            except OSError:
                continue
            out[path] = (st.st_ino, st.st_mtime_ns)
        return out

    existed = folder is not None and Path(folder).is_dir()
    before = seen()
    try:
        yield
    except KeyboardInterrupt:
        for path, stamp in seen().items():
            if before.get(path) != stamp:
                try:
                    path.unlink()
                except OSError:
                    pass
        if folder is not None and not existed:
            try:
                Path(folder).rmdir()
            except OSError:
                pass
        raise
