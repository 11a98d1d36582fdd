"""Inputs: turn what the user named (files, directories, ``.gz``, ``.tar.gz`` / ``.zip`` bundles
as ``asys`` and ``msnpureport`` produce, ``-`` for stdin) into named binary streams of UTF-8.

Encodings: UTF-8 (a BOM is dropped), UTF-16 with a BOM, and GBK/GB18030 text (logs saved from a
Chinese Windows terminal) are transcoded to UTF-8 on the fly, so line numbers stay those of the
original file. Anything else is read as UTF-8 with undecodable bytes replaced.
"""

from __future__ import annotations

import codecs
import gzip
import io
import sys
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from triage.errors import InputError

_ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".tar.bz2", ".tar.xz", ".zip")
_SNIFF = 64 << 10


@dataclass(frozen=True)
class Source:
    """One log to read: ``name`` for reports (None for stdin) and how to open it."""

    name: str | None
    path: str
    member: str | None = None  # inside an archive
    node: str | None = None  # the node a bundle's folder layout names (see triage.correlate.bundle)

    @property
    def label(self) -> str:
        return self.name or "-"


def expand(paths: list[str], node_level: int | None = None) -> list[Source]:
    """Expand directories (every file below, sorted) and archives (every member) into sources.

    A file below a named directory gets the node its folder layout names (see
    :func:`triage.correlate.bundle.nodes_below`; ``node_level`` N takes the N-th folder level).
    Raises :class:`~triage.errors.InputError` for a path that does not exist or a corrupt archive.
    """
    from triage.correlate.bundle import nodes_below

    out: list[Source] = []
    for raw in paths:
        if raw == "-":
            out.append(Source(None, "-"))
            continue
        p = Path(raw)
        if p.is_dir():
            files = sorted(f for f in p.rglob("*") if f.is_file())
            nodes = nodes_below(p, files, node_level)
            for f in files:
                node = nodes.get(f)
                out.extend(s if node is None else Source(s.name, s.path, s.member, node)
                           for s in _file_sources(str(f)))
        elif p.exists():
            out.extend(_file_sources(raw))
        else:
            raise InputError(f"{raw}: no such file or directory")
    return out


def plain_file_bytes(sources: list[Source]) -> tuple[int, bool]:
    """Bytes on disk of the plain files among ``sources``, and whether all of them are plain
    (not stdin, not an archive member, not compressed, so that the sum is the input's size)."""
    total, all_plain = 0, True
    for s in sources:
        if s.path == "-" or s.member is not None or s.path.endswith((".gz", ".tgz")):
            all_plain = False
            continue
        try:
            total += Path(s.path).stat().st_size
        except OSError:
            pass
    return total, all_plain


def _file_sources(path: str) -> list[Source]:
    lower = path.lower()
    if not lower.endswith(_ARCHIVE_SUFFIXES):
        return [Source(path, path)]
    try:
        if lower.endswith(".zip"):
            with zipfile.ZipFile(path) as zf:
                names = sorted(i.filename for i in zf.infolist() if not i.is_dir())
        else:  # archive order: members are then read forward through one decompression
            names = [m.name for m in _tar(path).getmembers() if m.isfile()]
    except _ARCHIVE_ERRORS as exc:
        raise InputError(f"{path}: cannot read archive: {exc}") from None
    return [Source(f"{path}:{name}", path, name) for name in names]


@contextmanager
def open_source(source: Source) -> Iterator[BinaryIO]:
    """Open ``source`` as a binary stream of UTF-8 text; close it afterwards.

    Raises :class:`~triage.errors.InputError` with a one-line message when it cannot be opened.
    """
    if source.path == "-":
        yield transcode(sys.stdin.buffer)
        return
    if source.member is not None:
        with _open_member(source) as raw:
            yield transcode(raw)
        return
    p = Path(source.path)
    try:
        handle = p.open("rb", buffering=_SNIFF)  # so the encoding sniff can peek 64 KiB
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{p}: is a directory") from None
    except OSError as exc:
        raise InputError(f"{p}: cannot open: {exc.strerror or exc}") from None
    try:
        stream: BinaryIO = handle
        if handle.peek(2)[:2] == b"\x1f\x8b":
            stream = gzip.GzipFile(fileobj=handle, mode="rb")  # type: ignore[assignment]
        yield transcode(stream)
    finally:
        handle.close()


