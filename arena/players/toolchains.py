"""A language's toolchain as found on this machine, and what the sandbox shows of it.

The program of a language (languages.py) is looked for on the PATH, then where installers
put it (`Language.places`). A proxy is followed to the real program: rustup's (`cargo` is
rustup under another name: `rustup which cargo`), a version manager's shim (`pyenv which
python3`, asdf, rbenv, nodenv, goenv, mise), a symbolic link (SDKMAN's `current`,
/etc/alternatives). The toolchain's folder is the real program's `bin/`'s parent; the
sandbox shows it read-only, and nothing else of the host: never a whole home folder (a
toolchain whose folder is one, or holds one, is refused with the reason), nothing for a
toolchain under the system folders the sandbox shows anyway (/usr).

Found once per process (`find_toolchain` is cached): a toolchain installed while a league
runs is seen after its restart.
"""

from __future__ import annotations

import functools
import glob
import os
import pwd
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from arena.players.languages import Language, language_named, language_of_program
from arena.players.manifest import BotManifest
from arena.players.sandbox.bubblewrap import SYSTEM_FOLDERS

PROXY_TIMEOUT_S = 10.0
"""The longest a proxy (`rustup which`, `pyenv which`) may take to name the real program."""
VERSION_TIMEOUT_S = 30.0
"""The longest a version command may take (a JVM compiler starts slowly)."""

SHIM_MANAGERS = {
    ".asdf": "asdf",
    ".pyenv": "pyenv",
    ".rbenv": "rbenv",
    ".nodenv": "nodenv",
    ".goenv": "goenv",
    ".jenv": "jenv",
    "mise": "mise",
}
"""A shims folder's parent's name -> the version manager that names the real program."""
RUSTUP = "rustup"
"""rustup's proxies (cargo, rustc) are rustup itself under another name, beside it."""


@dataclass(frozen=True)
class Toolchain:
    """A language's toolchain on this machine, or why there is none."""

    language: Language
    program: Path | None = None
    """The real program (proxies followed), None when not found."""
    folder: Path | None = None
    """The toolchain's folder (the real program's `bin/`'s parent)."""
    via: str = ""
    """How it was found: `PATH`, `rustup`, `pyenv`, or the place it was found in."""
    problem: str | None = None
    """Why it cannot be used, one sentence, None when it can."""
    needed: tuple[Toolchain, ...] = field(default=(), compare=False)
    """The toolchains of `Language.needs` (Kotlin's Java)."""

    @property
    def found(self) -> bool:
        return self.problem is None and all(other.found for other in self.needed)

    @property
    def shown(self) -> tuple[str, ...]:
        """The folders the sandbox shows read-only for it (none under the system folders)."""
        hidden = self.folder is None or self.problem is not None or _in_system(self.folder)
        own = () if hidden else (str(self.folder),)
        return tuple(dict.fromkeys([*own, *(p for t in self.needed for p in t.shown)]))

    @property
    def paths(self) -> list[str]:
        """Its program's folders, to put first on the PATH (the needed ones' after)."""
        own = [] if self.program is None else [str(self.program.parent)]
        return list(dict.fromkeys([*own, *(p for t in self.needed for p in t.paths)]))

    def env(self, folder: Path | None) -> dict[str, str]:
        """The variables its builds and bots need, for a bot in `folder` (PATH first);
        None: only those that name no bot's folder (its caches)."""
        out: dict[str, str] = {}
        for other in self.needed:
            out.update(other.env(folder))
        values = {"folder": str(folder), "toolchain": str(self.folder or "")}
        out.update(
            (key, value.format(**values))
            for key, value in self.language.env.items()
            if folder is not None or "{folder}" not in value
        )
        out["PATH"] = os.pathsep.join([*self.paths, os.environ.get("PATH", os.defpath)])
        return out

    @property
    def failure(self) -> str | None:
        """Why it cannot be used (its own problem or a needed one's), None when it can."""
        for toolchain in (self, *self.needed):
            if toolchain.problem is not None:
                return toolchain.problem
        return None


@functools.cache
def find_toolchain(key: str) -> Toolchain:
    """The toolchain of the language named `key` on this machine (cached per process)."""
    language = language_named(key)
    if language is None:
        raise KeyError(key)
    needed = tuple(find_toolchain(other) for other in language.needs)
    for candidate, via in _candidates(language):
        real, how = _real_program(candidate, language.program)
        if real is None:
            continue
        folder = real.parent.parent if real.parent.name == "bin" else real.parent
        problem = _folder_problem(language, folder)
        return Toolchain(language, real, folder, how or via, problem, needed)
    looked = ", ".join([f"{language.program} on the PATH", *language.places])
    problem = (
        f"no {language.name} toolchain was found on this machine (looked for {looked}): "
        f"install it with `{language.install}`"
    )
    return Toolchain(language, problem=problem, needed=needed)


