"""The limits a bot plays under: time and output (`Limits`), resources and isolation (`SandboxLimits`).

The tournament configuration holds one `SandboxLimits` (inside `Limits.sandbox`): it
is the ceiling. A bot's `bot.toml` may ask for *lower* limits in a `[limits]` table, never
higher: a value above the ceiling is cut down to the ceiling (and the cut is noted in the
bot's stderr log), so a manifest cannot buy itself more memory than its opponents.

```toml
[limits]
memory_mb = 256     # RLIMIT_DATA: heap and data, not address space (node and the JVM start)
cpu_s = 600         # RLIMIT_CPU over the process's life (it persists across games)
file_mb = 16        # RLIMIT_FSIZE: the largest file it may write
open_files = 64     # RLIMIT_NOFILE
processes = 16      # pids cgroup: processes and threads, the bot's own included
```
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from arena.errors import BotManifestError
from arena.players.bot_files import DEFAULT_BOT_SIZE_MB

ISOLATION_MODES = ("auto", "bwrap", "unshare", "none")
"""`auto` takes the strongest mode this machine allows (bwrap, then unshare, then none)."""

MANIFEST_KEYS = ("memory_mb", "cpu_s", "file_mb", "open_files", "processes")
"""The keys a bot.toml `[limits]` table may hold."""


@dataclass(frozen=True)
class SandboxLimits:
    """What one bot process may use, and how it is isolated. None means no limit."""

    memory_mb: int | None = 1024
    """Memory in MiB: of the bot's whole process tree (a memory cgroup, where there is one),
    and RLIMIT_DATA of each process (RLIMIT_AS would stop node and the JVM from starting)."""
    cpu_s: int | None = None
    """RLIMIT_CPU in seconds over the process's whole life; off by default because a bot
    process persists across games, and the move clock already bounds thinking."""
    file_mb: int | None = 64
    """RLIMIT_FSIZE in MiB: the largest file the bot may write."""
    open_files: int | None = 1024
    """RLIMIT_NOFILE: open file descriptors per process."""
    processes: int | None = 128
    """pids.max of the bot's cgroup: processes and threads (the JVM needs a few dozen)."""
    isolation: str = "auto"
    """One of ISOLATION_MODES; a mode the machine lacks falls back with a warning."""
    cgroups: bool = True
    """Put each bot process in its own cgroup (kills escaped grandchildren, bounds forks)."""
    tmp_mb: int = 64
    """Size of the private /tmp under bubblewrap."""
    hidden: tuple[str, ...] = ()
    """Paths bots must not see (the results, the other bots' folders). Under bubblewrap a
    bot sees only what is shown, so these matter where a shown folder holds them; the
    folder holding the bot's own (the other bots) is always hidden."""
    shown: tuple[str, ...] = ()
    """Extra folders bubblewrap shows bots read-only, for a runtime outside the system's
    folders (e.g. under /opt or a home); set by the tournament, never by a bot.toml."""

    def __post_init__(self) -> None:
        if self.isolation not in ISOLATION_MODES:
            raise ValueError(
                f"isolation must be one of {', '.join(ISOLATION_MODES)}, not {self.isolation!r}."
            )
        for key in MANIFEST_KEYS:
            value = getattr(self, key)
            if value is not None and (not isinstance(value, int) or value <= 0):
                raise ValueError(f"{key} must be a positive integer or None, not {value!r}.")
        for path in self.shown:
            if not isinstance(path, str) or not path.startswith("/") or path.strip("/") == "":
                raise ValueError(f"shown must hold absolute folders other than /, not {path!r}.")

    def lowered_by(self, asked: Mapping[str, int]) -> tuple[SandboxLimits, list[str]]:
        """These limits lowered by a manifest's `[limits]`; also the notes on values cut down."""
        changes: dict[str, Any] = {}
        notes: list[str] = []
        for key, value in asked.items():
            ceiling = getattr(self, key)
            if ceiling is not None and value > ceiling:
                notes.append(f"{key} = {value} asked in bot.toml; the tournament allows {ceiling}")
                continue
            changes[key] = value
        return replace(self, **changes), notes

    def rlimits(self) -> dict[str, int]:
        """The resource limits to set, by `resource` name, in the kernel's units."""
        out: dict[str, int] = {}
        if self.memory_mb is not None:
            out["RLIMIT_DATA"] = self.memory_mb << 20
        if self.cpu_s is not None:
            out["RLIMIT_CPU"] = self.cpu_s
        if self.file_mb is not None:
            out["RLIMIT_FSIZE"] = self.file_mb << 20
        if self.open_files is not None:
            out["RLIMIT_NOFILE"] = self.open_files
        return out

    def to_json(self) -> dict[str, Any]:
        """JSON-friendly form for the configuration snapshot of a run."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["hidden"] = list(self.hidden)
        data["shown"] = list(self.shown)
        return data


def manifest_limits(table: Any, where: Path | str) -> dict[str, int]:
    """The `[limits]` table of a bot.toml, checked; BotManifestError with the fix when wrong."""
    if table is None:
        return {}
    if not isinstance(table, dict):
        raise BotManifestError(
            f"{where}: `limits` must be a table such as [limits] memory_mb = 256."
        )
    out: dict[str, int] = {}
    for key, value in table.items():
        if key not in MANIFEST_KEYS:
            raise BotManifestError(
                f"{where}: unknown key `{key}` in [limits]; the known keys are "
                f"{', '.join(MANIFEST_KEYS)}."
            )
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise BotManifestError(
                f"{where}: [limits] {key} must be a positive whole number, not {value!r}."
            )
        out[key] = value
    return out


@dataclass(frozen=True)
class Limits:
    """The limits a bot plays under."""

    move_ms: int = 1000
    """Time for one decision, from sending the request until the reply's newline arrives."""
    time_bank_ms: int = 0
    """Extra time per game; time over `move_ms` is taken from it until it is spent."""
    cpu_ms: int | None = None
    """CPU time per decision (the bot's cgroup's, all its processes), where it can be
    measured: fair on a loaded machine, where wall time also counts the waiting. None: off.
    The wall-clock `move_ms` still holds; set it generously beside this."""
    startup_ms: int = 10000
    """Time to start the process and answer `hello`."""
    line_cap: int = 1 << 20
    """The longest line a bot may write, in bytes; longer is `oversized_output`."""
    grace_ms: int = 1000
    """After `goodbye`, how long the bot may take to exit before its process group is killed."""
    stderr_cap: int = 1 << 20
    """The most a bot's stderr log file receives over the player's life, in bytes."""
    bot_size_mb: int = DEFAULT_BOT_SIZE_MB
    """The most a bot's source files (what its hash reads: build outputs and hidden files
    left out) may total, in MiB; a bigger bot is refused before the tournament starts."""
    sandbox: SandboxLimits = field(default_factory=SandboxLimits)
    """Resource limits (the ceiling a bot.toml may lower) and isolation: players/limits.py."""

    def hiding(self, *paths: Path | str) -> Limits:
        """These limits with `paths` hidden from bots too (results, the other bots' folders;
        a bot's own folder is never hidden from it)."""
        shown = [str(Path(path).resolve()) for path in paths]
        hidden = (*self.sandbox.hidden, *(p for p in shown if p not in self.sandbox.hidden))
        return replace(self, sandbox=replace(self.sandbox, hidden=hidden))


def limits_from_json(data: Mapping[str, Any]) -> Limits:
    """`Limits` from its JSON snapshot (nested limits included; unknown keys are ignored,
    missing ones take their defaults)."""
    limits: Limits = _rebuild(Limits(), data)
    return limits


def _rebuild(default: Any, data: Mapping[str, Any]) -> Any:
    changes = {}
    for item in dataclasses.fields(default):
        if item.name not in data:
            continue
        value = data[item.name]
        current = getattr(default, item.name)
        if dataclasses.is_dataclass(current) and isinstance(value, Mapping):
            value = _rebuild(current, value)
        elif isinstance(current, tuple) and isinstance(value, list):
            value = tuple(value)
        changes[item.name] = value
    return dataclasses.replace(default, **changes)
