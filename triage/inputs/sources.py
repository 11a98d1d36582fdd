"""Inputs: turn what the user named (files, directories, compressed files, ``.tar.*`` / ``.zip``
bundles as ``asys`` and ``msnpureport`` produce, ``-`` for stdin) into named binary streams of UTF-8.

Compression is recognised by its magic bytes, whatever the file is called: gzip, xz, bzip2 and
zstd are read (zstd through the ``zstandard`` package); compress (``.Z``), lz4, lzop, 7-Zip and RAR
are refused with an input error rather than matched as bytes. Archives are recognised by suffix
(``.tar.gz``, ``.tgz``, ``.tar.bz2``, ``.tar.xz``, ``.tar.zst``, ``.tzst``, ``.tar``, ``.zip``) and
by content (a zip header, a tar header after decompression).

Encodings: UTF-8 (a BOM is dropped), UTF-16 with a BOM or without one (recognised by its NUL high
or low bytes), and GBK/GB18030 text (logs saved from a Chinese Windows terminal) are transcoded to
UTF-8 on the fly, so line numbers stay those of the original file. Anything else is read as UTF-8
with undecodable bytes replaced. Input whose first 64 KiB are mostly not text (control bytes,
short runs of NUL, bytes that are no UTF-8) is *binary*: named on the command line it is an input
error, met in a directory or an archive it is skipped with a notice. Long runs of NUL (a log
padded after a crash) count as text.
"""

from __future__ import annotations

import io
import lzma
import sys
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from triage.errors import InputError
from triage.inputs.decode import (
    _ARCHIVE_SUFFIXES,
    _READERS,
    _SNIFF,
    _open_file,
    _peek,
    _Rewindable,
    _Transcoder,
    compression_of,
    decompress,
    sniff,
)


@dataclass(frozen=True)
class Source:
    """One log to read: ``name`` for reports (None for stdin) and how to open it.

    ``named`` is True for an input named by the user (a path on the command line, stdin) and False
    for one met in a directory or an archive: a binary file of the first kind is an input error, of
    the second kind it is skipped with a notice.
    """

    name: str | None
    path: str
    member: str | None = None  # inside an archive
    named: bool = True
    node: str | None = None  # the node a bundle's folder layout names (see triage.inputs.bundle)

    @property
    def label(self) -> str:
        return self.name or "-"


class BinaryInput(InputError):
    """An input that is not text (its first 64 KiB are mostly control or non-UTF-8 bytes). Exit code 2."""


def expand(paths: list[str], errors: list[tuple[str, InputError]] | None = None,
           node_level: int | None = None) -> list[Source]:
    """Expand directories (every file below, sorted) and archives (every member) into sources.

    A file below a named directory gets the node its folder layout names (see
    :func:`triage.inputs.bundle.nodes_below`; ``node_level`` N takes the N-th folder level), or
    the directory's own name when several node folders are named (:func:`~triage.inputs.bundle.named_nodes`).
    Raises :class:`~triage.errors.InputError` for a path that does not exist or an archive that
    cannot be listed; when ``errors`` is a list, ``(path, error)`` is appended to it instead and
    the path skipped, so that the other paths are still read.
    """
    from triage.inputs.bundle import named_nodes, nodes_below

    out: list[Source] = []
    named = named_nodes(paths) if node_level is None else {}
    for raw in paths:
        try:
            if raw == "-":
                out.append(Source(None, "-"))
                continue
            p = Path(raw)
            if p.is_dir():
                files = sorted(f for f in p.rglob("*") if f.is_file())
                nodes = nodes_below(p, files, node_level)
                for f in files:
                    try:
                        node = nodes.get(f) or named.get(raw)
                        out.extend(s if node is None else replace(s, node=node)
                                   for s in _file_sources(str(f), named=False))
                    except InputError as exc:
                        if errors is None:
                            raise
                        errors.append((str(f), exc))
            elif p.exists():
                out.extend(_file_sources(raw, named=True))
            else:
                raise InputError(f"{raw}: no such file or directory")
        except InputError as exc:
            if errors is None:
                raise
            errors.append((raw, exc))
    return out


def plain_file_bytes(sources: list[Source]) -> tuple[int, bool]:
    """Bytes on disk of the plain files among ``sources``, and whether all of them are plain
    (not stdin, not an archive member, not compressed, so that the sum is the input's size)."""
    total, all_plain = 0, True
    for s in sources:
        if s.path == "-" or s.member is not None or _file_compression(s.path) is not None:
            all_plain = False
            continue
        try:
            total += Path(s.path).stat().st_size
        except OSError:
            pass
    return total, all_plain


def _file_compression(path: str) -> str | None:
    try:
        with open(path, "rb") as fh:
            return compression_of(fh.read(10))
    except OSError:
        return None


