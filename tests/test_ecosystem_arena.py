"""OpenSpiel's games through our referee, tournament and CLI (`--game openspiel:NAME`, issue 25).

The generic game-API test (tests/test_games_api.py) runs on a sample of OpenSpiel games too;
here real bot processes play them (OpenSpiel's Python games too, issue 34), misbehave in
them, and a tournament rates them; a bot that cannot play one is refused before the run, and
the README's examples do what they show."""

from __future__ import annotations

import csv
import json
import re
import shlex
import shutil
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="open_spiel is not installed (the ecosystem extra)")

from click.testing import CliRunner  # noqa: E402

from arena.cli.main import main  # noqa: E402
from arena.errors import GameError, IllegalMoveError, MoveFormatError  # noqa: E402
from arena.game_sources import get_game  # noqa: E402
from arena.outcome import Termination  # noqa: E402
from arena.players.player import Player  # noqa: E402
from arena.record import replay  # noqa: E402
from arena.referee import GameSpec, play_game  # noqa: E402
from tests.referee_support import GENEROUS, SHORT, fake_bot  # noqa: E402

KUHN = "openspiel:kuhn_poker"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def first(tmp_path: Path) -> Player:
    player = Player(fake_bot(tmp_path, "first", "--random", "3"), GENEROUS, tmp_path / "logs")
    yield player
    player.close()


@pytest.mark.parametrize(
    "spec",
    [
        KUHN,
        "openspiel:liars_dice",
        "openspiel:tic_tac_toe",
        # OpenSpiel's Python games, registered when open_spiel.python.games is imported
        "openspiel:python_tic_tac_toe",
        "openspiel:python_kuhn_poker",
        "openspiel:python_liars_poker",
    ],
)
def test_bots_play_an_openspiel_game_and_its_record_replays(
    tmp_path: Path, first: Player, spec: str
) -> None:
    other = Player(fake_bot(tmp_path, "objects", "--move-object"), GENEROUS, tmp_path / "logs")
    with other:
        report = play_game(GameSpec("g1", seed=11, game=spec), [first, other])
    assert report.outcome.termination is Termination.NORMAL and report.outcome.end == "terminal"
    record = report.record()
    assert {move["kind"] for move in record["moves"]} == {"turn"}
    assert replay(record).outcome() == report.outcome


@pytest.mark.parametrize(
    ("flags", "termination"),
    [
        (["--crash"], Termination.CRASH),
        (["--garbage"], Termination.MALFORMED_REPLY),
        (["--wrong-shape"], Termination.MALFORMED_REPLY),
        (["--illegal"], Termination.MALFORMED_REPLY),  # a Mandala claim: no "action" code
        (["--hang"], Termination.TIMEOUT),
    ],
)
def test_a_faulty_seat_loses_an_openspiel_game_and_the_next_is_played(
    tmp_path: Path, first: Player, flags: list[str], termination: Termination
) -> None:
    limits = SHORT if "--hang" in flags else GENEROUS
    bad = Player(fake_bot(tmp_path, "bad", *flags), limits, tmp_path / "logs")
    with bad:
        report = play_game(GameSpec("g1", seed=1, game=KUHN), [first, bad])
        again = play_game(GameSpec("g2", seed=1, game=KUHN), [bad, first])
    assert report.outcome.termination == termination and report.outcome.faulty_seat == 1
    assert report.outcome.ranks == (0, 1)
    assert again.outcome.termination == termination and again.outcome.faulty_seat == 0


def test_a_move_is_checked_against_the_legal_actions_and_their_names() -> None:
    state = get_game("openspiel:tic_tac_toe").new_state(0, None, 2)
    assert state.legal_moves()[4] == {"action": 4, "name": "x(1,1)"}
    assert state.move_to_action({"action": 4}) == 4
    with pytest.raises(IllegalMoveError, match="is 'x\\(1,1\\)', not 'o"):
        state.move_to_action({"action": 4, "name": "o(1,1)"})
    state.apply_action(4)
    with pytest.raises(IllegalMoveError, match="not one of the legal moves"):
        state.move_to_action({"action": 4})
    with pytest.raises(MoveFormatError):
        state.move_to_action({"action": "4"})


def test_chance_is_drawn_from_the_seed() -> None:
    game = get_game("openspiel:kuhn_poker")
    views = {game.new_state(seed, None, 2).view_json(0) for seed in range(30)}
    assert len(views) == 3  # the three cards seat 0 can hold, each dealt by some seed
    assert game.new_state(5, None, 2).view_json(1) == game.new_state(5, None, 2).view_json(1)


