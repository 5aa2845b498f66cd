"""Issue 41: each starter kit, sent to a league as `arena submit` sends it, passes the
league's check (built in its sandbox) and is rated. One league takes them all (a starter
whose toolchain is missing here is skipped, naming it); each starter's test reads its bot."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.league import web
from arena.league.checking import CheckPolicy
from arena.league.league import League
from arena.players.languages import LANGUAGES, Language
from arena.players.limits import Limits
from arena.players.toolchains import find_toolchain
from tests.league_support import Site, bot_archive

BOTS = Path(__file__).resolve().parents[1] / "bots"
STARTERS = [lang for lang in LANGUAGES if lang.starter and (BOTS / lang.starter).is_dir()]
PRESENT = [lang for lang in STARTERS if find_toolchain(lang.key).found]
RATED_WITHIN_S = 300.0


@pytest.fixture(scope="module")
def league_of_starters(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A league where every present starter was submitted, checked and played a game or more."""
    tmp_path = tmp_path_factory.mktemp("starters")
    tmp_path.chmod(0o755)
    league = League(
        tmp_path / "league",
        workers=0,
        limits=Limits(move_ms=5000, startup_ms=20_000),
        checking=CheckPolicy(checks=2),
    )
    try:
        with web.serving(league) as url:
            site = Site(league, int(url.rsplit(":", 1)[1]))
            author = league.store.author_of(site.ada)
            assert author is not None
            for language in PRESENT:  # as POST /api/bots does, without its rate limits
                league.submit(
                    author, bot_archive(tmp_path, language.starter, f"{language.key}-bot")
                )
            for language in PRESENT:
                site.wait_status(f"{language.key}-bot", "active")
            league.start()
            deadline = time.monotonic() + RATED_WITHIN_S
            while time.monotonic() < deadline and len(unrated(site)) > 0:
                time.sleep(0.5)
            league.set_paused(True)
            yield site
    finally:
        league.close()


def unrated(site: Site) -> list[str]:
    board = site.call("GET", "/api/leaderboard")[1]
    games = {row["bot"]: row["games"] for row in board}
    return [f"{lang.key}-bot" for lang in PRESENT if games.get(f"{lang.key}-bot", 0) == 0]


@pytest.mark.parametrize("language", STARTERS, ids=[language.key for language in STARTERS])
def test_each_starter_submitted_to_a_league_passes_its_check_and_is_rated(
    language: Language, league_of_starters: Site
) -> None:
    toolchain = find_toolchain(language.key)
    if not toolchain.found:
        pytest.skip(f"{language.name}'s toolchain is missing here: {toolchain.failure}")
    label = f"{language.key}-bot"
    status, bot = league_of_starters.call("GET", f"/api/bots/{label}")
    assert status == 200 and bot["status"] == "active", bot
    assert label not in unrated(league_of_starters)
