"""The cgroups of bot processes: made per process, joined before exec, killed and removed at teardown.

Teardown kills the whole group (`cgroup.kill` on v2, a kill loop on v1), which reaches
grandchildren that called setsid() and escaped the process group. A `pids` controller (v1 or
v2) bounds forks. Each arena process keeps its groups in a folder named by its pid and start
time, so folders left by a process that died are recognised and removed by the next one.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import signal
import threading
import time
from pathlib import Path

from arena.players.sandbox.machine import Facilities

CGROUP_ROOT = Path("/sys/fs/cgroup")
KILL_WAIT_S = 2.0
"""How long teardown waits for a killed cgroup to empty before leaving its removal for later."""
_BASE_PREFIX = "arena-"


def _writable_group(root: Path) -> Path | None:
    """`root` when a group can be made (and removed) in it."""
    trial = root / f"{_BASE_PREFIX}probe-{os.getpid()}"
    try:
        trial.mkdir(exist_ok=True)
    except OSError:
        return None
    try:
        return root if (trial / "cgroup.procs").exists() else None
    finally:
        with contextlib.suppress(OSError):
            trial.rmdir()


def _enable_controller(group: Path, controller: str) -> bool:
    """Turn on a v2 controller for `group`'s children; True when it is on."""
    try:
        if controller not in (group / "cgroup.controllers").read_text().split():
            return False
        (group / "cgroup.subtree_control").write_text(f"+{controller}")
        return controller in (group / "cgroup.subtree_control").read_text().split()
    except OSError:
        return False


def _remove_stale(root: Path) -> None:
    """Remove the groups left by arena processes that died without cleaning up."""
    for base in root.glob(f"{_BASE_PREFIX}*"):
        match = _BASE_NAME.fullmatch(base.name)
        if match is None or _alive(int(match["pid"]), match["started"]):
            continue
        try:
            groups = [group for group in base.iterdir() if group.is_dir()]
        except OSError:  # another arena on this machine removed it first
            continue
        for group in groups:
            _kill_group(group)
            _rmdir_patiently(group, 0.2)
        with contextlib.suppress(OSError):
            base.rmdir()


_BASE_NAME = re.compile(rf"{_BASE_PREFIX}(probe-)?(?P<pid>\d+)(\.(?P<started>\d+))?")


def _alive(pid: int, started: str | None) -> bool:
    """True if process `pid` runs (and started at `started`: a reused pid is not it)."""
    now = _start_time(pid)
    return now is not None and (started is None or now == started)


def _start_time(pid: int) -> str | None:
    """The start time of a process in clock ticks (field 22 of /proc/PID/stat), or None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def _base_name() -> str:
    """This process's folder in a cgroup hierarchy: pid and start time, unique over reuse."""
    pid = os.getpid()
    return f"{_BASE_PREFIX}{pid}.{_start_time(pid) or 0}"


_counter = 0
_counter_lock = threading.Lock()
_pending: set[Path] = set()
"""Groups whose removal failed (still busy); retried later and at exit."""
_pending_lock = threading.Lock()


def _base(root: Path, controllers: tuple[str, ...]) -> Path:
    base = root / _base_name()
    if not base.is_dir():
        base.mkdir(exist_ok=True)
        for controller in controllers:
            _enable_controller(base, controller)
    return base


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:40]


