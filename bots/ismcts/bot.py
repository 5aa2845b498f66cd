#!/usr/bin/env python3
"""The ismcts bot: information-set Monte Carlo tree search with the arena's own engine.

It plays every game whose engine has a determinizer (`Game.determinizer()`: Mandala,
Flowers and Takenoko), and learns which game from the referee's `hello` and `new_game`. Each iteration
deals what this seat cannot see (other hands, the deck order, for Flowers the tile
stacks) at random from the unseen cards, then walks one shared tree (single-observer
ISMCTS: the tree's edges are moves, a move's statistics count only the iterations where
it was legal), adds one node, plays on with a light policy and backs the result up: each
node adds the reward of the seat that made its move, so any number of seats works.

The policies: Mandala's playouts are "light heuristic" (Build Mountain, Grow Field and
Discard & Redraw with fixed odds, claims prefer large piles), scored by the projected River
and Cup worth of both players. Flowers' playouts mostly play a single card. Takenoko's
complete a card whenever one holds, and a position counts the hands' progress toward their
cards. Another game with a determinizer plays its playouts uniformly at random. A playout
stops after a fixed number of plies and the position is scored by each seat's lead, so a
budget of tens of milliseconds is enough. A game without a determinizer (OpenSpiel's) it
cannot search: its bot.toml lists the games it plays, and the arena refuses it at others.

Options: `--ms N` per-decision budget (always kept under half the referee's `time_ms`),
`--iterations N` a fixed number of iterations instead (reproducible with `--seed`).
It needs the `arena` package: run it with the arena's interpreter (`python3` in bot.toml).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from typing import Any

from arena.errors import ArenaError
from arena.game_sources import get_game
from arena.games import GameState
from arena.games.flowers.components import flower_score, single_score
from arena.games.flowers.state import FlowersState
from arena.games.mandala.cards import (
    BUILD_BASE,
    CLAIM_BASE,
    DISCARD_BASE,
    GROW_BASE,
)
from arena.games.mandala.state import MandalaState
from arena.games.takenoko.cards import OBJECTIVES
from arena.games.takenoko.components import GardenerObjective, PandaObjective
from arena.games.takenoko.objectives import Garden
from arena.games.takenoko.state import TakenokoState

# UCB exploration constant, for rewards in [0, 1].
EXPLORATION = 0.7
# Playouts stop after this many plies; the position is then scored (see `evaluate`).
PLAYOUT_PLIES = 18
# The playout's odds of each kind of turn action, when the kind is available.
KIND_WEIGHTS = (0.55, 0.35, 0.10)  # Build Mountain, Grow Field, Discard & Redraw
# Points of advantage that make a win about 73% likely (the logistic's scale).
POINT_SCALE = 8.0
# Flowers playouts play a single card (and draw) this often, face up where they can;
# otherwise any legal play.
SINGLE_CARD_ODDS = 0.8
# Flowers: points of lead that make a win about 73% likely; what a tile with no partner
# yet is worth beyond its face value (it may make a Flower later).
FLOWERS_SCALE = 6.0
# Flowers playouts are shorter: the evaluation already looks ahead at every Mandala.
FLOWERS_PLAYOUT_PLIES = 8
FLOWERS_PAIR_HOPE = 2.0
# Takenoko: short playouts (a turn is many small decisions; the evaluation looks at the
# hands), points of lead that make a win about 73% likely, the share of a card's points
# counted while it holds but is not claimed yet, and the most counted for progress toward it.
TAKENOKO_PLAYOUT_PLIES = 12
TAKENOKO_SCALE = 6.0
TAKENOKO_HELD = 0.9
TAKENOKO_NEAR = 0.5
# Log each search to stderr (the bot log); off for in-process use such as tests.
LOG = False
# A Cup card of a colour not in the River yet counts for this fraction of a late slot.
UNPLACED_WEIGHT = 0.45


class Node:
    """A tree node: the move that led here, its statistics and its children."""

    __slots__ = ("seat", "visits", "reward", "avail", "children")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # the seat that made the move into this node
        self.visits = 0
        self.reward = 0.0  # summed rewards for `seat`
        self.avail = 0  # iterations in which this move was legal at its parent
        self.children: dict[Any, Node] = {}


def worth(river: list[int], cup: list[int]) -> float:
    """Projected end-of-game worth: River colours score their slot; the others, the best
    free slots (most Cup cards last), discounted because the game may end first."""
    total = 0.0
    slot = 0
    for colour in river:
        slot += 1
        total += cup[colour] * slot
    for n in sorted(cup[c] for c in range(6) if c not in river):
        slot += 1
        total += UNPLACED_WEIGHT * n * slot
    return total


def evaluate(state: MandalaState) -> float:
    """The chance that seat 0 wins, as a number in [0, 1]."""
    if state.over:
        s0, s1 = state.score(0), state.score(1)
        if s0 == s1:
            c0, c1 = sum(state.cup(0)), sum(state.cup(1))  # R13: fewer Cup cards wins
            return 0.5 if c0 == c1 else (1.0 if c0 < c1 else 0.0)
        return 1.0 if s0 > s1 else 0.0
    diff = worth(state.rivers[0], state.cup(0)) - worth(state.rivers[1], state.cup(1))
    return 1.0 / (1.0 + math.exp(-diff / POINT_SCALE))


def playout_action(state: MandalaState, rng: random.Random) -> int:
    """A light-heuristic move, made without listing the legal moves (that is the cost).

    Claims: the larger pile, usually. Turns: a random card of the hand picks the colour,
    then Build Mountain, Grow Field or Discard & Redraw by fixed odds, where legal.
    """
    if state.destroying >= 0:
        mountain = state.mountains[state.destroying]
        left = [c for c in range(6) if mountain[c]]
        if rng.random() < 0.75:
            return CLAIM_BASE + max(left, key=mountain.__getitem__)
        return CLAIM_BASE + rng.choice(left)
    seat = state.current
    hand = state.hands[seat]
    size = state.hand_sizes[seat]
    random_ = rng.random
    pick = int(random_() * size)
    colour = 0
    while pick >= hand[colour]:
        pick -= hand[colour]
        colour += 1
    r = random_()
    first = 1 if random_() < 0.5 else 0
    if r < KIND_WEIGHTS[0]:
        for m in (first, 1 - first):
            f0, f1 = state.fields[m]
            if not f0[colour] and not f1[colour]:  # the Rule of Color
                return BUILD_BASE + m * 6 + colour
    if r < KIND_WEIGHTS[0] + KIND_WEIGHTS[1] and size > 1:
        for m in (first, 1 - first):
            if not state.mountains[m][colour] and not state.fields[m][1 - seat][colour]:
                most = min(hand[colour], size - 1)  # keep one card in hand (R5)
                count = 1 + int(random_() * most)
                return GROW_BASE + (m * 6 + colour) * 8 + count - 1
    if r < 0.97:
        for m in (first, 1 - first):
            f0, f1 = state.fields[m]
            if not f0[colour] and not f1[colour]:
                return BUILD_BASE + m * 6 + colour
    return DISCARD_BASE + colour * 8 + hand[colour] - 1


def tree_actions(state: MandalaState) -> list[int]:
    """The legal moves the tree considers: Discard & Redraw only of a whole colour.

    Fewer branches make each of the few hundred iterations count; throwing away part of
    a colour is rarely better than all of it.
    """
    actions = state.legal_actions()
    if state.destroying >= 0:
        return actions
    hand = state.hands[state.current]
    return [
        a
        for a in actions
        if a < DISCARD_BASE or (a - DISCARD_BASE) % 8 + 1 == hand[(a - DISCARD_BASE) // 8]
    ]


class Policy:
    """The game-specific parts of the search; this default plays any game of the arena.

    Playouts pick uniformly among the legal moves; a playout that stops before the end
    scores each seat by the logistic of its lead over the best other seat.
    """

    playout_plies = PLAYOUT_PLIES

    def tree_actions(self, state: GameState) -> list[int]:
        return state.legal_actions()

    def playout_action(self, state: GameState, rng: random.Random) -> int:
        actions = state.legal_actions()
        return actions[int(rng.random() * len(actions))]

    def evaluate(self, state: GameState) -> list[float]:
        """Each seat's reward in [0, 1]: its place at the end, its lead before."""
        n = state.num_players
        if state.is_over():
            ranks = state.outcome().ranks
            return [
                (sum(r > rank for r in ranks) + 0.5 * (sum(r == rank for r in ranks) - 1)) / (n - 1)
                for rank in ranks
            ]
        scores = state.scores()
        return [
            1.0 / (1.0 + math.exp(-(score - max(scores[:s] + scores[s + 1 :])) / POINT_SCALE))
            for s, score in enumerate(scores)
        ]