def _candidates(language: Language) -> list[tuple[Path, str]]:
    """Where `language.program` may be: on the PATH first, then its places (newest first)."""
    out: list[tuple[Path, str]] = []
    on_path = shutil.which(language.program)
    if on_path is not None:
        out.append((Path(on_path), "PATH"))
    for place in language.places:
        pattern = os.path.expanduser(place)
        for path in sorted(glob.glob(pattern), reverse=True):
            if os.path.isfile(path) and os.access(path, os.X_OK):
                out.append((Path(path), place))
    return out


def _real_program(path: Path, program: str) -> tuple[Path | None, str]:
    """The real program behind `path` (a proxy or shim followed), and which manager named
    it (empty when none did); None when the proxy names none."""
    manager: str | None = None
    if Path(os.path.realpath(path)).name == RUSTUP or (path.parent / RUSTUP).is_file():
        manager = str(path.parent / RUSTUP)
    elif path.parent.name == "shims" and path.parent.parent.name in SHIM_MANAGERS:
        name = SHIM_MANAGERS[path.parent.parent.name]
        own = path.parent.parent / "bin" / name
        manager = str(own) if own.is_file() else shutil.which(name)
    if manager is None:
        return Path(os.path.realpath(path)), ""
    try:
        named = subprocess.run(
            [manager, "which", program],
            capture_output=True,
            text=True,
            timeout=PROXY_TIMEOUT_S,
            check=False,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None, ""
    if not named or not os.path.isfile(named):
        return None, ""
    return Path(os.path.realpath(named)), Path(manager).name


def _folder_problem(language: Language, folder: Path) -> str | None:
    """Why the sandbox may not show `folder` for `language`, or None when it may."""
    if _in_system(folder):
        return None
    homes = _homes()
    if len(folder.parts) <= 2 or any(_inside(home, folder) for home in homes):
        return (
            f"the {language.name} toolchain's folder {folder} is a home folder or holds one, "
            "which the sandbox never shows bots: install it in a folder of its own"
        )
    if os.geteuid() == 0 and folder.stat().st_mode & 0o005 != 0o005:
        return (
            f"the {language.name} toolchain's folder {folder} is not readable by other users, "
            f"as which bots build and run: `chmod -R o+rX {folder}`"
        )
    return None


def _in_system(folder: Path) -> bool:
    return any(_inside(folder, Path(top)) for top in SYSTEM_FOLDERS if not os.path.islink(top))


def _inside(path: Path, folder: Path) -> bool:
    return path.parts[: len(folder.parts)] == folder.parts


@functools.cache
def _homes() -> tuple[Path, ...]:
    """Every user's home folder (and the arena user's), real paths."""
    found = {Path(os.path.realpath(Path.home()))}
    for entry in pwd.getpwall():
        if entry.pw_dir and entry.pw_dir != "/":
            found.add(Path(os.path.realpath(entry.pw_dir)))
    return tuple(found)


def bot_language(bot: BotManifest) -> Language | None:
    """The language of `bot`: the one its bot.toml names, else the one its build's program
    (or, without a build, its command's) means; None when neither is known."""
    named = None if bot.language is None else language_named(bot.language)
    if named is not None:
        return named
    argv = bot.build or bot.command
    return language_of_program(argv[0]) if argv else None


def bot_toolchain(bot: BotManifest) -> Toolchain | None:
    """The toolchain `bot` builds or runs with, None when it needs none known here (its
    language is unknown, or without a build it runs a program of its own folder or the
    arena's own Python, shown anyway)."""
    language = bot_language(bot)
    if language is None or (bot.build is None and "/" in bot.command[0]):
        return None
    if bot.build is None and bot.argv[0] == sys.executable:  # python3: the arena's own
        return None
    return find_toolchain(language.key)


def toolchain_problem(bot: BotManifest) -> str | None:
    """One sentence when `bot`'s toolchain is missing or cannot be shown, else None."""
    toolchain = bot_toolchain(bot)
    failure = None if toolchain is None else toolchain.failure
    if toolchain is None or failure is None:
        return None
    return f"Bot {bot.name!r} is written in {toolchain.language.name}, but {failure}."


def league_refusal(bot: BotManifest) -> str | None:
    """The sentence a league answers a submission it cannot build or run, else None."""
    toolchain = bot_toolchain(bot)
    if toolchain is None or toolchain.found:
        return None
    name = toolchain.language.name
    return (
        f"This league cannot build or run {name} bots: its machine has no usable {name} "
        "toolchain (GET /api/languages lists the languages it builds)."
    )


@functools.cache
def toolchain_version(key: str) -> str:
    """The first line the language's version command prints, or why it printed none."""
    toolchain = find_toolchain(key)
    if not toolchain.found:
        return ""
    env = {**os.environ, **toolchain.env(None)}  # its PATH, JAVA_HOME...
    try:
        result = subprocess.run(
            list(toolchain.language.version),
            capture_output=True,
            text=True,
            env=env,
            timeout=VERSION_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as error:
        return f"(no version: {error})"
    lines = [line.strip() for line in (result.stdout + result.stderr).splitlines()]
    first = next((line for line in lines if line and "warning" not in line.lower()), "")
    return first[:100] or f"(no version: exit code {result.returncode})"
