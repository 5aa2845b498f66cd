"""The bubblewrap command line around a bot: no network, a read-only view, its own folder writable."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from arena.players.limits import SandboxLimits

SANDBOX_UID = 65534
"""The user a bot runs as when the arena is root and its folder is root's too (nobody)."""

ARENA_PACKAGE = Path(__file__).resolve().parents[2]
"""The `arena` package's folder (arena/players/sandbox/bubblewrap.py is three below it)."""
HOST_HIDDEN = ("/var/tmp", "/run", "/var/run")
"""Host folders never shown to a bot (besides /tmp and /dev/shm, which are private): they
hold other programs' files and unix sockets."""

SHM_MB = 16
"""Size of the private /dev/shm (shared memory); its pages also count against the memory
cgroup of the bot that writes them."""


def bwrap_argv(
    program: str,
    argv: list[str],
    folder: Path,
    limits: SandboxLimits,
    *,
    user: tuple[str, int, int] | None = None,
    seccomp_fd: int | None = None,
    writable: bool = False,
) -> list[str]:
    """`argv` inside bubblewrap: no network, a read-only view of /, other bots and the host's
    /run, /var/tmp hidden, a private /tmp and /dev/shm of limited size.

    The bot's own folder is read-only, or writable for a build (`writable`): a bot that
    rewrote its folder while it played would change between games (and its hash).

    `user` is (setpriv program, uid, gid): the bot drops to that user with no
    capabilities and no way to gain any (no_new_privs). `seccomp_fd` is a file descriptor
    holding the seccomp program (seccomp.py) that refuses unix sockets.
    """
    folder = folder.resolve()
    hidden: list[Path] = []
    extra = [Path("/root")] if user is not None else []  # root's home: 0700, unreachable anyway
    for path in [folder.parent, *extra, *(Path(p).resolve() for p in limits.hidden)]:
        if path == Path("/") or path == folder or _under(path, folder):
            continue  # never hide / itself, nor the bot's folder or anything inside it
        if not any(path == h or _under(path, h) for h in [*_host_hidden(), *hidden]):
            hidden.append(path)
    out = [
        program,
        "--die-with-parent",
        "--new-session",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-pid",
        "--cap-drop",
        "ALL",
    ]
    if user is not None:  # only to switch user: setpriv drops them with the uid
        out += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    out += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    out += ["--size", str(limits.tmp_mb << 20), "--perms", "1777", "--tmpfs", "/tmp"]
    out += ["--size", str(SHM_MB << 20), "--perms", "1777", "--tmpfs", "/dev/shm"]
    for path in [*_host_hidden(), *hidden]:
        out += ["--size", "65536", "--tmpfs", str(path)]
    covered = [Path("/tmp"), *_host_hidden(), *hidden]  # what the bot cannot see through
    # What the bot must still see if a hidden folder holds it: the interpreter, the program,
    # and the arena's own package (a Python bot may `import arena`, bots/README.md), never
    # more of the arena's folder than the package.
    keep = {Path(sys.prefix), Path(sys.base_prefix), ARENA_PACKAGE}
    if argv and os.path.isabs(argv[0]):
        keep.add(Path(os.path.realpath(argv[0])).parent)
    for path in sorted(keep):
        if path.exists() and any(path == h or _under(path, h) for h in covered):
            out += [*_mount_point(path, covered), "--ro-bind", str(path), str(path)]
    bind = "--bind" if writable else "--ro-bind"
    out += [*_mount_point(folder, covered), bind, str(folder), str(folder)]
    for path in covered[1:]:  # after the binds inside them: the hiding folders take no writes
        out += ["--remount-ro", str(path)]
    if seccomp_fd is not None:
        out += ["--seccomp", str(seccomp_fd)]
    out += ["--chdir", str(folder), "--"]
    if user is not None:
        setpriv, uid, gid = user
        out += [setpriv, f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--no-new-privs"]
        out += ["--"]
    return [*out, *argv]


def bot_user(folder: Path) -> tuple[int, int]:
    """(uid, gid) of the owner of `folder` (0, 0 for root)."""
    info = folder.stat()
    return info.st_uid, info.st_gid


def _mount_point(path: Path, covered: list[Path]) -> list[str]:
    """The folders between a hiding tmpfs and `path`, made searchable (0755) for the bind:
    bubblewrap would make them 0700, which a bot that is not root cannot pass through."""
    out: list[str] = []
    for hiding in covered:
        if _under(path, hiding):
            for parent in reversed(path.relative_to(hiding).parents[:-1]):
                out += ["--perms", "0755", "--dir", str(hiding / parent)]
            break
    return out


def _host_hidden() -> list[Path]:
    return [Path(p) for p in HOST_HIDDEN if os.path.isdir(p) and not os.path.islink(p)]


def _under(path: Path, ancestor: Path) -> bool:
    return path != ancestor and path.is_relative_to(ancestor)
