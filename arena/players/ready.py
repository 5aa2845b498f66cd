"""Making bots ready to play: built (once per process) and their program found. One place."""

from __future__ import annotations

from collections.abc import Iterable

from arena.errors import BotBuildError, BotManifestError
from arena.players.manifest import BotManifest, build_bot, refuse_forbidden
from arena.players.sandbox import check_command


def make_ready(bot: BotManifest, *, force_build: bool = False) -> None:
    """Build `bot` and check that its program can run; BotBuildError or BotManifestError
    with the sentence to show when it cannot (`arena play` and `arena check` stop there)."""
    build_bot(bot, force=force_build)
    refuse_forbidden(bot)
    check_command(bot)


def unready(bots: Iterable[BotManifest]) -> dict[str, str]:
    """Each bot of a tournament field that cannot be made ready, with why (the whole build
    output included): it loses its games with `startup_failure`, the others play."""
    broken: dict[str, str] = {}
    for bot in {bot.name: bot for bot in bots}.values():
        try:
            make_ready(bot)
        except (BotBuildError, BotManifestError) as error:
            broken[bot.name] = str(error)
    return broken
