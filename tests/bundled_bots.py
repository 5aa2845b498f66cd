"""The bots the project ships, by name, for tests that play a default field.

A bot author copies their bot into `bots/` as the README says; a test that took "every
folder in bots/" as its field would then play that bot too and fail. Tests take their field
from `BUNDLED` instead: `bundled_folder` links the bundled bots into a folder of the test's
own, given to `arena run --bots`, and `FIELDS` is the default field each game gets from it.
`tests/test_user_bots.py` checks these lists against the bots the repository tracks.
"""

from __future__ import annotations

from pathlib import Path

BOTS = Path(__file__).resolve().parents[1] / "bots"

BUNDLED = (
    "greedy", "greedy-flowers", "greedy-takenoko", "heuristic", "ismcts", "mccfr-mandala",
    "openspiel-cfr", "openspiel-ismcts", "policy-example", "random", "starter-c", "starter-js",
    "starter-cpp", "starter-csharp", "starter-go", "starter-java", "starter-kotlin",
    "starter-lua", "starter-php", "starter-python", "starter-ruby", "starter-rust",
    "starter-typescript",
)  # fmt: skip
"""Every bot folder the repository ships (each folder named as its bot)."""

FIELDS = {
    "mandala": ("greedy", "random", "starter-c", "starter-js"),
    "flowers": ("greedy-flowers", "random", "starter-c", "starter-js"),
    "takenoko": ("greedy-takenoko", "random", "starter-c", "starter-js"),
}
"""The default field of each game among the bundled bots (those not `default = false`)."""


def bundled_folder(root: Path) -> Path:
    """A folder `root/bundled-bots` of links to the bundled bots only, for `--bots`."""
    folder = root / "bundled-bots"
    folder.mkdir(parents=True, exist_ok=True)
    for name in BUNDLED:
        link = folder / name
        if not link.exists():
            link.symlink_to(BOTS / name, target_is_directory=True)
    return folder
