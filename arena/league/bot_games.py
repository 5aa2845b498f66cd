"""What the API says of one bot beyond its report (boards.bot_report), and the sentences that
answer a leaderboard query with nothing in it.

- `page_query` and `games_page`: a bot's games newest first, a page at a time (`?page=N`,
  PAGE_GAMES a page, or `?offset=&limit=` with at most MAX_LIMIT), read from the store a
  page at a time, each with every seat's bot, place and score and how the game ended;
- `Trail`: each bot's TrueSkill mu and sigma after each of its games, kept as the league
  rates its games (one update per game, never a re-rating) and thinned as it grows, so a
  bot keeps at most 2 x HISTORY_POINTS points however long it plays; persisted with the
  games (league_state.py), so a bot's page reads it at once, after a restart too;
- `verdict_words`: a version's SPRT in words ("alpha.v3 is no better than alpha.v2 (SPRT, 5%
  error)"), the LLR beside it in the API;
- `typed_rows`: the leaderboard's rows with one JSON type per field (a failure count rather
  than "" or "crash 2", the kinds in `failure_kinds`; a bot's author, version and status
  null rather than absent);
- `refused_query` and `empty_board`: `?seats=3` in a league that never had tables of 3
  (the sizes are the league's standings'), a range that runs backwards, a custom
  leaderboard with no game: one sentence each.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.league import public
from arena.league.candidates import Verdict
from arena.league.exposure import BoardQuery, QueryError
from arena.results.log import GameLine
from arena.stats.sprt import CONTINUE, H1, Sprt

PAGE_GAMES = 50
MAX_LIMIT = 200
MAX_NUMBER_DIGITS = 9
HISTORY_POINTS = 200


def page_query(query: Mapping[str, str]) -> tuple[int, int]:
    """The offset and limit a games query asks for: `page=N` (from 1, PAGE_GAMES a page), or
    `offset=` and `limit=` (at most MAX_LIMIT); QueryError with one sentence otherwise."""

    def number(name: str, low: int, high: int, example: str) -> int | None:
        text = query.get(name, "")
        if not text:
            return None
        if not (len(text) <= MAX_NUMBER_DIGITS and text.isascii() and text.isdigit()):
            raise QueryError(f"{name}= is a whole number, e.g. {name}={example}.")
        value = int(text)
        if not low <= value <= high:
            raise QueryError(f"{name}= is from {low} to {high:,}, e.g. {name}={example}.")
        return value

    page = number("page", 1, 10**MAX_NUMBER_DIGITS - 1, "2")
    offset = number("offset", 0, 10**MAX_NUMBER_DIGITS - 1, "100")
    limit = number("limit", 1, MAX_LIMIT, "50")
    if page is not None:
        if offset is not None or limit is not None:
            raise QueryError("Give page= or offset= and limit=, not both.")
        return (page - 1) * PAGE_GAMES, PAGE_GAMES
    return offset or 0, limit or PAGE_GAMES


def games_page(
    label: str,
    page: Sequence[GameLine],
    total: int,
    offset: int,
    limit: int,
    folder: Path | None = None,
) -> dict[str, Any]:
    """A page of bot `label`'s games: `page`, the `limit` from `offset` newest first (read
    from the store: Store.bot_games), of its `total`: each game's id, time, table size,
    every seat's bot, place (1 is first) and score, and how it ended (reasons made
    public)."""
    rows = []
    for line in page:
        rows.append(
            {
                "game_id": line.game_id,
                "finished_at": line.finished_at,
                "seats": len(line.players),
                "seat": line.players.index(label),
                "players": [
                    {"bot": name, "place": rank + 1, "score": score}
                    for name, rank, score in zip(line.players, line.ranks, line.scores, strict=True)
                ],
                "place": line.ranks[line.players.index(label)] + 1,
                "end": line.end or line.termination,
                "termination": line.termination,
                "reason": public.message(line.reason, folder),
                "turns": line.turns,
            }
        )
    return {
        "bot": label,
        "total": total,
        "offset": offset,
        "limit": limit,
        "page": offset // limit + 1,
        "pages": max(1, math.ceil(total / limit)),
        "games": rows,
    }


class Trail:
    """One bot's rating after each of its games, every `stride`-th kept (games, mu, sigma
    flat in `points`), the last always: at most 2 x HISTORY_POINTS points, the stride
    doubling as it fills. Kept as the league rates each game (league_state.py), and
    persisted with it: a bot's page reads it, never replays the games."""

    def __init__(self) -> None:
        self.games = 0
        self.stride = 1
        self.points = array("d")
        self.last = (0, 25.0, 25.0 / 3.0)

    def add(self, mu: float, sigma: float) -> bool:
        """The bot's rating after its next game; whether a point was kept (`points` changed)."""
        self.games += 1
        self.last = (self.games, mu, sigma)
        if self.games % self.stride:
            return False
        self.points.extend(self.last)
        if len(self.points) >= 3 * 2 * HISTORY_POINTS:  # keep the multiples of twice the stride
            kept = array("d")
            for at in range(3, len(self.points), 6):
                kept.extend(self.points[at : at + 3])
            self.points = kept
            self.stride *= 2
        return True

    def shown(self) -> list[dict[str, float]]:
        """From its start (0 games) to its latest game, at most HISTORY_POINTS + 2 points:
        games, mu, sigma."""
        points = [tuple(self.points[at : at + 3]) for at in range(0, len(self.points), 3)]
        step = max(1, math.ceil(len(points) / HISTORY_POINTS))
        chosen = [(0, 25.0, 25.0 / 3.0), *points[step - 1 :: step]]
        if chosen[-1] != self.last:
            chosen.append(self.last)
        return [
            {"games": int(games), "mu": round(mu, 3), "sigma": round(sigma, 3)}
            for games, mu, sigma in chosen
        ]

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "stride": self.stride, "points": self.points.tolist(),
                "last": list(self.last)}  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Trail:
        trail = cls()
        trail.games, trail.stride = int(data["games"]), int(data["stride"])
        trail.points = array("d", data["points"])
        games, mu, sigma = data["last"]
        trail.last = (int(games), float(mu), float(sigma))
        return trail


