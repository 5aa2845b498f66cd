"""The sandbox around a bot process: what this machine allows, and the launch that uses it.

Three layers, each used where the machine has it (probed once per process, see `probe`):

1. Resource limits (always): RLIMIT_DATA, RLIMIT_CPU, RLIMIT_FSIZE, RLIMIT_NOFILE, set by a
   tiny `/bin/sh` wrapper with `ulimit` before it execs the bot, so there is no window in
   which the bot runs unlimited (and no `preexec_fn`, which is unsafe with threads).
2. A cgroup per bot process (when the cgroup folders are writable): the wrapper joins it
   before the exec, so every descendant is inside. Teardown kills the whole cgroup
   (`cgroup.kill` on v2, a kill loop on v1), which reaches grandchildren that called
   setsid() and escaped the process group. A `pids` controller (v1 or v2) bounds forks.
3. Isolation: bubblewrap (no network, read-only view of the filesystem, a private /tmp,
   the other bots' folders hidden, no capabilities, its own PID namespace), else
   `unshare -n` (no network only), else nothing, each fallback with one warning.

Known difference under bubblewrap: its own processes hold a copy of the bot's stdout, so a
bot that closes stdout but keeps running is seen as a timeout, not a crash (it loses either way).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import logging
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import BotManifestError, BotStartupError
from arena.players.limits import SandboxLimits

if TYPE_CHECKING:
    from arena.players.manifest import BotManifest

log = logging.getLogger("arena.sandbox")

SHELL = "/bin/sh"
CGROUP_ROOT = Path("/sys/fs/cgroup")
PROBE_TIMEOUT_S = 10.0
KILL_WAIT_S = 2.0
"""How long teardown waits for a killed cgroup to empty before leaving its removal for later."""
_BASE_PREFIX = "arena-"


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
        return self.cgroup_v2 is not None or self.cgroup_v1_pids is not None


def _run_ok(argv: list[str]) -> tuple[bool, str]:
    try:
        result = subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=PROBE_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as error:
        return False, str(error)
    return result.returncode == 0, result.stderr.decode("utf-8", "replace").strip()


def _probe_bwrap(notes: list[str]) -> str | None:
    program = shutil.which("bwrap")
    if program is None:
        notes.append("bubblewrap is not installed (apt-get install -y bubblewrap).")
        return None
    true = shutil.which("true") or "/bin/true"
    with tempfile.TemporaryDirectory(prefix="arena-probe-") as folder:
        argv = bwrap_argv(program, [true], Path(folder), SandboxLimits())
        ok, error = _run_ok(argv)
    if not ok:
        notes.append(f"bubblewrap is installed but cannot make a sandbox here: {error}")
        return None
    return program


def _probe_unshare(notes: list[str]) -> tuple[str, ...] | None:
    program = shutil.which("unshare")
    if program is None:
        notes.append("unshare (util-linux) is not installed.")
        return None
    true = shutil.which("true") or "/bin/true"
    last = ""
    for prefix in ((program, "-n", "--"), (program, "-r", "-n", "--")):
        ok, last = _run_ok([*prefix, true])
        if ok:
            return prefix
    notes.append(f"unshare cannot make a network namespace here: {last}")
    return None


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


def _probe_cgroups(notes: list[str]) -> tuple[Path | None, bool, Path | None]:
    v2: Path | None = None
    v2_pids = False
    for candidate in (CGROUP_ROOT / "unified", CGROUP_ROOT):
        if (candidate / "cgroup.controllers").exists() and _writable_group(candidate):
            probe_dir = candidate / f"{_BASE_PREFIX}probe-{os.getpid()}"
            try:
                probe_dir.mkdir(exist_ok=True)
                has_kill = (probe_dir / "cgroup.kill").exists()
                v2_pids = _enable_pids(probe_dir) and has_kill
            except OSError:
                has_kill = False
            finally:
                with contextlib.suppress(OSError):
                    probe_dir.rmdir()
            if has_kill:
                v2 = candidate
                break
    if v2 is None:
        notes.append("no writable cgroup v2 hierarchy with cgroup.kill.")
    v1 = CGROUP_ROOT / "pids"
    v1_pids = v1 if (v1 / "cgroup.procs").exists() and _writable_group(v1) else None
    if v1_pids is None and not v2_pids:
        notes.append("no writable pids cgroup: the number of a bot's processes is not bounded.")
    for root in (v2, v1_pids):
        if root is not None:
            _remove_stale(root)
    return v2, v2_pids, v1_pids


def _enable_pids(group: Path) -> bool:
    """Turn on the v2 pids controller for `group`'s children; True when it is on."""
    if "pids" not in (group / "cgroup.controllers").read_text().split():
        return False
    try:
        (group / "cgroup.subtree_control").write_text("+pids")
    except OSError:
        return False
    return "pids" in (group / "cgroup.subtree_control").read_text().split()


def _remove_stale(root: Path) -> None:
    """Remove the groups left by arena processes that died without cleaning up."""
    for base in root.glob(f"{_BASE_PREFIX}*"):
        match = _BASE_NAME.fullmatch(base.name)
        if match is None or _alive(int(match["pid"]), match["started"]):
            continue
        for group in base.iterdir():
            if group.is_dir():
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


