"""A league's bots on Dask workers of other machines (`arena serve --scheduler tcp://...`).

A submitted bot lives in the league's folder, which a worker on another machine does not
see. So each bot version the league plays is shipped once, as a Dask worker plugin holding a
.tar.gz of its folder: Dask runs the plugin's `setup` on every worker now and on every
worker that joins later. Setup unpacks the archive into the worker's own directory (once per
version: a folder named by the archive's digest), builds the bot there in the sandbox, and
tells the worker's player registry (`arena.execution.use_local_folder`) to start that bot
from there (or, if it cannot be built there, to fail its games on that worker, saying why). A version's folder never changes, so a version is shipped once per league run.
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
from arena.players.manifest import BotManifest
from arena.players.ready import make_ready

log = logging.getLogger(__name__)

PLUGIN_PREFIX = "arena-league-bot-"


def bot_archive_bytes(folder: Path) -> bytes:
    """The bot folder as .tar.gz bytes (its members relative to the folder)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        archive.add(folder, arcname=".")
    return buffer.getvalue()


class ShippedBot(WorkerPlugin):
    """One bot version, installed on every worker of the cluster."""

    def __init__(self, manifest: BotManifest, archive: bytes) -> None:
        self.manifest = manifest
        self.archive = archive
        self.digest = hashlib.sha256(archive).hexdigest()
        self.name = PLUGIN_PREFIX + manifest.name

    def setup(self, worker: Any) -> None:
        root = Path(worker.local_directory) / "arena-league-bots"
        folder = root / f"{self.manifest.name}-{self.digest[:16]}"
        if not folder.is_dir():
            root.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(dir=root, prefix=".incoming-"))
            try:
                with tarfile.open(fileobj=io.BytesIO(self.archive), mode="r:gz") as archive:
                    archive.extractall(staging, filter="data")
                staging.rename(folder)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
        here = dataclasses.replace(self.manifest, folder=folder)
        try:
            make_ready(here)
        except ArenaError as error:  # it loses its games on this worker, saying why
            log.warning("bot %s cannot be made ready on this worker: %s", here.name, error)
            use_local_folder(self.manifest, folder, broken=str(error))
            return
        use_local_folder(self.manifest, folder)
        log.info("bot %s installed in %s", here.name, folder)


def ship(executor: Any, manifest: BotManifest) -> None:
    """Install and build `manifest`'s bot on every worker of a remote Dask `executor` (and on
    workers that join later); returns when the workers have it."""
    executor.register_plugin(ShippedBot(manifest, bot_archive_bytes(manifest.folder)))
