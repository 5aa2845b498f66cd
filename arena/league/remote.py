"""A league's bots on Dask workers of other machines (`arena serve --scheduler tcp://...`).

A submitted bot lives in the league's folder, which a worker on another machine does not
see. So each bot version the league plays is shipped once, as a Dask worker plugin holding a
.tar.gz of its folder: Dask runs the plugin's `setup` on every worker now and on every
worker that joins later. Setup unpacks the archive into the worker's own directory (once per
version: a folder named by the archive's digest), builds the bot there in the sandbox under
the league's own build limits (`CheckPolicy`: its CPU time, wall time and the disk quota its
folder is weighed against after the build, as at its check), and tells the worker's player
registry (`arena.execution.use_local_folder`) to start that bot from there (or, if it cannot
be built there, to fail its games on that worker, saying why, its folder there deleted). Its
games there run under the league's playing limits, which travel with each table
(`WorkerContext.limits`). A version's folder never changes, so a version is shipped once per
league run.
The games' records come back with their results (`WorkerContext.carry_records`) and the
league writes them, so a worker writes nothing the league needs.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import logging
import shutil
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from distributed import WorkerPlugin

from arena.errors import ArenaError
from arena.execution import use_local_folder
from arena.league.checking import CheckPolicy, build_version, empty_folder
from arena.league.uploads import pack
from arena.players.manifest import BotManifest
from arena.players.ready import check_command

log = logging.getLogger(__name__)

PLUGIN_PREFIX = "arena-league-bot-"
MAX_SHIPPED_BYTES = 64 << 20
"""The largest bot archive sent through the scheduler (its messages are held in memory)."""


class TooLarge(Exception):
    """A bot archive over MAX_SHIPPED_BYTES (stopped while it was being written)."""


class _Capped(io.BytesIO):
    def write(self, data: Any) -> int:
        if self.tell() + len(data) > MAX_SHIPPED_BYTES:
            raise TooLarge
        return super().write(data)


def bot_archive_bytes(folder: Path) -> bytes:
    """The bot folder as .tar.gz bytes (`uploads.pack`); TooLarge past MAX_SHIPPED_BYTES,
    found while writing (memory stays bounded)."""
    buffer = _Capped()
    pack(folder, buffer)
    return buffer.getvalue()


class ShippedBot(WorkerPlugin):
    """One bot version, installed on every worker of the cluster."""

    def __init__(
        self, manifest: BotManifest, archive: bytes, policy: CheckPolicy, refused: str = ""
    ) -> None:
        self.manifest = manifest
        self.archive = archive
        self.policy = policy
        """The league's build limits and disk quota, which the build on a worker keeps to."""
        self.refused = refused
        """Why it is not shipped (too large): its games on the workers fail saying so."""
        self.digest = hashlib.sha256(archive).hexdigest()
        self.name = PLUGIN_PREFIX + manifest.name

    def setup(self, worker: Any) -> None:
        """Never raises: a bot that cannot be installed or built here loses its games on
        this worker with the reason, and the league plays on."""
        root = Path(worker.local_directory) / "arena-league-bots"
        folder = root / f"{self.manifest.name}-{self.digest[:16]}"
        try:
            if self.refused:
                raise ArenaError(self.refused)
            if not folder.is_dir():
                _unpack(self.archive, root, self.manifest.folder.name, folder)
            here = dataclasses.replace(self.manifest, folder=folder)
            problem = build_version(here, self.policy)  # as at its check: bounded, weighed
            if problem is not None:
                raise ArenaError(problem)
            check_command(here)
        except (ArenaError, OSError, tarfile.TarError) as error:
            why = f"it cannot be installed on worker {worker.address}: {error}"
            log.warning("bot %s: %s", self.manifest.name, why)
            _delete(folder)  # nothing of a version that cannot play stays on the worker
            use_local_folder(self.manifest, folder, broken=why)
            return
        use_local_folder(self.manifest, folder)
        log.info("bot %s installed in %s", self.manifest.name, folder)


def _unpack(data: bytes, root: Path, name: str, folder: Path) -> None:
    """The archive's folder `name` unpacked as `folder` (staged beside it, renamed when
    whole). The data filter refuses absolute paths, `..`, links out of the folder and device
    files. (Not `uploads.unpack`: a built folder may hold links within itself.)"""
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=root, prefix=".incoming-"))
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            archive.extractall(staging, filter="data")
        (staging / name).rename(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _delete(folder: Path) -> None:
    """`folder` and all in it gone, whatever modes its build set."""
    if folder.is_dir():
        empty_folder(folder)
        shutil.rmtree(folder, ignore_errors=True)


def ship(executor: Any, manifest: BotManifest, policy: CheckPolicy) -> None:
    """Install and build `manifest`'s bot on every worker of a remote Dask `executor` (and on
    workers that join later) under the league's build `policy`; returns when the workers
    have it."""
    try:
        plugin = ShippedBot(manifest, bot_archive_bytes(manifest.folder), policy)
    except TooLarge:
        refused = (
            f"its folder, built, is over {MAX_SHIPPED_BYTES >> 20} MiB compressed, the most "
            "shipped to other machines"
        )
        plugin = ShippedBot(manifest, b"", policy, refused)
    except (OSError, tarfile.TarError) as error:
        plugin = ShippedBot(manifest, b"", policy, f"its folder could not be archived ({error})")
    executor.register_plugin(plugin)
