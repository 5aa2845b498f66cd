"""The sandboxed launch of a bot: limits, a cgroup, isolation, wrapped around its argv."""

from __future__ import annotations

import contextlib
import functools
import os
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena.errors import BotStartupError
from arena.players.limits import SandboxLimits
from arena.players.sandbox.bubblewrap import SANDBOX_UID, bot_user, bwrap_argv
from arena.players.sandbox.cgroups import BotCgroup
from arena.players.sandbox.facilities import SHELL, _warn_once, isolation_mode, probe
from arena.players.sandbox.lease import BUILD_GID, BUILD_UID
from arena.players.sandbox.machine import Facilities
from arena.players.sandbox.seccomp import program_fd


def _ulimit_script(limits: SandboxLimits) -> list[str]:
    # dash's ulimit sets the soft and the hard limit; -d is in KiB, -f in 512-byte blocks.
    steps: list[str] = []
    if limits.memory_mb is not None:
        steps.append(f"ulimit -d {limits.memory_mb * 1024}")
    if limits.cpu_s is not None:
        steps.append(f"ulimit -t {limits.cpu_s}")
    if limits.file_mb is not None:
        steps.append(f"ulimit -f {limits.file_mb * 2048}")
    if limits.open_files is not None:
        steps.append(f"ulimit -n {limits.open_files}")
    return steps


@dataclass
class Launch:
    """A bot's argv wrapped by the sandbox, and what to do right after start and at teardown."""

    argv: list[str]
    mode: str
    limits: SandboxLimits
    notes: list[str] = field(default_factory=list)
    """Sentences for the bot's log (e.g. a manifest limit cut down to the ceiling)."""
    after_start: list[Callable[[int], None]] = field(default_factory=list)
    teardown: list[Callable[[], None]] = field(default_factory=list)
    pass_fds: tuple[int, ...] = ()
    """Descriptors the process inherits (the seccomp program); the parent closes its copies
    once the process has started."""
    pids: Callable[[], list[int]] = list
    """Every process of the bot (its cgroup's), bubblewrap's included; empty without one."""
    oom_kills: Callable[[], int] = lambda: 0
    """How many of the bot's processes the kernel killed for passing its memory limit."""
    cpu_usec: Callable[[], int | None] = lambda: None
    """CPU time of the bot's processes so far, in µs, where the cgroup tells it."""
    user: str = "the arena's own"
    """Who the bot runs as, for its log."""
    builder: tuple[int, int] | None = None
    """(uid, gid) a build runs as when its folder must be lent to it (lease.py), else None."""


def prepare(
    name: str,
    argv: list[str],
    folder: Path,
    ceiling: SandboxLimits,
    asked: dict[str, int] | None = None,
    *,
    build: bool = False,
) -> Launch:
    """The sandboxed launch of a bot: limits (ceiling lowered by `asked`), cgroup, isolation.

    A `build` may write the bot's folder. It runs as the folder's owner, or, when that is
    root, as the build user (`BUILD_UID`), to whom the caller lends the folder for the build
    (`Launch.builder`, lease.py); a playing bot runs as an unprivileged user.
    """
    if not build:
        _check_program(argv, folder)
    have = probe()
    limits, notes = ceiling.lowered_by(asked or {})
    launch = _isolated(argv, folder, limits, have, _mode(limits, have), build)
    launch.notes[:0] = notes
    _limited(launch, _cgroup(name, launch, have), have)
    return launch


def _mode(limits: SandboxLimits, have: Facilities) -> str:
    """The isolation a bot gets here, warned about once when weaker than asked."""
    mode = isolation_mode(limits.isolation, have)
    if mode != limits.isolation and limits.isolation != "auto":
        _warn_once(
            f"isolation {limits.isolation!r} is not available here; bots run under {mode!r}."
        )
    elif mode == "none" and limits.isolation == "auto":
        _warn_once("no sandbox is available here (install bubblewrap): bots run unisolated.")
    return mode


