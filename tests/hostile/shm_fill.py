"""Fills /dev/shm (shared memory, a tmpfs) until it is refused, then plays on."""

import contextlib
import os
import sys

from _common import play


def hook(event, count):
    if event != "hello":
        return
    written = 0
    path = "/dev/shm/arena-hostile-fill"
    try:
        with open(path, "wb") as handle:
            while written < 256:
                handle.write(b"\1" * (1 << 20))
                handle.flush()
                written += 1
        sys.stderr.write(f"SHM WROTE {written} MiB\n")
    except OSError as error:
        sys.stderr.write(f"SHM FULL after {written} MiB: {error}\n")
    finally:
        with contextlib.suppress(OSError):
            os.remove(path)


play(hook)