def verdict_words(version: int, verdict: Verdict | None, test: Sprt) -> str:
    """A version's SPRT in words: better, no better, still testing, or untested."""
    if verdict is None:
        if version < 2:
            return "a first version: nothing to test it against"
        return "untested: no active earlier version"
    errors = f"{test.alpha:.0%}" if test.alpha == test.beta else f"{test.alpha:.0%}/{test.beta:.0%}"
    if verdict.verdict == CONTINUE:
        return f"still testing against {verdict.previous}: {verdict.games} games"
    worded = "better than" if verdict.verdict == H1 else "no better than"
    return f"{verdict.candidate} is {worded} {verdict.previous} (SPRT, {errors} error)"


_BOT_FIELDS = ("name", "version", "author", "status")


def typed_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Leaderboard rows with one JSON type per field: `failures` a count (the kinds, e.g.
    {"crash": 2}, in `failure_kinds`), a bot's name, version, author and status null where
    the store does not know it, never absent."""
    typed = []
    for row in rows:
        shown = dict(row)
        failures = row.get("failures")
        if isinstance(failures, str):
            kinds = {}
            for part in failures.split(","):
                kind, _, count = part.strip().rpartition(" ")
                if kind and count.isdigit():
                    kinds[kind] = int(count)
            shown["failures"], shown["failure_kinds"] = sum(kinds.values()), kinds
        for field in _BOT_FIELDS:
            shown.setdefault(field, None)
        typed.append(shown)
    return typed


def refused_query(asked: BoardQuery, sizes: set[int], plays: int) -> tuple[int, str] | None:
    """Why a custom leaderboard query cannot hold a game, before it is made, with its HTTP
    status: tables of a size the league never had (404), a range that runs backwards (400);
    None when it may hold one."""
    if asked.seats is not None and asked.seats not in sizes and asked.seats != plays:
        had = sorted(sizes - {plays})
        also = f"; it had tables of {', '.join(map(str, had))} before" if had else ""
        return 404, f"This league has no tables of {asked.seats} seats (it plays {plays}{also})."
    if asked.since and asked.until and asked.since > asked.until:
        return 400, "since= is after until=; give a range that runs forward, e.g. since=2026-11-25."
    return None


def empty_board(asked: BoardQuery) -> str:
    """The sentence for a custom leaderboard that holds no game."""
    parts = []
    if asked.since and asked.until:
        parts.append(f"finished from {asked.since} to {asked.until}")
    elif asked.since:
        parts.append(f"finished since {asked.since}")
    elif asked.until:
        parts.append(f"finished until {asked.until}")
    if asked.among:
        parts.append(f"among {', '.join(sorted(asked.among))} alone")
    if asked.seats is not None:
        parts.append(f"at tables of {asked.seats} seats")
    return (
        f"No game of this league {' and '.join(parts)}; widen the range or the bots "
        "(the plain leaderboard has every game)."
    )
