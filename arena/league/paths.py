"""Paths the league writes, reads or deletes, proven to lie inside its folder before it acts.

A bot's folder and its label come from the store, which an older arena (or a hand) may have
filled with a name such as `..`: every path built from them is resolved (links followed) and
compared with the resolved folder it must be in, never trusted as written.
"""

from __future__ import annotations

from pathlib import Path

from arena.errors import ArenaError
from arena.league.store import Bot
from arena.names import RULE, is_name


class PathError(ArenaError):
    """A path that would leave the part of the league's folder it belongs in; one sentence."""


def inside(folder: Path, relative: str | Path, below: str = "") -> Path:
    """`folder / relative` resolved, when it lies strictly inside `folder / below` (resolved
    too: not that folder itself, nor anywhere else); PathError otherwise."""
    refused = PathError(
        f"{str(relative)!r:.80} is not a path inside {folder / below}; the league will not "
        "touch it (a bad name in its store, made by an older arena?)."
    )
    try:
        base = (folder / below).resolve()
        path = (folder / relative).resolve()
    except (OSError, ValueError, RuntimeError):  # a NUL byte, a loop of links
        raise refused from None
    if path == base or not path.is_relative_to(base):
        raise refused
    return path


def bot_folders(folder: Path, bot: Bot) -> tuple[Path, Path]:
    """A bot version's folder (`bots/<label>`) and its checks' folder (`checks/<label>`) in
    the league folder `folder`, each proven inside; PathError when the store holds a name
    that breaks the rule (an older arena's) or a folder other than the league gives."""
    if not is_name(bot.name):
        raise PathError(
            f"Its name {bot.name!r:.60} is not one this arena accepts ({RULE}), so the "
            "league leaves its files alone and does not play it; submit it under another name."
        )
    if bot.folder != f"bots/{bot.label}":
        raise PathError(
            f"Its folder {bot.folder!r:.80} is not bots/{bot.label}, so the league leaves it "
            "alone and does not play it; submit it again."
        )
    found = inside(folder, bot.folder, "bots"), inside(folder, f"checks/{bot.label}", "checks")
    for path, below in zip(found, ("bots", "checks"), strict=True):
        if path != (folder / below).resolve() / bot.label:  # a link to another place
            raise PathError(
                f"{below}/{bot.label} leads to {path}, so the league leaves it alone and "
                "does not play it; remove the link."
            )
    return found
