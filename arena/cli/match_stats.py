"""What `arena play` says about two bots beyond wins: Elo with error bars, and the SPRT."""

from __future__ import annotations

from collections.abc import Callable

import click

from arena.match import MatchSummary
from arena.stats.elo import MIN_PAIRS
from arena.stats.sprt import CONTINUE, Sprt


def parse_sprt(
    context: click.Context, parameter: click.Parameter, value: str | None
) -> tuple[float, float] | None:
    """--sprt ELO0,ELO1 as two numbers, ELO0 below ELO1."""
    if value is None:
        return None
    try:
        elo0, elo1 = (float(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter(f"{value!r} is not ELO0,ELO1 (e.g. 0,10).") from None
    if not elo0 < elo1:
        raise click.BadParameter(f"ELO0 must be less than ELO1, not {value}.")
    return elo0, elo1


def sprt_test(
    sprt: tuple[float, float] | None, alpha: float, beta: float, model: str, seats: int
) -> Sprt | None:
    """The test asked for, if any; a usage error for a table of more than two seats."""
    if sprt is None:
        return None
    if seats != 2:
        raise click.UsageError("--sprt compares two bots: it needs a table of 2 seats.")
    try:
        return Sprt(sprt[0], sprt[1], alpha, beta, model)
    except ValueError as error:
        raise click.UsageError(f"--sprt: {error}.") from None


def sprt_stop(test: Sprt, quiet: bool) -> Callable[[MatchSummary], bool]:
    """After each pair: the LLR against its bounds (every pair, or every 10th if quiet)."""

    def stop(summary: MatchSummary) -> bool:
        llr = test.llr(summary.pairs)
        verdict = test.verdict(llr)
        if not quiet or summary.pairs.pairs % 10 == 0 or verdict != CONTINUE:
            click.echo(
                f"SPRT pairs {summary.pairs.pairs:>5}: LLR {llr:+.2f} "
                f"(bounds {test.lower:+.2f}, {test.upper:+.2f})"
            )
        return verdict != CONTINUE

    return stop


def format_sprt(test: Sprt, summary: MatchSummary) -> str:
    """The SPRT's verdict in one line."""
    llr = test.llr(summary.pairs)
    verdict = test.verdict(llr)
    kind = "nElo" if test.model == "normalized" else "Elo"
    first = summary.tallies[0].name
    said = {
        "H1": f"H1 accepted: {first} is better (nearer {test.elo1:g} than {test.elo0:g} {kind})",
        "H0": f"H0 accepted: {first} is not better by {test.elo1:g} {kind} (nearer {test.elo0:g})",
    }.get(verdict, "no verdict within --max-games")
    return (
        f"SPRT [{test.elo0:g}, {test.elo1:g}] {kind}, alpha {test.alpha:g}, beta {test.beta:g}: "
        f"LLR {llr:+.2f} (bounds {test.lower:+.2f}, {test.upper:+.2f}) after "
        f"{summary.games} games: {said}."
    )


def _elo(value: float | None, error: float | None, too_few: bool = False) -> str:
    if value is None:
        return "no finite estimate"
    if error is None:  # too few deals for an interval, or one that reaches 0% or 100%
        return f"{value + 0.0:+.1f}" + (" (too few games)" if too_few else "")
    return f"{value + 0.0:+.1f} ± {error:.1f} (95%)"


def format_elo(summary: MatchSummary) -> list[str]:
    """Two seats: Elo from games and from pairs, nElo, LOS, draws, pentanomial counts."""
    games, pairs = summary.elo_from_games(), summary.elo_from_pairs()
    if games.units == 0:
        return []
    first = summary.tallies[0].name
    draws = summary.first_bot_points[1] / summary.games
    los = "n/a" if games.los is None else f"{games.los:.1%}"
    few_games = games.units < 2 * MIN_PAIRS
    lines = [
        f"Elo of {first} (games): {_elo(games.elo, games.error, few_games)}, "
        f"nElo {_elo(games.nelo, games.nelo_error, few_games)}, LOS {los}, "
        f"draw ratio {draws:.1%}"
    ]
    if pairs.units:
        p = summary.pairs
        line = (
            f"Elo of {first} (pairs): {_elo(pairs.elo, pairs.error, pairs.units < MIN_PAIRS)}; "
            f"pairs LL {p.ll}, LD {p.ld}, DD/WL {p.dd + p.wl}, WD {p.wd}, WW {p.ww}"
        )
        if games.error and pairs.error:
            line += f"; the pair interval is {1 - pairs.error / games.error:.0%} narrower"
        lines.append(line)
    return lines
