"""`arena bench sandbox`: what each layer of the sandbox costs per bot start and per move.

Every mode starts the same bots through the real launch path (`launch_spec`, `BotProcess`):
`cat` (the start-up cost of the sandbox alone, and an echo round trip per move) and the
bundled `random` bot (a real Python bot's start, up to its `hello`). Beside them, the cost of
bubblewrap's allow-list view against plain bubblewrap (`--ro-bind / /`), in the same run.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import click

from arena import protocol
from arena.games import DEFAULT_GAME
from arena.players import sandbox
from arena.players.limits import SandboxLimits
from arena.players.manifest import BotManifest, default_bots_dir, load_manifest
from arena.players.process import BotProcess
from arena.players.stderr_log import StderrLog

MODES: dict[str, SandboxLimits] = {
    "plain": SandboxLimits(
        memory_mb=None, file_mb=None, open_files=None, processes=None, isolation="none",
        cgroups=False,
    ),
    "rlimits": SandboxLimits(isolation="none", cgroups=False),
    "rlimits+cgroup": SandboxLimits(isolation="none"),
    "unshare": SandboxLimits(isolation="unshare"),
    "bwrap": SandboxLimits(isolation="bwrap"),
}  # fmt: skip
"""From nothing to everything; each mode adds one layer (bwrap/unshare include the cgroup)."""


def _available(name: str, limits: SandboxLimits) -> bool:
    have = sandbox.probe()
    if limits.cgroups and not have.cgroups:
        return False
    return sandbox.isolation_mode(limits.isolation, have) == limits.isolation or (
        limits.isolation == "none"
    )


def _start(manifest: BotManifest, limits: SandboxLimits) -> BotProcess:
    from arena.players.launch import launch_spec
    from arena.players.limits import Limits

    spec = launch_spec(manifest, Limits(sandbox=limits))
    return BotProcess(spec, StderrLog(None, 1 << 16), 1 << 20)


def _measure_mode(
    limits: SandboxLimits, cat: BotManifest, bot: BotManifest, starts: int, moves: int
) -> dict[str, float]:
    start_ms: list[float] = []
    stop_ms: list[float] = []
    for _ in range(starts):
        began = time.perf_counter()
        process = _start(cat, limits)
        process.send(b"ping\n", time.monotonic() + 10)
        process.read_line(time.monotonic() + 10)
        start_ms.append((time.perf_counter() - began) * 1000)
        began = time.perf_counter()
        process.kill()
        stop_ms.append((time.perf_counter() - began) * 1000)
    process = _start(cat, limits)
    line = b'{"type": "decide", "view": {"hand": {"red": 2}}}\n'
    trips: list[float] = []
    for _ in range(moves):
        began = time.perf_counter()
        process.send(line, time.monotonic() + 10)
        process.read_line(time.monotonic() + 10)
        trips.append((time.perf_counter() - began) * 1e6)
    process.kill()
    hello = protocol.encode(protocol.hello(DEFAULT_GAME, 2))
    hello_ms: list[float] = []
    for _ in range(max(1, starts // 4)):
        began = time.perf_counter()
        process = _start(bot, limits)
        process.send(hello, time.monotonic() + 20)
        process.read_line(time.monotonic() + 20)
        hello_ms.append((time.perf_counter() - began) * 1000)
        process.kill()
    return {
        "start_ms": round(statistics.median(start_ms), 2),
        "teardown_ms": round(statistics.median(stop_ms), 2),
        "python_hello_ms": round(statistics.median(hello_ms), 1),
        "move_us": round(statistics.median(trips), 1),
    }


def _measure_build(builds: int) -> dict[str, Any]:
    """A build that does nothing (`true`) of a copy of the `random` bot, in the sandbox, and
    the part of it spent handing the folder to the build user and back (when root)."""
    from arena.players.build import build_bot
    from arena.players.sandbox.lease import BUILD_GID, BUILD_UID, lent_to_builder

    with tempfile.TemporaryDirectory(prefix="arena-bench-") as parent:
        folder = Path(parent) / "builder"
        shutil.copytree(default_bots_dir() / "random", folder)
        toml = folder / "bot.toml"
        toml.write_text(toml.read_text() + '\nbuild = ["true"]\n')
        bot = load_manifest(folder)
        build_ms, lease_ms = [], []
        for _ in range(builds):
            began = time.perf_counter()
            build_bot(bot, force=True)
            build_ms.append((time.perf_counter() - began) * 1000)
            lend = os.geteuid() == 0
            began = time.perf_counter()
            with lent_to_builder(folder, (BUILD_UID, BUILD_GID) if lend else None):
                pass
            lease_ms.append((time.perf_counter() - began) * 1000)
        files = sum(1 for _ in folder.rglob("*"))
    return {
        "build_ms": round(statistics.median(build_ms), 2),
        "lease_ms": round(statistics.median(lease_ms), 2),
        "files": files,
    }


def _measure_views(starts: int) -> dict[str, Any] | None:
    """A start of `true` under bubblewrap with the same namespaces, two views side by side
    (interleaved, so a loaded machine weighs on both alike): plain bubblewrap's `--ro-bind
    / /` (the host's whole filesystem, as the deny-list view began) and the allow-list
    view bots get (bubblewrap.py). None without bubblewrap."""
    from arena.players.sandbox.bubblewrap import bwrap_argv

    program = sandbox.probe().bwrap
    if program is None:
        return None
    true = shutil.which("true") or "/bin/true"
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as folder:
        allow = bwrap_argv(program, [true], Path(folder), SandboxLimits())
        head = allow[: allow.index("ALL") + 1]  # bwrap and its namespace options
        plain = [*head, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        plain += ["--tmpfs", "/tmp", "--ro-bind", folder, folder, "--chdir", folder, "--", true]
        views = {"plain": plain, "allow_list": allow}
        times: dict[str, list[float]] = {name: [] for name in views}
        for _ in range(starts):
            for name, argv in views.items():
                began = time.perf_counter()
                subprocess.run(argv, stdin=subprocess.DEVNULL, check=True)
                times[name].append((time.perf_counter() - began) * 1000)
    mounts = sum(1 for word in allow if word in ("--ro-bind", "--bind", "--tmpfs", "--symlink"))
    out: dict[str, Any] = {n: round(statistics.median(t), 2) for n, t in times.items()}
    out["allow_list_mounts"] = mounts
    return out


def measure(starts: int = 20, moves: int = 2000) -> dict[str, Any]:
    """Median costs of every mode this machine allows; missing modes are listed as such."""
    bot = load_manifest(default_bots_dir() / "random")
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as folder:
        cat = BotManifest(name="cat", folder=Path(folder), command=("cat",))
        for name, limits in MODES.items():
            if not _available(name, limits):
                results[name] = None
                continue
            results[name] = _measure_mode(limits, cat, bot, starts, moves)
    return {
        "starts": starts,
        "moves": moves,
        "modes": results,
        "views": _measure_views(starts),
        "build": _measure_build(max(1, starts // 4)),
        "report": sandbox.sandbox_report(),
    }


@click.command()
@click.option("--starts", default=20, show_default=True, help="Process starts per mode.")
@click.option("--moves", default=2000, show_default=True, help="Round trips per mode.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
def sandbox_bench(starts: int, moves: int, as_json: bool) -> None:
    """The cost of each sandbox layer: per bot start, per teardown, per move."""
    figures = measure(starts, moves)
    if as_json:
        click.echo(json.dumps(figures))
        return
    click.echo(f"sandbox benchmark: medians of {starts} starts and {moves} round trips per mode")
    click.echo(
        f"  {'mode':<16}{'start (cat)':>13}{'teardown':>11}{'hello (python)':>16}{'per move':>11}"
    )
    for name, row in figures["modes"].items():
        if row is None:
            click.echo(f"  {name:<16}{'not available on this machine':>51}")
            continue
        click.echo(
            f"  {name:<16}{row['start_ms']:>10.2f} ms{row['teardown_ms']:>8.2f} ms"
            f"{row['python_hello_ms']:>13.1f} ms{row['move_us']:>8.1f} us"
        )
    views = figures["views"]
    if views is not None:
        click.echo(
            f"  a start of `true` in bubblewrap by view: plain `--ro-bind / /` "
            f"{views['plain']:.2f} ms, the allow-list bots get ({views['allow_list_mounts']} "
            f"mounts) {views['allow_list']:.2f} ms: "
            f"{views['allow_list'] - views['plain']:+.2f} ms a start"
        )
    build = figures["build"]
    click.echo(
        f"  a build (`true`) in the sandbox: {build['build_ms']:.1f} ms, of which "
        f"{build['lease_ms']:.2f} ms hand its folder ({build['files']} files) to the "
        f"build user and back" + ("" if build["lease_ms"] else " (not root: nothing to hand over)")
    )
    for warning in figures["report"]["warnings"]:
        click.echo(f"  note: {warning}")
