"""A tournament stops when a bot cannot start: its forfeits would be read as a result.

Issue 20: a run whose bots could not start printed a leaderboard of start-up failures and
exited 0. A bot that could not be built or whose program is missing stops the tournament
before its first game; a bot that fails to start in each of its first table's games (a
table's worth of games, `seats` of them) and has started in none stops it then. Games
already logged stay, so the run continues with `--resume` once the bot is fixed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from arena.errors import TournamentError
from arena.outcome import Termination
from arena.results.log import GameLine


def refuse_unready(broken: Mapping[str, str], run_dir: Path) -> None:
    """TournamentError for the first bot of the field that cannot be made ready."""
    for name, why in broken.items():
        raise TournamentError(
            f"Bot {name!r} cannot start, so no game was played: {_quoted(why)} (all of it is "
            f"in {run_dir / 'run.log'}). Fix it, then start the run with "
            f"`arena run --resume --out {run_dir}`, or leave the bot out of the field."
        )


class StartupWatch:
    """Counts each bot's start-up failures and its games started; says when to stop."""

    def __init__(self, seats: int, run_dir: Path) -> None:
        self.seats = seats
        self.run_dir = run_dir
        self.failed: Counter[str] = Counter()
        self.started: Counter[str] = Counter()

    def feed(self, line: GameLine) -> None:
        """Count `line`; TournamentError when a bot has failed a table's worth of starts
        and started no game."""
        if line.termination != Termination.STARTUP_FAILURE.value or line.faulty_seat is None:
            self.started.update(line.players)
            return
        if not 0 <= line.faulty_seat < len(line.players):
            return
        name = line.players[line.faulty_seat]
        self.failed[name] += 1
        if self.failed[name] >= self.seats and self.started[name] == 0:
            raise TournamentError(
                f"Bot {name!r} could not start in any of its first {self.failed[name]} games "
                f"({_first_line(line.reason)}), so the tournament stopped: its forfeits are "
                f"no result. See {self.run_dir / 'logs' / (name + '.stderr.log')}, fix the "
                f"bot, then continue with `arena run --resume --out {self.run_dir}`."
            )


def _quoted(why: str, cap: int = 300) -> str:
    """A start-up error in one line: its sentence and the last line of the build's output."""
    lines = [line.strip() for line in why.strip().splitlines() if line.strip()]
    text = " ".join(lines[:1] + lines[-1:] if len(lines) > 1 else lines) or "no reason given"
    text = text.rstrip(". ")
    return text if len(text) <= cap else text[: cap - 3] + "..."


def _first_line(text: str) -> str:
    """The first line of `text`, without its closing punctuation, to quote in a sentence."""
    lines = text.strip().splitlines()
    return lines[0].rstrip(":. ") if lines else "no reason given"
