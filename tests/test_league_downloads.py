"""Issue 42, item 5: a bot's games as a download (`GET /api/bots/LABEL/games.zip`) are made a
few at a time with a bounded number waiting (others refused at once, in one sentence), and
kept: the same archive is not made again while the bot played no new game
(arena/league/downloads.py). A real league's store and folder; the games are lines as the
league stores them (a line whose record is missing still counts)."""

from __future__ import annotations

import asyncio
import os
import threading
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from arena.league import downloads
from arena.league.downloads import Busy, Downloads
from arena.league.export import bot_download
from arena.league.league import League
from arena.results.log import GameLine


def _games(label: str, count: int, first: int = 1) -> list[GameLine]:
    return [
        GameLine(
            seq=n * 10 + 1,
            game_id=f"L{n:07d}-g1",
            players=(label, "other"),
            scores=(10.0, 5.0),
            ranks=(0, 1),
            termination="normal",
            table=n,
            game=1,
            end="deck_exhausted",
            decisions=(5, 5),
            think_ms=(1.0, 1.0),
            cpu_ms=(1.0, 1.0),
            finished_at=f"2026-11-26T10:{n % 60:02d}:00.000+00:00",
        )  # fmt: skip
        for n in range(first, first + count)
    ]


@pytest.fixture
def league(tmp_path: Path) -> Iterator[League]:
    opened = League(tmp_path / "league", workers=0)
    try:
        yield opened
    finally:
        opened.close()


def _logged(archive: Path | int, label: str) -> int:
    """How many games the archive's games.jsonl holds."""
    with zipfile.ZipFile(archive if isinstance(archive, Path) else os.fdopen(archive, "rb")) as z:
        return len(z.read(f"{label}-games/games.jsonl").splitlines())


def test_an_archive_is_kept_while_its_bot_plays_no_new_game(
    league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(downloads, "CACHED", 1)
    kept = Downloads(league)
    games = _games("alpha", 10)

    async def scenario() -> None:
        first = await kept.archive("alpha", games)
        again = await kept.archive("alpha", games)
        assert os.fstat(first.fileno()).st_ino == os.fstat(again.fileno()).st_ino  # not remade
        assert sorted(p.name for p in kept.folder.iterdir()) == ["archive-1.zip"]
        first.close()
        again.close()
        played = await kept.archive("alpha", [*games, *_games("alpha", 1, first=11)])
        assert sorted(p.name for p in kept.folder.iterdir()) == ["archive-2.zip"]  # made anew
        assert _logged(os.dup(played.fileno()), "alpha") == 11
        other = await kept.archive("beta", _games("beta", 3))  # one kept: alpha's goes
        assert sorted(p.name for p in kept.folder.iterdir()) == ["archive-3.zip"]
        assert _logged(os.dup(played.fileno()), "alpha") == 11  # still read by its sender
        played.close()
        other.close()

    asyncio.run(scenario())
    assert not list(kept.folder.glob(downloads.SCRATCH_PREFIX + "*"))  # scratch folders gone
    assert not (Downloads(league).folder / "archive-3.zip").exists()  # a new start: emptied


def test_downloads_made_at_once_and_waiting_are_bounded(
    league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate, lock = threading.Event(), threading.Lock()
    at_once = [0, 0]  # now, most

    def held(league: League, label: str, games: Sequence[GameLine], scratch: Path) -> Path:
        """The real maker, held at the gate: the test decides when archives get made."""
        with lock:
            at_once[0] += 1
            at_once[1] = max(at_once)
        try:
            assert gate.wait(60)
            return bot_download(league, label, games, scratch)
        finally:
            with lock:
                at_once[0] -= 1

    monkeypatch.setattr(downloads, "bot_download", held)
    kept = Downloads(league)
    allowed = downloads.MAKING + downloads.WAITING

    async def scenario() -> None:
        asked = [
            asyncio.ensure_future(kept.archive(f"bot{n}", _games(f"bot{n}", 2)))
            for n in range(allowed)
        ]
        same = asyncio.ensure_future(kept.archive("bot0", _games("bot0", 2)))  # made once
        for _ in range(200):  # every one counted and the first ones started, then waiting
            if kept.asked == allowed and at_once[0] == downloads.MAKING:
                break
            await asyncio.sleep(0.05)
        assert (kept.asked, at_once[0]) == (allowed, downloads.MAKING)
        with pytest.raises(Busy) as busy:
            await kept.archive("late", _games("late", 2))
        assert str(busy.value) == (
            f"The league is making {downloads.MAKING} downloads and {downloads.WAITING} more "
            "wait their turn; try again in a minute."
        )
        gate.set()
        done = await asyncio.gather(*asked, same)
        assert os.fstat(done[0].fileno()).st_ino == os.fstat(done[-1].fileno()).st_ino
        for archive in done:
            archive.close()
        assert at_once[1] == downloads.MAKING and kept.asked == 0
        assert len(list(kept.folder.glob("archive-*.zip"))) == allowed
        (await kept.archive("late", _games("late", 2))).close()  # room again

    asyncio.run(scenario())
