"""The bundled bots, the guide for bot authors and the protocol's schema, as installed.

They travel as the package data of `arena.bundled_bots` (bots/ of the repository, mapped by
setup.py) and are found through importlib.resources, whether the arena was installed from
its wheel (the folder may be read-only: site-packages) or is an editable checkout (bots/
itself). A bundled bot plays from a working copy in the user's cache folder
(`$XDG_CACHE_HOME` or ~/.cache, then `mandala-arena/bots-<digest>/<name>`), never from the
installed folder: a bot with a build (starter-c) builds there. The digest is the hash of the
bundled files, so a new release (or an edited checkout) gets new copies and an old copy is
never reused for other sources. Copies are made whole in a staging folder and renamed into
place, so two commands started at once never see half a bot.

The copies of other sources are pruned: each use of the working folder marks it used (its
mtime), and once a process, as it first finds it, the arena deletes the `bots-<digest>` folders no
process has used for `PRUNE_DAYS` days (an older release, a checkout's earlier edits, each
with its builds), and staging folders a crash left a day old.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import shutil
import tempfile
import time
from importlib import resources
from pathlib import Path

from arena.errors import BotManifestError
from arena.players.bot_files import MANIFEST, bot_hash, copy_bot

PACKAGE = "arena.bundled_bots"
"""The package whose data are the bundled bots (setup.py maps bots/ to it)."""
GUIDE = "README.md"
"""The guide for bot authors, beside the bots (and the protocol's JSON Schema,
`protocol.schema.json`, which the guide names)."""
STARTER_PREFIX = "starter-"
"""A bundled bot whose folder is named `starter-<language>` is that language's starter."""
CACHE_FOLDER = "mandala-arena"
"""The arena's folder in the user's cache folder."""
PRUNE_DAYS = 30
"""A working folder of bundled bots no process has used for this many days is deleted."""
_WORKING_NAME = re.compile(r"bots-[0-9a-f]{16}")


def bundled_folder() -> Path:
    """The folder of the bundled bots as installed (read-only, maybe); BotManifestError
    when the installation keeps them where no program can run (a zip file)."""
    try:
        root = resources.files(PACKAGE)
    except ModuleNotFoundError:
        raise BotManifestError(
            f"The bundled bots ({PACKAGE}) are not installed; install the arena again "
            "(`make install` in a checkout, else `pip install` of its wheel)."
        ) from None
    if not isinstance(root, Path) or not root.is_dir():
        raise BotManifestError(
            f"The bundled bots are not in a folder ({root}); install the arena with pip from "
            "its wheel or its checkout, which unpacks them."
        )
    return root


def guide() -> Path:
    """The guide for bot authors (bots/README.md) as installed."""
    return bundled_folder() / GUIDE


def bundled_names() -> list[str]:
    """The folder names of the bundled bots, sorted."""
    root = bundled_folder()
    return sorted(sub.name for sub in root.iterdir() if (sub / MANIFEST).is_file())


def starters() -> dict[str, Path]:
    """Each bundled starter by its language as its folder says (`starter-c` -> `c`), sorted:
    the installed folders, to copy from."""
    root = bundled_folder()
    return {
        name.removeprefix(STARTER_PREFIX): root / name
        for name in bundled_names()
        if name.startswith(STARTER_PREFIX) and len(name) > len(STARTER_PREFIX)
    }


def cache_home() -> Path:
    """The user's cache folder: `$XDG_CACHE_HOME` when it is an absolute path (the XDG
    rule), else ~/.cache."""
    given = os.environ.get("XDG_CACHE_HOME", "")
    return Path(given) if os.path.isabs(given) else Path.home() / ".cache"


@functools.cache
def _working_root(source: Path, cache: Path) -> Path:
    return cache / CACHE_FOLDER / f"bots-{bot_hash(source)[:16]}"


def working_folder() -> Path:
    """The folder the bundled bots play from (each made by `bundled_bot` when first needed)."""
    root = _working_root(bundled_folder(), cache_home())
    with contextlib.suppress(OSError):
        os.utime(root)  # used now (a long-running server too); not there yet: made when needed
    _prune_once(root)
    return root


@functools.cache
def _prune_once(root: Path) -> None:
    """Delete the siblings of `root` unused for PRUNE_DAYS and staging folders a day old
    (module docstring); once a process. What cannot be deleted stays."""
    for folder in _entries(root.parent):
        if _WORKING_NAME.fullmatch(folder.name) and folder.path != str(root):
            _delete_if_older(folder, PRUNE_DAYS)
    for folder in _entries(root.parent / ".staging"):
        _delete_if_older(folder, 1)


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except OSError:
        return []


def _delete_if_older(entry: os.DirEntry[str], days: float) -> None:
    with contextlib.suppress(OSError):
        if time.time() - entry.stat(follow_symlinks=False).st_mtime > days * 86400:
            shutil.rmtree(entry.path, ignore_errors=True)


def bundled_bot(name: str) -> Path | None:
    """The working copy of the bundled bot in folder `name`, made now if it is not there;
    None when no bundled bot has that folder name."""
    if name not in bundled_names():
        return None
    target = working_folder() / name
    if not (target / MANIFEST).is_file():
        _copy_into_place(bundled_folder() / name, target)
    return target


def bundled_bots() -> Path:
    """The working folder with a copy of every bundled bot: a folder of bots like bots/."""
    for name in bundled_names():
        bundled_bot(name)
    return working_folder()


def _copy_into_place(source: Path, target: Path) -> None:
    """Copy bot `source` to `target` through a staging folder beside the working folder (a
    half-made copy is never among the bots); another process's copy, if it wins, is kept."""
    staging = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        (target.parent.parent / ".staging").mkdir(exist_ok=True)
        staging = Path(
            tempfile.mkdtemp(prefix=f"{target.name}-", dir=target.parent.parent / ".staging")
        )
        copy_bot(source, staging)
        staging.chmod(0o755)  # mkdtemp's 0700 would keep out the user a bot plays as
        os.rename(staging, target)
    except OSError as error:
        if not (target / MANIFEST).is_file():  # not another process's copy: a real failure
            raise BotManifestError(
                f"The bundled bot {source.name} cannot be copied to {target} "
                f"({error.strerror or error}); set XDG_CACHE_HOME to a folder you can write."
            ) from None
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
