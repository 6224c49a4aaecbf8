"""Reading text sources with bounded memory: players' word lists and dictionaries.

A source is a regular file, a pipe (a FIFO, or bash's process substitution
`<(grep . list.txt)`) or stdin ("-"). It is read in chunks of ``CHUNK_BYTES``,
decoded incrementally and handed out line by line (``open_lines``), so memory holds
one chunk and the current line, never the whole file, and at most the kind's
``TextLimit.max_bytes`` are ever read from a source (a list that never ends, such as
``/dev/zero`` on stdin, stops there).

Limits, one per kind of text (docs/errors.md):
  * ``WORD_LIST``: a player's list, at most 1 MiB (a round's list is a few KB; the
    best known 4x4 board holds 1,202 words, about 10 KB);
  * ``DICTIONARY``: a ``--dict`` list, at most 8 MiB (ENABLE2K is 1.9 MB, YAWL 2.7 MB).

A pipe is read with a bounded wait (textpipes.py): its writer must finish within
``textpipes.pipe_wait_s()`` seconds of the opening (30 s by default), else one
WordListError line (exit 2) says that nothing came or that the writer did not finish.

Refused with one WordListError line (exit 2):
  * a missing path, a directory, a device (such as /dev/zero) or a socket: reading
    those can block forever or never end; stdin ("-") is the one stream read
    without a deadline (someone may be typing);
  * a source over its limit: the line names the limit;
  * a binary file (a NUL byte in the first ``BINARY_PROBE_BYTES``, unless UTF-16),
    text that is not UTF-8 (the line gives the byte offset), UTF-16 (with a BOM)
    that does not decode.

Accepted: UTF-8 with or without a BOM, UTF-16 with a BOM, any line ending that
``str.splitlines`` knows (LF, CRLF, CR, ...). Lines are yielded without their ending.
"""
from __future__ import annotations

import codecs
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import BinaryIO, Iterable, Iterator, Protocol

from ..errors import WordListError
from .textpipes import PipeReader, pipe_wait_s

KIB = 1024
MIB = 1024 * KIB
#: Bytes read from a source at a time.
CHUNK_BYTES = 64 * KIB
#: A NUL byte this early in a file that is not UTF-16 marks it as binary.
BINARY_PROBE_BYTES = 64 * KIB

_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_TEXT_HINT = "give a text file, one word per line"


@dataclass(frozen=True)
class TextLimit:
    """The limit of one kind of text source.

    what: names the source in messages ("word list", "dictionary").
    max_bytes: most bytes read from one source; more is refused (exit 2).
    purpose: what the limit is for, as the error line says it ("a player's list").
    hint: what to do instead, for the error line.
    stdin_form: how a user asks for stdin ("NAME=-"), or None when this kind of
        text cannot come from stdin (then "-" is a file name like any other).
    """

    what: str
    max_bytes: int
    purpose: str
    hint: str
    stdin_form: str | None = None


WORD_LIST = TextLimit("word list", 1 * MIB, "a player's list",
                      "a round's list is a few kilobytes: one word per line", stdin_form="NAME=-")
DICTIONARY = TextLimit("dictionary", 8 * MIB, "a --dict word list",
                       "give a word list such as ENABLE2K (1.9 MB), or leave out --dict")


class ByteStream(Protocol):
    """What a source is read through: a file, stdin's buffer, a PipeReader."""

    def read(self, n: int, /) -> bytes: ...

    def close(self) -> None: ...


def size_text(n: int) -> str:
    """Bytes as people read them: 1048576 -> '1 MiB', 1536 -> '1.5 KiB', 12 -> '12 bytes'."""
    for unit, size in (("GiB", 1024 * MIB), ("MiB", MIB), ("KiB", KIB)):
        if n >= size:
            v = n / size
            return f"{v:.0f} {unit}" if v == int(v) else f"{v:.1f} {unit}"
    return f"{n} bytes"


def too_large(label: str, limit: TextLimit) -> WordListError:
    """The over-limit error: '<label> is larger than 1 MiB, the limit for a player's list'."""
    return WordListError(f"{label} is larger than {size_text(limit.max_bytes)}, the limit for {limit.purpose}",
                         limit.hint)


