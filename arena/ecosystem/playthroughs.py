"""Write the OpenSpiel playthroughs of the arena's games (tests/playthroughs/), as OpenSpiel
keeps its own: `python -m arena.ecosystem.playthroughs`. A test regenerates each and
compares (tests/test_openspiel_chance.py); rewrite them when a game's rules or coding
change on purpose. Short games (a few turns) keep the files small (60 to 270 KB).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from open_spiel.python.algorithms import generate_playthrough

from arena.ecosystem import openspiel_games

GAMES = {
    "arena_mandala": "arena_mandala(players=2,turn_limit=4)",
    "arena_flowers": "arena_flowers(players=2,turn_limit=4)",
    "arena_takenoko": "arena_takenoko(players=2,max_rounds=1)",
}
"""Each playthrough's game string (a game of `openspiel_games.GAMES`, with short options)."""


def write(folder: Path) -> list[Path]:
    """Write each playthrough into `folder`; the paths written."""
    assert set(GAMES) == {f"arena_{name}" for name in openspiel_games.GAMES}
    written = []
    for name, game in GAMES.items():
        np.random.seed(7)  # the playthrough's random actions
        path = folder / f"{name}.txt"
        path.write_text(generate_playthrough.playthrough(game, None))
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write(Path(__file__).resolve().parents[2] / "tests" / "playthroughs"):
        print(f"wrote {path}")
