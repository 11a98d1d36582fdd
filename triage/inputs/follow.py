"""Following a growing file (``--follow``, like ``tail -F``), across log rotation."""


import os
import time

from triage.errors import InputError
from triage.inputs.decode import _open_file

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
