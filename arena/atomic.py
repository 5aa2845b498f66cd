"""Files replaced in one step: a reader sees the old content or the new, never a mix."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO


@contextmanager
def atomic_file(path: Path, *, sync: bool = False) -> Iterator[BinaryIO]:
    """A binary file to write that replaces `path` when the block ends without an error.

    It is a temporary file in the same folder, renamed over `path` (`os.replace`); `sync`
    also puts its bytes on disk first (worth it for summaries, not for each game record).
    """
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as file:
            yield file
            if sync:
                file.flush()
                os.fsync(file.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` (UTF-8, synced) so that readers see the old content or the new,
    never a mix."""
    with atomic_file(path, sync=True) as file:
        file.write(text.encode("utf-8"))