class MandalaPolicy(Policy):
    """Mandala's light heuristic playouts, projected worth and pruned tree (above)."""

    def tree_actions(self, state: GameState) -> list[int]:
        assert isinstance(state, MandalaState)
        return tree_actions(state)

    def playout_action(self, state: GameState, rng: random.Random) -> int:
        assert isinstance(state, MandalaState)
        return playout_action(state, rng)

    def evaluate(self, state: GameState) -> list[float]:
        assert isinstance(state, MandalaState)
        p0 = evaluate(state)
        return [p0, 1.0 - p0]


class FlowersPolicy(Policy):
    """Flowers: a narrower tree, playouts that play single cards face up, and an evaluation
    that counts the tiles each Mandala will probably give (as greedy-flowers does)."""

    playout_plies = FLOWERS_PLAYOUT_PLIES

    def tree_actions(self, state: GameState) -> list[int]:
        """Plays of 1, 2 or the most cards of a colour: other counts are rarely better,
        and a narrower root lets each of the few hundred iterations count."""
        actions = state.legal_actions()
        decision = state.decision()
        if decision is None or decision.kind != "turn":
            return actions
        kept = []
        for index, action in enumerate(actions):
            count = action % 15 + 1
            last = index + 1 == len(actions) or actions[index + 1] != action + 1
            if count <= 2 or last:
                kept.append(action)
        return kept

    def playout_action(self, state: GameState, rng: random.Random) -> int:
        assert isinstance(state, FlowersState)
        actions = state.legal_actions()
        if state.choosing or rng.random() >= SINGLE_CARD_ODDS:
            return actions[int(rng.random() * len(actions))]
        present = state.present
        singles = [a for a in actions if a % 15 == 0]
        face_up = [a for a in singles if not present[a // 90] >> (a // 15 % 6) & 1]
        pool = face_up or singles or actions
        return pool[int(rng.random() * len(pool))]

    def evaluate(self, state: GameState) -> list[float]:
        assert isinstance(state, FlowersState)
        if state.over:
            return super().evaluate(state)
        n = state.num_players
        worth = [float(state.score(seat)) for seat in range(n)]
        for m in range(3):
            holder, tiles = state.marker[m], state.tiles[m]
            if holder < 0 or len(tiles) < 2:
                continue
            closeness = (bin(state.present[m]).count("1") / 6) ** 2
            second = state.second_place(m, holder)
            gains = sorted((_tile_gain(state, holder, t), t) for t in tiles)
            worth[holder] += closeness * gains[-1][0]
            if second < 0:
                worth[holder] += closeness * gains[0][0]
            else:
                worth[second] += closeness * _tile_gain(state, second, gains[0][1])
        return [
            1.0 / (1.0 + math.exp(-(w - max(worth[:s] + worth[s + 1 :])) / FLOWERS_SCALE))
            for s, w in enumerate(worth)
        ]


def _tile_gain(state: FlowersState, seat: int, tile: int) -> float:
    """What taking `tile` adds to `seat`'s score (a Flower at once if it has a single)."""
    single = state.singles[seat][tile // 6]
    if single >= 0:
        return flower_score(single, tile) - single_score(single)
    return single_score(tile) + FLOWERS_PAIR_HOPE


class TakenokoPolicy(Policy):
    """Takenoko: playouts complete a card whenever one holds (else play at random), and a
    position is scored by each seat's points plus what its hand is close to: a card that
    holds now, a panda card's sections already eaten, a gardener card's bamboo grown."""

    playout_plies = TAKENOKO_PLAYOUT_PLIES

    def tree_actions(self, state: GameState) -> list[int]:
        """A card that holds is claimed at once: the tree looks at nothing else then."""
        moves = state.legal_moves()
        claims = [i for i, move in enumerate(moves) if move["action"] == "complete"]
        return claims or list(range(len(moves)))

    def playout_action(self, state: GameState, rng: random.Random) -> int:
        moves = state.legal_moves()
        for index, move in enumerate(moves):
            if move["action"] == "complete":
                return index
        return int(rng.random() * len(moves))

    def evaluate(self, state: GameState) -> list[float]:
        assert isinstance(state, TakenokoState)
        if state.over:
            return super().evaluate(state)
        garden = state.garden()
        worth = [
            state.score(seat) + sum(_hope(state, seat, card, garden) for card in state.hands[seat])
            for seat in range(state.num_players)
        ]
        return [
            1.0 / (1.0 + math.exp(-(w - max(worth[:s] + worth[s + 1 :])) / TAKENOKO_SCALE))
            for s, w in enumerate(worth)
        ]


def _hope(state: TakenokoState, seat: int, card: str, garden: Garden) -> float:
    """What a hand card is worth now: most of its points if it holds, else a share for
    the sections eaten (panda) or the bamboo grown toward it (gardener)."""
    objective = OBJECTIVES[card]
    points = float(objective.points)
    if state.met(card, seat, garden):
        return TAKENOKO_HELD * points
    if isinstance(objective, PandaObjective):
        stomach = dict(state.stomachs[seat])
        eaten = 0
        for colour in objective.sections:
            if stomach.get(colour, 0) > 0:
                stomach[colour] -= 1
                eaten += 1
        return TAKENOKO_NEAR * points * eaten / len(objective.sections)
    if isinstance(objective, GardenerObjective):
        heights = sorted(
            (
                h
                for colour, h, _ in garden.bamboo
                if colour == objective.colour and h <= objective.height
            ),
            reverse=True,
        )[: objective.count]
        grown = sum(heights) / (objective.count * objective.height)
        return TAKENOKO_NEAR * points * grown
    return 0.0


POLICIES: dict[str, Policy] = {
    "mandala": MandalaPolicy(),
    "flowers": FlowersPolicy(),
    "takenoko": TakenokoPolicy(),
}


def search(
    view: dict[str, Any],
    budget_s: float,
    iterations: int,
    rng: random.Random,
    game: str = "mandala",
    config: dict[str, Any] | None = None,
) -> int:
    """The action code with the most visits at the root after the search.

    `game` and `config` are what `new_game` said; the view is the `decide` message's.
    """
    seat = int(view["seat"])
    determinizer = get_game(game).determinizer()
    if determinizer is None:
        raise ValueError(f"{game} has no determinizer, so it cannot be searched")
    policy = POLICIES.get(game, Policy())
    stable = get_game(game).stable_action_codes

    def edge_key(state: GameState, action: int) -> Any:
        return action if stable else json.dumps(state.action_to_move(action), sort_keys=True)

    root = Node(-1)
    template = determinizer.determinize(view, rng, config or {})
    redeal = determinizer.redeal
    deadline = time.perf_counter() + budget_s
    done = 0
    while True:
        if iterations > 0:
            if done >= iterations:
                break
        elif time.perf_counter() >= deadline:
            break
        done += 1
        state = template.copy()
        redeal(state, seat, rng)
        node = root
        path = [root]
        # Selection and expansion. A tree edge is a move: its code where codes name the
        # same move in every state, its JSON where they are only indexes (Takenoko).
        while not state.is_over():
            actions = policy.tree_actions(state)
            by_key = {edge_key(state, a): a for a in actions}
            decision = state.decision()
            mover = decision.seat if decision is not None else 0
            children = node.children
            untried = [k for k in by_key if k not in children]
            if untried:
                key = rng.choice(untried)
                child = Node(mover)
                children[key] = child
                for k in by_key:
                    if k in children:
                        children[k].avail += 1
                state.apply_action(by_key[key])
                path.append(child)
                break
            best_value = -1.0
            key = next(iter(by_key))
            for k in by_key:
                c = children[k]
                c.avail += 1
                value = c.reward / c.visits + EXPLORATION * math.sqrt(math.log(c.avail) / c.visits)
                if value > best_value:
                    best_value, key = value, k
            node = children[key]
            state.apply_action(by_key[key])
            path.append(node)
        # Playout.
        for _ in range(policy.playout_plies):
            if state.is_over():
                break
            state.apply_action(policy.playout_action(state, rng))
        rewards = policy.evaluate(state)
        for node in path[1:]:
            node.visits += 1
            node.reward += rewards[node.seat]
    best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].reward))
    if LOG:
        print(f"ismcts: {done} iterations, best visited {best[1].visits}", file=sys.stderr)
    return {edge_key(template, a): a for a in template.legal_actions()}[best[0]]


