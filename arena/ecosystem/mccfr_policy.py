"""Outcome-sampling MCCFR on one of our OpenSpiel games, its average policy saved for a bot.

    .venv/bin/python -m arena.ecosystem.mccfr_policy --game mandala --option turn_limit=20 \\
        --iterations 3000 --out bots/mccfr-mandala/policy.json

OpenSpiel's `outcome_sampling_mccfr.OutcomeSamplingSolver` (DeepMind's code, unchanged)
runs on `pyspiel.load_game("arena_<game>", options)`, the perfect-recall game of
`arena.ecosystem.openspiel_games`, its chance nodes and all. It sees that game through the
game's abstraction (`arena/games/<game>/abstraction.py`, only Mandala has one): its
information states are the abstraction's keys and its actions the labels on offer, each
played as its representative move. A perfect-recall information state almost never comes
back within minutes of training (see the abstraction's module), so a table keyed by it
would hold nothing for the games a bot plays; the abstraction's keys come back all the time,
and a bot computes them from its `decide` messages.

The average policy is saved as JSON, `{"policy": {key: {label: probability}}, ...}` with the
run's figures beside it (game, options, iterations, seed, seconds, the command and the
commit that made it), at most `MAX_KEYS` keys (those
the run reached most). `bots/mccfr-mandala` plays it.
"""

from __future__ import annotations

import argparse
import importlib
import json
import shlex
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mccfr, outcome_sampling_mccfr

import arena.ecosystem.openspiel_games  # noqa: F401  (registers the arena_* games)
from arena.errors import GameError

MAX_KEYS = 20_000
"""The most keys a saved policy keeps (a few MB of JSON at most)."""


def abstraction(game: str) -> ModuleType:
    """The game's abstraction module: `abstract(view, moves)`, and `move_of(code)` the move
    of an action code (as `action_to_string` says it, without its cost); GameError if the
    game has none."""
    try:
        return importlib.import_module(f"arena.games.{game}.abstraction")
    except ImportError:
        raise GameError(f"{game} has no abstraction for MCCFR; mandala has one.") from None


class AbstractState:
    """A state of the OpenSpiel game as the solver sees it: keys for information states,
    label indices for actions. The solver plays it in place, as it does its own states."""

    def __init__(self, state: Any, abstraction: ModuleType) -> None:
        self.state = state
        self._abstract_of = abstraction.abstract
        self._move_of = abstraction.move_of
        self._decision: tuple[str, list[int]] | None = None

    def _abstract(self) -> tuple[str, list[int]]:
        if self._decision is None:
            state = self.state
            player = state.current_player()
            codes = state.legal_actions()
            moves = [self._move_of(code) for code in codes]
            view = json.loads(state.observation_string(player))
            key, _, representatives = self._abstract_of(view, moves)
            self._decision = key, [codes[index] for index in representatives]
        return self._decision

    def information_state_string(self, player: int) -> str:
        return self._abstract()[0]

    def legal_actions(self) -> list[int]:
        return list(range(len(self._abstract()[1])))

    def apply_action(self, action: int) -> None:
        code = action if self.state.is_chance_node() else self._abstract()[1][action]
        self._decision = None
        self.state.apply_action(code)

    def is_terminal(self) -> bool:
        return bool(self.state.is_terminal())

    def is_chance_node(self) -> bool:
        return bool(self.state.is_chance_node())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self.state.chance_outcomes())

    def current_player(self) -> int:
        return int(self.state.current_player())

    def player_return(self, player: int) -> float:
        return float(self.state.player_return(player))


class AbstractGame:
    """The game the solver is given: `arena_<game>` with `AbstractState`s."""

    def __init__(self, game: str, options: Mapping[str, Any]) -> None:
        self.abstraction = abstraction(game)
        self.game = pyspiel.load_game(f"arena_{game}", dict(options))

    def get_type(self) -> Any:
        return self.game.get_type()

    def num_players(self) -> int:
        return int(self.game.num_players())

    def new_initial_state(self) -> AbstractState:
        return AbstractState(self.game.new_initial_state(), self.abstraction)


def train(game: str, options: Mapping[str, Any], iterations: int, seed: int) -> dict[str, Any]:
    """Run the solver `iterations` times (an episode per seat each) and return the saved
    form of its average policy, with the run's figures."""
    np.random.seed(seed)  # the solver samples with numpy's global generator
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(AbstractGame(game, options))
    start = time.perf_counter()
    for _ in range(iterations):
        solver.iteration()
    seconds = time.perf_counter() - start
    return {
        "game": game,
        "config": dict(options),
        "iterations": iterations,
        "seed": seed,
        "seconds": round(seconds, 1),
        "policy": average_table(solver._infostates),
    }


def average_table(infostates: Mapping[str, Sequence[Any]]) -> dict[str, dict[str, float]]:
    """key -> {label: probability} of the average policy, the `MAX_KEYS` most reached keys
    (by the weight the solver added to their average); a key's labels are its second word."""
    weights = {key: float(np.sum(info[mccfr.AVG_POLICY_INDEX])) for key, info in infostates.items()}
    kept = [key for key in sorted(weights, key=lambda key: -weights[key]) if weights[key] > 0]
    table = {}
    for key in sorted(kept[:MAX_KEYS]):
        average = np.asarray(infostates[key][mccfr.AVG_POLICY_INDEX], dtype=np.float64)
        labels = key.split(" ")[1].split(",")
        total = float(average.sum())
        table[key] = {
            label: round(float(p) / total, 4) for label, p in zip(labels, average, strict=True)
        }
    return table


def commit() -> str:
    """The commit of the code that trains (`git rev-parse HEAD`, with "+changes" when the
    work tree differs from it), or "unknown" outside a git checkout."""
    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if head.returncode != 0:
        return "unknown"
    return head.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"an option is KEY=VALUE, not {text!r}")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True, help="a game with an abstraction: mandala")
    parser.add_argument("--option", type=_option, action="append", default=[], help="KEY=VALUE")
    parser.add_argument("--iterations", type=int, default=3000, help="solver iterations")
    parser.add_argument("--seed", type=int, default=1, help="seed of the solver's sampling")
    parser.add_argument("--out", type=Path, required=True, help="the policy's JSON file")
    args = parser.parse_args(argv)
    try:
        saved = train(args.game, dict(args.option), args.iterations, args.seed)
    except (GameError, pyspiel.SpielError) as error:
        parser.exit(2, f"{error}\n")
    given = sys.argv[1:] if argv is None else argv
    saved["command"] = shlex.join(["python", "-m", "arena.ecosystem.mccfr_policy", *given])
    saved["commit"] = commit()
    args.out.write_text(json.dumps(saved, indent=0, sort_keys=True) + "\n")
    print(
        f"{saved['iterations']} iterations of outcome-sampling MCCFR on arena_{args.game} "
        f"{saved['config']} in {saved['seconds']} s: {len(saved['policy'])} keys in {args.out}"
    )


if __name__ == "__main__":
    main()
