"""The sandbox's pure parts: limits and their ceiling, the bubblewrap argv, the fallbacks."""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from arena.errors import BotManifestError
from arena.players import sandbox
from arena.players.limits import Limits, SandboxLimits, manifest_limits
from arena.players.manifest import load_manifest


def test_limits_have_defaults_and_live_in_the_referee_limits() -> None:
    limits = Limits()
    assert limits.sandbox.memory_mb == 1024
    assert limits.sandbox.isolation == "auto"
    assert limits.sandbox.rlimits()["RLIMIT_DATA"] == 1024 << 20
    assert "RLIMIT_AS" not in limits.sandbox.rlimits()  # it stops node and the JVM


@pytest.mark.parametrize(
    "changes", [{"isolation": "docker"}, {"memory_mb": 0}, {"processes": -1}, {"cpu_s": 1.5}]
)
def test_bad_sandbox_limits_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        SandboxLimits(**changes)  # type: ignore[arg-type]


def test_a_manifest_may_lower_limits_but_not_raise_them() -> None:
    ceiling = SandboxLimits(memory_mb=512, processes=64, cpu_s=None)
    lowered, notes = ceiling.lowered_by({"memory_mb": 128, "processes": 1000, "cpu_s": 30})
    assert lowered.memory_mb == 128
    assert lowered.processes == 64
    assert lowered.cpu_s == 30  # no ceiling: the bot's own wish is a limit
    assert notes == ["processes = 1000 asked in bot.toml; the tournament allows 64"]


def test_manifest_limits_are_checked_when_the_manifest_is_loaded(tmp_path: Path) -> None:
    (tmp_path / "bot.toml").write_text(
        'name = "x"\ncommand = ["./bot"]\n[limits]\nmemory_mb = 64\nopen_files = 32\n'
    )
    manifest = load_manifest(tmp_path)
    assert manifest_limits(manifest.extra["limits"], "bot.toml") == {
        "memory_mb": 64,
        "open_files": 32,
    }
    for table, sentence in [
        ({"memory_mb": True}, "positive whole number"),
        ({"memory_mb": -5}, "positive whole number"),
        ({"swap_mb": 5}, "unknown key `swap_mb`"),
        (5, "must be a table"),
    ]:
        with pytest.raises(BotManifestError, match=sentence):
            manifest_limits(table, "bot.toml")


def test_bubblewrap_shows_the_system_the_interpreter_and_the_bot_only(tmp_path: Path) -> None:
    folder = tmp_path / "bots" / "mine"
    folder.mkdir(parents=True)
    results = tmp_path / "results"
    limits = SandboxLimits(hidden=(str(results), str(folder / "inside")))
    argv = sandbox.bwrap_argv("bwrap", [sys.executable, "bot.py"], folder, limits)
    text = " ".join(argv)
    assert "--unshare-net" in argv and "--die-with-parent" in argv
    assert argv[argv.index("--cap-drop") + 1] == "ALL"
    assert "--ro-bind / /" not in text  # an allow-list: the view starts empty
    assert argv[argv.index("--chdir") - 2 :][:2] == ["--remount-ro", "/"]
    assert "--ro-bind /usr /usr" in text and f"--ro-bind {sys.base_prefix} " in text
    for host in ("/home", "/root", "/srv", "/var", "/opt", "/work"):
        assert f"--ro-bind {host} " not in text and f"--bind {host} " not in text
    # /tmp (which holds tmp_path) is private, so the bots folder is not shown; results neither
    assert "--tmpfs /tmp" in text and str(results) not in text
    assert f"--tmpfs {folder / 'inside'}" not in text  # never hide inside the bot's own folder
    triple = ["--ro-bind", str(folder), str(folder)]  # its own folder, read-only while it plays
    assert any(argv[i : i + 3] == triple for i in range(len(argv)))
    assert argv[argv.index("--chdir") + 1] == str(folder)
    assert argv[argv.index("--") + 1 :] == [sys.executable, "bot.py"]
    # the folders bubblewrap makes for the bind inside the private /tmp stay searchable
    made = [argv[i + 1] for i, word in enumerate(argv) if word == "--dir"]
    assert str(folder.parent) in made and "0700" not in argv


def _facilities(**changes: object) -> sandbox.Facilities:
    none = sandbox.Facilities(
        root=True,
        shell=True,
        bwrap=None,
        unshare=None,
        cgroup_v2=None,
        cgroup_v2_pids=False,
        cgroup_v1_pids=None,
    )
    return replace(none, **changes)  # type: ignore[arg-type]


def test_isolation_falls_back_to_what_the_machine_has() -> None:
    bare = _facilities()
    assert sandbox.isolation_mode("auto", bare) == "none"
    assert sandbox.isolation_mode("bwrap", bare) == "none"
    netns = _facilities(unshare=("unshare", "-n", "--"))
    assert sandbox.isolation_mode("auto", netns) == "unshare"
    assert sandbox.isolation_mode("bwrap", netns) == "unshare"
    full = _facilities(bwrap="/usr/bin/bwrap", unshare=("unshare", "-n", "--"))
    assert sandbox.isolation_mode("auto", full) == "bwrap"
    assert sandbox.isolation_mode("unshare", full) == "unshare"
    assert sandbox.isolation_mode("none", full) == "none"


def test_the_report_says_what_is_on_and_is_json() -> None:
    report = sandbox.sandbox_report()
    json.dumps(report)
    assert report["isolation"] in ("bwrap", "unshare", "none")
    assert report["network"] == ("on" if report["isolation"] == "none" else "off")
    for key in ("filesystem", "cgroup_kill", "process_limit", "rlimits", "warnings", "limits"):
        assert key in report
    off = sandbox.sandbox_report(SandboxLimits(isolation="none", cgroups=False))
    assert off["isolation"] == "none" and off["cgroup_kill"] == "off"


def test_a_missing_program_is_a_startup_error_with_the_fix(tmp_path: Path) -> None:
    from arena.errors import BotStartupError

    with pytest.raises(BotStartupError, match="check `command` in bot.toml"):
        sandbox.prepare("x", ["./nothing-here"], tmp_path, SandboxLimits())


def test_a_stale_group_another_arena_removes_meanwhile_is_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two arenas on one machine both clean up a dead arena's cgroup folder: the second finds
    it gone between listing and reading it (seen when two test runs overlapped)."""
    from arena.players.sandbox import cgroups

    base = tmp_path / "arena-999999999.1"
    (base / "g1").mkdir(parents=True)

    def removed_by_the_other_arena(pid: int, started: str | None) -> bool:
        shutil.rmtree(base)
        return False  # dead: stale

    monkeypatch.setattr(cgroups, "_alive", removed_by_the_other_arena)
    cgroups._remove_stale(tmp_path)
    assert not base.exists()
