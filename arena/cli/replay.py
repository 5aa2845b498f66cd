"""`arena replay RECORD`: a recorded game, turn by turn, in words."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import click

from arena.errors import ArenaError
from arena.games import get_game


@click.command()
@click.argument("record_path", metavar="RECORD", type=click.Path(dir_okay=False, path_type=Path))
def replay(record_path: Path) -> None:
    """Tell the game recorded in RECORD (a .json or .json.gz game record) move by move."""
    try:
        data = record_path.read_bytes()
        if data.startswith(b"\x1f\x8b"):  # a tournament's records are gzip-compressed
            data = gzip.decompress(data)
        record = json.loads(data.decode("utf-8"))
    except (gzip.BadGzipFile, EOFError):
        raise click.ClickException(f"{record_path} is a damaged gzip file.") from None
    except OSError as error:
        raise click.ClickException(f"Cannot read {record_path}: {error.strerror}.") from None
    except UnicodeDecodeError:
        raise click.ClickException(
            f"{record_path} is not a JSON game record (not UTF-8 text)."
        ) from None
    except json.JSONDecodeError as error:
        raise click.ClickException(
            f"{record_path} is not JSON ({error.msg}, line {error.lineno})."
        ) from None
    if not isinstance(record, dict):
        raise click.ClickException(f"{record_path} is not a game record (not a JSON object).")
    try:
        lines = get_game(str(record.get("game"))).narrate(record)
    except ArenaError as error:
        raise click.ClickException(f"{record_path}: {error}") from None
    click.echo("\n".join(lines))
