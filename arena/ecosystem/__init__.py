"""The arena's games in the game-AI ecosystem, and the ecosystem's games in the arena.

- `openspiel_games`: Mandala, Flowers and Takenoko as OpenSpiel Python games
  (`arena_mandala`, `arena_flowers`, `arena_takenoko`), registered with pyspiel on import.
- `pettingzoo_env`: the same games as PettingZoo `AECEnv`s.
- `openspiel_in_arena`: any sequential OpenSpiel game played through the referee, as the
  arena game `openspiel:NAME` (or `openspiel:NAME(param=value,...)`).

They need the optional extra `pip install -e '.[ecosystem]'` (open_spiel, pettingzoo);
nothing in the core imports this package.
"""
