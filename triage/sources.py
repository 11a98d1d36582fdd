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

import bz2
import codecs
import gzip
import io
import lzma
import os
import sys
import tarfile
import time
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from triage.errors import InputError

_ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".tar.bz2", ".tbz2", ".tbz", ".tar.xz", ".txz", ".tar.zst",
                     ".tar.zstd", ".tzst", ".zip")
_SNIFF = 64 << 10

#: Compressions read transparently: (magic bytes, name).
COMPRESSIONS: tuple[tuple[bytes, str], ...] = (
    (b"\x1f\x8b", "gzip"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"BZh", "bzip2"),  # followed by a digit and a block or end-of-stream magic: see compression_of
)
#: Compressions recognised and refused: (magic bytes, name, the command that decompresses them).
UNSUPPORTED: tuple[tuple[bytes, str, str], ...] = (
    (b"\x1f\x9d", "compress (.Z)", "uncompress FILE"),
    (b"\x04\x22\x4d\x18", "lz4", "lz4 -d FILE"),
    (b"\x89LZO\x00", "lzop", "lzop -d FILE"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip", "7z x FILE"),
    (b"Rar!\x1a\x07", "RAR", "unrar x FILE"),
)
_BZ2_BLOCK = (b"\x31\x41\x59\x26\x53\x59", b"\x17\x72\x45\x38\x50\x90")

#: Share of a sample's bytes that are not text above which an input counts as binary.
BINARY_SHARE = 0.3
#: A run of NUL bytes at least this long is padding (text); shorter runs count as binary bytes.
NUL_PADDING_RUN = 8
# control bytes that text does not hold (tab, line ends, form feed, backspace and ESC are text)
_CONTROL = bytes(b for b in range(1, 32) if b not in b"\t\n\v\f\r\b\x1b") + b"\x7f"


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
    node: str | None = None  # the node a bundle's folder layout names (see triage.correlate.bundle)

    @property
    def label(self) -> str:
        return self.name or "-"


class BinaryInput(InputError):
    """An input that is not text (its first 64 KiB are mostly control or non-UTF-8 bytes). Exit code 2."""


def expand(paths: list[str], errors: list[tuple[str, InputError]] | None = None,
           node_level: int | None = None) -> list[Source]:
    """Expand directories (every file below, sorted) and archives (every member) into sources.

    A file below a named directory gets the node its folder layout names (see
    :func:`triage.correlate.bundle.nodes_below`; ``node_level`` N takes the N-th folder level), or
    the directory's own name when several node folders are named (:func:`~triage.correlate.bundle.named_nodes`).
    Raises :class:`~triage.errors.InputError` for a path that does not exist or an archive that
    cannot be listed; when ``errors`` is a list, ``(path, error)`` is appended to it instead and
    the path skipped, so that the other paths are still read.
    """
    from triage.correlate.bundle import named_nodes, nodes_below

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


def compression_of(head: bytes) -> str | None:
    """The compression whose magic bytes start ``head`` (``gzip``, ``xz``, ``zstd``, ``bzip2``, or
    the name of an unsupported one such as ``lz4``), or None for uncompressed data."""
    for magic, name in COMPRESSIONS:
        if head.startswith(magic):
            if name == "bzip2" and not (head[3:4].isdigit() and head[3:4] != b"0" and head[4:10] in _BZ2_BLOCK):
                continue
            return name
    for magic, name, _ in UNSUPPORTED:
        if head.startswith(magic):
            return name
    return None


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


def _open_file(path: str) -> io.BufferedReader:
    p = Path(path)
    try:
        return p.open("rb", buffering=_SNIFF)  # so the encoding sniff can peek 64 KiB
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{p}: is a directory") from None
    except OSError as exc:
        raise InputError(f"{p}: cannot open: {exc.strerror or exc}") from None


def _text(stream: BinaryIO, label: str, as_text: bool) -> BinaryIO:
    encoding, share = sniff(_peek(stream))
    if share is not None and not as_text:
        raise BinaryInput(f"{label}: binary file, not a log ({share:.0%} of its first bytes are not text; "
                          "--text reads it anyway)")
    return _Transcoder(stream, encoding) if encoding else stream


def decompress(stream: BinaryIO, label: str) -> BinaryIO:
    """``stream`` (which must have ``peek``) decompressed when its magic bytes say it is compressed.

    Raises :class:`~triage.errors.InputError` for a compression triage does not read (lz4, 7-Zip...)
    or a zstd stream when the ``zstandard`` package is missing. Errors met later while reading a
    truncated or corrupt stream surface as ``EOFError`` (the reader makes them an input error).
    """
    kind = compression_of(_peek(stream, 10))
    if kind is None:
        return stream
    reader = _READERS.get(kind)
    if reader is None:
        command = next(cmd for _, name, cmd in UNSUPPORTED if name == kind)
        raise InputError(f"{label}: {kind}-compressed input is not supported: decompress it first "
                         f"({command.replace('FILE', label)})")
    return reader(stream)


def _gzip(stream: BinaryIO) -> BinaryIO:
    return gzip.GzipFile(fileobj=stream, mode="rb")  # type: ignore[return-value]


def _xz(stream: BinaryIO) -> BinaryIO:
    return _Guarded(lzma.LZMAFile(stream), (lzma.LZMAError,))  # type: ignore[return-value]


def _bzip2(stream: BinaryIO) -> BinaryIO:
    return _Guarded(bz2.BZ2File(stream), (OSError, ValueError))  # type: ignore[return-value]


def _zstd(stream: BinaryIO) -> BinaryIO:
    return io.BufferedReader(_ZstdRaw(stream), buffer_size=_SNIFF)  # type: ignore[return-value]


_READERS: dict[str, Callable[[BinaryIO], BinaryIO]] = {"gzip": _gzip, "xz": _xz, "bzip2": _bzip2, "zstd": _zstd}


class _Guarded(io.RawIOBase):
    """A decompressing stream whose format errors surface as ``EOFError`` (truncated or corrupt)."""

    def __init__(self, inner, errors: tuple[type[BaseException], ...]):
        self._inner = inner
        self._errors = errors

    def readable(self) -> bool:
        return True

    def peek(self, size: int = 0) -> bytes:
        try:
            return self._inner.peek(size)
        except self._errors as exc:
            raise EOFError(str(exc)) from None

    def read1(self, size: int = -1) -> bytes:
        try:
            return self._inner.read1(size)
        except self._errors as exc:
            raise EOFError(str(exc)) from None

    def read(self, size: int = -1) -> bytes:
        try:
            return self._inner.read(size)
        except self._errors as exc:
            raise EOFError(str(exc)) from None

    def close(self) -> None:
        self._inner.close()
        super().close()


class _ZstdRaw(io.RawIOBase):
    """zstd frames read from ``raw``, one after the other; a stream cut inside a frame raises
    ``EOFError`` (``zstandard``'s own stream reader ends quietly there)."""

    def __init__(self, raw: BinaryIO):
        try:
            import zstandard
        except ImportError:  # a dependency: missing only in a broken installation
            raise InputError("zstd-compressed input needs the zstandard package (pip install zstandard)") from None
        self._zstd = zstandard
        self._raw = raw
        self._obj = zstandard.ZstdDecompressor().decompressobj()
        self._started = False  # whether the current frame has consumed any input
        self._out = b""

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        while not self._out:
            chunk = self._raw.read1(1 << 16) if hasattr(self._raw, "read1") else self._raw.read(1 << 16)
            if not chunk:
                if self._started and not self._obj.eof:
                    raise EOFError("zstd stream ended inside a frame")
                return 0
            try:
                while chunk:
                    if self._obj.eof:  # the next frame
                        self._obj = self._zstd.ZstdDecompressor().decompressobj()
                    self._started = True
                    self._out += self._obj.decompress(chunk)
                    chunk = self._obj.unused_data if self._obj.eof else b""
            except self._zstd.ZstdError as exc:
                raise EOFError(f"zstd: {exc}") from None
        n = min(len(b), len(self._out))
        b[:n] = self._out[:n]
        self._out = self._out[n:]
        return n


class _Rewindable(io.RawIOBase):
    """A forward-only stream made seekable for ``tarfile``: a seek back reopens it (``opener``)
    and reads forward to the position, so an archive listed then read costs two passes."""

    def __init__(self, opener: Callable[[], BinaryIO]):
        self._opener = opener
        self._stream = opener()
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def read(self, size: int = -1) -> bytes:
        data = self._stream.read(size)
        self._pos += len(data)
        return data

    def readinto(self, b) -> int:
        data = self.read(len(b))
        b[: len(data)] = data
        return len(data)

    def seek(self, offset: int, whence: int = 0) -> int:
        target = offset if whence == 0 else self._pos + offset if whence == 1 else None
        if target is None:
            raise OSError("cannot seek from the end of a compressed stream")
        if target < self._pos:
            self._stream.close()
            self._stream, self._pos = self._opener(), 0
        while self._pos < target:
            skipped = self._stream.read(min(target - self._pos, 1 << 20))
            if not skipped:
                break
            self._pos += len(skipped)
        return self._pos

    def close(self) -> None:
        self._stream.close()
        super().close()


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


def transcode(stream: BinaryIO) -> BinaryIO:
    """Wrap ``stream`` so it yields UTF-8: sniff a BOM, UTF-16 without one, or GBK text that is not
    valid UTF-8. Binary-looking input is passed through as it is (read with replacement)."""
    encoding, _ = sniff(_peek(stream))
    return _Transcoder(stream, encoding) if encoding else stream


def sniff(head: bytes) -> tuple[str | None, float | None]:
    """``(encoding, binary share)`` of a sample of an input's first bytes.

    ``encoding`` is the codec to transcode from (``utf-8-sig``, ``utf-16``, ``utf-16-le``,
    ``utf-16-be``, ``gb18030``) or None for UTF-8. ``binary share`` is None for text, else the
    share (0..1) of the sample's bytes that are not text: control bytes, NUL bytes in runs shorter
    than :data:`NUL_PADDING_RUN`, bytes that are not UTF-8. Text is what is above
    :data:`BINARY_SHARE`; long NUL runs (a log padded after a crash) are text.
    """
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig", None
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16", None
    utf16 = _utf16_without_bom(head)
    if utf16:
        return utf16, None
    if _looks_gbk(head):
        return "gb18030", None
    share = _binary_share(head)
    return None, (share if share > BINARY_SHARE else None)


def _utf16_without_bom(head: bytes) -> str | None:
    """``utf-16-le`` / ``utf-16-be`` when most 2-byte units of ``head`` are ASCII in UTF-16."""
    units = len(head) // 2
    # UTF-16 ASCII has a NUL in every unit and either answer needs at least 3 such units: a
    # sample with fewer NULs (every ordinary log) is decided without the per-unit loop below
    if units < 4 or head.count(0) < 3:
        return None
    even, odd = head[0: units * 2: 2], head[1: units * 2: 2]
    le = be = counted = 0
    for lo, hi in zip(even, odd, strict=True):
        if lo == 0 and hi == 0:
            continue  # padding, or U+0000
        counted += 1
        if hi == 0 and 0 < lo < 0x80:
            le += 1
        elif lo == 0 and 0 < hi < 0x80:
            be += 1
    if counted < 4:
        return None
    if le >= 0.7 * counted and le >= 4 * be:
        return "utf-16-le"
    if be >= 0.7 * counted and be >= 4 * le:
        return "utf-16-be"
    return None


def _binary_share(head: bytes) -> float:
    """Share of ``head``'s bytes that text does not hold, long NUL runs left out (see :func:`sniff`)."""
    bad = len(head) - len(head.translate(None, _CONTROL))
    padding = 0
    start = head.find(b"\0")
    while start >= 0:
        end = start
        while end < len(head) and head[end] == 0:
            end += 1
        if end - start >= NUL_PADDING_RUN or end == len(head):
            padding += end - start  # a log padded after a crash
        else:
            bad += end - start
        start = head.find(b"\0", end)
    if not head.isascii():
        sample = head.replace(b"\0", b"")
        # bytes that are no UTF-8 (a character cut at the sample's end is not counted)
        text = codecs.getincrementaldecoder("utf-8")("surrogateescape").decode(sample, final=False)
        bad += sum(1 for ch in text if "\udc80" <= ch <= "\udcff")
    rest = len(head) - padding
    return bad / rest if rest else 0.0


def _peek(stream: BinaryIO, size: int = _SNIFF) -> bytes:
    peek = getattr(stream, "peek", None)
    if peek is not None:
        try:
            return peek(size)[:size]
        except (OSError, ValueError, EOFError, zlib.error, lzma.LZMAError):
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


class Follower:
    """Read a file by name like ``tail -F``: at its end, wait and read again, for ever.

    The name is followed across log rotation: when another file appears under the name (logrotate
    ``create``: rename, then re-create) the rest of the old file is read first; when the file
    shrinks under the read position (``copytruncate``) reading restarts at its beginning. Either
    way :meth:`read1` then returns ``b""`` once (the end of that file's text) and :attr:`rotated`
    says why; :meth:`resume` goes on with the new text. ``poll`` is the wait in seconds between
    attempts at end of file. Raises :class:`~triage.errors.InputError` when the file cannot be
    opened. Only ``KeyboardInterrupt`` (Ctrl-C, or SIGTERM as the CLI maps it) ends a read.
    """

    def __init__(self, path: str, poll: float = 0.25):
        self.path = path
        self._poll = poll
        self._file = self._open()
        self._peeked = b""
        #: Why the text of the current file ended (``re-created``, ``truncated``), else None.
        self.rotated: str | None = None

    def _open(self):
        handle = _open_file(self.path)
        self._id = _file_id(os.fstat(handle.fileno()))
        return handle

    def readable(self) -> bool:
        return True

    def peek(self, size: int = 1) -> bytes:
        """The next bytes without consuming them; waits for at least one (or the end of the file's text)."""
        if not self._peeked:
            self._peeked = self._next(max(size, 1))
        return self._peeked

    def read1(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes; waits while there are none. ``b""`` only when the file was rotated."""
        if self._peeked:
            n = len(self._peeked) if size is None or size < 0 else size
            out, self._peeked = self._peeked[:n], self._peeked[n:]
            return out
        return self._next(size if size and size > 0 else 1 << 20)

    read = read1

    def _next(self, size: int) -> bytes:
        while self.rotated is None:
            chunk = self._file.read1(size)
            if chunk:
                return chunk
            why = self._rotation()
            if why == "re-created":
                chunk = self._file.read1(size)  # what the writer added to the old file before it moved on
                if chunk:
                    return chunk
            if why is None:
                time.sleep(self._poll)
            self.rotated = why
        return b""

    def _rotation(self) -> str | None:
        """``re-created`` or ``truncated`` when the name now holds other text, else None."""
        try:
            now = os.stat(self.path)
        except OSError:
            return None  # renamed and not re-created yet: wait (the old file may still grow)
        if _file_id(now) != self._id:
            return "re-created"
        if now.st_size < self._file.tell():
            return "truncated"
        return None

    def resume(self) -> None:
        """Go on with the text now under the name (the new file, or the truncated one from its start)."""
        if self.rotated == "re-created":
            self._file.close()
            while True:
                try:
                    self._file = self._open()
                    break
                except InputError:
                    if os.path.exists(self.path):
                        raise
                    time.sleep(self._poll)  # gone again between the check and the open
        else:
            self._file.seek(0)
        self.rotated = None

    def close(self) -> None:
        """Close the file."""
        self._file.close()


def _file_id(st: os.stat_result) -> tuple[int, int]:
    return st.st_dev, st.st_ino


def text_stream(stream: BinaryIO, label: str, *, as_text: bool = False) -> BinaryIO:
    """``stream`` (with ``peek``) as UTF-8 text: transcoded from what its first bytes say
    (see :func:`sniff`). Raises :class:`BinaryInput` when it is not text, unless ``as_text``."""
    return _text(stream, label, as_text)