def decide(
    message: dict[str, Any],
    budget_ms: float,
    iterations: int,
    rng: random.Random,
    game: str = "mandala",
    config: dict[str, Any] | None = None,
) -> Any:
    """The reply's move for one `decide` message: an index into legal_moves."""
    moves = message.get("legal_moves") or []
    if len(moves) <= 1:
        return 0
    view = message["view"]
    # Never use more than half of what the referee allows, minus a margin for start-up.
    allowed = float(message.get("time_ms") or 1000)
    budget = max(1.0, min(budget_ms, allowed / 2 - 20))
    try:
        action = search(view, budget / 1000, iterations, rng, game, config)
        determinizer = get_game(game).determinizer()
        assert determinizer is not None  # search checked it
        # the position as this seat sees it: its legal moves are the request's, in order
        move = determinizer.determinize(view, rng, config or {}).action_to_move(action)
        return moves.index(move) if move in moves else move
    except (KeyError, TypeError, ValueError, IndexError, ArenaError) as error:
        print(f"ismcts: falling back to move 0 after {error!r}", file=sys.stderr)
        return 0


def cannot_search(game: str) -> str | None:
    """Why this bot cannot play `game` (one sentence), or None when it can: it searches only
    games with a determinizer (a bot.toml edited to list another brings it here)."""
    try:
        determinizer = get_game(game).determinizer()
    except ArenaError as error:
        return f"ismcts cannot play {game}: {error}"
    if determinizer is None:
        return (
            f"ismcts cannot play {game}: it searches only games with a determinizer "
            "(mandala, flowers, takenoko); list only those in its bot.toml's games."
        )
    return None


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ms", type=float, default=80.0, help="budget per decision (ms)")
    parser.add_argument("--iterations", type=int, default=0, help="fixed iterations (0: time)")
    parser.add_argument(
        "--seed", type=int, default=None, help="seed of the sampling before a new_game's seed"
    )
    args = parser.parse_args()
    global LOG
    LOG = True  # as a bot process, stderr is the bot's log file
    rng = random.Random(args.seed)
    game = "mandala"  # the referee names the game in hello and new_game
    config: dict[str, Any] = {}  # the game's configuration comes with new_game
    for line in iter(sys.stdin.readline, ""):
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except ValueError:
            print(f"ismcts: ignoring a line that is not JSON: {line[:80]!r}", file=sys.stderr)
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "hello":
            game = str(message.get("game") or game)
            refusal = cannot_search(game)
            if refusal:  # a sentence in its stderr log, which the referee shows, not a timeout
                print(refusal, file=sys.stderr)
                sys.exit(2)
            send({"type": "hello", "name": "ismcts", "version": "1.1"})
        elif kind == "new_game":
            game = str(message.get("game") or game)
            config = dict(message.get("config") or {})
            if isinstance(message.get("seed"), int):  # this game's own seed (bots/README.md)
                rng = random.Random(message["seed"])
        elif kind == "decide":
            move = decide(message, args.ms, args.iterations, rng, game, config)
            send({"type": "move", "move": move, "id": message["id"]})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