def _isolated(
    argv: list[str],
    folder: Path,
    limits: SandboxLimits,
    have: Facilities,
    mode: str,
    build: bool,
) -> Launch:
    """The launch of `argv` isolated under `mode`: who it runs as, its argv inside."""
    launch = Launch(argv=list(argv), mode=mode, limits=limits)
    launch.user = "root" if have.root else "the arena's own"
    if mode == "unshare" and have.unshare is not None:
        launch.argv = [*have.unshare, *argv]
    if mode != "bwrap" or have.bwrap is None:
        return launch
    drop = None
    uid, gid = bot_user(folder)
    if uid in (0, BUILD_UID) and build and have.unprivileged(mode):  # see lease.py
        uid, gid = launch.builder = (BUILD_UID, BUILD_GID)
    elif uid == 0 and not build:
        if _open_to_others(folder, argv):
            uid, gid = SANDBOX_UID, SANDBOX_UID  # nobody: a build of root's folder stays root
        else:
            launch.notes.append(
                f"{folder} is not readable by other users, so the bot runs as root "
                "(without capabilities); `chmod -R o+rX` it to run it as nobody"
            )
    if have.unprivileged(mode) and have.setpriv is not None and uid != 0:
        drop = (have.setpriv, uid, gid)
        launch.user = f"uid {uid}"
    fd = None if have.seccomp is None else program_fd(have.seccomp)
    launch.pass_fds = () if fd is None else (fd,)
    launch.argv = bwrap_argv(
        have.bwrap, argv, folder, limits, user=drop, seccomp_fd=fd, writable=build
    )
    return launch


def _cgroup(name: str, launch: Launch, have: Facilities) -> BotCgroup | None:
    """The bot's cgroup, when its limits ask for one and the machine has them (its
    teardown and counters hooked to `launch`); None, warned about once, otherwise."""
    limits = launch.limits
    if not (limits.cgroups and have.cgroups):
        if limits.processes is not None and limits.cgroups:
            _warn_once("no pids cgroup here: the number of a bot's processes is not bounded.")
        return None
    processes = limits.processes
    if processes is not None and launch.mode == "bwrap":
        processes += 2  # bubblewrap's monitor and its PID 1
    try:
        group = BotCgroup(name, have, processes, limits.memory_mb)
    except OSError as error:  # the bot still plays, under rlimits and isolation
        _warn_once(f"cannot make a cgroup for a bot ({error}); bots run without one.")
        return None
    launch.teardown.append(group.close)
    launch.oom_kills = group.oom_kills
    launch.cpu_usec = group.cpu_usec
    launch.pids = group.pids
    return group


def _limited(launch: Launch, group: BotCgroup | None, have: Facilities) -> None:
    """The launch's rlimits and cgroup joined: by a `/bin/sh` wrapper before the exec, or
    right after the start without one."""
    if not have.shell:
        if group is not None:
            launch.after_start.append(group.join)
        launch.after_start.append(functools.partial(_prlimit, launch.limits))
        return
    steps = [f"echo $$ > {shlex.quote(str(path))}" for path in group.procs_files()] if group else []
    steps += _ulimit_script(launch.limits)
    if steps:
        script = " && ".join([*steps, 'exec "$@"'])
        launch.argv = [SHELL, "-c", script, "arena-sandbox", *launch.argv]


def _open_to_others(folder: Path, argv: list[str]) -> bool:
    """True when a user other than the owner may enter `folder` and run its program there."""
    if folder.stat().st_mode & 0o005 != 0o005:
        return False
    program = folder / argv[0] if argv and "/" in argv[0] else None
    return program is None or not program.exists() or program.stat().st_mode & 0o005 == 0o005


def program_problem(argv: list[str], folder: Path) -> str | None:
    """Why the program of `argv` cannot be run from `folder`, or None when it can."""
    program = argv[0] if argv else ""
    path = (folder / program) if "/" in program else None
    found = str(path) if path is not None else shutil.which(program)
    if found is None or not os.path.isfile(found):
        return "No such file or directory"
    if not os.access(found, os.X_OK):
        return "Permission denied (not executable)"
    return None


def _check_program(argv: list[str], folder: Path) -> None:
    """BotStartupError now if the program cannot run (the wrapper would hide why)."""
    problem = program_problem(argv, folder)
    if problem is not None:
        raise BotStartupError(
            f"the command {argv[0]!r} could not be started in {folder}: {problem}; "
            "check `command` in bot.toml."
        )


def _prlimit(limits: SandboxLimits, pid: int) -> None:
    import resource

    for key, value in limits.rlimits().items():
        with contextlib.suppress(OSError, ValueError):
            resource.prlimit(pid, getattr(resource, key), (value, value))
