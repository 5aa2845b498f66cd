"""A submitted bot archive (`.zip` or `.tar.gz`) unpacked into a folder, or one sentence why not;
and a bot folder packed as the archive `arena submit` sends (`pack`, `archive_folder`).

Everything in an upload is hostile until checked. The archive's kind is read from its first
bytes, not its name. Members are read one at a time, streamed, and counted as they are
written: a member's declared size is never trusted (a zip bomb declares little and inflates
much), so the unpacked total stops at `MAX_UNPACKED_BYTES` whatever the headers say. Only
regular files and folders are accepted: a symbolic or hard link, a device, a FIFO is
refused by name, as is a path that is absolute, climbs out (`..`), is too deep or too long.
Files are written with mode 644 (755 when executable), never set-id. Everything is written
into a fresh folder beside the destination and renamed into place at the end, so a refused
upload leaves nothing behind and nothing is ever written outside the destination's parent.
One top-level folder holding `bot.toml` is unwrapped (the usual way an archive is made).
"""

from __future__ import annotations

import os
import shutil
import stat
import tarfile
import tempfile
import uuid
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import IO

from arena.errors import ArenaError

MAX_UPLOAD_BYTES = 32 << 20
"""The largest archive accepted (the request body is cut at this size)."""
MAX_UNPACKED_BYTES = 128 << 20
"""The most an archive may unpack to, counted as it is written."""
MAX_MEMBERS = 2000
MAX_DEPTH = 16
MAX_PATH_CHARS = 255
CHUNK = 1 << 16
MANIFEST = "bot.toml"


class UploadError(ArenaError):
    """An archive that cannot be accepted; the text says which member and why."""


def unpack(archive: Path, destination: Path) -> Path:
    """Unpack `archive` into the new folder `destination` (which must not exist); the folder
    holding `bot.toml`. UploadError for anything not accepted, with nothing left behind."""
    size = archive.stat().st_size
    if size > MAX_UPLOAD_BYTES:
        raise UploadError(
            f"The upload is {size / (1 << 20):.1f} MiB; a bot archive may be at most "
            f"{MAX_UPLOAD_BYTES >> 20} MiB (leave out build outputs and data)."
        )
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
    staging.mkdir(parents=True)
    try:
        _write(reader(archive), staging)
        root = _bot_root(staging)
        os.replace(staging, destination)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return destination / root.relative_to(staging)


Member = tuple[str, bool, bool, IO[bytes] | None]
"""(path in the archive, is a folder, is executable, its bytes for a file)."""


def _zip_members(archive: Path) -> Iterator[Member]:
    try:
        with zipfile.ZipFile(archive) as bundle:
            infos = bundle.infolist()
            _count(len(infos))
            for info in infos:
                mode = info.external_attr >> 16
                kind = stat.S_IFMT(mode)
                if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
                    raise UploadError(f"{_shown(info.filename)} is {_kind(kind)}; {_ONLY}")
                if info.flag_bits & 0x1:
                    raise UploadError(f"{_shown(info.filename)} is encrypted; {_ONLY}")
                if info.is_dir():
                    yield info.filename, True, False, None
                else:
                    with bundle.open(info) as data:
                        yield info.filename, False, bool(mode & 0o111), data
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError) as error:
        raise UploadError(f"The .zip archive cannot be read ({error}).") from None


def _tar_members(archive: Path) -> Iterator[Member]:
    seen = 0
    try:
        with tarfile.open(archive, mode="r|gz") as bundle:  # a stream: one member at a time
            for info in bundle:
                seen += 1
                _count(seen)
                if info.isdir():
                    yield info.name, True, False, None
                elif info.isreg():
                    yield info.name, False, bool(info.mode & 0o111), bundle.extractfile(info)
                else:
                    raise UploadError(f"{_shown(info.name)} is {_tar_kind(info)}; {_ONLY}")
    except (tarfile.TarError, EOFError, OSError, zlib.error) as error:
        raise UploadError(f"The .tar.gz archive cannot be read ({error}).") from None


_ONLY = "a bot archive may hold only regular files and folders."


def _count(members: int) -> None:
    if members > MAX_MEMBERS:
        raise UploadError(f"The archive holds more than {MAX_MEMBERS} files and folders.")


def _write(members: Iterator[Member], into: Path) -> None:
    written = 0
    for name, is_dir, executable, data in members:
        target = into.joinpath(*_safe_parts(name))
        if is_dir:
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists():
            raise UploadError(f"{_shown(name)} appears twice in the archive.")
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
    return parts


_INSIDE = "every path must lie inside the bot's folder."


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


def _kind(kind: int) -> str:
    return {
        stat.S_IFLNK: "a symbolic link",
        stat.S_IFCHR: "a device",
        stat.S_IFBLK: "a device",
        stat.S_IFIFO: "a FIFO",
        stat.S_IFSOCK: "a socket",
    }.get(kind, "not a regular file")


def _tar_kind(info: tarfile.TarInfo) -> str:
    if info.issym():
        return "a symbolic link"
    if info.islnk():
        return "a hard link"
    if info.isdev():
        return "a device or a FIFO"
    return "not a regular file"


def _shown(name: str) -> str:
    return repr(name if len(name) <= 80 else name[:77] + "...")


def pack(folder: Path, into: IO[bytes]) -> None:
    """Write `folder`, everything in it, as a .tar.gz to `into`, under the folder's name
    (the shape `unpack` reads)."""
    with tarfile.open(fileobj=into, mode="w:gz") as archive:
        archive.add(folder, arcname=folder.name)


def archive_folder(folder: Path, into: Path) -> Path:
    """A .tar.gz of a bot folder (what `arena submit` uploads) in a new folder in `into`."""
    path = Path(tempfile.mkdtemp(dir=into)) / f"{folder.name}.tar.gz"
    with path.open("wb") as file:
        pack(folder, file)
    return path
