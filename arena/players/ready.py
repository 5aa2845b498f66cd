"""The one path from a bot folder to a playing process, five steps in this order:

1. `read`: the bot's manifest, its bot.toml (manifest.py);
2. `fingerprint`: the hash of its source files, before its build changes them (bot_files.py);
3. `build`: its build command, run once in the sandbox with its folder lent to the build
   user (build.py, sandbox/lease.py);
4. `refuse`: what may not run refused: setuid or setgid files and device nodes in its folder,
   a program that cannot be run;
5. `launch`: its process's launch in the sandbox (launch.py, sandbox/launch.py).

`arena run` (run_setup.py: 1, 2; tournament.py: 1, 3, 4; each worker's `Player`: 5), `arena
check` (conformance.py: 3 and 4 for a bot with a build and for its opponent; `Player`: 5),
the league (league.py: 1, 2 at a submission; checking.py: 3 and the first half of 4 in its
check, the sandbox refusing a missing program at 5; its workers: 5) and its remote workers
(remote.py: 3 and 4 as its check takes them, under the league's build limits and disk quota;
5) take these steps, each where it needs it, in this order. Each step
calls down into its own room (a module below this one), and none calls back up.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from arena.errors import BotBuildError, BotManifestError
from arena.players.bot_files import DEFAULT_BOT_SIZE_MB, bot_hash
from arena.players.build import BUILD_LIMITS, build_bot
from arena.players.launch import LaunchSpec, launch_spec
from arena.players.limits import Limits, SandboxLimits
from arena.players.manifest import BotManifest, load_manifest
from arena.players.sandbox.launch import program_problem
from arena.players.sandbox.lease import forbidden_entries
from arena.players.toolchains import toolchain_problem


def read(folder: Path) -> BotManifest:
    """Step 1: the manifest of the bot in `folder` (or of a bot.toml path);
    BotManifestError when wrong."""
    return load_manifest(folder)


def fingerprint(folder: Path, cap_mb: int = DEFAULT_BOT_SIZE_MB) -> str:
    """Step 2: the hash of the source files of the bot in `folder`; BotManifestError past
    `cap_mb` MiB."""
    return bot_hash(folder, cap_mb)


def build(
    bot: BotManifest,
    force: bool = False,
    *,
    limits: SandboxLimits = BUILD_LIMITS,
    timeout_s: float | None = None,
    disk_mb: int | None = None,
) -> list[str] | None:
    """Step 3: the bot built (once per process, unless `force`), its folder lent to the
    build user; BotBuildError when it fails (or its folder grows past `disk_mb`). Returns
    what the folder held right after the build that step 4 refuses, None when no build ran
    (build.build_bot)."""
    return build_bot(bot, force, limits=limits, timeout_s=timeout_s, disk_mb=disk_mb)


def refuse(bot: BotManifest, found: list[str] | None = None) -> None:
    """Step 4: BotBuildError when the bot's folder holds what the arena will not run (`found`
    by its build, else, None, looked for now); BotManifestError when its program cannot be
    run."""
    refuse_forbidden(bot, found)
    check_command(bot)


def launch(bot: BotManifest, limits: Limits) -> LaunchSpec:
    """Step 5: the launch of the bot's process in the sandbox, under `limits`."""
    return launch_spec(bot, limits)


def refuse_forbidden(bot: BotManifest, found: list[str] | None = None) -> None:
    """The first half of step 4: BotBuildError when the bot's folder holds setuid/setgid
    files or device nodes (`found` right after its build, else, None, found now)."""
    if found is None:
        found = forbidden_entries(bot.folder)
    if found:
        shown = ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")
        raise BotBuildError(
            f"Bot {bot.name!r} cannot be run: its folder {bot.folder} holds {shown}, which "
            "the arena refuses; remove them (and whatever in the build made them)."
        )


def check_command(bot: BotManifest) -> None:
    """The second half of step 4, after the build: BotManifestError if the bot's program
    cannot be run (its language's toolchain missing: that, in one sentence)."""
    missing = toolchain_problem(bot)
    if missing is not None:
        raise BotManifestError(missing)
    problem = program_problem(bot.argv, bot.folder)
    if problem is not None:
        raise BotManifestError(
            f"Bot {bot.name!r} cannot start: its program {bot.command[0]!r} "
            f"({problem.lower()}) in {bot.folder}; fix `command` in {bot.manifest_path}."
        )


def make_ready(bot: BotManifest, *, force_build: bool = False) -> None:
    """Steps 3 and 4: build `bot` and refuse what may not run; BotBuildError or
    BotManifestError with the sentence to show when it cannot (`arena play` and `arena
    check` stop there)."""
    refuse(bot, build(bot, force=force_build))


def unready(bots: Iterable[BotManifest]) -> dict[str, str]:
    """Steps 3 and 4 for each bot of a tournament field: those that cannot be made ready,
    with why (the whole build output included): they lose their games with
    `startup_failure`, the others play."""
    broken: dict[str, str] = {}
    for bot in {bot.name: bot for bot in bots}.values():
        try:
            make_ready(bot)
        except (BotBuildError, BotManifestError) as error:
            broken[bot.name] = str(error)
    return broken