class BotCgroup:
    """The cgroup(s) of one bot process: joined by the launch wrapper, killed at teardown."""

    def __init__(
        self, bot: str, have: Facilities, processes: int | None, memory_mb: int | None = None
    ) -> None:
        global _counter
        with _counter_lock:
            _counter += 1
            name = f"b{_counter}-{_safe(bot)}"
        _retry_pending()
        self.groups: list[Path] = []
        self.killable: Path | None = None
        """The v2 group with cgroup.kill, if any."""
        self.pids_limited = False
        self.memory: Path | None = None
        """The group whose memory limit holds the bot's whole process tree, if any."""
        self._cpu_stat: int | None = None
        """The open cpu.stat of `killable`, once read (closed with the group)."""
        try:
            if have.cgroup_v2 is not None:
                controllers = ("pids",) * have.cgroup_v2_pids + ("memory",) * have.cgroup_v2_memory
                group = self._make(have.cgroup_v2, controllers, name)
                self.killable = group
                if processes is not None and have.cgroup_v2_pids:
                    (group / "pids.max").write_text(str(processes))
                    self.pids_limited = True
                if memory_mb is not None and have.cgroup_v2_memory:
                    (group / "memory.max").write_text(str(memory_mb << 20))
                    (group / "memory.swap.max").write_text("0")
                    self.memory = group
            if have.cgroup_v1_pids is not None and not self.pids_limited:
                group = self._make(have.cgroup_v1_pids, (), name)
                if processes is not None:
                    (group / "pids.max").write_text(str(processes))
                    self.pids_limited = True
            if have.cgroup_v1_memory is not None and memory_mb is not None and self.memory is None:
                group = self._make(have.cgroup_v1_memory, (), name)
                (group / "memory.limit_in_bytes").write_text(str(memory_mb << 20))
                self.memory = group
        except OSError:
            self.close()
            raise

    def _make(self, root: Path, controllers: tuple[str, ...], name: str) -> Path:
        for attempt in range(3):
            group = _base(root, controllers) / name
            try:
                group.mkdir()
            except FileNotFoundError:  # the base was being removed; make it again
                if attempt == 2:
                    raise
                time.sleep(0.01)
                continue
            self.groups.append(group)
            _created.add(group)
            return group
        raise AssertionError("unreachable")

    def pids(self) -> list[int]:
        """Every process in the bot's group (bubblewrap's own included)."""
        return _pids_in(self.groups[0]) if self.groups else []

    def cpu_usec(self) -> int | None:
        """CPU time used by the bot's processes so far, in µs (v2 cpu.stat), if known.

        The file is opened once and read again with pread: with --cpu-limit-ms this is asked
        twice a decision, and an open and close cost ten times the read (issue 22)."""
        if self.killable is None:
            return None
        try:
            if self._cpu_stat is None:
                self._cpu_stat = os.open(self.killable / "cpu.stat", os.O_RDONLY | os.O_CLOEXEC)
            for line in os.pread(self._cpu_stat, 4096, 0).decode().splitlines():
                key, _, value = line.partition(" ")
                if key == "usage_usec":
                    return int(value)
        except (OSError, ValueError):
            return None
        return None

    def oom_kills(self) -> int:
        """How many processes of this bot the kernel killed for passing its memory limit."""
        if self.memory is None:
            return 0
        for name in ("memory.events", "memory.oom_control"):  # v2, v1
            try:
                text = (self.memory / name).read_text()
            except OSError:
                continue
            for line in text.splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill" and value.strip().isdigit():
                    return int(value)
        return 0

    def procs_files(self) -> list[Path]:
        return [group / "cgroup.procs" for group in self.groups]

    def join(self, pid: int) -> None:
        """Move `pid` in (the fallback when there is no shell wrapper to join before exec)."""
        for path in self.procs_files():
            path.write_text(str(pid))

    def close(self) -> None:
        """Kill every process in the group(s) and remove them (idempotent)."""
        if self._cpu_stat is not None:
            with contextlib.suppress(OSError):
                os.close(self._cpu_stat)
            self._cpu_stat = None
        groups, self.groups = self.groups, []
        if self.killable is not None and self.killable in groups:
            with contextlib.suppress(OSError):
                (self.killable / "cgroup.kill").write_text("1")
        for group in groups:
            _kill_group(group)
        for group in groups:
            if not _rmdir_patiently(group, KILL_WAIT_S):
                with _pending_lock:
                    _pending.add(group)


_created: set[Path] = set()


def _pids_in(group: Path) -> list[int]:
    try:
        return [int(word) for word in (group / "cgroup.procs").read_text().split()]
    except (OSError, ValueError):
        return []


def _kill_group(group: Path) -> None:
    """SIGKILL every process in `group` until none is left (v1 has no cgroup.kill)."""
    if (group / "cgroup.kill").exists():
        with contextlib.suppress(OSError):
            (group / "cgroup.kill").write_text("1")
        return
    deadline = time.monotonic() + KILL_WAIT_S
    while (pids := _pids_in(group)) and time.monotonic() < deadline:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.001)


def _rmdir_patiently(group: Path, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    pause = 0.0005
    while True:
        try:
            group.rmdir()
        except FileNotFoundError:
            break
        except OSError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(pause)
            pause = min(pause * 2, 0.02)
            continue
        break
    _created.discard(group)
    return True


def _retry_pending() -> None:
    with _pending_lock:
        groups = list(_pending)
    for group in groups:
        _kill_group(group)
        if _rmdir_patiently(group, 0):
            with _pending_lock:
                _pending.discard(group)


@atexit.register
def remove_own_groups() -> None:
    """Kill and remove every group this process made, and its own folders, at exit."""
    mine = _base_name()  # a forked child must not touch its parent's groups
    for group in list(_created):
        if group.parent.name == mine:
            _kill_group(group)
            _rmdir_patiently(group, 0.5)
    remove_own_folders()


def remove_own_folders() -> None:
    """Remove this process's (empty) folders in every hierarchy; busy ones stay.

    Called when a pool worker closes its bots, since workers leave by os._exit and never
    run atexit: without it their empty folders stayed until the next arena started.
    """
    mine = _base_name()
    for root in (
        CGROUP_ROOT / "unified",
        CGROUP_ROOT,
        CGROUP_ROOT / "pids",
        CGROUP_ROOT / "memory",
    ):
        with contextlib.suppress(OSError):
            (root / mine).rmdir()
