"""Issue 20.1: the sandbox's view holds wherever the arena is cloned.

A checkout in root's home, under /tmp, under /srv, under a path with a space, and a bots
folder given by `--bots` away from the checkout: each bot sees its own folder and the
arena's package, never the other bots nor the results, whatever the order and nesting of
the hidden folders. These run a real bubblewrap.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.errors import BotManifestError
from arena.players import sandbox
from arena.players.limits import SandboxLimits, manifest_limits
from arena.players.sandbox.bubblewrap import SANDBOX_UID, Mount, mount_plan

PROBE = """\
cat own.txt
cat ../other/secret.txt 2>/dev/null && echo "SAW ANOTHER BOT"
cat "$RESULTS/secret.txt" 2>/dev/null && echo "SAW THE RESULTS"
cat "$PACKAGE/__init__.py"
echo x > own.txt 2>/dev/null && echo "WROTE ITS FOLDER"
echo x > "$PACKAGE/x" 2>/dev/null && echo "WROTE THE PACKAGE"
exit 0
"""


def _bwrap() -> str:
    have = sandbox.probe()
    if sandbox.isolation_mode("bwrap", have) != "bwrap" or have.bwrap is None:
        pytest.skip("bubblewrap is not available here")
    return have.bwrap


def _user() -> tuple[str, int, int] | None:
    have = sandbox.probe()
    if have.root and have.setpriv is not None:
        return (have.setpriv, SANDBOX_UID, SANDBOX_UID)
    return None


@pytest.fixture
def home_base() -> Iterator[Path]:
    """A checkout's place in the home folder (root's, when the tests run as root)."""
    base = Path.home() / f".arena-test-{uuid.uuid4().hex[:8]}"
    yield base
    shutil.rmtree(base, ignore_errors=True)


def _checkout(base: Path, bots: Path | None = None) -> tuple[Path, Path, Path]:
    """(the bot's folder, the results, the package) of a checkout-like tree at `base`."""
    bots = bots or base / "bots"
    folder, other = bots / "probe", bots / "other"
    results, package = base / "results", base / "arena"
    for path in (folder, other, results, package):
        path.mkdir(parents=True)
    (folder / "own.txt").write_text("own\n")
    (folder / "probe.sh").write_text(PROBE)
    (other / "secret.txt").write_text("secret\n")
    (results / "secret.txt").write_text("secret\n")
    (package / "__init__.py").write_text("package\n")
    for path in [base, *base.rglob("*"), bots, *bots.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder, results, package


def _run(folder: Path, results: Path, package: Path, hidden: tuple[str, ...]) -> str:
    argv = sandbox.bwrap_argv(
        _bwrap(),
        ["/bin/sh", "probe.sh"],
        folder,
        SandboxLimits(hidden=hidden),
        user=_user(),
        shown=[Path(sys.prefix), Path(sys.base_prefix), package],
    )
    env = {"PATH": "/usr/bin:/bin", "RESULTS": str(results), "PACKAGE": str(package)}
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _assert_contained(out: str) -> None:
    assert out.splitlines()[:2] == ["own", "package"], out
    for breach in ("SAW ANOTHER BOT", "SAW THE RESULTS", "WROTE ITS FOLDER", "WROTE THE PACKAGE"):
        assert breach not in out


@pytest.mark.parametrize("place", ["home", "/tmp", "/srv", "/tmp/with space"])
def test_a_checkout_plays_in_the_sandbox_wherever_it_is(place: str, home_base: Path) -> None:
    if place == "home":
        base = home_base
    else:
        Path(place).mkdir(parents=True, exist_ok=True)
        base = Path(place) / f"arena-test-{uuid.uuid4().hex[:8]}"
    try:
        folder, results, package = _checkout(base)
        _assert_contained(_run(folder, results, package, (str(results),)))
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_a_bots_folder_elsewhere_than_the_checkout(home_base: Path) -> None:
    elsewhere = Path("/srv") / f"arena-bots-{uuid.uuid4().hex[:8]}"
    try:
        folder, results, package = _checkout(home_base, bots=elsewhere)
        _assert_contained(_run(folder, results, package, (str(results),)))
    finally:
        shutil.rmtree(elsewhere, ignore_errors=True)


def test_hidden_folders_nested_in_any_order_and_depth(home_base: Path) -> None:
    # root's home holds the checkout, which holds the bots and the results: every order
    folder, results, package = _checkout(home_base)
    nested = [str(Path.home()), str(home_base), str(folder.parent), str(results)]
    for order in itertools.permutations(nested):
        _assert_contained(_run(folder, results, package, order))


def test_the_mount_plan_mounts_the_outer_before_the_inner(tmp_path: Path) -> None:
    # shown a, hidden a/b inside it, shown a/b/c/d inside that, hidden a/b/c/d/e inside that
    shown, hidden = tmp_path / "a", tmp_path / "a" / "b"
    deep, deeper = hidden / "c" / "d", hidden / "c" / "d" / "e"
    bot = tmp_path / "bot"
    deeper.mkdir(parents=True)
    bot.mkdir()
    for hides in itertools.permutations([tmp_path, hidden, deeper]):
        for shows in itertools.permutations([shown, deep]):
            plan = mount_plan(
                [Mount(p, hide=True) for p in hides],
                [*(Mount(p, hide=False) for p in shows), Mount(bot, hide=False)],
                keep_visible=bot,
            )
            text = " ".join(plan)
            order = [
                f"--ro-bind {shown} ",
                f"--tmpfs {hidden} ",
                f"--ro-bind {deep} ",
                f"--tmpfs {deeper} ",
            ]
            assert [text.index(step) for step in order] == sorted(
                text.index(step) for step in order
            )
            assert f"--tmpfs {tmp_path} " not in text  # not in the view: nothing to hide
            assert f"--ro-bind {bot} {bot}" in text  # its own folder, always
            made = [plan[i + 1] for i, word in enumerate(plan) if word == "--dir"]
            assert str(hidden / "c") in made and str(tmp_path) in made  # searchable, on the way
            remounted = [plan[i + 1] for i, word in enumerate(plan) if word == "--remount-ro"]
            assert remounted == [str(hidden), str(deeper)]


def test_a_runtime_outside_the_system_is_shown_by_the_tournament_only() -> None:
    """Issue 31.2: /opt, /srv and the homes are not in a bot's view; a runtime there is
    shown when the tournament's configuration lists it (`SandboxLimits.shown`), never by a
    bot.toml."""
    runtime = Path("/srv") / f"arena-runtime-{uuid.uuid4().hex[:8]}"
    folder = Path("/srv") / f"arena-bot-{uuid.uuid4().hex[:8]}"
    try:
        (runtime / "bin").mkdir(parents=True)
        folder.mkdir()
        (runtime / "bin" / "tool").write_text("#!/bin/sh\necho runtime\n")
        for path in (runtime, runtime / "bin", folder):
            path.chmod(0o755)
        (runtime / "bin" / "tool").chmod(0o755)
        argv = ["/bin/sh", "-c", f"{runtime}/bin/tool || echo missing"]

        def run(limits: SandboxLimits) -> str:
            command = sandbox.bwrap_argv(_bwrap(), argv, folder, limits, user=_user())
            done = subprocess.run(command, capture_output=True, text=True, timeout=30)
            return done.stdout.strip()

        assert run(SandboxLimits()) == "missing"
        assert run(SandboxLimits(shown=(str(runtime),))) == "runtime"
        with pytest.raises(BotManifestError, match="unknown key `shown`"):
            manifest_limits({"shown": [str(runtime)]}, "bot.toml")
        for wrong in ("/", "opt/x", "//"):
            with pytest.raises(ValueError, match="absolute folders other than /"):
                SandboxLimits(shown=(wrong,))
    finally:
        shutil.rmtree(runtime, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_bot_left_as_root_cannot_read_what_others_may_not_under_etc(tmp_path: Path) -> None:
    """A folder others may not enter runs its bot as root without capabilities: owner bits
    still let root read /etc/shadow (0640), so /etc's entries others may not read are
    hidden from every bot."""
    _bwrap()
    if os.geteuid() != 0 or not Path("/etc/shadow").exists():
        pytest.skip("needs root and /etc/shadow")
    argv = ["/bin/sh", "-c", "cat /etc/shadow >/dev/null 2>&1 && echo READ || echo DENIED"]
    command = sandbox.bwrap_argv(_bwrap(), argv, tmp_path, SandboxLimits())  # no user switch
    done = subprocess.run(command, capture_output=True, text=True, timeout=30)
    assert done.stdout.strip() == "DENIED", done.stderr


def test_a_program_named_by_an_absolute_path_opens_no_folder(home_base: Path) -> None:
    """A bot.toml chooses its command: one naming a program in another bot's folder by an
    absolute path must not have that folder shown to it (nor to its build)."""
    folder, _, _ = _checkout(home_base)
    other = folder.parent / "other"
    (other / "tool").write_text('#!/bin/sh\ncat "$(dirname "$0")/secret.txt"\n')
    (other / "tool").chmod(0o755)
    for writable in (False, True):
        argv = sandbox.bwrap_argv(
            _bwrap(), [str(other / "tool")], folder, SandboxLimits(), user=_user(),
            writable=writable,
        )  # fmt: skip
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
        assert "secret" not in done.stdout and done.returncode != 0