def _archive_kind(path: str) -> str | None:
    """``zip``, ``tar`` or None: by suffix, else by content (a zip header, a tar header)."""
    lower = path.lower()
    if lower.endswith(".zip"):
        return "zip"
    if lower.endswith(_ARCHIVE_SUFFIXES):
        return "tar"
    try:
        with open(path, "rb", buffering=_SNIFF) as fh:
            head = fh.peek(10)[:10]
            if head.startswith(b"PK\x03\x04"):
                return "zip"
            kind = compression_of(head)
            if kind is not None and kind not in _READERS:
                return None  # refused when it is opened
            stream = decompress(fh, path) if kind else fh
            block = stream.read(512)
    except (OSError, EOFError, zlib.error, lzma.LZMAError, InputError):
        return None  # not an archive we can read: the file is then opened, and fails, as a log
    return "tar" if len(block) == 512 and block[257:262] == b"ustar" else None


def _file_sources(path: str, *, named: bool) -> list[Source]:
    kind = _archive_kind(path)
    if kind is None:
        return [Source(path, path, named=named)]
    try:
        if kind == "zip":
            with zipfile.ZipFile(path) as zf:
                names = sorted(i.filename for i in zf.infolist() if not i.is_dir())
        else:  # archive order: members are then read forward through one decompression
            names = [m.name for m in _tar(path).getmembers() if m.isfile()]
    except _ARCHIVE_ERRORS as exc:
        raise InputError(f"{path}: cannot read archive: {exc}") from None
    return [Source(f"{path}:{name}", path, name, named=False) for name in names]


@contextmanager
def open_source(source: Source, *, as_text: bool = False) -> Iterator[BinaryIO]:
    """Open ``source`` as a binary stream of UTF-8 text, decompressed; close it afterwards.

    Raises :class:`~triage.errors.InputError` with a one-line message when it cannot be opened or
    is compressed in a way triage does not read, and :class:`BinaryInput` when it is not text
    (unless ``as_text``: then its bytes are read as UTF-8 with replacement, like ``grep --text``).
    """
    if source.path == "-":
        yield _text(decompress(sys.stdin.buffer, "-"), "-", as_text)
        return
    if source.member is not None:
        with _open_member(source) as raw:
            yield _text(decompress(raw, source.label), source.label, as_text)
        return
    handle = _open_file(source.path)
    try:
        yield _text(decompress(handle, source.path), source.path, as_text)
    finally:
        handle.close()


def _text(stream: BinaryIO, label: str, as_text: bool) -> BinaryIO:
    encoding, share = sniff(_peek(stream))
    if share is not None and not as_text:
        raise BinaryInput(f"{label}: binary file, not a log ({share:.0%} of its first bytes are not text; "
                          "--text reads it anyway)")
    return _Transcoder(stream, encoding) if encoding else stream


def text_stream(stream: BinaryIO, label: str, *, as_text: bool = False) -> BinaryIO:
    """``stream`` (with ``peek``) as UTF-8 text: transcoded from what its first bytes say
    (see :func:`sniff`). Raises :class:`BinaryInput` when it is not text, unless ``as_text``."""
    return _text(stream, label, as_text)


_ARCHIVE_ERRORS = (tarfile.TarError, zipfile.BadZipFile, KeyError, OSError, EOFError, zlib.error, RuntimeError,
                   NotImplementedError, lzma.LZMAError, InputError)
_open_tars: dict[str, tuple[tarfile.TarFile, BinaryIO | None]] = {}


def _tar(path: str) -> tarfile.TarFile:
    """The open tar archive at ``path``: one stays open so its members are read in one pass."""
    entry = _open_tars.get(path)
    if entry is None:
        for old, extra in _open_tars.values():
            old.close()
            if extra is not None:
                extra.close()
        _open_tars.clear()
        if _file_compression(path) == "zstd":  # tarfile reads gzip, bzip2 and xz itself, not zstd
            def opener() -> BinaryIO:
                handle = _open_file(path)
                return _Closing(decompress(handle, path), handle)

            stream = _Rewindable(opener)
            entry = (tarfile.open(fileobj=stream, mode="r:"), stream)  # type: ignore[arg-type]
        else:
            entry = (tarfile.open(path, mode="r:*"), None)
        _open_tars[path] = entry
    return entry[0]


class _Closing:
    """``stream`` that also closes ``handle`` (the file below it) when closed."""

    def __init__(self, stream: BinaryIO, handle: BinaryIO):
        self._stream, self._handle = stream, handle

    def read(self, size: int = -1) -> bytes:
        return self._stream.read(size)

    def close(self) -> None:
        self._stream.close()
        self._handle.close()


@contextmanager
def _open_member(source: Source) -> Iterator[BinaryIO]:
    member = None
    zf = None
    try:  # only opening is guarded: errors while the engine reads come from the engine
        if _archive_kind(source.path) == "zip":
            zf = zipfile.ZipFile(source.path)
            member = zf.open(source.member)
        else:
            member = _tar(source.path).extractfile(source.member)
            if member is None:
                raise InputError(f"{source.label}: not a regular file")
    except _ARCHIVE_ERRORS as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(f"{source.label}: cannot read archive member: {exc}") from None
    try:
        yield member if hasattr(member, "peek") else io.BufferedReader(member)  # type: ignore[misc, arg-type]
    finally:
        member.close()
        if zf is not None:
            zf.close()
