"""Mandala, Flowers and Takenoko as PettingZoo `AECEnv`s (turn by turn, one agent at a time).

    from arena.ecosystem.pettingzoo_env import env
    game = env("flowers", players=3)
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else int(mask.nonzero()[0][0])
        game.step(action)

- Agents are `player_0`..`player_{n-1}`, the seats; the agent to act is the seat the game
  asks (a Mandala claim, a Flowers tile choice and each step of a Takenoko turn are turns
  of their own, so the same agent can act several times in a row).
- An observation is `{"observation": ..., "action_mask": ...}`: the seat's view as numbers
  (`tensors`: the whole view, nothing hidden, a fixed layout per game and table size) and
  the mask over the action codes (1 = legal). `env.view(agent)` is the view itself (JSON-
  friendly data, as a bot receives it).
- `reset(seed=S)` deals the arena's game S: the same seed, the same deal and shuffles.
  Without a seed a deal is drawn at random. `reset(options={"position": P})` starts from a
  copy of the engine's position P instead (one of this game's, not over), e.g. an OpenSpiel
  state's `position`.
- Rewards come at the end only: `returns.rank_returns` (2 seats: win 1, draw 0, loss -1).
  The games end by their own rules, their turn or round limits included, so no episode is
  truncated.
- `env.state()` is PettingZoo's global state (for centralised training): every seat's
  observation vector, seat by seat, in `env.state_space`. `env.position` is the engine's
  own position (`GameState`: `outcome()`, `spectator_view()`...).
- `render_mode="ansi"`: `render()` returns the spectator's view as one JSON line; `"human"`
  prints it. Any other mode is refused when the environment is made.
- An illegal action raises ValueError; with `illegal_reward=R` (a number, e.g. -1) it ends
  the episode instead, as PettingZoo's classic games do (their `TerminateIllegalWrapper`):
  R to the agent that played it, 0 to the others, `infos[agent]["illegal_move"] = True`.
  PettingZoo's `state_test`, which plays random action codes, needs it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from arena import compact_json
from arena.ecosystem import tensors
from arena.ecosystem.actions import NUM_ACTIONS, legal
from arena.ecosystem.returns import rank_returns
from arena.game_sources import get_game, ready_table

RENDER_MODES = ("ansi", "human")
"""`ansi`: `render()` returns the spectator's view as one JSON line; `human` prints it."""


class ArenaEnv(AECEnv):  # type: ignore[misc]
    """One of the arena's games at one table size, as an AEC environment."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "arena_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str = "mandala",
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        illegal_reward: float | None = None,
    ) -> None:
        super().__init__()
        self.illegal_reward = illegal_reward
        """None: an illegal action raises; a number: it ends the episode with that reward."""
        self.game = get_game(game)
        self.config = self.game.config(options)
        self.players = ready_table(self.game, self.config, players)  # a bad option fails here
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode {render_mode!r} is not one of ours: "
                f"{', '.join(RENDER_MODES)} (or None, no rendering)."
            )
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"arena_{game}_v0"}
        self.possible_agents = [f"player_{seat}" for seat in range(self.players)]
        self._actions = NUM_ACTIONS[self.game.name]
        width = tensors.size(self.game.name, self.players)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=-1e6, high=1e6, shape=(width,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self._actions,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(self._actions)
        self.state_space = spaces.Box(
            low=-1e6, high=1e6, shape=(width * self.players,), dtype=np.float32
        )
        self.position: Any = None
        """The engine's position (`GameState`) once reset: `state()` is PettingZoo's global state."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        start = (options or {}).get("position")
        if start is not None:  # a position of this game to start from (a copy of it)
            self.position = start.copy()
        else:
            deal = random.randrange(1 << 31) if seed is None else seed
            self.position = self.game.new_state(deal, self.config, self.players)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        decision = self.position.decision()
        if decision is not None:
            self.agent_selection = self.possible_agents[decision.seat]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        view = self.position.view(seat)
        shown = np.asarray(tensors.encode(self.game.name, view), dtype=np.float32)
        mask = np.zeros(self._actions, dtype=np.int8)
        decision = self.position.decision()
        if decision is not None and decision.seat == seat:
            mask[legal(self.game.name, self.position.legal_actions())] = 1
        return {"observation": shown, "action_mask": mask}

    def state(self) -> np.ndarray[Any, Any]:
        """PettingZoo's global state: every seat's observation vector, seat by seat (all
        the seats know together; what no seat sees, as the deck's order, stays out)."""
        if self.position is None:
            raise RuntimeError("There is no state before the first reset().")
        seats = range(self.players)
        views = (tensors.encode(self.game.name, self.position.view(seat)) for seat in seats)
        return np.concatenate([np.asarray(v, dtype=np.float32) for v in views])

    def view(self, agent: str) -> dict[str, Any]:
        """What `agent`'s seat sees, as the referee would send it to a bot."""
        return dict(self.position.view(self.possible_agents.index(agent)))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        allowed = self.position.legal_actions()
        if action is None or int(action) not in allowed:
            self._illegal(agent, action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.position.apply_action(int(action))
        self.rewards = {a: 0.0 for a in self.agents}
        if self.position.is_over():
            returns = rank_returns(self.position.outcome().ranks)
            self.rewards = {a: returns[s] for s, a in enumerate(self.possible_agents)}
            self.terminations = {a: True for a in self.agents}
        else:
            self._select()
        self._accumulate_rewards()

    def _illegal(self, agent: str, action: Any) -> None:
        """Raise, or end the episode with `illegal_reward` to `agent` (see the module)."""
        if self.illegal_reward is None:
            raise ValueError(f"{agent} cannot play action {action!r}: it is not legal here.")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.rewards[agent] = float(self.illegal_reward)
        self.terminations = {a: True for a in self.agents}
        self.infos[agent]["illegal_move"] = True
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None or self.position is None:
            return None
        shown = compact_json.dumps(self.position.spectator_view())
        if self.render_mode == "human":
            print(shown)
            return None
        return shown

    def close(self) -> None:
        pass


def env(game: str = "mandala", **kwargs: Any) -> ArenaEnv:
    """An `ArenaEnv` for `game` (`players`, `options`, `render_mode`, `illegal_reward` as
    keywords)."""
    return ArenaEnv(game, **kwargs)
