"""A self-contained strength ladder: two bots, many seat-swapped games, a Wilson interval.

It drives the bots as real subprocesses over protocol v1 (their `bot.toml` command, their
folder as working directory) with a small referee of its own, so it measures the same
programs a tournament runs, and needs nothing but the engine. Games come in pairs on the
same deal with the seats swapped; `--workers` plays pairs in parallel, each worker with
its own bot processes.

    python -m arena.bench.ladder bots/heuristic bots/random --games 400 --workers 2

A bot that replies with an illegal or malformed move, or dies, loses that game.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import subprocess
import sys
import time
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import IO, Any

from arena.errors import ArenaError
from arena.games.mandala.state import MandalaState

__all__ = ["BotProcess", "MatchResult", "play_match", "wilson"]


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for z = 1.96)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


class BotProcess:
    """One bot program, started from its folder's `bot.toml`, spoken to in JSON lines."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        manifest = tomllib.loads((folder / "bot.toml").read_text(encoding="utf-8"))
        command = manifest["command"]
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        if argv[0] in ("python3", "python"):
            argv[0] = sys.executable  # the arena's own interpreter (SPEC.md, manifests)
        self.name = str(manifest.get("name", folder.name))
        self.process = subprocess.Popen(
            argv,
            cwd=folder,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
        )
        self.think_ms = 0.0
        self.decisions = 0
        self.request({"type": "hello", "protocol": 1, "game": "mandala", "players": 2})

    def _pipes(self) -> tuple[IO[str], IO[str]]:
        stdin, stdout = self.process.stdin, self.process.stdout
        if stdin is None or stdout is None:
            raise ArenaError(f"{self.name}: the bot process has no pipes.")
        return stdin, stdout

    def send(self, message: dict[str, Any]) -> None:
        stdin, _ = self._pipes()
        stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
        stdin.flush()

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one message and wait for the one-line reply."""
        self.send(message)
        _, stdout = self._pipes()
        line = stdout.readline()
        if not line:
            raise ArenaError(f"{self.name}: the bot closed its output.")
        reply = json.loads(line)
        if not isinstance(reply, dict):
            raise ArenaError(f"{self.name}: the reply is not a JSON object: {line[:80]!r}")
        return reply

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.send({"type": "goodbye"})
                self.process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


def play_game(seed: int, bots: Sequence[BotProcess], move_ms: int) -> tuple[int, int, int]:
    """One game; returns (score of seat 0, score of seat 1, winner or -1 for a draw)."""
    state = MandalaState.deal(seed)
    game_id = f"ladder-{seed}"
    for seat, bot in enumerate(bots):
        bot.send(
            {
                "type": "new_game",
                "game_id": game_id,
                "seat": seat,
                "players": 2,
                "config": {"turn_limit": 1000},
                "limits": {"move_ms": move_ms, "time_bank_ms": 0},
            }
        )
    request = 0
    while True:
        decision = state.decision()
        if decision is None:
            break
        seat = decision.seat
        actions = state.legal_actions()
        message = {
            "type": "decide",
            "game_id": game_id,
            "request": request,
            "decision": decision.kind,
            "view": state.view(seat),
            "legal_moves": [state.action_to_move(a) for a in actions],
            "time_ms": move_ms,
        }
        request += 1
        bot = bots[seat]
        started = time.perf_counter()
        try:
            reply = bot.request(message)
            bot.think_ms += (time.perf_counter() - started) * 1000
            bot.decisions += 1
            move = reply["move"]
            action = actions[move] if isinstance(move, int) else state.move_to_action(move)
        except (ArenaError, KeyError, IndexError, TypeError, ValueError) as error:
            print(f"ladder: {bot.name} loses game {seed} seat {seat}: {error}", file=sys.stderr)
            return (0, 0, 1 - seat)
        state.apply_action(action)
    outcome = state.outcome()
    ranks = outcome.ranks
    winner = -1 if ranks[0] == ranks[1] else (0 if ranks[0] < ranks[1] else 1)
    for seat, bot in enumerate(bots):
        bot.send({"type": "game_over", "game_id": game_id, "seat": seat, "result": {}})
    return outcome.scores[0], outcome.scores[1], winner


@dataclass
class MatchResult:
    """How bot A fared against bot B."""

    a: str
    b: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points_a: int = 0
    points_b: int = 0
    think_ms: dict[str, float] = field(default_factory=dict)
    decisions: dict[str, int] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def report(self) -> str:
        low, high = wilson(self.wins, self.games)
        lines = [
            f"{self.a} vs {self.b}: {self.games} games, {self.wins} wins, {self.draws} draws, "
            f"{self.losses} losses",
            f"  {self.a} win rate {self.wins / max(1, self.games):.1%} "
            f"(95% Wilson interval {low:.1%} .. {high:.1%}); draws count as not won",
            f"  mean score {self.points_a / max(1, self.games):.1f} "
            f"vs {self.points_b / max(1, self.games):.1f}",
        ]
        for name in (self.a, self.b):
            n = self.decisions.get(name, 0)
            mean = self.think_ms.get(name, 0.0) / max(1, n)
            lines.append(f"  {name}: {n} decisions, {mean:.1f} ms per decision (wall clock)")
        return "\n".join(lines)


_WORKER_BOTS: list[BotProcess] = []


def _start_worker(folders: tuple[str, str]) -> None:
    _WORKER_BOTS.extend(BotProcess(Path(folder)) for folder in folders)


def _play_pair(
    job: tuple[int, int],
) -> list[tuple[int, int, int, dict[str, float], dict[str, int]]]:
    """Both seatings of one deal: the game with A in seat 0, then with A in seat 1."""
    seed, move_ms = job
    a, b = _WORKER_BOTS
    results = []
    for seats in ((a, b), (b, a)):
        before = {bot.name: (bot.think_ms, bot.decisions) for bot in (a, b)}
        s0, s1, winner = play_game(seed, seats, move_ms)
        a_seat = 0 if seats[0] is a else 1
        a_won = 1 if winner == a_seat else (0 if winner == -1 else -1)
        a_points, b_points = (s0, s1) if a_seat == 0 else (s1, s0)
        think = {bot.name: bot.think_ms - before[bot.name][0] for bot in (a, b)}
        count = {bot.name: bot.decisions - before[bot.name][1] for bot in (a, b)}
        results.append((a_won, a_points, b_points, think, count))
    return results


def play_match(
    folder_a: Path, folder_b: Path, games: int, workers: int = 1, seed: int = 1, move_ms: int = 1000
) -> MatchResult:
    """Play `games` games (rounded up to pairs) of bot A against bot B."""
    names = []
    for folder in (folder_a, folder_b):
        manifest = tomllib.loads((folder / "bot.toml").read_text(encoding="utf-8"))
        names.append(str(manifest.get("name", folder.name)))
    if names[0] == names[1]:
        raise ArenaError(f"Both bots are named {names[0]!r}; a ladder needs two different bots.")
    result = MatchResult(a=names[0], b=names[1])
    jobs = [(seed * 1_000_000 + i, move_ms) for i in range((games + 1) // 2)]
    with Pool(
        workers, initializer=_start_worker, initargs=((str(folder_a), str(folder_b)),)
    ) as pool:
        for pair in pool.imap_unordered(_play_pair, jobs):
            for a_won, a_points, b_points, think, count in pair:
                if a_won > 0:
                    result.wins += 1
                elif a_won == 0:
                    result.draws += 1
                else:
                    result.losses += 1
                result.points_a += a_points
                result.points_b += b_points
                for name in names:
                    result.think_ms[name] = result.think_ms.get(name, 0.0) + think[name]
                    result.decisions[name] = result.decisions.get(name, 0) + count[name]
            if result.games % 50 == 0:
                print(f"... {result.games} games, {result.a} won {result.wins}", flush=True)
    return result


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bot_a", type=Path, help="folder of bot A (holds bot.toml)")
    parser.add_argument("bot_b", type=Path, help="folder of bot B")
    parser.add_argument("--games", type=int, default=400, help="games to play (pairs)")
    parser.add_argument("--workers", type=int, default=1, help="games played in parallel")
    parser.add_argument("--seed", type=int, default=1, help="first deal's seed family")
    parser.add_argument("--move-ms", type=int, default=1000, help="time_ms sent in decide")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    result = play_match(args.bot_a, args.bot_b, args.games, args.workers, args.seed, args.move_ms)
    print(result.report())
    print(f"  {time.perf_counter() - started:.0f} s with {args.workers} worker(s)")


if __name__ == "__main__":
    main()
