"""A bot's build: its `build` command run once (per process) in its folder, in the sandbox
of a bot, the folder lent to the build user for the build only (sandbox/lease.py).

Step 3 of the one path from a bot folder to a playing process (ready.py): what the folder
holds right after the build that the arena refuses is handed to step 4, `ready.refuse`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO

from arena.errors import BotBuildError
from arena.players import halting
from arena.players.launch import bot_environment, showing_toolchain
from arena.players.limits import SandboxLimits
from arena.players.manifest import MANIFEST, BotManifest
from arena.players.sandbox.launch import Launch, prepare, program_problem
from arena.players.sandbox.lease import forbidden_entries, lent_to_builder
from arena.players.toolchains import toolchain_problem

BUILD_TIMEOUT_S = 600
_OUTPUT_TAIL = 2000
DISK_CHECK_S = 1.0
"""How often a build with a disk bound has its folder weighed while it runs."""

BUILD_LIMITS = SandboxLimits(memory_mb=4096, processes=256, file_mb=512, tmp_mb=512)
"""What a build may use: compilers need more than a playing bot; the same isolation holds."""

_built: set[tuple[Path, tuple[str, ...]]] = set()
"""(folder, build command) of each build done and passed in this process."""


def build_bot(
    bot: BotManifest,
    force: bool = False,
    *,
    limits: SandboxLimits = BUILD_LIMITS,
    timeout_s: float | None = None,
    disk_mb: int | None = None,
) -> list[str] | None:
    """Run the bot's build command once in its folder (per process); BotBuildError on failure.

    The build runs in the sandbox of a bot (players/sandbox): no network, the other bots and
    the results hidden, `limits` (a league's builds also have a CPU time: `cpu_s`), its own
    cgroup killed at the end so nothing it started survives, `timeout_s` (`BUILD_TIMEOUT_S`)
    at most, and with `disk_mb` stopped once its folder holds more (weighed every
    DISK_CHECK_S: a league's quota, which many files each under the largest file's limit
    would pass). Only its folder (and a private /tmp) is writable. Returns what the folder held
    right after the build that the arena refuses (setuid or setgid files, device nodes:
    found before the lease strips set-id bits), empty when none; None when no build ran. A
    build that left any is done again next time.
    """
    if bot.build is None or (not force and (bot.folder, bot.build) in _built):
        return None
    argv = bot.build_argv
    _check_program(bot, argv)
    limits = showing_toolchain(bot, limits)
    launch = prepare(f"build-{bot.name}", argv, bot.folder, limits, build=True)
    wall_s = BUILD_TIMEOUT_S if timeout_s is None else timeout_s
    used: list[tuple[int | None, int]] = []  # its cgroup's CPU µs and OOM kills, at the end
    launch.teardown.insert(0, lambda: used.append((launch.cpu_usec(), launch.oom_kills())))
    disk = None if disk_mb is None else disk_mb << 20
    code, output, forbidden = _lent_build(bot, launch, wall_s, disk)
    shown = " ".join(bot.build)
    if code is None:
        raise BotBuildError(
            f"Bot {bot.name!r} did not finish building within {wall_s:g} s (`{shown}`)."
        )
    if limits.cpu_s is not None and _out_of_cpu(code, used, limits.cpu_s):
        raise BotBuildError(
            f"Bot {bot.name!r} was stopped at {limits.cpu_s} s of CPU time, the most a build "
            f"may use here (`{shown}`); make the build lighter, or build it before submitting."
        )
    if code != 0:
        raise BotBuildError(
            f"Bot {bot.name!r} failed to build: `{shown}` exited with code {code} "
            f"in {bot.folder}; fix the source or `build` in {MANIFEST}. Its output:\n{output}"
        )
    if not forbidden:
        _built.add((bot.folder, bot.build))
    return forbidden


def _check_program(bot: BotManifest, argv: list[str]) -> None:
    """BotBuildError when the build's program is missing or cannot be run."""
    assert bot.build is not None
    missing = toolchain_problem(bot)
    if missing is not None:
        raise BotBuildError(missing)
    shown = " ".join(bot.build)
    problem = program_problem(argv, bot.folder)
    if problem is not None and "/" not in argv[0]:
        raise BotBuildError(
            f"Bot {bot.name!r} cannot be built: the program {bot.build[0]!r} of `{shown}` "
            f"was not found; install it or change `build` in {bot.manifest_path}."
        )
    if problem is not None:
        raise BotBuildError(
            f"Bot {bot.name!r} cannot be built: `{shown}` could not be run in {bot.folder} "
            f"({problem}); fix `build` in {bot.manifest_path}."
        )


def _lent_build(
    bot: BotManifest, launch: Launch, wall_s: float, disk: int | None = None
) -> tuple[int | None, str, list[str]]:
    """Run the prepared build with its folder lent to the build user: its exit code (None
    when out of time), the tail of its output, and what its folder holds that is refused;
    BotBuildError when its folder grew past `disk` bytes."""
    assert bot.build is not None
    try:
        with tempfile.TemporaryFile() as output, lent_to_builder(bot.folder, launch.builder):
            env = bot_environment(bot, private_tmp=launch.mode == "bwrap")
            code = _run_build(launch, bot, output, env, wall_s, disk)
            forbidden = forbidden_entries(bot.folder)  # before the lease strips set-id bits
            output.seek(0, os.SEEK_END)
            size = output.tell()
            output.seek(max(0, size - _OUTPUT_TAIL))
            text = output.read().decode("utf-8", "replace").strip()
    except OSError as error:  # e.g. a build script without its executable bit
        raise BotBuildError(
            f"Bot {bot.name!r} cannot be built: `{' '.join(bot.build)}` could not be run in "
            f"{bot.folder} ({error.strerror or error}); fix `build` in {bot.manifest_path}."
        ) from None
    return code, ("..." + text if size > _OUTPUT_TAIL else text), forbidden


def _out_of_cpu(code: int, used: list[tuple[int | None, int]], cpu_s: int) -> bool:
    """True when a build's exit `code` is the kill of RLIMIT_CPU (SIGKILL or SIGXCPU, as
    itself or through the shell's 128 + signal) and its cgroup, where it tells, used over half
    that CPU (its count runs a little behind the rlimit's) and lost nothing to its memory
    limit."""
    killed = {-signal.SIGKILL, -signal.SIGXCPU, 128 + signal.SIGKILL, 128 + signal.SIGXCPU}
    if code not in killed:
        return False
    cpu_usec, oom_kills = used[0] if used else (None, 0)
    return oom_kills == 0 and (cpu_usec is None or cpu_usec >= cpu_s * 500_000)


def _run_build(
    launch: Launch,
    bot: BotManifest,
    output: IO[bytes],
    env: dict[str, str],
    timeout_s: float,
    disk: int | None = None,
) -> int | None:
    """Run a prepared build launch; its exit code, or None when it ran out of time;
    BotBuildError when its folder grew past `disk` bytes.

    Whatever happens, its whole process group and cgroup are killed before this returns.
    """
    process = subprocess.Popen(
        launch.argv,
        cwd=bot.folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=output,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        pass_fds=launch.pass_fds,
    )
    halting.started(process, launch.pids)  # a stopping server may end it (halting.halt)
    try:
        for fd in launch.pass_fds:
            os.close(fd)
        for hook in launch.after_start:
            hook(process.pid)
        return _wait(process, bot, timeout_s, disk)
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        for teardown in launch.teardown:
            teardown()


def _wait(
    process: subprocess.Popen[bytes], bot: BotManifest, timeout_s: float, disk: int | None
) -> int | None:
    """The build's exit code, None when out of time; BotBuildError as soon as its folder is
    found holding more than `disk` bytes (weighed every DISK_CHECK_S)."""
    deadline = time.monotonic() + timeout_s
    while (left := deadline - time.monotonic()) > 0:
        try:
            return process.wait(left if disk is None else min(left, DISK_CHECK_S))
        except subprocess.TimeoutExpired:
            pass
        if disk is not None and folder_bytes(bot.folder) > disk:
            assert bot.build is not None
            raise BuildOverDisk(
                f"Bot {bot.name!r} was stopped while building (`{' '.join(bot.build)}`): its "
                f"folder held more than {disk >> 20} MiB, the most a version may hold here; "
                "build less, or leave out what the bot does not need to play."
            )
    return None


class BuildOverDisk(BotBuildError):
    """A build stopped because its folder grew past the bound it was given."""


def folder_bytes(folder: Path) -> int:
    """What a folder holds on disk, every entry counted (its size or its blocks, the larger),
    links not followed."""
    total = 0
    pending = [folder]
    while pending:
        try:
            entries = os.scandir(pending.pop())
        except OSError:
            continue
        with entries:
            for entry in entries:
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                total += max(info.st_size, info.st_blocks * 512)
                if stat.S_ISDIR(info.st_mode):
                    pending.append(Path(entry.path))
    return total
