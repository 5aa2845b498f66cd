"""The generalized sequential probability ratio test (GSPRT) on pentanomial pair results.

H0: the Elo difference is elo0; H1: it is elo1. After each pair the log-likelihood ratio
(LLR) of the results under the two hypotheses is compared with the bounds
log(beta / (1 - alpha)) and log((1 - beta) / alpha): below the lower, H0 is accepted; above
the upper, H1. The LLR is the one of fastchess (app/src/matchmaking/sprt/sprt.cpp, after
Michel Van den Bergh's notes): the maximum-likelihood distribution of the outcomes with the
expected score (logistic model) or the normalised score (normalised model) of each
hypothesis, with empty outcome classes regularised to 1e-3.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from arena.stats.elo import NELO_SCALE, Pentanomial

MODELS = ("logistic", "normalized")
H0, H1, CONTINUE = "H0", "H1", "continue"

_PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
_GAME_SCORES = (0.0, 0.5, 1.0)


@dataclass(frozen=True)
class Sprt:
    """A test of elo0 against elo1 with error rates alpha and beta."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 must be less than elo1, not {self.elo0} and {self.elo1}")
        for name in ("alpha", "beta"):
            if not 0.0 < getattr(self, name) < 1.0:
                raise ValueError(f"{name} must be between 0 and 1, not {getattr(self, name)}")
        if self.alpha + self.beta >= 1.0:
            raise ValueError("alpha + beta must be less than 1")
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {', '.join(MODELS)}, not {self.model!r}")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Pentanomial) -> float:
        """The log-likelihood ratio of H1 against H0 after these pairs (0 with none)."""
        if counts.pairs == 0:
            return 0.0
        weights = (counts.ll, counts.ld, counts.wl + counts.dd, counts.wd, counts.ww)
        return self._llr(_PAIR_SCORES, weights, math.sqrt(2.0))

    def llr_games(self, wins: int, draws: int, losses: int) -> float:
        """The same from game results (trinomial), for fastchess's trinomial vectors."""
        if wins + draws + losses == 0:
            return 0.0
        return self._llr(_GAME_SCORES, (losses, draws, wins), 1.0)

    def verdict(self, llr: float) -> str:
        """H0, H1, or continue."""
        if llr >= self.upper:
            return H1
        if llr <= self.lower:
            return H0
        return CONTINUE

    def _llr(self, scores: Sequence[float], weights: Sequence[int], root2: float) -> float:
        counts = [float(w) if w else 1e-3 for w in weights]  # fastchess's regularisation
        total = sum(counts)
        probs = [c / total for c in counts]
        if self.model == "normalized":
            t0, t1 = (root2 * elo / NELO_SCALE for elo in (self.elo0, self.elo1))
            p0, p1 = _mle_normalized(scores, probs, t0), _mle_normalized(scores, probs, t1)
        else:
            s0, s1 = (1.0 / (1.0 + 10.0 ** (-elo / 400.0)) for elo in (self.elo0, self.elo1))
            p0, p1 = _mle_logistic(scores, probs, s0), _mle_logistic(scores, probs, s1)
        return total * sum(
            p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1, strict=True)
        )


def _root(f: Callable[[float], float], low: float, high: float, epsilon: float) -> float:
    """The root of a monotonic `f` strictly inside (low, high), where it goes to infinity
    at the ends, by bisection (f is never evaluated at the ends themselves)."""
    rising = f(low + (high - low) * 1e-9) < 0.0
    while high - low > 2.0 * epsilon:
        middle = (low + high) / 2.0
        value = f(middle)
        if value == 0.0:
            return middle
        if (value < 0.0) == rising:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


def _mle_logistic(scores: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """The distribution nearest the observed one with expected score `s` (Van den Bergh,
    "Comparing the approximations...", Proposition 1.1)."""
    low, high = -1.0 / (scores[-1] - s), -1.0 / (scores[0] - s)

    def f(theta: float) -> float:
        return sum(
            p * (a - s) / (1.0 + theta * (a - s)) for a, p in zip(scores, probs, strict=True)
        )

    theta = _root(f, low, high, 1e-9)
    return [p / (1.0 + theta * (a - s)) for a, p in zip(scores, probs, strict=True)]


def _mle_normalized(scores: Sequence[float], probs: Sequence[float], t_star: float) -> list[float]:
    """The distribution with normalised score `t_star` nearest the observed one (Van den
    Bergh, "Comments on normalized Elo", section 4.1), iterated from the uniform one."""
    p = [1.0 / len(scores)] * len(scores)
    for _ in range(10):
        mu = sum(a * q for a, q in zip(scores, p, strict=True))
        sigma = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(scores, p, strict=True)))
        phi = [a - 0.5 - 0.5 * t_star * sigma * (1.0 + ((a - mu) / sigma) ** 2) for a in scores]
        low, high = -1.0 / max(phi), -1.0 / min(phi)

        def f(theta: float, phi: list[float] = phi) -> float:
            return sum(q * v / (1.0 + theta * v) for q, v in zip(probs, phi, strict=True))

        theta = _root(f, low, high, 1e-9)
        new = [q / (1.0 + theta * v) for q, v in zip(probs, phi, strict=True)]
        done = max(abs(a - b) for a, b in zip(new, p, strict=True)) < 1e-4
        p = new
        if done:
            break
    return p
