"""One writer per output folder: an exclusive, self-releasing lock.

``fcntl.flock`` on a lock file beside the target: the kernel drops the lock when its
process dies (even by SIGKILL), so a stale lock can never block a rerun; the file records
the holder's pid and command so a second writer can say who holds it.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path

from builder.credentials import mask
from builder.errors import BusyError, OutputExistsError


class FolderLock:
    def __init__(self, target: Path):
        target = Path(target).resolve()  # one lock per real folder, whatever link names it
        self.path = target.parent / f".{target.name}.lock"
        self.fd: int | None = None

    def __enter__(self) -> "FolderLock":
        import fcntl

        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:  # never through a link: the holder's pid and command would be written over what it points to
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as exc:
            if exc.errno != errno.ELOOP:
                raise
            raise OutputExistsError(f"the lock file {self.path} is a symbolic link, not a lock mmrc-build made; remove "
                                    "the link and rerun") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise BusyError(f"{self.path.parent / self.path.name[1:-5]} is being written by another process "
                            f"(pid {holder.get('pid', '?')}: {mask(str(holder.get('cmd', '?')))}); wait for it to finish "
                            "or stop it, then rerun") from None
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps({"pid": os.getpid(), "cmd": mask(" ".join(sys.argv))[:300]}).encode())
        self.fd = fd
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing releases the flock; the file stays (harmless, reused)
            self.fd = None


def _read_holder(fd: int) -> dict:
    try:
        os.lseek(fd, 0, 0)
        return json.loads(os.read(fd, 4096).decode() or "{}")
    except (OSError, ValueError):
        return {}
