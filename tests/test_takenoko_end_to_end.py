"""Takenoko end to end with the bundled bots as real processes (issue 15), base game and
Chibis."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from click.testing import CliRunner

from arena.cli.main import main
from arena.record import load_record
from tests.bundled_bots import FIELDS, bundled_folder

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_t14_the_default_field_finishes_every_game_before_the_round_cap(tmp_path: Path) -> None:
    """A tournament of the default field at the default 3 seats: every game ends by the
    Emperor (§7), none at the round cap (T14). The starters' Takenoko rules of thumb are
    what make a table of starter-c, starter-js and random finish (0 of 1,200 games capped
    in a 100-round run; with the first legal move, 8 of 240 were)."""
    out = tmp_path / "run"
    code, output = run("run", "--bots", str(bundled_folder(tmp_path)), "--game", "takenoko",
                       "--rounds", "3", "--seed", "4", "--no-charts", "--out", str(out))  # fmt: skip
    assert code == 0, output
    config = json.loads((out / "config.json").read_text())
    names = {bot["name"] for bot in config["bots"]}
    assert names == set(FIELDS["takenoko"])
    lines = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    ends = Counter((line["termination"], line["end"]) for line in lines)
    assert ends == {("normal", "all_objectives"): 36}, ends


def test_check_passes_greedy_takenoko(tmp_path: Path) -> None:
    code, output = run("check", "--game", "takenoko", str(ROOT / "bots" / "greedy-takenoko"),
                       "--out", str(tmp_path / "c"))  # fmt: skip
    assert code == 0, output
    assert "is ready for a tournament" in output and "plot" in output


def test_greedy_takenokos_copy_of_the_cards_matches_the_engines() -> None:
    """The bot is standard library only, so it carries the card tables: they must agree."""
    import importlib.util

    from arena.games.takenoko.components import (
        CHIBIS_TILES,
        GARDENER_OBJECTIVES,
        PANDA_OBJECTIVES,
        PLOT_OBJECTIVES,
    )

    spec = importlib.util.spec_from_file_location(
        "bot_greedy_takenoko", ROOT / "bots" / "greedy-takenoko" / "bot.py"
    )
    assert spec is not None and spec.loader is not None
    bot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bot)
    assert {o.id: (o.points, "".join(c for _, c in o.slots)) for o in PLOT_OBJECTIVES} == bot.PLOT
    assert {
        o.id: (o.points, o.colour, o.count, o.height) for o in GARDENER_OBJECTIVES
    } == bot.GARDENER
    assert {o.id: (o.points, "".join(o.sections)) for o in PANDA_OBJECTIVES} == bot.PANDA
    assert {t.id: "".join(sorted(t.colour or "")) for t in CHIBIS_TILES} == {
        tile: "".join(sorted(colours)) if tile != "CX2" else ""
        for tile, colours in bot.SPECIAL.items()
    }  # Kami's Garden (CX2) has no colour of its own: it counts as all three (T18)


def test_a_chibis_tournament_plays_miss_panda_and_babies(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = run("run", "--bots", str(bundled_folder(tmp_path)), "--game", "takenoko",
                       "--game-option", "chibis=true", "--seats", "3", "--rounds", "1", "--seed", "2", "--out", str(out))  # fmt: skip
    assert code == 0, output
    lines = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert lines and all(line["termination"] in ("normal", "turn_limit") for line in lines)
    records = [load_record(path) for path in (out / "records").iterdir()]
    moves = [move["move"]["action"] for record in records for move in record["moves"]]
    assert "move_miss_panda" in moves or "storm_miss_panda" in moves
    note = "18 objective cards are not public"  # §8, T20: said in the log and the reports
    assert note in (out / "run.log").read_text() and note in (out / "leaderboard.md").read_text()
    assert note in (out / "report.html").read_text()
