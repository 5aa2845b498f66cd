"""What a stopped league left half done, put right by the process that plays it next
(League.start; never by a command run beside a playing one)."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from arena.league import uploads
from arena.league.checking import empty_folder
from arena.league.paths import PathError, bot_folders
from arena.league.store import CUT_SHORT, Store
from arena.players.build import folder_bytes

log = logging.getLogger("arena.league.league")


def recover(folder: Path, store: Store, bot_disk_mb: int) -> None:
    """Uploads and staged archives removed, a check cut short failed and its folders
    emptied (as a failed version's over the quota, `bot_disk_mb`). A bot whose name or folder
    in the store breaks the rule (an older arena let `..` in) is never acted on: its files
    stay, and it is failed rather than played (paths.bot_folders). Hold the league's lock."""
    cut_short = store.bots("building") + store.bots("checking")
    for bot in cut_short:
        store.set_status(bot, "failed", CUT_SHORT)  # the league stopped during its check
    cut = [bot.label for bot in cut_short]
    uploads.clean_leftovers(folder, cut)
    for bot in store.bots():
        try:
            folders = bot_folders(folder, bot)
        except PathError as error:
            log.warning("the league leaves bot %r alone: %s", bot.name, error)
            if bot.status not in ("failed", "removed"):
                store.set_status(bot, "failed", str(error))
            continue
        if bot.status == "removed":  # no table is in flight now
            for path in folders:
                shutil.rmtree(path, ignore_errors=True)
        elif bot.status == "failed" and (
            bot.label in cut or folder_bytes(folders[0]) > bot_disk_mb << 20
        ):
            empty_folder(folders[0])  # half built, or over the quota: never played
