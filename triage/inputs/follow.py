"""Following a growing file (``--follow``, like ``tail -F``), across log rotation."""


import os
import time

from triage.errors import InputError
from triage.inputs.decode import _open_file


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