@functools.cache
def probe() -> Facilities:
    """What this machine allows (a few trial runs, ~10 ms; cached for the process)."""
    notes: list[str] = []
    root = os.geteuid() == 0
    shell = os.access(SHELL, os.X_OK)
    if not shell:
        notes.append(f"{SHELL} is missing: limits are set right after start instead.")
    v2, v2_pids, v1_pids = _probe_cgroups(notes)
    return Facilities(
        root=root,
        shell=shell,
        bwrap=_probe_bwrap(notes),
        unshare=_probe_unshare(notes),
        cgroup_v2=v2,
        cgroup_v2_pids=v2_pids,
        cgroup_v1_pids=v1_pids,
        notes=tuple(notes),
    )


def isolation_mode(requested: str, facilities: Facilities | None = None) -> str:
    """The mode a bot actually gets: `requested`, or the next weaker one this machine allows."""
    have = facilities or probe()
    order = {"auto": ("bwrap", "unshare"), "bwrap": ("bwrap", "unshare"), "unshare": ("unshare",)}
    for mode in order.get(requested, ()):
        if (mode == "bwrap" and have.bwrap) or (mode == "unshare" and have.unshare):
            return mode
    return "none"


_warned: set[str] = set()
_warned_lock = threading.Lock()


def _warn_once(text: str) -> None:
    with _warned_lock:
        if text in _warned:
            return
        _warned.add(text)
    log.warning(text)


def sandbox_report(limits: SandboxLimits | None = None) -> dict[str, Any]:
    """What is on and off for bots on this machine, for a run's log and config.json."""
    limits = limits or SandboxLimits()
    have = probe()
    mode = isolation_mode(limits.isolation, have)
    filesystem = {
        "bwrap": "read-only outside the bot's folder; other bots' folders hidden; private /tmp",
        "unshare": "shared (not isolated)",
        "none": "shared (not isolated)",
    }[mode]
    warnings = list(have.notes)
    if mode == "none" and limits.isolation != "none":
        warnings.append("bots run without isolation: they can use the network and read files.")
    elif limits.isolation == "bwrap" and mode != "bwrap":
        warnings.append(f"bubblewrap was asked for but is not available; bots run under {mode}.")
    cgroups = limits.cgroups and have.cgroups
    return {
        "isolation": mode,
        "isolation_requested": limits.isolation,
        "network": "on" if mode == "none" else "off",
        "filesystem": filesystem,
        "capabilities": "dropped" if mode == "bwrap" else ("kept (root)" if have.root else "none"),
        "cgroup_kill": (
            ("cgroup.kill (v2)" if have.cgroup_v2 else "kill loop (v1)") if cgroups else "off"
        ),
        "process_limit": (have.pids_limit if cgroups else None) or "off",
        "rlimits": limits.rlimits(),
        "rlimits_by": "sh ulimit before exec" if have.shell else "prlimit after start",
        "root": have.root,
        "limits": limits.to_json(),
        "warnings": warnings,
    }


# --- cgroups of bot processes ---

_counter = 0
_counter_lock = threading.Lock()
_pending: set[Path] = set()
"""Groups whose removal failed (still busy); retried later and at exit."""
_pending_lock = threading.Lock()


def _base(root: Path, pids: bool) -> Path:
    base = root / _base_name()
    if not base.is_dir():
        base.mkdir(exist_ok=True)
        if pids:
            _enable_pids(base)
    return base


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:40]


class BotCgroup:
    """The cgroup(s) of one bot process: joined by the launch wrapper, killed at teardown."""

    def __init__(self, bot: str, have: Facilities, processes: int | None) -> None:
        global _counter
        with _counter_lock:
            _counter += 1
            name = f"b{_counter}-{_safe(bot)}"
        _retry_pending()
        self.groups: list[Path] = []
        self.killable: Path | None = None
        """The v2 group with cgroup.kill, if any."""
        self.pids_limited = False
        try:
            if have.cgroup_v2 is not None:
                group = self._make(have.cgroup_v2, have.cgroup_v2_pids, name)
                self.killable = group
                if processes is not None and have.cgroup_v2_pids:
                    (group / "pids.max").write_text(str(processes))
                    self.pids_limited = True
            if have.cgroup_v1_pids is not None and not self.pids_limited:
                group = self._make(have.cgroup_v1_pids, False, name)
                if processes is not None:
                    (group / "pids.max").write_text(str(processes))
                    self.pids_limited = True
        except OSError:
            self.close()
            raise

    def _make(self, root: Path, pids: bool, name: str) -> Path:
        for attempt in range(3):
            group = _base(root, pids) / name
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

    def procs_files(self) -> list[Path]:
        return [group / "cgroup.procs" for group in self.groups]

    def join(self, pid: int) -> None:
        """Move `pid` in (the fallback when there is no shell wrapper to join before exec)."""
        for path in self.procs_files():
            path.write_text(str(pid))

    def close(self) -> None:
        """Kill every process in the group(s) and remove them (idempotent)."""
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
def _cleanup_at_exit() -> None:
    mine = _base_name()  # a forked child must not touch its parent's groups
    for group in list(_created):
        if group.parent.name == mine:
            _kill_group(group)
            _rmdir_patiently(group, 0.5)
    for root in (CGROUP_ROOT / "unified", CGROUP_ROOT, CGROUP_ROOT / "pids"):
        with contextlib.suppress(OSError):
            (root / mine).rmdir()