def _kind_of(mode: int) -> str:
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _open_source(path: Path, label: str, limit: TextLimit) -> ByteStream:
    """Open `path` for reading if it is a regular file within the limit, or a pipe
    (read through a PipeReader, with its deadline).

    O_NONBLOCK makes opening a FIFO return at once (a plain open waits for a writer
    forever); fstat on the open descriptor then decides, so the file cannot be
    swapped between the check and the read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise WordListError(f"{label} does not exist", "check the path") from None
    except NotADirectoryError:
        raise WordListError(f"{label} does not exist (a part of its path is a file, not a folder)",
                            "check the path") from None
    except IsADirectoryError:
        raise WordListError(f"{label} is a directory", _TEXT_HINT) from None
    except OSError as e:
        raise WordListError(f"{label} cannot be read: {e.strerror or e}", "check its permissions") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise WordListError(f"{label} is a directory", _TEXT_HINT)
        if stat.S_ISFIFO(st.st_mode):
            return PipeReader(fd, label, pipe_wait_s())
        if not stat.S_ISREG(st.st_mode):
            raise WordListError(f"{label} is {_kind_of(st.st_mode)}, not a regular file",
                                _TEXT_HINT + (f", or {limit.stdin_form} to read it from stdin"
                                              if limit.stdin_form else ""))
        if st.st_size > limit.max_bytes:
            raise too_large(label, limit)
        return os.fdopen(fd, "rb", buffering=0)
    except BaseException:
        os.close(fd)
        raise


def read_chunks(stream: ByteStream, label: str, limit: TextLimit) -> Iterator[bytes]:
    """Chunks of `stream` until its end; WordListError as soon as more than
    ``limit.max_bytes`` have come (at most max_bytes + CHUNK_BYTES are read)."""
    total = 0
    while True:
        try:
            chunk = stream.read(CHUNK_BYTES)
        except OSError as e:
            raise WordListError(f"{label} cannot be read: {e.strerror or e}", "check the file") from None
        if not chunk:
            return
        total += len(chunk)
        if total > limit.max_bytes:
            raise too_large(label, limit)
        yield chunk


def _with_head(chunks: Iterator[bytes], need: int) -> Iterator[bytes]:
    """The same bytes, the first chunk at least `need` long (or all there is)."""
    head = b""
    for chunk in chunks:
        head += chunk
        if len(head) >= need:
            break
    if head:
        yield head
    yield from chunks


def decode_lines(chunks: Iterable[bytes], label: str) -> Iterator[str]:
    """Lines of text (without line endings) from chunks of bytes, decoded as they come.

    UTF-16 when the bytes start with its BOM, else UTF-8 (an initial BOM skipped).
    WordListError for a binary file, bad UTF-8 (names the byte offset) or bad UTF-16.
    """
    it = _with_head(iter(chunks), 4)
    first = next(it, b"")
    utf16 = first[:2] in _UTF16_BOMS
    skip = 3 if first.startswith(codecs.BOM_UTF8) else 0
    decoder = codecs.getincrementaldecoder("utf-16" if utf16 else "utf-8")(errors="strict")
    pending: list[str] = []
    probe = 0 if utf16 else BINARY_PROBE_BYTES
    chunk = first[skip:]
    base = skip  # offset in the source of `chunk`
    final = False
    while True:
        if probe > 0 and b"\x00" in chunk[:probe]:
            raise WordListError(f"{label} is a binary file, not text", _TEXT_HINT)
        probe -= len(chunk)
        buffered = len(decoder.getstate()[0])
        try:
            text = decoder.decode(chunk, final)
        except UnicodeDecodeError as e:
            if utf16:
                raise WordListError(f"{label} is not valid UTF-16 text", "save it as UTF-8") from None
            raise WordListError(f"{label} is not UTF-8 text (bad byte at offset {base - buffered + e.start})",
                                "save it as UTF-8") from None
        base += len(chunk)
        yield from _split(pending, text, final)
        if final:
            return
        nxt = next(it, None)
        if nxt is None:
            chunk, final = b"", True
        else:
            chunk = nxt


def _split(pending: list[str], text: str, final: bool) -> Iterator[str]:
    """Complete lines of `pending` + `text`; what follows the last line break stays in
    `pending` (a trailing CR too: its LF may come in the next chunk)."""
    if text:
        parts = text.splitlines(keepends=True)
        last = parts[-1]
        open_end = last.splitlines()[0] == last or last.endswith("\r")
        done = parts[:-1] if open_end else parts
        if done:
            head = "".join(pending) + done[0] if pending else done[0]
            pending.clear()
            for part in head.splitlines(keepends=True) + done[1:]:
                yield part.splitlines()[0]
        if open_end:
            pending.append(last)
    if final and pending:
        for part in "".join(pending).splitlines():
            yield part
        pending.clear()


def decode_text(raw: bytes, label: str) -> list[str]:
    """The lines of a whole text held in memory (same rules as decode_lines)."""
    return list(decode_lines([raw], label))


class TextLines:
    """The lines of one source (open_lines); iterate once, inside a `with` block."""

    def __init__(self, stream: ByteStream, label: str, limit: TextLimit, owned: bool) -> None:
        self.label = label
        self._stream = stream
        self._owned = owned
        self._lines = decode_lines(read_chunks(stream, label, limit), label)

    def __iter__(self) -> Iterator[str]:
        return self._lines

    def close(self) -> None:
        if self._owned:
            self._stream.close()

    def __enter__(self) -> TextLines:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def open_lines(source: str | Path, limit: TextLimit, stdin: BinaryIO | None = None) -> TextLines:
    """The lines of a file, or of `stdin` (default sys.stdin.buffer) when `source` is "-"
    and the limit's kind may come from stdin.

    Checks the file at once (missing, directory, a device or socket, over the limit:
    WordListError); decoding errors, a stream over the limit and a pipe past its
    deadline are raised while iterating.
    """
    if str(source) == "-" and limit.stdin_form is not None:
        stream = stdin if stdin is not None else sys.stdin.buffer
        return TextLines(stream, f"{limit.what} on stdin", limit, owned=False)
    label = f"{limit.what} {source}"
    return TextLines(_open_source(Path(source), label, limit), label, limit, owned=True)
