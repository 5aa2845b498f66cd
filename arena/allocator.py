"""glibc's malloc told to hand a large freed block back to the system at once.

A league's server makes and drops large blocks over and over: the pair fit's n×n arrays
(8 MB each at 1,000 bots), a leaderboard's page built in a thread of the web server. glibc
mmaps a block above its threshold and unmaps it when freed, but each time one is freed it
raises the threshold to that block's size (up to 32 MiB), so the next ones come from its
heaps, each thread's its own, and stay there freed: at 1,000,000 games of 1,000 bots the
server held 265 MiB, 100 MiB of them free blocks (`malloc_trim` gave them back). A fixed
threshold of THRESHOLD_BYTES keeps every block that large mmapped: 164 MiB, the fit as
fast to within the machine's noise (`arena bench league`, issue 45).

Linux with glibc only (elsewhere nothing is done); an operator's own
MALLOC_MMAP_THRESHOLD_ is kept. Called once, early, by the processes that serve a league.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os

THRESHOLD_BYTES = 1 << 20
"""Blocks of this size and more are mmapped, whatever was freed before."""
_M_MMAP_THRESHOLD = -3
"""mallopt's parameter (glibc's malloc.h)."""
OPERATOR_SETTING = "MALLOC_MMAP_THRESHOLD_"


def return_large_blocks() -> bool:
    """Large blocks mmapped from now on (glibc's `mallopt`); whether it was set here."""
    if OPERATOR_SETTING in os.environ or not _glibc():
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return False
    return bool(libc.mallopt(_M_MMAP_THRESHOLD, THRESHOLD_BYTES))


def _glibc() -> bool:
    try:
        return os.confstr("CS_GNU_LIBC_VERSION") is not None
    except (ValueError, OSError):  # not a name here, or not known
        return False