def test_unknown_or_unloadable_openspiel_games_are_one_sentence() -> None:
    with pytest.raises(GameError, match="OpenSpiel has no game 'nope'; `python -c"):
        get_game("openspiel:nope")
    with pytest.raises(GameError, match="'liars_poker' \\(did you mean python_liars_poker\\?\\)"):
        get_game("openspiel:liars_poker")
    with pytest.raises(GameError, match="OpenSpiel cannot load"):
        get_game("openspiel:tic_tac_toe(colours=3)")
    with pytest.raises(GameError, match="one-player game"):
        get_game("openspiel:catch")
    with pytest.raises(GameError, match="mean-field"):
        get_game("openspiel:mfg_crowd_modelling")


def _readme_commands() -> list[list[str]]:
    """The `arena` commands of README's "OpenSpiel's games in the arena", as words."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("**OpenSpiel's games in the arena**")
    block = re.search(r"```sh\n(.*?)```", text[start:], re.S)
    assert block is not None
    return [shlex.split(line)[1:] for line in block.group(1).splitlines()]


def test_the_readme_examples_do_what_they_show(tmp_path: Path) -> None:
    """Issue 34: openspiel-cfr beats random at Goofspiel; the default field plays Liar's
    Dice; `arena play` fills the four seats of Hearts with no --seats (the game's table)."""
    cfr, dice, hearts = _readme_commands()
    assert cfr[-2:] == ["random", "openspiel-cfr"] and "--seats" not in hearts
    out = tmp_path / "cfr"
    result = CliRunner().invoke(main, [*cfr, "--seed", "4", "--out", str(out)])
    assert result.exit_code == 0, result.output
    with (out / "ratings.csv").open(newline="") as file:
        first, second = csv.DictReader(file)
    # about 70 wins to 13 (8 iterations of CFR, on any machine); even 3 iterations win 2
    # games to 1: so at least 3 to 2 here
    assert first["bot"] == "openspiel-cfr" and 2 * int(first["wins"]) > 3 * int(second["wins"])
    assert "Games ended: terminal 100" in result.output
    result = CliRunner().invoke(main, [*dice, "--rounds", "2", "--out", str(tmp_path / "d")])
    assert result.exit_code == 0 and "Games ended: terminal 12" in result.output, result.output
    result = CliRunner().invoke(main, [*hearts, "--out", str(tmp_path / "h")])
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "h" / "g0001.json").read_text())
    assert record["players"] == ["random#1", "random#2", "random#3", "random#4"]


@pytest.mark.parametrize("command", ["run", "play"])
def test_a_bot_that_cannot_play_the_game_is_refused_before_the_run(
    tmp_path: Path, command: str
) -> None:
    """Issue 34: ismcts searches with a game's determinizer, which OpenSpiel's games have
    not; its bot.toml does not list them, so naming it for one is one sentence, no games."""
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main, [command, "--game", KUHN, "random", "ismcts", "--out", str(out)]
    )
    assert result.exit_code == 1 and not out.exists()
    assert result.output == (
        "Error: ismcts's bot.toml says it plays mandala, flowers, takenoko, not "
        f'{KUHN}: if it plays {KUHN} too, say so with games = ["mandala", "flowers", '
        f'"takenoko", "{KUHN}"].\n'
    )


def test_a_simultaneous_game_is_played_turn_based_without_showing_the_first_choice() -> None:
    game = get_game("openspiel:goofspiel(num_cards=4)")
    state = game.new_state(1, None, 2)
    before = state.view(1)["observation"]
    state.apply_move({"action": state.legal_actions()[3]})  # seat 0 bids its 4
    assert state.decision() is not None and state.decision().seat == 1
    after = state.view(1)["observation"]
    assert "P0 hand: 1 2 3 4" in before and "P0 hand: 1 2 3 4" in after  # not shown yet


def test_ismcts_forced_onto_an_openspiel_game_says_it_cannot_search_it(tmp_path: Path) -> None:
    """Issue 44: with an OpenSpiel game added to its bot.toml's games, ismcts is no longer
    refused by the arena; it then says in one sentence that it cannot search that game
    (no determinizer), rather than timing out with "nothing arrived; flush stdout"."""
    forced = tmp_path / "ismcts"
    shutil.copytree(ROOT / "bots" / "ismcts", forced, ignore=shutil.ignore_patterns("__pycache__"))
    manifest = forced / "bot.toml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace('"takenoko"]', '"takenoko", "openspiel:kuhn_poker"]'))
    result = CliRunner().invoke(
        main,
        ["play", str(forced), "random", "--game", "openspiel:kuhn_poker", "--games", "1"]
        + ["--out", str(tmp_path / "out")],  # fmt: skip
    )
    assert "ismcts cannot play openspiel:kuhn_poker: it searches only games with a " in (
        result.output
    ), result.output
    assert "nothing arrived" not in result.output
