"""A check checks the bot, not its opponents (issue 33, item 4): every kind of decision a
game asks at the configuration checked comes to the bot under test, or the check says it is
incomplete and exits 1. Real bots, over click's CliRunner."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from click.testing import CliRunner

from arena.cli.main import main
from arena.game_sources import get_game

ROOT = Path(__file__).resolve().parents[1]
BOT = "greedy-takenoko"
CHIBIS_KINDS = {"eat", "cabin", "baby", "bonus"}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def bot_kinds(out: Path) -> Counter[str]:
    """The kinds of decision the bot under test itself made in the check's records (not
    those the check made to reach a position: the record's `check.prelude` first ones)."""
    kinds: Counter[str] = Counter()
    for path in sorted(out.glob("check-*.json")):
        record = json.loads(path.read_text())
        seat = record["players"].index(BOT)
        prelude = record.get("check", {}).get("prelude", 0)
        kinds.update(move["kind"] for move in record["moves"][prelude:] if move["seat"] == seat)
    return kinds


def test_a_chibis_check_brings_every_kind_of_decision_to_the_bot_under_test(
    tmp_path: Path,
) -> None:
    """Before: 'no cabin decision came up' (those came to the random opponents), and yet
    'All 6 checks passed'."""
    out = tmp_path / "c"
    code, output = run("check", "--game", "takenoko", "--game-option", "chibis=true",
                       str(ROOT / "bots" / BOT), "--out", str(out))  # fmt: skip
    assert code == 0, output
    assert set(bot_kinds(out)) == set(get_game("takenoko").decision_kinds), output
    assert "came up" not in output and "incomplete" not in output, output
    assert "from a position where" in output, output


def test_a_base_game_check_says_which_kinds_do_not_arise_at_its_configuration(
    tmp_path: Path,
) -> None:
    """Without Chibis, its four kinds never arise: the check passes and says so."""
    out = tmp_path / "c"
    code, output = run("check", "--game", "takenoko", str(ROOT / "bots" / BOT),
                       "--out", str(out))  # fmt: skip
    assert code == 0, output
    kinds = set(get_game("takenoko").decision_kinds)
    assert set(bot_kinds(out)) == kinds - CHIBIS_KINDS, output
    assert "eat, cabin, baby and bonus decisions never arose" in output, output


def test_check_help_speaks_of_every_game() -> None:
    code, output = run("check", "--help")
    assert code == 0, output
    assert "claim" not in output, output
    assert "kind of decision" in " ".join(output.split()), output


FAILS_AFTER_ITS_FIRST_GAME = """
import json, random, sys

rng = random.Random(3)
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        print(json.dumps({"type": "hello", "name": "flaky", "version": "1"}), flush=True)
    elif kind == "decide":
        if message["game_id"] != "check-001":
            sys.exit(3)  # a crash: the opponent's fault, never the bot's
        index = rng.randrange(len(message["legal_moves"]))
        print(json.dumps({"move": index, "id": message["id"]}), flush=True)
    elif kind == "goodbye":
        break
"""


def test_a_kind_never_brought_to_the_bot_makes_the_check_incomplete(tmp_path: Path) -> None:
    """The opponent crashes in every game after the first, so the games from positions are
    not counted: the check says which kinds never came to the bot and exits 1 (before: 'no
    ... decision came up' as a warning, and exit 0)."""
    folder = tmp_path / "flaky"
    folder.mkdir()
    (folder / "bot.py").write_text(FAILS_AFTER_ITS_FIRST_GAME)
    (folder / "bot.toml").write_text(
        'name = "flaky"\ncommand = ["python3", "bot.py"]\nlanguage = "python"\n'
    )
    code, output = run("check", "--game", "takenoko", "--game-option", "chibis=true",
                       "--games", "1", "--opponent", str(folder), str(ROOT / "bots" / BOT),
                       "--out", str(tmp_path / "c"))  # fmt: skip
    assert code == 1, output
    assert "FAIL  games: incomplete: no " in output, output
    assert "decision came to the bot" in output, output
    assert "was not counted: the opponent failed" in output, output
    assert "The check is incomplete; run `arena check` again." in output, output
