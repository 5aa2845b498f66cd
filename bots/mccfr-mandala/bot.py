#!/usr/bin/env python3
"""The mccfr-mandala bot: plays the average policy of an outcome-sampling MCCFR run.

`policy.json`, next to this file, is the average policy `arena.ecosystem.mccfr_policy`
saved (OpenSpiel's outcome-sampling MCCFR on the `arena_mandala` OpenSpiel game): a table
from an abstract information state to the probability of each label on offer there. At
each `decide` the bot computes that key and the labels from the message's `view` and
`legal_moves` with `arena.games.mandala.abstraction` (the very function the run used),
draws a label with the table's probabilities and answers with the label's representative
move; for a key the table lacks it plays a uniformly random legal move. Each game's draws
come from its `new_game` seed. Its comment says which: `policy` or `unseen`.

The policy was trained at `turn_limit` 20 (R12): play it there with
`arena play mccfr-mandala random --game-option turn_limit=20`. It plays any turn limit,
the keys do not hold the turn. It needs the arena's interpreter (`python3` in bot.toml,
as the arena runs it); not numpy, not OpenSpiel.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.games.mandala.abstraction import abstract

Table = Mapping[str, Mapping[str, float]]


POLICY = Path(__file__).with_name("policy.json")


def load(path: Path = POLICY) -> Table:
    """The saved average policy: key -> {label: probability}."""
    saved = json.loads(path.read_text())
    return dict(saved["policy"])


def choose(
    table: Table, view: Mapping[str, Any], moves: Sequence[Mapping[str, Any]], rng: random.Random
) -> tuple[int, str]:
    """The index in `moves` to play, and `policy` or `unseen` (a key the table lacks)."""
    key, labels, representatives = abstract(view, moves)
    probabilities = table.get(key)
    if probabilities is None or sorted(probabilities) != labels:
        return rng.randrange(len(moves)), "unseen"
    weights = [probabilities[label] for label in labels]
    if sum(weights) <= 0:
        return rng.randrange(len(moves)), "unseen"
    label = rng.choices(labels, weights=weights)[0]
    return representatives[labels.index(label)], "policy"


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main() -> None:
    table = load()
    rng = random.Random(0)
    for line in iter(sys.stdin.readline, ""):
        try:
            message = json.loads(line)
        except ValueError:
            print(
                f"mccfr-mandala: ignoring a line that is not JSON: {line[:80]!r}", file=sys.stderr
            )
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "mccfr-mandala", "version": "1.0"})
        elif kind == "new_game" and isinstance(message.get("seed"), int):
            rng = random.Random(message["seed"])
        elif kind == "decide":
            moves = message.get("legal_moves") or []
            try:
                index, source = choose(table, message["view"], moves, rng)
            except (KeyError, ValueError, TypeError, IndexError) as error:
                print(f"mccfr-mandala: a random move after {error!r}", file=sys.stderr)
                index, source = rng.randrange(max(1, len(moves))), "unseen"
            send({"type": "move", "move": index, "id": message["id"], "comment": source})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
