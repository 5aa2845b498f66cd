"""The bubblewrap command line around a bot: no network, a read-only view, its own folder writable."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
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

HIDING_TMPFS_BYTES = 65536
"""Size of the empty, read-only tmpfs laid over a hidden folder."""


@dataclass(frozen=True)
class Mount:
    """One step of the view a bot gets: a folder hidden (an empty tmpfs) or shown (a bind)."""

    path: Path
    hide: bool
    """True: an empty tmpfs over `path`; False: the host's `path` bound over whatever is there."""
    writable: bool = False
    """A writable tmpfs (/tmp) or a writable bind (a bot's folder during its build)."""
    tmpfs_args: tuple[str, ...] = ("--size", str(HIDING_TMPFS_BYTES))
    """bubblewrap's options before `--tmpfs` (size, perms) for a hiding mount."""


def bwrap_argv(
    program: str,
    argv: list[str],
    folder: Path,
    limits: SandboxLimits,
    *,
    user: tuple[str, int, int] | None = None,
    seccomp_fd: int | None = None,
    writable: bool = False,
    shown: Sequence[Path] | None = None,
) -> list[str]:
    """`argv` inside bubblewrap: no network, a read-only view of /, other bots and the host's
    /run, /var/tmp hidden, a private /tmp and /dev/shm of limited size.

    The bot's own folder is read-only, or writable for a build (`writable`): a bot that
    rewrote its folder while it played would change between games (and its hash).

    `user` is (setpriv program, uid, gid): the bot drops to that user with no
    capabilities and no way to gain any (no_new_privs). `seccomp_fd` is a file descriptor
    holding the seccomp program (seccomp.py) that refuses unix sockets. `shown` are the
    folders the bot must see even inside a hidden folder (default: `shown_to_bots(argv)`).
    """
    folder = folder.resolve()
    hidden: list[Path] = [folder.parent]
    if user is not None:
        hidden.append(Path("/root"))  # root's home: 0700, unreachable anyway
    hidden += [Path(p).resolve() for p in limits.hidden]
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
    out += ["--size", str(SHM_MB << 20), "--perms", "1777", "--tmpfs", "/dev/shm"]
    private_tmp = Mount(
        Path("/tmp"),
        hide=True,
        writable=True,
        tmpfs_args=("--size", str(limits.tmp_mb << 20), "--perms", "1777"),
    )
    hides = [private_tmp, *(Mount(p, hide=True) for p in [*_host_hidden(), *hidden])]
    shows = [Mount(p, hide=False) for p in (shown_to_bots(argv) if shown is None else shown)]
    shows.append(Mount(folder, hide=False, writable=writable))
    out += mount_plan(hides, shows, keep_visible=folder)
    if seccomp_fd is not None:
        out += ["--seccomp", str(seccomp_fd)]
    out += ["--chdir", str(folder), "--"]
    if user is not None:
        setpriv, uid, gid = user
        out += [setpriv, f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--no-new-privs"]
        out += ["--"]
    return [*out, *argv]


def shown_to_bots(argv: list[str]) -> list[Path]:
    """What a bot must see even inside a hidden folder: the interpreter, its program's
    folder, and the arena's own package (a Python bot may `import arena`, bots/README.md),
    never more of the arena's folder than the package."""
    shown = [Path(sys.prefix), Path(sys.base_prefix), ARENA_PACKAGE]
    if argv and os.path.isabs(argv[0]):
        shown.append(Path(os.path.realpath(argv[0])).parent)
    return shown


def mount_plan(hides: Iterable[Mount], shows: Iterable[Mount], keep_visible: Path) -> list[str]:
    """bubblewrap options that hide `hides` and show `shows` through them, whatever their
    order and nesting: each step is mounted after the steps that contain it.

    A hidden folder inside another hidden folder is left out (the outer one hides it),
    unless a shown folder lies between them. A shown folder that no hidden one covers needs
    no step (it is visible through `--ro-bind / /`), except `keep_visible` (the bot's own
    folder, bound read-only or writable). Nothing is hidden at or inside `keep_visible`,
    nor `/` itself. The hiding tmpfs mounts (not /tmp) are made read-only at the end.
    """
    steps: dict[Path, Mount] = {}
    for mount in hides:
        path = mount.path
        if path == Path("/") or path.is_relative_to(keep_visible):
            continue
        if path.exists() and not path.is_symlink() and path.is_dir():
            steps.setdefault(path, mount)
    for mount in shows:
        if mount.path.exists():
            steps[mount.path] = mount  # shown wins over hidden at the same path
    ordered = sorted(steps.values(), key=lambda m: (len(m.path.parts), str(m.path)))
    out: list[str] = []
    made: set[Path] = set()
    placed: list[Mount] = []
    for mount in ordered:
        outer = _innermost(mount.path, placed)
        if mount.hide and not mount.writable and outer is not None and outer.hide:
            continue  # already hidden by `outer`
        if not mount.hide and mount.path != keep_visible and (outer is None or not outer.hide):
            continue  # already visible
        if outer is not None and outer.hide:
            out += _folders_between(outer.path, mount.path, made)
        if mount.hide:
            out += [*mount.tmpfs_args, "--tmpfs", str(mount.path)]
        else:
            out += ["--bind" if mount.writable else "--ro-bind", str(mount.path), str(mount.path)]
        placed.append(mount)
    for mount in placed:  # after the binds inside them: the hiding folders take no writes
        if mount.hide and not mount.writable:
            out += ["--remount-ro", str(mount.path)]
    return out


def bot_user(folder: Path) -> tuple[int, int]:
    """(uid, gid) of the owner of `folder` (0, 0 for root)."""
    info = folder.stat()
    return info.st_uid, info.st_gid


def _innermost(path: Path, placed: list[Mount]) -> Mount | None:
    """The placed step that holds `path` most closely, or None (the host's own view)."""
    holders = [m for m in placed if m.path != path and path.is_relative_to(m.path)]
    return max(holders, key=lambda m: len(m.path.parts), default=None)


def _folders_between(hiding: Path, path: Path, made: set[Path]) -> list[str]:
    """The folders between a hiding tmpfs and `path`, made searchable (0755) for the mount:
    bubblewrap would make them 0700, which a bot that is not root cannot pass through."""
    out: list[str] = []
    for parent in reversed(path.relative_to(hiding).parents[:-1]):
        between = hiding / parent
        if between not in made:
            made.add(between)
            out += ["--perms", "0755", "--dir", str(between)]
    return out


def _host_hidden() -> list[Path]:
    return [Path(p) for p in HOST_HIDDEN if os.path.isdir(p) and not os.path.islink(p)]
