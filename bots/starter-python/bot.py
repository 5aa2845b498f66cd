"""starter-python: a Mandala Arena bot in Python, standard library only.

Copy this folder, rename the bot in bot.toml, and change choose_move() below.
The arena runs `python3 bot.py` in this folder. The protocol is in bots/README.md. In short:
  - the referee writes one JSON object per line to our stdin;
  - we answer each "decide" with one JSON line on stdout, flushed;
  - anything we print to stderr goes to our log file.
"""

import json
import sys

NAME = "starter-python"

# The actions we like best, in order: the first legal move whose "action" comes first here
# is played, else the first legal move (always legal). This covers every decision of every
# game: Mandala's "turn" and "claim", Flowers' "turn" and "tile", Takenoko's "turn",
# "weather", "plot", "panda", "gardener", "objective" and the rest.
PREFERRED = [
    "complete",  # Takenoko: a card that holds now scores
    "objective",  # Takenoko: draw a card while the hand has room
    "panda",  # Takenoko: move the panda (it eats)
    "gardener",  # Takenoko: move the gardener (bamboo grows)
    "plot",  # Takenoko: add a plot
    "build_mountain",  # Mandala: build a Mountain (it refills our hand)
    "play",  # Flowers: play cards
    "take",  # Flowers: take a tile
]


def choose_move(legal_moves: list) -> int:
    actions = [move.get("action") if isinstance(move, dict) else None for move in legal_moves]
    for wanted in PREFERRED:
        if wanted in actions:
            return actions.index(wanted)
    return 0


def send(message: dict) -> None:
    print(json.dumps(message), flush=True)  # one line, flushed: the referee waits for it


def main() -> None:
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            print(f"{NAME}: ignoring a line that is not JSON", file=sys.stderr)
            continue
        kind = message.get("type")
        if kind == "hello":  # the handshake: answer with our name
            send({"type": "hello", "name": NAME, "version": "1.0"})
        elif kind == "decide":  # the index of our move, and the request's id echoed
            send({"type": "move", "move": choose_move(message["legal_moves"]), "id": message["id"]})
        elif kind == "goodbye":
            return
        # new_game, game_over and anything new: no reply


if __name__ == "__main__":
    main()
