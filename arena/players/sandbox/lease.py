"""A bot's folder lent to the build user for its build, and what a folder may not hold.

Issue 20: a build of a folder owned by root ran as uid 0 (no capabilities, but owner bits
apply: it read /etc/shadow) and could leave a setuid-root shell behind. Now, when the arena
is root, a build runs as `BUILD_UID`, an unprivileged user of its own (not `nobody`, the
user bots play as): the folder's entries are handed to that user for the build and handed
back to their owners afterwards (the folder's owner for new files), so the folder is
writable to it for the build only. A file linked from elsewhere (more than one hard link)
is not handed over: changing its owner would change the other name's too.

A folder that holds setuid or setgid files, or device nodes, after its build is refused:
`forbidden_entries` finds them, and the lease strips the set-id bits whatever happens.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
from collections.abc import Iterator
from pathlib import Path

BUILD_UID = 65533
"""The user a build runs as when the arena is root (a number no account of Debian uses)."""
BUILD_GID = 65533

_SET_ID = stat.S_ISUID | stat.S_ISGID


def _entries(folder: Path) -> Iterator[tuple[Path, os.stat_result]]:
    """`folder` and everything in it, without following symbolic links."""
    yield folder, folder.lstat()
    for root, dirs, files in os.walk(folder, followlinks=False):
        for name in [*dirs, *files]:
            path = Path(root, name)
            with contextlib.suppress(FileNotFoundError):
                yield path, path.lstat()


def forbidden_entries(folder: Path) -> list[str]:
    """What a bot's folder may not hold, one phrase each: setuid or setgid files (a bot's
    build could otherwise leave a program that runs as its owner for anyone), device nodes."""
    found: list[str] = []
    for path, info in _entries(folder):
        mode = info.st_mode
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            found.append(f"{path.relative_to(folder)} (a device node)")
        elif not stat.S_ISDIR(mode) and mode & _SET_ID:
            found.append(f"{path.relative_to(folder)} (setuid or setgid)")
    return found


@contextlib.contextmanager
def lent_to_builder(folder: Path, builder: tuple[int, int] | None) -> Iterator[None]:
    """Hand `folder` to `builder` (uid, gid) for the block, then back; None lends nothing.

    Builds of one folder are serialized across processes (a lock on the folder), so two
    workers building the same bot cannot hand it over twice.
    """
    if builder is None:
        yield
        return
    with _build_lock(folder):
        owners = _owners(folder)
        try:
            for path, (uid, _) in owners.items():
                if uid is not None:
                    os.lchown(path, *builder)
            yield
        finally:
            _hand_back(folder, owners, builder)


def _owners(folder: Path) -> dict[Path, tuple[int | None, int]]:
    """Each entry's (uid, gid): uid None for an entry that stays as it is (a file
    with other hard links). An entry owned by the build user already (a build that was cut
    off) goes back to the folder's owner, or the owner of the folder's parent."""
    info = folder.lstat()
    home = (info.st_uid, info.st_gid)
    if info.st_uid == BUILD_UID:
        parent = folder.parent.lstat()
        home = (parent.st_uid, parent.st_gid)
    owners: dict[Path, tuple[int | None, int]] = {}
    for path, entry in _entries(folder):
        uid, gid = (entry.st_uid, entry.st_gid) if entry.st_uid != BUILD_UID else home
        linked = not stat.S_ISDIR(entry.st_mode) and entry.st_nlink > 1
        owners[path] = (None if linked else uid, gid)
    return owners


def _hand_back(
    folder: Path, owners: dict[Path, tuple[int | None, int]], builder: tuple[int, int]
) -> None:
    """Every entry to its owner again (new ones to the folder's), set-id bits stripped."""
    home_uid, home_gid = _home(folder, owners)
    for path, entry in _entries(folder):
        if entry.st_uid != builder[0] and path in owners:
            continue  # never handed over (another hard link), or handed back already
        uid, gid = owners.get(path, (home_uid, home_gid))
        os.lchown(path, home_uid if uid is None else uid, gid)
        kind = stat.S_IFMT(entry.st_mode)
        if kind not in (stat.S_IFLNK, stat.S_IFDIR) and entry.st_mode & _SET_ID:
            os.chmod(path, stat.S_IMODE(entry.st_mode) & ~_SET_ID)


def _home(folder: Path, owners: dict[Path, tuple[int | None, int]]) -> tuple[int, int]:
    """Who gets the build's new files: the folder's owner."""
    uid, gid = owners[folder]
    return (0 if uid is None else uid), gid


@contextlib.contextmanager
def _build_lock(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on `folder`'s builds for the block (a lock on the folder
    itself: no lock file to leave behind)."""
    lock = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
    finally:
        os.close(lock)  # releases the lock
