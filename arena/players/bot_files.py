"""A bot's folder as files: the hash of its sources, read in bounded pieces.

Issue 20: the hash read each file whole, so a 64 GiB sparse file in a bot's folder ended
`arena run` with a MemoryError before its first game. Now the files to hash are listed
first (without following a symbolic link, inside the folder or out of it), their sizes
summed against a cap, and each read in chunks. A symbolic link is hashed as its target's
name, never read through; a FIFO or a socket by its name and kind, never opened (reading a
FIFO waits for a writer forever). Device nodes are refused before play (lease.py).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
from pathlib import Path

from arena.errors import BotManifestError
from arena.players.languages import LANGUAGES

MANIFEST = "bot.toml"
"""The file that makes a folder a bot (players/manifest.py reads it)."""

DEFAULT_BOT_SIZE_MB = 256
"""The most a bot's source files (what its hash reads) may total, by default."""

CHUNK = 1 << 20

_SKIP_DIRS = {"__pycache__", "node_modules", "logs", "bin", "build", "target", "dist"}
_LEFTOVERS = {path for language in LANGUAGES for path in language.leftovers}
"""What the languages' builds leave (Kotlin's bot.jar...), by path inside the folder."""
_SKIP_SUFFIXES = {".pyc", ".pyo", ".o", ".obj", ".class", ".log"}
_BINARY_MAGICS = (b"\x7fELF", b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe", b"MZ")
_MAGIC_BYTES = max(len(magic) for magic in _BINARY_MAGICS)


def bot_hash(folder: Path, cap_mb: int = DEFAULT_BOT_SIZE_MB) -> str:
    """A SHA-256 of a bot's source files (names and contents), build outputs and logs left out.

    Left out: hidden files and folders, `logs/ bin/ build/ target/ dist/ __pycache__/
    node_modules/`, what a language's build leaves at the top of the folder (languages.py:
    Kotlin's `bot.jar`), object and byte-code files, and compiled executables (ELF, Mach-O,
    PE), so building a bot does not change its hash. BotManifestError when the files to read total
    more than `cap_mb` MiB.
    """
    entries = _sources(folder)
    total = sum(info.st_size for _, info in entries if stat.S_ISREG(info.st_mode))
    if total > cap_mb << 20:
        biggest = max(
            (e for e in entries if stat.S_ISREG(e[1].st_mode)), key=lambda e: e[1].st_size
        )
        raise BotManifestError(
            f"The bot in {folder} holds {_mib(total)} of files, more than the "
            f"{cap_mb} MiB a bot may hold (the largest: {biggest[0]}, {_mib(biggest[1].st_size)}); "
            "remove what the bot does not need, or raise the cap with --max-bot-mb."
        )
    digest = hashlib.sha256()
    for relative, info in entries:
        part = _hash_of(folder / relative, info)
        if part is not None:
            digest.update(relative.encode("utf-8", "surrogateescape") + b"\0")
            digest.update(part)
    return digest.hexdigest()


def source_files(folder: Path) -> list[str]:
    """The regular files of a bot's folder that its hash reads, as paths relative to `folder`
    (`/`-separated, sorted): what a copy of the bot needs (its sources, no build outputs,
    logs, hidden files or compiled executables). The bundled bots travel in the wheel and are
    copied to a working folder by this list (setup.py, players/bundled.py)."""
    return [
        relative
        for relative, info in _sources(folder)
        if stat.S_ISREG(info.st_mode) and _hash_of(folder / relative, info) is not None
    ]


def copy_bot(source: Path, target: Path) -> None:
    """Copy the files of `source` that `source_files` lists into folder `target` (made if
    needed), with their permission bits (a script stays executable), nothing else."""
    for relative in source_files(source):
        into = target / relative
        into.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / relative, into)
        shutil.copymode(source / relative, into)


def _sources(folder: Path) -> list[tuple[str, os.stat_result]]:
    """The entries to hash, as (path relative to `folder`, lstat), sorted by path."""
    found: list[tuple[str, os.stat_result]] = []
    for root, dirs, files in os.walk(folder, followlinks=False):
        links = [d for d in dirs if os.path.islink(os.path.join(root, d))]  # never entered
        top = root == str(folder)
        dirs[:] = [
            d
            for d in dirs
            if d not in links and not _left_out_folder(d) and not (top and d in _LEFTOVERS)
        ]
        for name in [*files, *links]:
            if name.startswith(".") or Path(name).suffix in _SKIP_SUFFIXES:
                continue
            if top and name in _LEFTOVERS:  # a language's build output (languages.py)
                continue
            path = os.path.join(root, name)
            try:
                info = os.lstat(path)
            except FileNotFoundError:
                continue
            found.append((Path(path).relative_to(folder).as_posix(), info))
    return sorted(found, key=lambda entry: entry[0])


def _left_out_folder(name: str) -> bool:
    return name.startswith(".") or name in _SKIP_DIRS


def _hash_of(path: Path, info: os.stat_result) -> bytes | None:
    """The digest of one entry, or None to leave it out (a compiled executable)."""
    mode = info.st_mode
    if stat.S_ISLNK(mode):
        return b"link:" + os.fsencode(os.readlink(path))
    if not stat.S_ISREG(mode):
        return b"special:" + str(stat.S_IFMT(mode)).encode()
    digest = hashlib.sha256()
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as stream:
        head = stream.read(_MAGIC_BYTES)
        if head.startswith(_BINARY_MAGICS):
            return None
        digest.update(head)
        left = info.st_size - len(head)  # what was counted against the cap, no more
        while left > 0 and (chunk := stream.read(min(CHUNK, left))):
            digest.update(chunk)
            left -= len(chunk)
    return digest.digest()


def _mib(size: int) -> str:
    return f"{size / (1 << 20):,.0f} MiB" if size >= 1 << 20 else f"{size:,} bytes"