# --- the launch ---


def bwrap_argv(program: str, argv: list[str], folder: Path, limits: SandboxLimits) -> list[str]:
    """`argv` inside bubblewrap: no network, read-only /, its own folder writable, others hidden."""
    folder = folder.resolve()
    hidden = [Path("/tmp")]
    parent = folder.parent
    for path in [parent, *(Path(p).resolve() for p in limits.hidden)]:
        if path == Path("/") or path == folder or _under(path, folder):
            continue  # never hide / itself, nor the bot's folder or anything inside it
        if not any(path == h or _under(path, h) for h in hidden):
            hidden.append(path)
    out = [
        program,
        "--die-with-parent",
        "--new-session",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-pid",
        "--cap-drop",
        "ALL",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--size",
        str(limits.tmp_mb << 20),
        "--tmpfs",
        "/tmp",
    ]
    for path in hidden[1:]:
        out += ["--tmpfs", str(path)]
    # What the bot must still see if a hidden folder holds it: the interpreter and the program.
    keep = {Path(sys.prefix), Path(sys.base_prefix)}
    if argv and os.path.isabs(argv[0]):
        keep.add(Path(os.path.realpath(argv[0])).parent)
    for path in sorted(keep):
        if path.exists() and any(path == h or _under(path, h) for h in hidden):
            out += ["--ro-bind", str(path), str(path)]
    out += ["--bind", str(folder), str(folder), "--chdir", str(folder), "--", *argv]
    return out


def _under(path: Path, ancestor: Path) -> bool:
    return path != ancestor and path.is_relative_to(ancestor)


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


def prepare(
    name: str,
    argv: list[str],
    folder: Path,
    ceiling: SandboxLimits,
    asked: dict[str, int] | None = None,
) -> Launch:
    """The sandboxed launch of a bot: limits (ceiling lowered by `asked`), cgroup, isolation."""
    _check_program(argv, folder)
    have = probe()
    limits, notes = ceiling.lowered_by(asked or {})
    mode = isolation_mode(limits.isolation, have)
    if mode != limits.isolation and limits.isolation != "auto":
        _warn_once(
            f"isolation {limits.isolation!r} is not available here; bots run under {mode!r}."
        )
    elif mode == "none" and limits.isolation == "auto":
        _warn_once("no sandbox is available here (install bubblewrap): bots run unisolated.")
    if mode == "bwrap" and have.bwrap is not None:
        inner = bwrap_argv(have.bwrap, argv, folder, limits)
    elif mode == "unshare" and have.unshare is not None:
        inner = [*have.unshare, *argv]
    else:
        inner = list(argv)
    launch = Launch(argv=inner, mode=mode, limits=limits, notes=notes)
    group: BotCgroup | None = None
    if limits.cgroups and have.cgroups:
        processes = limits.processes
        if processes is not None and mode == "bwrap":
            processes += 2  # bubblewrap's monitor and its PID 1
        try:
            group = BotCgroup(name, have, processes)
        except OSError as error:  # the bot still plays, under rlimits and isolation
            _warn_once(f"cannot make a cgroup for a bot ({error}); bots run without one.")
        else:
            launch.teardown.append(group.close)
    elif limits.processes is not None and limits.cgroups:
        _warn_once("no pids cgroup here: the number of a bot's processes is not bounded.")
    if have.shell:
        steps = (
            [f"echo $$ > {shlex.quote(str(path))}" for path in group.procs_files()] if group else []
        )
        steps += _ulimit_script(limits)
        if steps:
            script = " && ".join([*steps, 'exec "$@"'])
            launch.argv = [SHELL, "-c", script, "arena-sandbox", *inner]
    else:
        if group is not None:
            launch.after_start.append(group.join)
        launch.after_start.append(functools.partial(_prlimit, limits))
    return launch


def _program_problem(argv: list[str], folder: Path) -> str | None:
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
    problem = _program_problem(argv, folder)
    if problem is not None:
        raise BotStartupError(
            f"the command {argv[0]!r} could not be started in {folder}: {problem}; "
            "check `command` in bot.toml."
        )


def check_command(bot: BotManifest) -> None:
    """Before play (after the build): BotManifestError if the bot's program cannot be run."""
    problem = _program_problem(bot.argv, bot.folder)
    if problem is not None:
        raise BotManifestError(
            f"Bot {bot.name!r} cannot start: its program {bot.command[0]!r} "
            f"({problem.lower()}) in {bot.folder}; fix `command` in {bot.manifest_path}."
        )


def _prlimit(limits: SandboxLimits, pid: int) -> None:
    import resource

    for key, value in limits.rlimits().items():
        with contextlib.suppress(OSError, ValueError):
            resource.prlimit(pid, getattr(resource, key), (value, value))
