"""Bot manifests (`bot.toml`): loading, discovering a folder of bots, building a bot once."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from arena.errors import BotBuildError, BotManifestError
from arena.names import name_key, name_problem
from arena.players.limits import SandboxLimits, manifest_limits

if TYPE_CHECKING:
    from arena.players.sandbox import Launch

MANIFEST = "bot.toml"
BUILD_TIMEOUT_S = 600
_PYTHONS = ("python3", "python")
_OUTPUT_TAIL = 2000


@dataclass(frozen=True)
class BotManifest:
    """A bot as declared by its `bot.toml`."""

    name: str
    """Unique across the field; used in records, tables and log file names."""
    folder: Path
    """The bot's folder (absolute); its working directory while it plays."""
    command: tuple[str, ...]
    """The argv that starts the bot, as written (see `argv` for what is run)."""
    build: tuple[str, ...] | None = None
    """The argv run once in the folder before play, or None."""
    description: str = ""
    language: str | None = None
    default: bool = True
    """False keeps the bot out of the default field of a tournament."""
    games: tuple[str, ...] | None = None
    """The games the bot is written for (`games = ["flowers"]`); None: every game. A
    tournament's default field holds only the bots written for its game."""
    env: dict[str, str] = field(default_factory=dict, compare=False)
    """The `[env]` table: variables set for the bot (and its build) besides the basics."""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    """Every other key of bot.toml (e.g. the [limits] table of the sandbox)."""

    @property
    def argv(self) -> list[str]:
        """The command to run: argv[0] python3/python is the arena's own interpreter."""
        return _resolve_python(self.command)

    @property
    def manifest_path(self) -> Path:
        return self.folder / MANIFEST


def _resolve_python(argv: tuple[str, ...]) -> list[str]:
    if argv and argv[0] in _PYTHONS:
        return [sys.executable, *argv[1:]]
    return list(argv)


def _argv(value: Any, key: str, path: Path) -> tuple[str, ...]:
    if isinstance(value, str):
        try:
            parts = shlex.split(value)
        except ValueError as error:
            raise BotManifestError(
                f"{path}: `{key}` cannot be split into words ({error})."
            ) from None
    elif isinstance(value, list) and all(isinstance(part, str) for part in value):
        parts = list(value)
    else:
        raise BotManifestError(
            f'{path}: `{key}` must be a list of strings such as ["python3", "bot.py"] or a string.'
        )
    if not parts:
        raise BotManifestError(f"{path}: `{key}` is empty; give the program to run.")
    return tuple(parts)


MAX_MANIFEST_BYTES = 64 << 10
"""The largest bot.toml read (it holds a few settings; tomllib takes ~1 ms a kB)."""
MAX_MANIFEST_DEPTH = 32
"""The deepest nesting of arrays and inline tables read (tomllib parses them by recursion)."""


def _read_toml(toml_path: Path) -> dict[str, Any]:
    """The table of `toml_path`, read with caps before tomllib sees it: its size and its
    nesting; BotManifestError when over them, unreadable or not TOML (never RecursionError)."""
    try:
        with toml_path.open("rb") as file:
            raw = file.read(MAX_MANIFEST_BYTES + 1)
    except OSError as error:
        raise BotManifestError(f"{toml_path} cannot be read ({error.strerror or error}).") from None
    if len(raw) > MAX_MANIFEST_BYTES:
        raise BotManifestError(
            f"{toml_path} is larger than {MAX_MANIFEST_BYTES >> 10} KiB; a {MANIFEST} holds a "
            "few settings (keep data in other files)."
        )
    too_deep = (
        f"{toml_path} nests arrays or tables more than {MAX_MANIFEST_DEPTH} deep; a "
        f"{MANIFEST} holds a few settings."
    )
    try:
        text = raw.decode("utf-8")
        if _toml_depth(text) > MAX_MANIFEST_DEPTH:
            raise BotManifestError(too_deep)
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise BotManifestError(f"{toml_path} is not valid TOML: {error}.") from None
    except RecursionError:  # a nesting the quick count missed
        raise BotManifestError(too_deep) from None


def _toml_depth(text: str) -> int:
    """The deepest nesting of `[` and `{` in TOML `text`, outside strings and comments (a
    quick count in one pass, without recursion)."""
    depth = deepest = at = 0
    while at < len(text):
        char = text[at]
        if char == "#":
            at = text.find("\n", at)
            if at < 0:
                break
        elif char in "\"'":
            quote = char * 3 if text.startswith(char * 3, at) else char
            at += len(quote)
            while at < len(text) and not text.startswith(quote, at):
                if len(quote) == 1 and text[at] == "\n":
                    break  # an unclosed one-line string: tomllib says so
                at += 2 if char == '"' and text[at] == "\\" else 1
            at += len(quote) - 1
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth = max(0, depth - 1)
        at += 1
    return deepest


