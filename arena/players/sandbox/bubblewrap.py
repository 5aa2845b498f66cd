"""The bubblewrap command line around a bot: an allow-list view of the filesystem, no network.

A bot (its build and its games alike) starts from an empty root and sees only what is
listed: the read-only system folders a runtime needs (`SYSTEM_FOLDERS`, links such as
Debian's /bin -> usr/bin made again as links), the interpreter's prefixes, the arena
package, the tournament's `SandboxLimits.shown`, a fresh /dev and /proc, a private /tmp
and /dev/shm, and its own folder (read-only while it plays, writable for its build).
Nothing else of the host exists in its view: not /home, /root, /srv, /var, /opt, the
checkout, a league's folder, its database, logs or the other bots. The folders
above a shown one are the view's own (searchable, empty but for the way down), so a bot
reaches its folder whatever the modes of the host's folders above it.
"""

from __future__ import annotations

import functools
import os
import stat
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.players.limits import SandboxLimits

SANDBOX_UID = 65534
"""The user a bot runs as when the arena is root and its folder is root's too (nobody)."""

ARENA_PACKAGE = Path(__file__).resolve().parents[2]
"""The `arena` package's folder (arena/players/sandbox/bubblewrap.py is three below it)."""

SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
"""Shown read-only to every bot: what a runtime needs (programs, libraries, /etc's
configuration; /opt, /var and the homes are left out: they may hold other users' data)."""
HOST_HIDDEN = ("/var/tmp", "/run", "/var/run")
"""Host folders hidden even where the tournament shows a folder that holds them: they hold
other programs' files and unix sockets."""
SECRETS_UNDER = "/etc"
"""Where entries others may not read are hidden (`private_entries`): a bot that runs as
root without capabilities is their owner, and owner bits would let it read /etc/shadow."""

SHM_MB = 16
"""Size of the private /dev/shm (shared memory); its pages also count against the memory
cgroup of the bot that writes them."""

HIDING_TMPFS_BYTES = 65536
"""Size of the empty, read-only tmpfs laid over a hidden folder."""


@dataclass(frozen=True)
class Mount:
    """One step of the view a bot gets: a path hidden (an empty tmpfs) or shown (a bind)."""

    path: Path
    hide: bool
    """True: an empty tmpfs over folder `path` (a file is covered by an unreadable one);
    False: the host's `path` bound at the same place."""
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
    """`argv` inside bubblewrap: no network, the allow-list view of `view_argv`, its own
    PID, IPC and UTS namespaces, no capabilities.

    The bot's own folder is read-only, or writable for a build (`writable`): a bot that
    rewrote its folder while it played would change between games (and its hash).

    `user` is (setpriv program, uid, gid): the bot drops to that user with no
    capabilities and no way to gain any (no_new_privs). `seccomp_fd` is a file descriptor
    holding the seccomp program (seccomp.py) that refuses unix sockets. `shown` are the
    folders the bot sees besides the system's and its own (default: `shown_to_bots()`).
    """
    folder = folder.resolve()
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
    out += view_argv(folder, limits, writable=writable, shown=shown)
    if seccomp_fd is not None:
        out += ["--seccomp", str(seccomp_fd)]
    out += ["--chdir", str(folder), "--"]
    if user is not None:
        setpriv, uid, gid = user
        out += [setpriv, f"--reuid={uid}", f"--regid={gid}", "--clear-groups", "--no-new-privs"]
        out += ["--"]
    return [*out, *argv]


def view_argv(
    folder: Path,
    limits: SandboxLimits,
    *,
    writable: bool = False,
    shown: Sequence[Path] | None = None,
) -> list[str]:
    """bubblewrap's options for the allow-list view of a bot in `folder`: an empty,
    read-only root; the system folders, `shown` (default `shown_to_bots()`) and
    `limits.shown` bound read-only; its own folder; /dev, /proc, a private /tmp of
    `limits.tmp_mb` and /dev/shm. `limits.hidden`, the folder holding the bot's own (the
    other bots) and the host's /run and /var/tmp stay hidden where a shown folder holds them.
    """
    folder = folder.resolve()
    out: list[str] = []
    system: list[Path] = []
    for name in SYSTEM_FOLDERS:
        if os.path.islink(name):  # Debian 12: /bin -> usr/bin, made again as a link
            out += ["--symlink", os.readlink(name), name]
        elif os.path.isdir(name):
            system.append(Path(name))
    out += ["--dev", "/dev", "--proc", "/proc"]
    out += ["--size", str(SHM_MB << 20), "--perms", "1777", "--tmpfs", "/dev/shm"]
    private_tmp = Mount(
        Path("/tmp"),
        hide=True,
        writable=True,
        tmpfs_args=("--size", str(limits.tmp_mb << 20), "--perms", "1777"),
    )
    hidden = [folder.parent, *(Path(p).resolve() for p in limits.hidden)]
    hidden += [*_host_hidden(), *private_entries()]
    extra = [*(shown_to_bots() if shown is None else shown), *map(Path, limits.shown)]
    seen = [*system, *extra, *(Path(os.path.realpath(p)) for p in extra)]
    shows = [Mount(p, hide=False) for p in seen if p.is_absolute()]
    shows.append(Mount(folder, hide=False, writable=writable))
    out += mount_plan([private_tmp, *(Mount(p, hide=True) for p in hidden)], shows, folder)
    return [*out, "--remount-ro", "/"]


