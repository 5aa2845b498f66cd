"""Issue 9: a bot's build runs in the sandbox, not as the referee with its whole machine.

The build below tries what a hostile build would: write outside its folder, reach the
network, leave a daemon running. Only the write into its own folder may succeed.
"""

from __future__ import annotations

import os
import socket
import stat
import time
import uuid
from pathlib import Path

import pytest

from arena.errors import BotBuildError
from arena.players import sandbox
from arena.players.build import build_bot
from arena.players.manifest import load_manifest
from arena.players.ready import make_ready
from arena.players.sandbox import lease

BUILD = """#!/bin/sh
echo built > built.txt
echo escaped > {outside} 2>/dev/null && echo "WROTE OUTSIDE"
python3 -c "import socket; socket.create_connection(('127.0.0.1', {port}), 1)" 2>/dev/null \\
    && echo "REACHED THE NETWORK"
setsid sh -c 'exec -a {marker} sleep 300' >/dev/null 2>&1 < /dev/null &
echo done
"""


def _processes_named(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    found.append(int(entry))
            except OSError:
                continue
    return found


def test_a_build_writes_only_its_folder_has_no_network_and_leaves_nothing_running(
    tmp_path: Path,
) -> None:
    if sandbox.isolation_mode("auto") != "bwrap":
        pytest.skip("bubblewrap is not available here: builds run without isolation")
    marker = f"arena-build-daemon-{uuid.uuid4().hex[:12]}"
    outside = tmp_path / "escaped.txt"
    folder = tmp_path / "bots" / "builder"
    folder.mkdir(parents=True)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(0.2)
        script = BUILD.format(outside=outside, port=server.getsockname()[1], marker=marker)
        (folder / "build.sh").write_text(script)
        (folder / "build.sh").chmod(0o755)
        (folder / "bot.toml").write_text(
            'name = "builder"\ncommand = ["./bot"]\nbuild = ["./build.sh"]\n'
        )
        build_bot(load_manifest(folder))
        with pytest.raises(TimeoutError):
            server.accept()
    assert (folder / "built.txt").read_text() == "built\n"
    assert not outside.exists()
    deadline = time.monotonic() + 30  # killed when the build ended: gone once reaped
    while (left := _processes_named(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in left:
        os.kill(pid, 9)
    assert left == [], "the build left a daemon running"


def test_a_build_over_its_time_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.players import build

    monkeypatch.setattr(build, "BUILD_TIMEOUT_S", 0.5)
    folder = tmp_path / "slow"
    folder.mkdir()
    (folder / "bot.toml").write_text(
        'name = "slow"\ncommand = ["./bot"]\nbuild = ["sleep", "30"]\n'
    )
    started = time.monotonic()
    with pytest.raises(BotBuildError, match="did not finish building within 0.5 s"):
        build_bot(load_manifest(folder))
    assert time.monotonic() - started < 10


ATTACK = """#!/bin/sh
cat /etc/shadow > shadow.txt 2>/dev/null && echo "READ SHADOW"
ls -A "$HOME_OF_ROOT" > root.txt 2>/dev/null
cat "$HOME_OF_ROOT/$SECRET" > secret.txt 2>/dev/null
cp /bin/sh rootsh && chmod 4755 rootsh
id -u > uid.txt
grep " $(pwd) " /proc/self/mountinfo > mount.txt
echo built > built.txt
"""


def _root_bwrap() -> None:
    if sandbox.isolation_mode("auto") != "bwrap" or os.geteuid() != 0:
        pytest.skip("needs bubblewrap and root: a build as root is what this guards against")
    if not sandbox.probe().unprivileged("bwrap"):
        pytest.skip("setpriv is missing: builds cannot switch user here")


def _attacker(folder: Path) -> None:
    folder.mkdir(parents=True)
    (folder / "build.sh").write_text(ATTACK)
    (folder / "build.sh").chmod(0o755)
    (folder / "bot.toml").write_text(
        'name = "attacker"\ncommand = ["./bot"]\nbuild = ["./build.sh"]\n'
    )


def test_a_build_of_roots_folder_runs_unprivileged_and_leaves_no_setuid_file(
    tmp_path: Path,
) -> None:
    """Issue 20: the build ran as uid 0, read /etc/shadow and left a setuid-root shell."""
    _root_bwrap()
    folder = tmp_path / "bots" / "attacker"
    _attacker(folder)
    secret = Path.home() / f".arena-secret-{uuid.uuid4().hex[:8]}"
    secret.write_text("secret\n")
    secret.chmod(0o600)
    toml = folder / "bot.toml"
    toml.write_text(
        toml.read_text() + f'[env]\nHOME_OF_ROOT = "{Path.home()}"\nSECRET = "{secret.name}"\n'
    )
    try:
        _build_and_check(folder, secret)
    finally:
        secret.unlink()


def _build_and_check(folder: Path, secret: Path) -> None:
    assert folder.stat().st_uid == 0
    with pytest.raises(BotBuildError, match=r"holds rootsh \(setuid or setgid\)"):
        make_ready(load_manifest(folder), force_build=True)  # built, then refused
    assert (folder / "built.txt").read_text() == "built\n"  # it could write its folder
    assert (folder / "uid.txt").read_text().strip() == str(lease.BUILD_UID)
    assert (folder / "shadow.txt").read_text() == ""
    assert secret.name not in (folder / "root.txt").read_text()  # root's home is hidden
    assert (folder / "secret.txt").read_text() == ""
    mount = (folder / "mount.txt").read_text()
    assert "nosuid" in mount and "nodev" in mount
    # everything is root's again, and nothing is setuid
    for path in [folder, *folder.rglob("*")]:
        info = path.lstat()
        assert (info.st_uid, info.st_gid) == (0, 0), path
        assert not info.st_mode & (stat.S_ISUID | stat.S_ISGID), path


def test_a_folder_with_a_setuid_file_or_a_device_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "bots" / "setuid"
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text('name = "setuid"\ncommand = ["./bot"]\n')
    (folder / "bot").write_text("#!/bin/sh\n")
    (folder / "bot").chmod(0o4755)
    with pytest.raises(BotBuildError, match=r"holds bot \(setuid or setgid\).*remove them"):
        make_ready(load_manifest(folder))
    (folder / "bot").chmod(0o755)
    make_ready(load_manifest(folder))
    if os.geteuid() == 0:
        os.mknod(folder / "null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        with pytest.raises(BotBuildError, match=r"holds null \(a device node\)"):
            make_ready(load_manifest(folder))


def test_a_build_hands_a_hard_linked_file_back_untouched(tmp_path: Path) -> None:
    _root_bwrap()
    folder = tmp_path / "bots" / "linked"
    folder.mkdir(parents=True)
    outside = tmp_path / "outside.txt"
    outside.write_text("outside\n")
    os.link(outside, folder / "linked.txt")
    (folder / "bot.toml").write_text(
        'name = "linked"\ncommand = ["./bot"]\n'
        'build = ["sh", "-c", "echo x >> linked.txt; echo ok > ok.txt"]\n'
    )
    build_bot(load_manifest(folder), force=True)
    assert outside.read_text() == "outside\n"  # never the build user's to write
    assert outside.stat().st_uid == 0 and (folder / "ok.txt").stat().st_uid == 0


def test_a_folder_left_to_the_build_user_goes_back_to_its_parents_owner(tmp_path: Path) -> None:
    """A build cut off between hand-over and hand-back (kill -9) left the folder to the
    build user; the next build hands it back to the owner of the folder above."""
    _root_bwrap()
    folder = tmp_path / "bots" / "cut"
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text('name = "cut"\ncommand = ["./bot"]\nbuild = ["true"]\n')
    for path in (folder, folder / "bot.toml"):
        os.lchown(path, lease.BUILD_UID, lease.BUILD_GID)
    build_bot(load_manifest(folder), force=True)
    assert {p.lstat().st_uid for p in (folder, folder / "bot.toml")} == {0}
