"""A submitted bot archive (`.zip` or `.tar.gz`) unpacked into a folder, or one sentence why not;
and a bot folder packed as the archive `arena submit` sends (`pack`, `archive_folder`).

Everything in an upload is hostile until checked. The archive's kind is read from its first
bytes, not its name. Members are read one at a time, streamed, and counted as they are
written (`arena.league.archives` reads them, its caps on the work of reading): a member's
declared size is never trusted (a zip bomb declares little and inflates much), so the
unpacked total stops at `MAX_UNPACKED_BYTES` whatever the headers say. A path that is
absolute, climbs out (`..`), is too deep or too long is refused by name. Files are written
with mode 644 (755 when executable), never set-id. Everything is written into a fresh folder
beside the destination and renamed into place at the end, so a refused upload leaves nothing
behind and nothing is ever written outside the destination's parent. One top-level folder
holding `bot.toml` is unwrapped (the usual way an archive is made). A name that is both a
file and a folder, and any error of the disk while writing, are one sentence too.
`clean_leftovers` removes what an upload or a check cut short by a killed server left in a
league's folder.
"""

from __future__ import annotations

import errno
import os
import shutil
import tarfile
import tempfile
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import IO

from arena.league.archives import (
    CHUNK,
    MAX_UNPACKED_BYTES,
    Member,
    UploadError,
    _shown,
    _tar_members,
    _zip_members,
)
from arena.players.submitted_files import left_out

MAX_UPLOAD_BYTES = 32 << 20
"""The largest archive accepted (the request body is cut at this size)."""
MAX_DEPTH = 16
MAX_PATH_CHARS = 255
MAX_NAME_BYTES = 255
"""The longest file or folder name, in UTF-8 bytes (the file system's own limit)."""
MANIFEST = "bot.toml"


def check_size(archive: Path) -> None:
    """UploadError when `archive` is larger than a league accepts (`arena submit` asks before
    sending: the server closes the connection at the cap, which a client sees as a reset)."""
    size = archive.stat().st_size
    if size > MAX_UPLOAD_BYTES:
        raise UploadError(
            f"The upload is {size / (1 << 20):.1f} MiB; a bot archive may be at most "
            f"{MAX_UPLOAD_BYTES >> 20} MiB (leave out build outputs and data)."
        )


def unpack(archive: Path, destination: Path) -> Path:
    """Unpack `archive` into the new folder `destination` (which must not exist); the folder
    holding `bot.toml`. UploadError for anything not accepted, with nothing left behind."""
    check_size(archive)
    if destination.exists():
        raise UploadError(f"{destination.name} exists already; submit a new version instead.")
    with archive.open("rb") as stream:
        magic = stream.read(4)
    if magic.startswith(b"PK\x03\x04") or magic.startswith(b"PK\x05\x06"):
        reader = _zip_members
    elif magic.startswith(b"\x1f\x8b"):
        reader = _tar_members
    else:
        raise UploadError("The upload is neither a .zip nor a .tar.gz archive.")
    staging = destination.parent / f".upload-{uuid.uuid4().hex}"
    try:
        staging.mkdir(parents=True)
    except OSError as error:
        raise UploadError(_unstored(error)) from None
    try:
        _write(reader(archive), staging)
        root = _bot_root(staging)
        os.replace(staging, destination)
    except OSError as error:  # the rename: a destination made meanwhile, a full disk
        shutil.rmtree(staging, ignore_errors=True)
        raise UploadError(_unstored(error)) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return destination / root.relative_to(staging)


def clean_leftovers(league: Path, cut_short: Iterable[str] = ()) -> None:
    """Remove what uploads and checks cut short (a server killed) left in the league folder
    `league`: request bodies (`uploads/*.upload`), unpacked and staged archives
    (`bots/.incoming-*`, `bots/.upload-*`), and the half-written check folders of the bot
    versions labelled `cut_short` (each proven to be one folder in `checks/`). Call it only
    in the process that plays the league, before it serves."""
    from arena.league.paths import PathError, inside  # the store's: not on remote workers

    for body in (league / "uploads").glob("*.upload"):
        body.unlink(missing_ok=True)
    for pattern in (".incoming-*", ".upload-*"):
        for staged in (league / "bots").glob(pattern):
            shutil.rmtree(staged, ignore_errors=True)
    checks = (league / "checks").resolve()
    for label in cut_short:
        try:
            folder = inside(league, f"checks/{label}", "checks")
        except PathError:
            continue
        if folder.parent == checks:
            shutil.rmtree(folder, ignore_errors=True)


