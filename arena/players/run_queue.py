"""How long a bot's processes waited for a CPU while ready to run (Linux's per-task
`/proc/PID/schedstat`, its second figure: run-queue delay, in ns).

A check tells a bot that is late because it waits for something (sleeps, reads) from one
that is late because the machine gave it no CPU: a sleeping process does not wait in the
run queue, a starved one does (check_games.py). Time stopped by a signal counts as neither.
"""

from __future__ import annotations

import os
from collections.abc import Iterable


def waited_usec(pids: Iterable[int]) -> int | None:
    """The run-queue delay of these processes' threads so far, summed, in µs; None when none
    can be read (no schedstat here, or all gone)."""
    total, read = 0, False
    for pid in pids:
        try:
            threads = os.listdir(f"/proc/{int(pid)}/task")
        except OSError:  # gone
            continue
        for thread in threads:
            try:
                with open(f"/proc/{int(pid)}/task/{thread}/schedstat", "rb") as figures:
                    fields = figures.read(200).split()
                total += int(fields[1]) // 1000
                read = True
            except (OSError, IndexError, ValueError):
                continue
    return total if read else None
