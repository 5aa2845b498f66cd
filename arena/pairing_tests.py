"""`arena run --until-decided ELO0,ELO1`: an SPRT per pairing of a 2-seat tournament, fed from
the games log, so the schedule can skip the tables of pairings already decided."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from arena.results.log import GameLine
from arena.stats.elo import Pentanomial, game_points
from arena.stats.sprt import CONTINUE, Sprt


class PairingTests:
    """One SPRT per two bots, on their seat-swapped pairs, from the first-named bot's side."""

    def __init__(self, test: Sprt, logged: Iterable[GameLine] = ()) -> None:
        self.test = test
        self.pairs: dict[tuple[str, str], Pentanomial] = defaultdict(Pentanomial)
        self.verdicts: dict[tuple[str, str], str] = {}
        self._first: dict[tuple[int, int], float] = {}
        for line in sorted(logged, key=lambda g: (g.seq, g.game_id)):
            self.feed(line)

    def feed(self, line: GameLine) -> None:
        """Count one game; a pair is complete when both games of its table are in."""
        if len(line.players) != 2:
            return
        key = tuple(sorted(line.players))
        assert len(key) == 2
        pairing = (key[0], key[1])
        points = game_points(line.ranks, line.players.index(pairing[0]))
        table = (line.round, line.table)
        first = self._first.pop(table, None)
        if first is None:
            self._first[table] = points
            return
        self.pairs[pairing] = self.pairs[pairing].add(first, points)
        verdict = self.test.verdict(self.test.llr(self.pairs[pairing]))
        if verdict != CONTINUE:
            self.verdicts.setdefault(pairing, verdict)

    def decided(self, players: Sequence[str]) -> bool:
        """True when the pairing of these two bots has its verdict (its tables are skipped)."""
        key = tuple(sorted(players))
        return len(key) == 2 and (key[0], key[1]) in self.verdicts
