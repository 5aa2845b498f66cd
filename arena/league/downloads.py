"""The downloads of a bot's latest games (`GET /api/bots/LABEL/games.zip`), bounded and kept.

Issue 42: archives were made one at a time with no bound on the requests waiting for their
turn (the fourth of four asked at once took 185 s), and each request made its archive anew.
Now (`Downloads`):

- at most MAKING archives are made at once, and at most WAITING more requests wait for
  their turn; any other is refused at once (`Busy`: 503 with a sentence);
- a made archive is kept in the league's folder (`downloads/`, emptied at each start) and
  sent again while its bot has played no new game (a bot's games are only ever appended
  to, so their count, the league's state's, says whether it changed); its games are read
  from the store when it is made (its latest, by the store's index); the same archive asked while it is made is
  made once; at most CACHED are kept, the least recently asked deleted first (a response
  still sending one reads its open file).

Every step runs on the event loop (the making in a thread), so the counts need no lock.
"""

from __future__ import annotations

import asyncio
import itertools
import shutil
import tempfile
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

from arena.errors import ArenaError
from arena.league.export import MAX_DOWNLOAD_GAMES, bot_download
from arena.league.league import League
from arena.results.log import GameLine

MAKING = 2
"""Archives made at once (each a thread reading records and compressing)."""
WAITING = 8
"""Requests that may wait for their archive's turn; beyond, 503."""
CACHED = 16
"""Archives kept for the next request (each at most export.MAX_DOWNLOAD_GAMES games)."""
FOLDER = "downloads"
SCRATCH_PREFIX = ".making-"


class Busy(ArenaError):
    """Too many downloads being made and waiting; one sentence."""


class Downloads:
    """The made archives of one league's web side, and the bounds on making them."""

    def __init__(self, league: League) -> None:
        self.league = league
        self.folder = league.folder / FOLDER
        shutil.rmtree(self.folder, ignore_errors=True)  # a previous run's: its games may differ
        self.kept: OrderedDict[str, tuple[int, Path]] = OrderedDict()
        """By bot label: the number of its games the archive holds, and the archive."""
        self.underway: dict[tuple[str, int], asyncio.Future[Path]] = {}
        self.asked = 0  # archives being made or waiting to be
        self.slots: asyncio.Semaphore | None = None
        self.numbers = itertools.count(1)

    async def archive(self, label: str, played: int | Sequence[GameLine]) -> BinaryIO:
        """Bot `label`'s archive of its latest games, opened for reading: the kept one while
        no game was added, else made (or waited for); Busy when too many are. `played`: the
        games it has played (its latest read from the store when made), or the games
        themselves."""
        count = played if isinstance(played, int) else len(played)
        key = (label, count)
        kept = self.kept.get(label)
        if kept is not None and kept[0] == count:
            self.kept.move_to_end(label)
            return kept[1].open("rb")  # opened now: no eviction can come between
        underway = self.underway.get(key)
        if underway is None:
            if self.asked >= MAKING + WAITING:
                raise Busy(
                    f"The league is making {MAKING} downloads and {WAITING} more wait their "
                    "turn; try again in a minute."
                )
            self.asked += 1  # counted now: others asked before it starts see it
            underway = self.underway[key] = asyncio.ensure_future(self._make(label, played))
            underway.add_done_callback(lambda _: self.underway.pop(key, None))
        path = await asyncio.shield(underway)  # one asker gone: the others still get it
        return path.open("rb")

    async def _make(self, label: str, played: int | Sequence[GameLine]) -> Path:
        if self.slots is None:
            self.slots = asyncio.Semaphore(MAKING)
        try:
            async with self.slots:
                made = await asyncio.to_thread(self._made, label, played)
        finally:
            self.asked -= 1
        old = self.kept.pop(label, None)
        self.kept[label] = (played if isinstance(played, int) else len(played), made)
        dropped = [old[1]] if old is not None else []
        while len(self.kept) > CACHED:
            dropped.append(self.kept.popitem(last=False)[1][1])
        for path in dropped:
            path.unlink(missing_ok=True)  # a response sending it holds it open
        return made

    def _made(self, label: str, played: int | Sequence[GameLine]) -> Path:
        """The archive made in a scratch folder of `downloads/` and moved beside it (named
        by a number: no path is built from a bot's name); the scratch folder deleted."""
        games: Sequence[GameLine]
        if isinstance(played, int):
            league = self.league
            with league.reading:  # its latest, by the store's index
                games = league.reader.bot_games(label, 0, MAX_DOWNLOAD_GAMES)[::-1]
        else:
            games = played
        self.folder.mkdir(exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=self.folder))
        try:
            archive = bot_download(self.league, label, games, scratch)
            kept = self.folder / f"archive-{next(self.numbers)}.zip"
            archive.replace(kept)
            return kept
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
