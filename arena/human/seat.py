"""The human's seat as a `Player` the referee drives like any bot, and the bots' seats watched
so the human hears their moves.

`HumanSeat` receives the very `new_game`, `decide` and `game_over` messages a bot's process
would, and answers `decide` with the move the page sends, within the same deadline (the
human's clock). Its "process" is the page; only the clock decides its loss (a frozen or
closed tab may come back with its key until the clock runs out), or the human resigns, the
seat's fault like a crashed bot's, with its reason.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

from arena import compact_json
from arena.errors import BotCrashError, BotStartupError, BotTimeoutError, GameError
from arena.game_sources import get_game
from arena.games import Game, GameState
from arena.human.desk import Desk
from arena.human.narration import is_private, line, move_words, who
from arena.players.limits import Limits
from arena.players.manifest import BotManifest
from arena.players.player import Player

HUMAN = "human"
"""`human` or `human:NAME` among `arena play`'s BOTs seats a person."""


def human_name(text: str) -> str | None:
    """The player's name `human:NAME` for a BOT argument that seats a person, else None."""
    if text == HUMAN:
        return f"{HUMAN}:you"
    return text if text.startswith(HUMAN + ":") else None


def asked_of(request: Mapping[str, Any], words: GameState | None) -> dict[str, Any]:
    """What the page is told of a `decide` request: its number, its kind, the view and the
    legal moves exactly as sent, and each move in words (`describe_move` reads the move
    alone); nothing else."""
    legal = request["legal_moves"]
    texts = [str(move) if words is None else words.describe_move(move) for move in legal]
    return {
        "request": request["request"],
        "kind": request["decision"],
        "view": request["view"],
        "legal": [{"move": m, "text": t} for m, t in zip(legal, texts, strict=True)],
    }


class Narrator:
    """Tells the desk each move of the game in the words the human's seat may hear, and
    keeps the game as it stands (dealt from the table's seed, as the referee's) so the desk
    shows the seat's view after every move, a bot's as soon as it is made."""

    def __init__(self, desk: Desk, seed: int = 0) -> None:
        self.desk = desk
        self.seed = seed
        self.words: GameState | None = None
        """The game as it stands; its `describe_move` also gives a move's words."""
        self.rules: Game | None = None

    def start(self, game: str, config: dict[str, Any], players: int) -> None:
        self.rules = rules = get_game(game)
        self.words = rules.new_state(self.seed, rules.config(config), num_players=players)
        self.desk.show(_public(self.words))

    def told(self, mover: int, request: dict[str, Any], move: dict[str, Any]) -> None:
        state = self.words
        if state is None:
            return
        desk = self.desk
        heard = [move_words(desk.game, state, move, mover, seat) for seat in (desk.seat, NO_SEAT)]
        turn = int(request.get("view", {}).get("turn", 0) or 0)
        kind = str(request.get("decision"))

        def told_to(seat: int, words: str) -> tuple[dict[str, Any], str]:
            """The last move as `seat` may know it, and its narrated line."""
            shown = None if is_private(desk.game, move, mover, seat) else move
            told = line(turn, who(desk.players, mover, seat), kind, words)
            return {"seat": mover, "text": words, "move": shown}, told

        turn_before = state.turn
        try:
            state.apply_move(dict(move))
        except GameError:  # never expected: the referee refuses the move and ends the game
            self.words = None
            desk.tell(told_to(desk.seat, heard[0])[1])
            return
        if self.rules is not None:  # what the engine did after it, public (the die's face)
            named = partial(who, desk.players, you=desk.seat)
            after = self.rules.narrate_after(state, dict(move), turn_before, named)
            heard = ["; ".join([words, *(told.strip() for told in after)]) for words in heard]
        last, told = told_to(desk.seat, heard[0])
        desk.follow(json.loads(state.view_json(desk.seat)), last, told)
        desk.show(_public(state), *told_to(NO_SEAT, heard[1]))


