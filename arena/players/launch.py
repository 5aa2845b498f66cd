"""How a bot's process is launched: the one place that builds its argv, environment and limits.

Step 5 of the one path from a bot folder to a playing process (ready.py): the sandbox
(players/sandbox: rlimits, a cgroup, bubblewrap around the argv) prepares the launch, this
adds the bot's environment; every bot process is started from a `LaunchSpec` made here, and
nowhere else.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from arena.players import halting
from arena.players.limits import Limits, SandboxLimits, manifest_limits
from arena.players.manifest import BotManifest
from arena.players.sandbox.launch import prepare
from arena.players.toolchains import bot_toolchain


@dataclass(frozen=True)
class LaunchSpec:
    """Everything needed to start one bot process."""

    argv: list[str]
    """The program and its arguments (the sandbox may wrap this, e.g. in bubblewrap)."""
    cwd: Path
    """The working directory: the bot's folder."""
    env: dict[str, str]
    """The complete environment of the process."""
    after_start: list[Callable[[int], None]] = field(default_factory=list)
    """Called with the pid right after the start (e.g. resource.prlimit, joining a cgroup)."""
    teardown: list[Callable[[], None]] = field(default_factory=list)
    """Called after the process group is killed (e.g. killing and removing its cgroup)."""
    notes: list[str] = field(default_factory=list)
    """Sentences for the bot's log about its launch (sandbox mode, limits cut down)."""
    pass_fds: tuple[int, ...] = ()
    """Descriptors the process inherits; closed in this process once it has started."""
    pids: Callable[[], list[int]] = list
    """Every process of the bot (its cgroup's), bubblewrap's included; empty without one."""
    oom_kills: Callable[[], int] = lambda: 0
    """How many of the bot's processes the kernel killed for passing its memory limit."""
    cpu_usec: Callable[[], int | None] = lambda: None
    """CPU time of the bot's processes so far, in µs, where the cgroup tells it."""


def launch_spec(manifest: BotManifest, limits: Limits) -> LaunchSpec:
    """The launch of `manifest`'s bot under `limits`: argv, working directory, environment."""
    asked = manifest_limits(manifest.extra.get("limits"), manifest.manifest_path)
    sandbox = showing_toolchain(manifest, limits.sandbox)
    launch = prepare(manifest.name, manifest.argv, manifest.folder, sandbox, asked)
    notes = [f"sandbox: {launch.mode}, as {launch.user} user", *launch.notes]
    return LaunchSpec(
        argv=launch.argv,
        cwd=manifest.folder,
        env=bot_environment(manifest, private_tmp=launch.mode == "bwrap"),
        after_start=launch.after_start,
        teardown=launch.teardown,
        notes=notes,
        pass_fds=launch.pass_fds,
        oom_kills=launch.oom_kills,
        cpu_usec=launch.cpu_usec,
        pids=launch.pids,
    )


PASSED_PREFIX = "ARENA_BOT_"
"""Variables of the arena's environment with this prefix reach every bot (for operators)."""


def bot_environment(manifest: BotManifest, private_tmp: bool) -> dict[str, str]:
    """The whole environment of a bot: a few basics, ARENA_BOT_* and the manifest's [env].

    Not the arena's own environment: it may hold secrets (tokens, keys) no bot should read.
    HOME and TMPDIR are the bot's private /tmp in bubblewrap, else its folder.
    """
    scratch = "/tmp" if private_tmp else str(manifest.folder)
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": scratch,
        "TMPDIR": scratch,
        "LANG": os.environ.get("LANG", "C.UTF-8"),
        # Python bots that forget to flush still work; bytecode stays out of bot folders.
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    toolchain = bot_toolchain(manifest)
    if toolchain is not None and toolchain.found:  # its PATH first, JAVA_HOME, caches...
        env.update(toolchain.env(manifest.folder))
    env.update((k, v) for k, v in os.environ.items() if k.startswith(PASSED_PREFIX))
    env.update(manifest.env)
    return env


def showing_toolchain(manifest: BotManifest, limits: SandboxLimits) -> SandboxLimits:
    """`limits` with the folders of the bot's toolchain shown read-only (toolchains.py):
    that toolchain's folder only, none for one under the system folders."""
    toolchain = bot_toolchain(manifest)
    if toolchain is None or not toolchain.found:
        return limits
    extra = [path for path in toolchain.shown if path not in limits.shown]
    return replace(limits, shown=(*limits.shown, *extra)) if extra else limits


def start_process(spec: LaunchSpec, stderr: int) -> subprocess.Popen[bytes]:
    """Start the process of `spec` in its own process group and session (killpg reaches all)."""
    try:
        process = subprocess.Popen(
            spec.argv,
            cwd=spec.cwd,
            env=spec.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            start_new_session=True,
            close_fds=True,
            pass_fds=spec.pass_fds,
            bufsize=0,
        )
    finally:
        for fd in spec.pass_fds:  # the child has its own copy now (or never will)
            with contextlib.suppress(OSError):
                os.close(fd)
    halting.started(process, spec.pids)  # a stopping server may end it (halting.halt)
    try:
        for hook in spec.after_start:
            hook(process.pid)
    except BaseException:  # the caller never gets the process: end it here, not leak it
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()
        raise
    return process
