"""Bytes to text: compression recognised by its magic bytes and read as a stream (gzip, xz, bzip2,
zstd; others refused), guarded against truncated or corrupt streams, and the encoding sniffed
(UTF-8, UTF-16 with or without a BOM, GBK / GB18030) and transcoded to UTF-8 with line numbers kept;
binary input recognised."""


import bz2
import codecs
import gzip
import io
import lzma
import zlib
from collections.abc import Callable
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