def shown_to_bots() -> list[Path]:
    """What a bot sees besides the system folders and its own: the interpreter's prefixes
    (the virtual environment and the Python it was made from: `python3` in a bot.toml runs
    the arena's own) and the arena's own package (a Python bot may `import arena`,
    bots/README.md), never more of the arena's folder than the package.

    Not the folder of a program a bot.toml names by an absolute path: the bot's author
    would choose what it sees (another bot's folder, a league's logs). A runtime outside
    the system folders is shown by the tournament (`SandboxLimits.shown`)."""
    return [Path(sys.prefix), Path(sys.base_prefix), ARENA_PACKAGE]


def mount_plan(hides: Iterable[Mount], shows: Iterable[Mount], keep_visible: Path) -> list[str]:
    """bubblewrap options that show `shows` in a view that starts empty, and hide `hides`
    where a shown folder holds them, whatever their order and nesting: each step is mounted
    after the steps that contain it.

    A hidden path that no shown folder holds needs no step (it is not in the view), nor
    does a shown folder inside another shown one, except `keep_visible` (the bot's own
    folder, bound read-only or writable) and one below a hidden path. The folders between
    an empty place and a folder bound there are made searchable. Nothing is hidden at or
    inside `keep_visible`, nor `/` itself. The hiding tmpfs mounts (not /tmp) are made
    read-only at the end.
    """
    steps: dict[Path, Mount] = {}
    for mount in hides:
        path = mount.path
        if path == Path("/") or _inside(path, keep_visible):
            continue
        if (path.is_dir() and not path.is_symlink()) or (path.is_file() and not mount.writable):
            steps.setdefault(path, mount)
    for mount in shows:
        if mount.path != Path("/") and mount.path.exists():
            steps[mount.path] = mount  # shown wins over hidden at the same path
    ordered = sorted(steps.values(), key=lambda m: (len(m.path.parts), str(m.path)))
    out: list[str] = []
    made: set[Path] = set()
    placed: list[Mount] = [Mount(Path("/"), hide=True)]  # the empty root
    for mount in ordered:
        outer = _innermost(mount.path, placed)
        if mount.hide and not mount.writable and outer.hide:
            continue  # not in the view, or hidden already by `outer`
        if not mount.hide and mount.path != keep_visible and not outer.hide:
            continue  # visible already through `outer`
        if outer.hide:
            out += _folders_between(outer.path, mount.path, made)
        if mount.hide and not mount.path.is_dir():  # a file: covered, unreadable (nodev)
            out += ["--ro-bind", os.devnull, str(mount.path)]
            continue
        if mount.hide:
            out += [*mount.tmpfs_args, "--tmpfs", str(mount.path)]
        else:
            out += ["--bind" if mount.writable else "--ro-bind", str(mount.path), str(mount.path)]
        placed.append(mount)
    for mount in placed[1:]:  # after the binds inside them: the hiding folders take no writes
        if mount.hide and not mount.writable:
            out += ["--remount-ro", str(mount.path)]
    return out


@functools.cache
def private_entries(top: str = SECRETS_UNDER) -> tuple[Path, ...]:
    """The files under `top` others may not read, and its folders others may not enter
    (not what they hold): hidden from a bot (read once per process)."""
    found: list[Path] = []
    for root, dirs, files in os.walk(top):
        entered = []
        for name in dirs:
            info = os.lstat(os.path.join(root, name))
            if stat.S_ISDIR(info.st_mode) and info.st_mode & 0o005 != 0o005:
                found.append(Path(root, name))
            else:
                entered.append(name)
        dirs[:] = entered
        for name in files:
            info = os.lstat(os.path.join(root, name))
            if stat.S_ISREG(info.st_mode) and not info.st_mode & 0o004:
                found.append(Path(root, name))
    return tuple(found)


def bot_user(folder: Path) -> tuple[int, int]:
    """(uid, gid) of the owner of `folder` (0, 0 for root)."""
    info = folder.stat()
    return info.st_uid, info.st_gid


def _innermost(path: Path, placed: list[Mount]) -> Mount:
    """The placed step that holds `path` most closely (at least the empty root)."""
    holders = [m for m in placed if m.path != path and _inside(path, m.path)]
    return max(holders, key=lambda m: len(m.path.parts))


def _inside(path: Path, folder: Path) -> bool:
    """`path` is `folder` or lies in it (Path.is_relative_to, ten times faster)."""
    parts = folder.parts
    return path.parts[: len(parts)] == parts


def _folders_between(hiding: Path, path: Path, made: set[Path]) -> list[str]:
    """The folders between an empty place and `path`, made searchable (0755) for the mount:
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
