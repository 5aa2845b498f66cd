"""What this machine allows bots (probed once per process) and the report of what is on and off."""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arena.players.limits import SandboxLimits, limits_from_json
from arena.players.sandbox.bubblewrap import SANDBOX_UID, bwrap_argv
from arena.players.sandbox.cgroups import (
    _BASE_PREFIX,
    CGROUP_ROOT,
    _enable_controller,
    _remove_stale,
    _writable_group,
)
from arena.players.sandbox.machine import Facilities
from arena.players.sandbox.seccomp import program, program_fd

log = logging.getLogger("arena.sandbox")

SHELL = "/bin/sh"
PROBE_TIMEOUT_S = 10.0


def _run_ok(argv: list[str], pass_fds: tuple[int, ...] = ()) -> tuple[bool, str]:
    try:
        result = subprocess.run(
            argv,
            pass_fds=pass_fds,
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


def _probe_seccomp(bwrap: str | None, notes: list[str]) -> bytes | None:
    code = program()
    if code is None:
        notes.append(f"no seccomp program for {os.uname().machine}: unix sockets are not blocked.")
        return None
    if bwrap is None:
        return None
    fd = program_fd(code)
    try:
        true = shutil.which("true") or "/bin/true"
        ok, error = _run_ok(
            [bwrap, "--ro-bind", "/", "/", "--seccomp", str(fd), "--", true], pass_fds=(fd,)
        )
    finally:
        os.close(fd)
    if not ok:
        notes.append(f"bubblewrap refused the seccomp program ({error}): unix sockets are open.")
        return None
    return code


def _probe_cgroups(notes: list[str]) -> tuple[Path | None, bool, Path | None]:
    v2: Path | None = None
    v2_pids = False
    for candidate in (CGROUP_ROOT / "unified", CGROUP_ROOT):
        if (candidate / "cgroup.controllers").exists() and _writable_group(candidate):
            probe_dir = candidate / f"{_BASE_PREFIX}probe-{os.getpid()}"
            try:
                probe_dir.mkdir(exist_ok=True)
                has_kill = (probe_dir / "cgroup.kill").exists()
                v2_pids = _enable_controller(probe_dir, "pids") and has_kill
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


@functools.cache
def probe() -> Facilities:
    """What this machine allows (a few trial runs, ~10 ms; cached for the process)."""
    notes: list[str] = []
    root = os.geteuid() == 0
    shell = os.access(SHELL, os.X_OK)
    if not shell:
        notes.append(f"{SHELL} is missing: limits are set right after start instead.")
    v2, v2_pids, v1_pids = _probe_cgroups(notes)
    v2_memory = v2 is not None and _enable_controller(v2, "memory")
    v1_memory = None if v2_memory else _probe_v1_memory()
    if not v2_memory and v1_memory is None:
        notes.append(
            "no writable memory cgroup: memory is bounded per process (RLIMIT_DATA), "
            "not for a bot's whole process tree."
        )
    bwrap = _probe_bwrap(notes)
    setpriv = shutil.which("setpriv")
    if root and setpriv is None:
        notes.append("setpriv (util-linux) is missing: bots run as root, without capabilities.")
    return Facilities(
        root=root,
        shell=shell,
        bwrap=bwrap,
        unshare=_probe_unshare(notes),
        cgroup_v2=v2,
        cgroup_v2_pids=v2_pids,
        cgroup_v1_pids=v1_pids,
        cgroup_v2_memory=v2_memory,
        cgroup_v1_memory=v1_memory,
        setpriv=setpriv,
        seccomp=_probe_seccomp(bwrap, notes),
        notes=tuple(notes),
    )


def _probe_v1_memory() -> Path | None:
    root = CGROUP_ROOT / "memory"
    if not (root / "cgroup.procs").exists() or _writable_group(root) is None:
        return None
    _remove_stale(root)
    return root


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


def sandbox_report_of(limits: Mapping[str, Any]) -> dict[str, Any]:
    """`sandbox_report` for the limits of a run as config.json keeps them (the keyword
    arguments of `arena.players.limits.Limits`)."""
    return sandbox_report(limits_from_json(limits).sandbox)


def sandbox_report(limits: SandboxLimits | None = None) -> dict[str, Any]:
    """What is on and off for bots on this machine, for a run's log and config.json."""
    limits = limits or SandboxLimits()
    have = probe()
    mode = isolation_mode(limits.isolation, have)
    filesystem = {
        "bwrap": "an allow-list: only the system folders (/usr, /etc and the links to /usr), "
        "the interpreter, the arena package, the tournament's `shown` folders, the folder "
        "of the bot's language's toolchain (`arena languages`) and the bot's own folder "
        "(writable for its build only), all read-only; nothing else of the host (no more "
        "of a home, /srv, /var, /opt, checkout, league or other bots); private /tmp and "
        "/dev/shm of limited size",
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
        "memory_limit": (
            f"{limits.memory_mb} MiB for the whole process tree, by {have.memory_limit}"
            if cgroups and have.memory_limit and limits.memory_mb
            else "per process only (RLIMIT_DATA)"
        ),
        "user": (
            f"uid {SANDBOX_UID} (nobody), or the owner of the bot's folder when not root"
            if have.unprivileged(mode)
            else ("root, without capabilities" if have.root else "the arena's own user")
        ),
        "unix_sockets": "blocked (seccomp)" if mode == "bwrap" and have.seccomp else "open",
        "environment": "PATH, HOME, LANG, TMPDIR, its language's (JAVA_HOME, CARGO_HOME...), "
        "ARENA_BOT_* and the manifest's [env]",
        "rlimits": limits.rlimits(),
        "rlimits_by": "sh ulimit before exec" if have.shell else "prlimit after start",
        "root": have.root,
        "limits": limits.to_json(),
        "warnings": warnings,
    }