_ARCHIVE_ERRORS = (tarfile.TarError, zipfile.BadZipFile, KeyError, OSError, EOFError, zlib.error, RuntimeError,
                   NotImplementedError)
_open_tars: dict[str, tarfile.TarFile] = {}


def _tar(path: str) -> tarfile.TarFile:
    """The open tar archive at ``path``: one stays open so its members are read in one pass."""
    tf = _open_tars.get(path)
    if tf is None:
        for old in _open_tars.values():
            old.close()
        _open_tars.clear()
        tf = _open_tars[path] = tarfile.open(path, mode="r:*")
    return tf


@contextmanager
def _open_member(source: Source) -> Iterator[BinaryIO]:
    member = None
    zf = None
    try:  # only opening is guarded: errors while the engine reads come from the engine
        if source.path.lower().endswith(".zip"):
            zf = zipfile.ZipFile(source.path)
            member = zf.open(source.member)
        else:
            member = _tar(source.path).extractfile(source.member)
            if member is None:
                raise InputError(f"{source.label}: not a regular file")
    except _ARCHIVE_ERRORS as exc:
        raise InputError(f"{source.label}: cannot read archive member: {exc}") from None
    try:
        yield member  # type: ignore[misc]
    finally:
        member.close()
        if zf is not None:
            zf.close()


def transcode(stream: BinaryIO) -> BinaryIO:
    """Wrap ``stream`` so it yields UTF-8: sniff a BOM, or GBK text that is not valid UTF-8."""
    head = _peek(stream)
    if head.startswith(codecs.BOM_UTF8):
        return _Transcoder(stream, "utf-8-sig")
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _Transcoder(stream, "utf-16")
    if _looks_gbk(head):
        return _Transcoder(stream, "gb18030")
    return stream


def _peek(stream: BinaryIO) -> bytes:
    peek = getattr(stream, "peek", None)
    if peek is not None:
        try:
            return peek(_SNIFF)[:_SNIFF]
        except (OSError, ValueError, EOFError, zlib.error):
            return b""
    return b""


def _looks_gbk(head: bytes) -> bool:
    if not head:
        return False
    if head.isascii():
        return False
    sample = head[: head.rfind(b"\n") + 1] or head
    try:
        # not final: a sample cut inside a multi-byte character is still UTF-8
        codecs.getincrementaldecoder("utf-8")().decode(sample, final=False)
        return False
    except UnicodeDecodeError:
        pass
    try:
        sample.decode("gb18030")
        return True
    except UnicodeDecodeError:
        return False


class _Transcoder(io.RawIOBase):
    """A read-only stream that decodes ``encoding`` and re-encodes UTF-8, block by block."""

    def __init__(self, raw: BinaryIO, encoding: str):
        self._raw = raw
        self._decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self._pending = b""

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        # No end-of-file latch: under --follow the file keeps growing after an empty read.
        while not self._pending:
            read = getattr(self._raw, "read1", self._raw.read)
            chunk = read(size if size and size > 0 else 1 << 20)
            if not chunk:
                return b""
            self._pending = self._decoder.decode(chunk).encode("utf-8")
        n = len(self._pending) if size is None or size < 0 else size
        out, self._pending = self._pending[:n], self._pending[n:]
        return out

    read = read1


class Follower(io.RawIOBase):
    """Read a growing file like ``tail -f``: at end of file, wait and read again (never ends).

    ``poll`` is the wait in seconds between attempts at end of file.
    """

    def __init__(self, raw: BinaryIO, poll: float = 0.25):
        self._raw = raw
        self._poll = poll

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        import time

        read = getattr(self._raw, "read1", self._raw.read)
        while True:
            chunk = read(size if size and size > 0 else 1 << 20)
            if chunk:
                return chunk
            time.sleep(self._poll)

    read = read1