def _write(members: Iterator[Member], into: Path) -> None:
    written = 0
    files: set[tuple[str, ...]] = set()
    folders: set[tuple[str, ...]] = set()
    for name, is_dir, executable, data in members:
        parts = _safe_parts(name)
        _claim(parts, is_dir, files, folders, name)
        target = into.joinpath(*parts)
        try:
            if is_dir:
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            assert data is not None
            with _new_file(target, 0o755 if executable else 0o644) as out:
                while chunk := data.read(CHUNK):
                    written += len(chunk)
                    if written > MAX_UNPACKED_BYTES:
                        raise UploadError(
                            f"The archive unpacks to more than {MAX_UNPACKED_BYTES >> 20} MiB "
                            f"(stopped in {_shown(name)})."
                        )
                    out.write(chunk)
        except OSError as error:
            if error.errno in _FULL:  # the league's disk, not the name
                raise UploadError(_unstored(error)) from None
            raise UploadError(
                f"{_shown(name)} cannot be written ({error.strerror or error}); "
                "rename it, or leave it out."
            ) from None


_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO})


def _claim(
    parts: tuple[str, ...],
    is_dir: bool,
    files: set[tuple[str, ...]],
    folders: set[tuple[str, ...]],
    name: str,
) -> None:
    """Record `parts` as a file or a folder (and its parents as folders); UploadError when
    the archive names a path both ways, or a file twice."""
    for depth in range(1, len(parts) + 1):
        path = parts[:depth]
        as_folder = is_dir or depth < len(parts)
        if path in (files if as_folder else folders):
            shown = _shown("/".join(path))
            raise UploadError(f"{shown} is both a file and a folder in the archive.")
        if not as_folder and path in files:
            raise UploadError(f"{_shown(name)} appears twice in the archive.")
        (folders if as_folder else files).add(path)


@contextmanager
def _new_file(path: Path, mode: int) -> Iterator[IO[bytes]]:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(path, flags, mode)
    with os.fdopen(descriptor, "wb") as out:
        yield out
    os.chmod(path, mode)  # the umask may have taken bits; never a set-id bit


def _safe_parts(name: str) -> tuple[str, ...]:
    """The path's parts, checked: relative, inside, not too deep or long, no odd characters."""
    if len(name) > MAX_PATH_CHARS:
        raise UploadError(f"{_shown(name)} is a path longer than {MAX_PATH_CHARS} characters.")
    if "\\" in name or "\0" in name or any(ord(c) < 32 for c in name):
        raise UploadError(f"{_shown(name)} holds a backslash or a control character.")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise UploadError(f"{_shown(name)} is not a UTF-8 name; rename it.") from None
    path = PurePosixPath(name)
    if path.is_absolute():
        raise UploadError(f"{_shown(name)} is an absolute path; {_INSIDE}")
    parts = tuple(part for part in path.parts if part not in ("", "."))
    if ".." in parts:
        raise UploadError(f"{_shown(name)} climbs out with '..'; {_INSIDE}")
    if not parts:
        raise UploadError(f"{_shown(name)} names no file.")
    if len(parts) > MAX_DEPTH:
        raise UploadError(f"{_shown(name)} is more than {MAX_DEPTH} folders deep.")
    if any(len(part.encode("utf-8")) > MAX_NAME_BYTES for part in parts):
        raise UploadError(
            f"{_shown(name)} holds a file or folder name longer than {MAX_NAME_BYTES} bytes."
        )
    return parts


_INSIDE = "every path must lie inside the bot's folder."


def _unstored(error: OSError) -> str:
    return (
        f"The upload cannot be stored in the league's folder ({error.strerror or error}); "
        "try again later, or tell the league's admin."
    )


def _bot_root(staging: Path) -> Path:
    """The folder holding bot.toml: the archive's root, or its one top-level folder."""
    if (staging / MANIFEST).is_file():
        return staging
    entries = list(staging.iterdir())
    if len(entries) == 1 and entries[0].is_dir() and (entries[0] / MANIFEST).is_file():
        return entries[0]
    raise UploadError(
        f"The archive has no {MANIFEST} at its top (or in its one top-level folder); "
        "archive the bot's folder itself (see bots/README.md)."
    )


def pack(folder: Path, into: IO[bytes], leave_out: Callable[[str], bool] | None = None) -> None:
    """Write `folder`, everything in it (but the paths `leave_out` says), as a .tar.gz to
    `into`, under the folder's name (the shape `unpack` reads)."""

    def kept(member: tarfile.TarInfo) -> tarfile.TarInfo | None:
        relative = member.name.partition("/")[2]
        return None if relative and leave_out is not None and leave_out(relative) else member

    with tarfile.open(fileobj=into, mode="w:gz") as archive:
        archive.add(folder, arcname=folder.name, filter=kept)


def archive_folder(folder: Path, into: Path) -> Path:
    """A .tar.gz of a bot folder (what `arena submit` uploads) in a new folder in `into`:
    its language's build output and what its `.arenaignore` names left out."""
    path = Path(tempfile.mkdtemp(dir=into)) / f"{folder.name}.tar.gz"
    with path.open("wb") as file:
        pack(folder, file, left_out(folder))
    return path