def load_manifest(path: Path) -> BotManifest:
    """The manifest of a bot folder (or of a bot.toml path); BotManifestError when wrong."""
    path = Path(path)
    toml_path = path if path.name == MANIFEST and path.is_file() else path / MANIFEST
    if not toml_path.is_file():
        raise BotManifestError(
            f"{path} has no {MANIFEST}; a bot folder needs one (see bots/README.md)."
        )
    data = _read_toml(toml_path)
    name = data.pop("name", None)
    problem = name_problem(name, "`name`")  # the one rule of arena/names.py
    if problem is not None or not isinstance(name, str):
        raise BotManifestError(f"{toml_path}: {problem}")
    if "command" not in data:
        raise BotManifestError(f'{toml_path}: `command` is missing; e.g. command = ["./bot"].')
    command = _argv(data.pop("command"), "command", toml_path)
    build = data.pop("build", None)
    description = data.pop("description", "")
    language = data.pop("language", None)
    default = data.pop("default", True)
    if not isinstance(description, str):
        raise BotManifestError(f"{toml_path}: `description` must be a string.")
    if language is not None and not isinstance(language, str):
        raise BotManifestError(f"{toml_path}: `language` must be a string.")
    if not isinstance(default, bool):
        raise BotManifestError(f"{toml_path}: `default` must be true or false.")
    games = data.pop("games", None)
    if games is not None and not (
        isinstance(games, list) and games and all(isinstance(g, str) for g in games)
    ):
        raise BotManifestError(
            f'{toml_path}: `games` must be a list of game names such as ["flowers"].'
        )
    manifest_limits(data.get("limits"), toml_path)  # checked now, applied at launch
    env = data.pop("env", {})
    if not isinstance(env, dict) or not all(
        isinstance(key, str) and isinstance(value, str) for key, value in env.items()
    ):
        raise BotManifestError(
            f'{toml_path}: `env` must be a table of strings such as [env] JAVA_OPTS = "-Xmx256m".'
        )
    return BotManifest(
        name=name,
        folder=toml_path.parent.resolve(),
        command=command,
        build=None if build is None else _argv(build, "build", toml_path),
        description=description,
        language=language,
        default=default,
        games=None if games is None else tuple(games),
        env=env,
        extra=data,
    )


def plays(bot: BotManifest, game: str) -> bool:
    """True when `bot` is written for `game` (its manifest names no games, or this one)."""
    return bot.games is None or written_for(bot, game)


def written_for(bot: BotManifest, game: str) -> bool:
    """True when the bot's `games` names `game`: as it is, without its parameters
    (`openspiel:liars_dice` for `openspiel:liars_dice(numdice=2)`), or by its family
    (`openspiel` for every OpenSpiel game). A bot naming no games is written for none: a
    league admits only bots that say they play its game."""
    names = {game, game.partition("(")[0], game.partition(":")[0]}
    return bot.games is not None and not names.isdisjoint(bot.games)


def game_refusal(bot: BotManifest, game: str) -> str:
    """The sentence refusing `bot` at `game` it is not written for (`written_for`)."""
    wanted = json.dumps([*(bot.games or ()), game])
    if bot.games is None:
        return f"{bot.name}'s {MANIFEST} does not say it plays {game}: add games = {wanted} to it."
    return (
        f"{bot.name}'s {MANIFEST} says it plays {', '.join(bot.games)}, not {game}: if it plays "
        f"{game} too, say so with games = {wanted}."
    )


def game_warning(bot: BotManifest, game: str) -> str | None:
    """A sentence when `bot` is written for other games than `game`; None when it plays it."""
    if plays(bot, game):
        return None
    written = ", ".join(bot.games or ())
    return (
        f"{bot.name} is written for {written} (games in its bot.toml), not {game}: "
        "it may play badly."
    )


def discover_bots(directory: Path) -> list[BotManifest]:
    """Every bot in the subfolders of `directory` that have a bot.toml, sorted by name."""
    directory = Path(directory)
    if not directory.is_dir():
        raise BotManifestError(f"{directory} is not a folder of bots.")
    bots = [load_manifest(sub) for sub in sorted(directory.iterdir()) if (sub / MANIFEST).is_file()]
    seen: dict[str, BotManifest] = {}  # by name_key: `Greedy` and `greedy` are one name
    for bot in bots:
        twin = seen.get(name_key(bot.name))
        if twin is not None:
            raise BotManifestError(
                f"Two bots are named {bot.name!r} ({twin.folder} and {bot.folder}), whatever "
                "the case; give one of them another `name` in its bot.toml."
            )
        seen[name_key(bot.name)] = bot
    return sorted(bots, key=lambda bot: bot.name)


def default_bots_dir() -> Path:
    """`bots/` in the current folder if there is one, else the repository's own bots/."""
    here = Path("bots")
    if here.is_dir():
        return here
    return Path(__file__).resolve().parents[2] / "bots"


