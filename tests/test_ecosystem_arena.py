"""OpenSpiel's games through our referee, tournament and CLI (`--game openspiel:NAME`, issue 25).

The generic game-API test (tests/test_games_api.py) runs on a sample of OpenSpiel games too;
here real bot processes play them, misbehave in them, and a tournament rates them."""

from __future__ import annotations

import json
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


@pytest.fixture
def first(tmp_path: Path) -> Player:
    player = Player(fake_bot(tmp_path, "first", "--random", "3"), GENEROUS, tmp_path / "logs")
    yield player
    player.close()


@pytest.mark.parametrize("spec", [KUHN, "openspiel:liars_dice", "openspiel:tic_tac_toe"])
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
    with pytest.raises(GameError, match="OpenSpiel has no game 'nope'"):
        get_game("openspiel:nope")
    with pytest.raises(GameError, match="OpenSpiel cannot load"):
        get_game("openspiel:tic_tac_toe(colours=3)")
    with pytest.raises(GameError, match="one-player game"):
        get_game("openspiel:catch")
    with pytest.raises(GameError, match="mean-field"):
        get_game("openspiel:mfg_crowd_modelling")


def test_arena_run_rates_bots_at_an_openspiel_game(tmp_path: Path) -> None:
    bots = Path(__file__).resolve().parents[1] / "bots"
    out = tmp_path / "run"
    result = CliRunner().invoke(
        main,
        ["run", "--game", KUHN, "--rounds", "3", "--seed", "4", "--out", str(out),
         str(bots / "random"), str(bots / "ismcts")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(lines) == 6 and {line["end"] for line in lines} == {"terminal"}
    assert (out / "ratings.csv").exists() and "Games ended: terminal 6" in result.output


def test_a_simultaneous_game_is_played_turn_based_without_showing_the_first_choice() -> None:
    game = get_game("openspiel:goofspiel(num_cards=4)")
    state = game.new_state(1, None, 2)
    before = state.view(1)["observation"]
    state.apply_move({"action": state.legal_actions()[3]})  # seat 0 bids its 4
    assert state.decision() is not None and state.decision().seat == 1
    after = state.view(1)["observation"]
    assert "P0 hand: 1 2 3 4" in before and "P0 hand: 1 2 3 4" in after  # not shown yet
