"""What this machine allows bots, as `facilities.probe` finds it: a record the sandbox's
other rooms read (cgroups.py, launch.py) without reaching back up to the probe."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Facilities:
    """What this machine allows, as found by `probe`."""

    root: bool
    """The arena runs as root (RLIMIT_NPROC is then useless)."""
    shell: bool
    """/bin/sh exists (the wrapper that sets limits and joins cgroups)."""
    bwrap: str | None
    """The bubblewrap program, when a trial sandbox worked."""
    unshare: tuple[str, ...] | None
    """The argv prefix that gives a process no network (e.g. unshare -n --), when it worked."""
    cgroup_v2: Path | None
    """A writable cgroup v2 hierarchy whose groups offer cgroup.kill."""
    cgroup_v2_pids: bool
    """The v2 hierarchy can bound the number of processes (pids controller)."""
    cgroup_v1_pids: Path | None
    """A writable v1 `pids` hierarchy (bounds forks; teardown kills by a loop)."""
    cgroup_v2_memory: bool = False
    """The v2 hierarchy can bound a group's memory (memory.max)."""
    cgroup_v1_memory: Path | None = None
    """A writable v1 `memory` hierarchy (memory.limit_in_bytes), used when v2 has none."""
    setpriv: str | None = None
    """util-linux's setpriv, which drops a bot to an unprivileged user inside bubblewrap."""
    seccomp: bytes | None = None
    """The seccomp program bubblewrap loads (no unix sockets; see seccomp.py), when one
    exists for this architecture and a trial sandbox took it."""
    notes: tuple[str, ...] = ()
    """Why a facility is off, one sentence each."""

    @property
    def pids_limit(self) -> str | None:
        """Which mechanism bounds a bot's processes, or None."""
        if self.cgroup_v2 is not None and self.cgroup_v2_pids:
            return "pids cgroup (v2)"
        if self.cgroup_v1_pids is not None:
            return "pids cgroup (v1)"
        return None

    @property
    def cgroups(self) -> bool:
        return (
            self.cgroup_v2 is not None
            or self.cgroup_v1_pids is not None
            or self.cgroup_v1_memory is not None
        )

    @property
    def memory_limit(self) -> str | None:
        """Which mechanism bounds a bot's whole process tree's memory, or None."""
        if self.cgroup_v2 is not None and self.cgroup_v2_memory:
            return "memory cgroup (v2 memory.max)"
        if self.cgroup_v1_memory is not None:
            return "memory cgroup (v1 memory.limit_in_bytes)"
        return None

    def unprivileged(self, mode: str) -> bool:
        """Bots under `mode` run as an unprivileged user (root drops them with setpriv)."""
        return mode == "bwrap" and self.root and self.setpriv is not None