def resolve_bot(spec: str, bots_dir: Path | None = None) -> BotManifest:
    """A bot given as a folder path or as the name of a bot in `bots_dir`."""
    path = Path(spec)
    if (path / MANIFEST).is_file() or (path.name == MANIFEST and path.is_file()):
        return load_manifest(path)
    directory = bots_dir or default_bots_dir()
    if (directory / spec / MANIFEST).is_file():
        return load_manifest(directory / spec)
    known = discover_bots(directory) if directory.is_dir() else []
    for bot in known:
        if bot.name == spec:
            return bot
    names = ", ".join(bot.name for bot in known) or "none"
    raise BotManifestError(
        f"No bot {spec!r}: it is neither a folder with a {MANIFEST} nor a bot in {directory} "
        f"(known: {names})."
    )


_built: set[tuple[Path, tuple[str, ...]]] = set()


BUILD_LIMITS = SandboxLimits(memory_mb=4096, processes=256, file_mb=512, tmp_mb=512)
"""What a build may use: compilers need more than a playing bot; the same isolation holds."""


def build_bot(
    bot: BotManifest,
    force: bool = False,
    *,
    limits: SandboxLimits = BUILD_LIMITS,
    timeout_s: float | None = None,
) -> None:
    """Run the bot's build command once in its folder (per process); BotBuildError on failure.

    The build runs in the sandbox of a bot (players/sandbox): no network, the other bots and
    the results hidden, `limits` (a league's builds also have a CPU time: `cpu_s`), its own
    cgroup killed at the end so nothing it started survives, `timeout_s` (`BUILD_TIMEOUT_S`)
    at most. Only its folder (and a private /tmp) is writable.
    """
    if bot.build is None or (not force and (bot.folder, bot.build) in _built):
        return
    from arena.players import sandbox
    from arena.players.launch import bot_environment
    from arena.players.sandbox.lease import forbidden_entries, lent_to_builder

    argv = _resolve_python(bot.build)
    shown = " ".join(bot.build)
    problem = sandbox.program_problem(argv, bot.folder)
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
    launch = sandbox.prepare(f"build-{bot.name}", argv, bot.folder, limits, build=True)
    private_tmp = launch.mode == "bwrap"
    wall_s = BUILD_TIMEOUT_S if timeout_s is None else timeout_s
    used: list[tuple[int | None, int]] = []  # its cgroup's CPU µs and OOM kills, at the end
    launch.teardown.insert(0, lambda: used.append((launch.cpu_usec(), launch.oom_kills())))
    try:
        with tempfile.TemporaryFile() as output, lent_to_builder(bot.folder, launch.builder):
            code = _run_build(launch, bot, output, bot_environment(bot, private_tmp), wall_s)
            forbidden = forbidden_entries(bot.folder)  # before the lease strips set-id bits
            output.seek(0, os.SEEK_END)
            size = output.tell()
            output.seek(max(0, size - _OUTPUT_TAIL))
            text = output.read().decode("utf-8", "replace").strip()
    except OSError as error:  # e.g. a build script without its executable bit
        raise BotBuildError(
            f"Bot {bot.name!r} cannot be built: `{shown}` could not be run in {bot.folder} "
            f"({error.strerror or error}); fix `build` in {bot.manifest_path}."
        ) from None
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
        if size > _OUTPUT_TAIL:
            text = "..." + text
        raise BotBuildError(
            f"Bot {bot.name!r} failed to build: `{shown}` exited with code {code} "
            f"in {bot.folder}; fix the source or `build` in {MANIFEST}. Its output:\n{text}"
        )
    refuse_forbidden(bot, forbidden)
    _built.add((bot.folder, bot.build))


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


def refuse_forbidden(bot: BotManifest, forbidden: list[str] | None = None) -> None:
    """BotBuildError when the bot's folder holds setuid/setgid files or device nodes (found
    now, or `forbidden` as found right after its build): the arena will not run it."""
    from arena.players.sandbox.lease import forbidden_entries

    found = forbidden_entries(bot.folder) if forbidden is None else forbidden
    if found:
        shown = ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")
        raise BotBuildError(
            f"Bot {bot.name!r} cannot be run: its folder {bot.folder} holds {shown}, which "
            "the arena refuses; remove them (and whatever in the build made them)."
        )


def _run_build(
    launch: Launch, bot: BotManifest, output: IO[bytes], env: dict[str, str], timeout_s: float
) -> int | None:
    """Run a prepared build launch; its exit code, or None when it ran out of time.

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
    try:
        for fd in launch.pass_fds:
            os.close(fd)
        for hook in launch.after_start:
            hook(process.pid)
        try:
            return process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            return None
    finally:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        for teardown in launch.teardown:
            teardown()