NO_SEAT = -1
"""The seat a spectator hears the moves as: none (every seat's hidden choice is told without
it, arena/human/narration.py)."""


def _public(state: GameState) -> Any:
    """The game's public view as JSON-ready data (None for a game without one)."""
    view = state.public_view()
    return None if view is None else json.loads(compact_json.dumps(view))


class HumanSeat(Player):
    """A person at the table, playing through the page on the desk."""

    def __init__(self, name: str, desk: Desk, narrator: Narrator, limits: Limits):
        manifest = BotManifest(name=name, folder=Path.cwd(), command=(HUMAN,))
        super().__init__(manifest, limits)
        self.desk = desk
        self.narrator = narrator
        self._open = False
        self._greeted: str | None = None

    @property
    def running(self) -> bool:
        return self._open

    def spawn(self) -> None:
        self._open = True
        self.starts += 1

    def handshake(self, game: str, players: int, started: float) -> None:
        deadline = started + self.limits.startup_ms / 1000
        if not self.desk.wait_for_page(deadline):
            self._open = False
            stopped = self.desk.stopped
            raise BotStartupError(f"the table was stopped: {stopped}." if stopped
                                  else "its page was not opened in time.")  # fmt: skip
        self._greeted = game

    def ready_for(self, game: str) -> bool:
        return self._open and self._greeted == game

    def send(self, message: dict[str, Any], deadline: float) -> None:
        if message.get("type") == "new_game":
            config = dict(message.get("config") or {})
            self.narrator.start(str(message["game"]), config, int(message["players"]))
        elif message.get("type") == "game_over":
            self.desk.finish(message.get("result") or {})

    def request(self, data: bytes, deadline: float) -> bytes:
        request = json.loads(data)
        legal = request["legal_moves"]
        self.desk.ask(asked_of(request, self.narrator.words), deadline)
        answer = self.desk.wait_answer()
        self.desk.withdraw()
        if answer == "clock":
            raise BotTimeoutError("the human's clock ran out" + _silence(self.desk.idle_s()))
        if answer == "stopped":
            raise BotCrashError(f"the table was stopped: {self.desk.stopped}.")
        if answer == "resigned":
            raise BotCrashError("the human resigned.")
        assert isinstance(answer, int)
        self.narrator.told(self.desk.seat, request, legal[answer])
        return json.dumps({"type": "move", "move": answer, "id": request["id"]}).encode()

    def cpu_usec(self) -> int | None:
        return None

    def out_of_memory(self) -> bool:
        return False

    def explain(self, error: Any) -> str:
        return str(error.args[0])

    def kill(self) -> None:
        self._open = False
        self.desk.withdraw()

    def close(self) -> None:
        self.kill()
        super().close()


SILENT_S = 5.0
"""A page that has not asked for news this long when its clock runs out is said to be
silent in the reason (closed, or frozen by the browser)."""


def _silence(idle_s: float) -> str:
    """The end of the clock's reason: whether the page was still asking for news."""
    if idle_s < SILENT_S:
        return "."
    return f" (its page had not asked for news for {idle_s:.0f} s: closed or frozen)."


class WatchedPlayer(Player):
    """A bot's seat whose moves the narrator hears (in the words the human may hear)."""

    def __init__(self, *args: Any, seat: int, narrator: Narrator, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat = seat
        self.narrator = narrator

    def request(self, data: bytes, deadline: float) -> bytes:
        reply = super().request(data, deadline)
        try:
            request, answer = json.loads(data), json.loads(reply)
            move = answer["move"]
            legal = request["legal_moves"]
            if isinstance(move, int) and not isinstance(move, bool):
                move = legal[move]
            if move in legal:  # a move the rules refuse is the bot's fault, never narrated
                self.narrator.told(self.seat, request, move)
        except (ValueError, KeyError, IndexError, TypeError):
            pass  # a reply the referee refuses ends the game with the bot's fault
        return reply
