"""Issue 46, point 2: `arena play` plays the game the bots named have in common (as `arena
check` checks the first game its bot lists), not Mandala unasked; a table size the game does
not have names the games that have it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.bot_game import game_of_bots
from arena.cli.main import main
from arena.errors import ArenaError
from arena.players.manifest import common_games, load_manifest
from tests.referee_support import fake_bot


def bot(root: Path, name: str, games: list[str] | None) -> Path:
    """A fake bot whose bot.toml lists `games` (None: no games line)."""
    fake_bot(root, name)
    if games is not None:
        with (root / name / "bot.toml").open("a") as manifest:
            manifest.write(f"games = {json.dumps(games)}\n")
    return root / name


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_bots_that_list_only_flowers_play_flowers_without_being_told(tmp_path: Path) -> None:
    first = bot(tmp_path, "first", ["flowers"])
    second = bot(tmp_path, "second", ["takenoko", "flowers"])
    out = tmp_path / "out"
    args = ["play", str(first), str(second), "--seats", "3", "--out", str(out), "-q",
            "--time-limit", "10000"]  # fmt: skip
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.stderr == (  # a note, beside the output
        "Playing flowers, the first game first and second have in common; --game plays another.\n"
    )
    assert result.stdout.startswith("first vs second#1 vs second#2: 3 games")
    records = [json.loads(path.read_text()) for path in sorted(out.glob("g*.json"))]
    assert len(records) == 3
    assert {record["game"] for record in records} == {"flowers"}


def test_the_first_common_game_that_seats_the_table_is_chosen(tmp_path: Path) -> None:
    both = [
        load_manifest(bot(tmp_path, "one", ["mandala", "flowers", "takenoko"])),
        load_manifest(bot(tmp_path, "two", ["takenoko", "mandala", "flowers"])),
    ]
    assert common_games(both) == ["mandala", "flowers", "takenoko"]
    assert game_of_bots(both, None, 2)[0] == "mandala"
    assert game_of_bots(both, 3, 2)[0] == "flowers"  # mandala seats 2 only
    assert game_of_bots(both, None, 4)[0] == "flowers"  # four bots named
    plain = load_manifest(bot(tmp_path, "plain", None))
    assert game_of_bots([plain], None, 2) == ("mandala", None, "")  # lists none: any game


def test_bots_with_no_game_in_common_are_refused_in_one_sentence(tmp_path: Path) -> None:
    first = bot(tmp_path, "first", ["mandala"])
    second = bot(tmp_path, "second", ["flowers"])
    code, output = run("play", str(first), str(second))
    assert code == 1
    assert output == (
        "Error: first and second have no game in common in their bot.toml (first: mandala; "
        "second: flowers); choose one with --game NAME.\n"
    )
    family = [load_manifest(bot(tmp_path, "spiel", ["openspiel"]))]
    with pytest.raises(ArenaError, match="choose one with --game openspiel:NAME"):
        game_of_bots(family, None, 2)


def test_a_table_size_none_of_their_games_has_is_refused_before_a_page_opens(
    tmp_path: Path,
) -> None:
    only = bot(tmp_path, "only", ["flowers"])
    code, output = run("play", "human", str(only), "--seats", "5", "--no-open")
    assert code == 1
    assert output == (
        "Error: The games only's bot.toml lists (flowers) are not played by 5 players; "
        "choose another --seats.\n"
    )


def test_a_game_given_that_does_not_seat_the_table_names_the_bots_games_that_do(
    tmp_path: Path,
) -> None:
    first = bot(tmp_path, "first", ["mandala", "takenoko"])
    code, output = run("play", str(first), str(first), "--game", "mandala", "--seats", "3")
    assert code == 1
    assert output == (
        "Error: mandala is played by 2 players, not --seats 3; at 3 seats play takenoko "
        "(--game takenoko).\n"
    )


@pytest.mark.parametrize(
    ("args", "sentence"),
    [
        (  # named bots that all play another game: arena run still plays Mandala unasked
            ["flowery", "any", "--seats", "3"],
            "Without --game, arena run plays mandala; these bots all play flowers: add --game "
            "flowers.",
        ),
        (["flowery", "any"], "add --game flowers."),
    ],
)
def test_arena_run_without_game_says_which_game_the_bots_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], sentence: str
) -> None:
    bot(tmp_path / "bots", "flowery", ["flowers"])
    bot(tmp_path / "bots", "any", None)
    monkeypatch.chdir(tmp_path)
    code, said = run("run", *args, "--rounds", "1", "--out", str(tmp_path / "out"))
    assert code == 1 and sentence in " ".join(said.split()), said
    assert not (tmp_path / "out").exists()  # bad input writes nothing


def test_arena_run_of_the_default_field_at_3_seats_names_the_games_that_seat_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)  # no bots/ here: the bundled bots' field
    code, said = run("run", "--seats", "3", "--out", str(tmp_path / "out"))
    assert code == 1 and not (tmp_path / "out").exists()
    said = " ".join(said.split())  # the tests' own games may be named too (highcard)
    assert "mandala is played by 2 players, not --seats 3; at 3 seats play flowers" in said
    assert "takenoko (--game flowers)." in said


def test_arena_run_with_game_given_adds_no_hint(tmp_path: Path) -> None:
    bot(tmp_path / "bots", "flowery", ["flowers"])
    bot(tmp_path / "bots", "takes", ["takenoko", "flowers"])
    code, said = run(
        "run", "--bots", str(tmp_path / "bots"), "flowery", "takes", "--game", "takenoko",
        "--out", str(tmp_path / "out"),
    )  # fmt: skip
    assert code == 1 and "flowery's bot.toml says it plays flowers, not takenoko" in said
    assert "Without --game" not in said


@pytest.mark.parametrize("command", [["run"], ["check", "random"], ["run", "random", "greedy"]])
def test_a_game_no_arena_plays_is_named_so(tmp_path: Path, command: list[str]) -> None:
    """`arena run --game chess` said the default field had 0 bots for chess, and `arena
    check random --game chess` that random's bot.toml should list chess; the sentence names
    OpenSpiel's games too, which no list holds (it named only the arena's own)."""
    code, said = run(*command, "--game", "chess", "--out", str(tmp_path / "out"))
    assert code == 1 and said.startswith("Error: Unknown game 'chess'; the known games are: ")
    assert "any sequential OpenSpiel game as openspiel:NAME (e.g. openspiel:kuhn_poker)" in said
    assert "bot.toml" not in said and not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("command", "sentence"),
    [
        (
            ["check", "random", "--opponent", "greedy"],
            "Error: The opponent greedy plays mandala (its bot.toml's games), not flowers: give "
            "--opponent a bot that plays flowers (random plays every game).\n",
        ),
        (
            ["play", "random", "greedy"],
            "Error: greedy's bot.toml says it plays mandala, not flowers: if it plays flowers "
            'too, say so with games = ["mandala", "flowers"].\n',
        ),
    ],
    ids=["check", "play"],
)
def test_an_opponent_that_does_not_play_the_game_is_refused_naming_its_games(
    tmp_path: Path, command: list[str], sentence: str
) -> None:
    """`arena check random --opponent greedy --game flowers` played greedy at flowers,
    which its bot.toml does not list (greedy knows only Mandala's cards)."""
    code, said = run(*command, "--game", "flowers", "--out", str(tmp_path / "out"))
    assert (code, said) == (1, sentence)
    assert not (tmp_path / "out").exists()
