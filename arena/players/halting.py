"""The processes a thread started (bots and builds), so that a server that stops can end a
thread's work at once: its running processes killed, and any it starts later killed as they
start (a league's check at SIGINT: league/checking.py).

Only processes not yet reaped are ever signalled: a reaped one's process group id may belong
to another process by now. A process's group is not all of it: bubblewrap's PID 1 runs in a
session of its own (`--new-session`), so a halt also kills the members of the process's cgroup
(`others`, read at the halt: live processes only). Under load its `--die-with-parent` was seen
to leave that PID 1 and the bot running after the group was killed (issue 48).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import weakref
from collections.abc import Callable

Others = Callable[[], list[int]]
"""The pids of a process's own that may have left its group (its cgroup's members)."""

_lock = threading.Lock()
_Started = tuple[subprocess.Popen[bytes], Others]
_started: weakref.WeakKeyDictionary[threading.Thread, list[_Started]] = weakref.WeakKeyDictionary()
"""By thread: the processes each started that were not reaped when last looked. (Threads,
not their ids: a new thread may get the id of one halted and gone.)"""
_halted: weakref.WeakSet[threading.Thread] = weakref.WeakSet()
"""The threads whose processes are killed as they start."""


def started(process: subprocess.Popen[bytes], others: Others = list) -> None:
    """Note a process (the leader of its own process group) the current thread started, and
    `others`, where the rest of it is found; kill them at once when the thread was halted."""
    thread = threading.current_thread()
    with _lock:
        alive = [known for known in _started.get(thread, []) if known[0].returncode is None]
        _started[thread] = [*alive, (process, others)]
        halted = thread in _halted
    if halted:
        _kill(process, others)


def halt(threads: list[threading.Thread]) -> None:
    """Kill every process group these threads started that is not reaped, and every one they
    start from now on. For threads that will not be used again (they are daemons of a server
    that stops)."""
    for thread in threads:
        with _lock:
            _halted.add(thread)
            processes = _started.pop(thread, [])
        for process, others in processes:
            _kill(process, others)


def _kill(process: subprocess.Popen[bytes], others: Others) -> None:
    if process.returncode is None:  # not reaped: its group's id is still its own
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    for pid in others():
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
