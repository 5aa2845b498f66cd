"""Issue 46, point 4: Takenoko's cards as JSON beside the rules page
(docs/rules/takenoko-cards.json), written by `python -m arena.games.takenoko.card_file`
from the engine's data and checked against it here, card by card; what an id means is
said in the file, on the rules page and in the guide for bot authors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from arena.games.takenoko import components as c
from arena.games.takenoko.card_file import FILE_NAME, cards_json
from arena.games.takenoko.cards import OBJECTIVES

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "docs" / "rules" / FILE_NAME


def test_the_shipped_file_is_what_the_module_writes() -> None:
    assert SHIPPED.read_text(encoding="utf-8") == cards_json(), (
        "run `python -m arena.games.takenoko.card_file` to rewrite it"
    )


def test_python_m_writes_the_file_where_it_is_told(tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    done = subprocess.run(
        [sys.executable, "-m", "arena.games.takenoko.card_file", str(path)],
        capture_output=True, text=True, timeout=60, cwd=ROOT, check=True,
    )  # fmt: skip
    assert done.stdout == f"wrote {path}\n"
    assert path.read_text(encoding="utf-8") == SHIPPED.read_text(encoding="utf-8")


def test_every_card_in_the_file_is_the_engines_card() -> None:
    cards = json.loads(SHIPPED.read_text(encoding="utf-8"))
    plots = {plot["id"]: plot for plot in cards["plots"]}
    assert len(plots) == 27 and list(plots) == [tile.id for tile in c.PLOTS]
    for tile in c.PLOTS:
        assert plots[tile.id] == {
            "id": tile.id,
            "colour": tile.colour,
            "improvement": tile.improvement,
        }
        assert tile.id[1] == tile.colour  # PG03: a green plot, as the ids say
    objectives = {card["id"]: card for card in cards["objectives"]}
    assert set(objectives) == set(OBJECTIVES) and len(objectives) == 45
    for card_id, card in objectives.items():
        engine = OBJECTIVES[card_id]
        assert card["points"] == engine.points
        assert card["kind"] == {"PL": "plot", "GA": "gardener", "PA": "panda"}[card_id[:2]]
    for card in c.PLOT_OBJECTIVES:
        cells = [[q, r, colour] for (q, r), colour in card.cells()]
        assert objectives[card.id]["cells"] == cells and objectives[card.id]["shape"] == card.shape
    for card in c.GARDENER_OBJECTIVES:
        mine = objectives[card.id]
        assert (mine["colours"], mine["count"], mine["height"], mine["improvement"]) == (
            [card.colour], card.count, card.height, card.improvement,
        )  # fmt: skip
    for card in c.PANDA_OBJECTIVES:
        assert objectives[card.id]["colours"] == list(card.sections)
    tiles = cards["chibis"]["tiles"]
    assert [(t["id"], t["kind"], t["colour"]) for t in tiles] == [
        (tile.id, tile.kind, tile.colour) for tile in c.CHIBIS_TILES
    ]
    babies = cards["chibis"]["babies"]
    assert [b["id"] for b in babies] == list(c.BABIES)
    assert all(b["id"] == f"B{b['colour']}-{b['bonus']}" for b in babies)
    assert set(cards["chibis"]["bonuses"]) == {c.IRR, c.IMP, c.OBJ}


def test_the_rules_page_and_the_guide_link_the_file_and_say_what_an_id_means() -> None:
    for page in (ROOT / "docs" / "rules" / "takenoko.md", ROOT / "bots" / "README.md"):
        text = " ".join(page.read_text(encoding="utf-8").split())
        assert f"{FILE_NAME})" in text, page  # a link to the file
        assert "`PG03` is a green plot" in text, page
