"""`arena serve`: a live league with a web page; `arena submit`: send a bot to one."""

from __future__ import annotations

import os
import socket
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from arena import allocator, blas, bounded
from arena.bounded import visible
from arena.cli.match_stats import parse_sprt
from arena.cli.options import (
    cluster_executor,
    cluster_options,
    league_game_options,
    limit_options,
)
from arena.cli.serve_console import ADDRESS_SETTING, console_act, in_store, web_address
from arena.errors import ArenaError
from arena.league.checking import MAX_CHECKS, CheckPolicy

if TYPE_CHECKING:
    from arena.execution import Executor
    from arena.league.league import League
    from arena.league.server import ServerLimits
    from arena.players.limits import Limits

DEFAULT_LEAGUE = Path("results") / "league"
TOKEN_ENV = "ARENA_TOKEN"
"""The store's setting where a serving league keeps the address it is reached at."""


@click.command()
@click.option(
    "--league",
    "folder",
    type=click.Path(path_type=Path),
    default=DEFAULT_LEAGUE,
    show_default=True,
    help="The league's folder (its database, bots, records).",
)
@click.option(
    "--db",
    default=None,
    metavar="FILE|URL",
    help="The league's database: a SQLite file, or postgresql://USER[:PASSWORD]@HOST[:PORT]/NAME "
    "[LEAGUE/league.sqlite].",
)
@league_game_options
@click.option(
    "--seats",
    type=int,
    default=None,
    help="Seats at each table [as the league played, else the game's own].",
)
@click.option(
    "--workers",
    type=click.IntRange(0, 64),
    default=2,
    show_default=True,
    help="Processes playing games (0: in the server's own process).",
)
@cluster_options
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (127.0.0.1: this machine only).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (0: any free one; the address is printed as the league starts).",
)
@click.option(
    "--public-url",
    default=None,
    metavar="URL",
    callback=lambda context, parameter, value: _public_url(value),
    help="The league's address as people reach it, behind a TLS reverse proxy "
    "(docs/reverse-proxy.md), e.g. https://league.example.org: invite links use it.",
)
@click.option(
    "--trusted-proxy",
    "trusted_proxies",
    multiple=True,
    metavar="ADDRESS",
    help="A reverse proxy's address or network (repeat for more; 'none': no proxy): the "
    "client address it passes (X-Forwarded-For) is believed and capped per client, and its "
    "own connections are not [the loopback: 127.0.0.1 and ::1].",
)
@click.option(
    "--add-author",
    "add_author",
    default=None,
    metavar="NAME",
    help="Make an author, print their token, and stop.",
)
@click.option(
    "--admin",
    is_flag=True,
    help="With --add-author: the author is the league's admin (README: the roles).",
)
@click.option(
    "--invite",
    is_flag=True,
    help="Print an invite link (one author joins with it, within 7 days), and stop.",
)
@click.option(
    "--revoke",
    default=None,
    metavar="AUTHOR",
    help="Make AUTHOR's token stop working at once (their bots stay as they are), and stop.",
)
@click.option(
    "--reissue",
    default=None,
    metavar="AUTHOR",
    help="Give AUTHOR a new token, printed once (the old one stops working), and stop.",
)
@click.option(
    "--audit", "show_audit", is_flag=True, help="Print the log of admin actions, and stop."
)
@click.option(
    "--sprt",
    "bounds",
    callback=parse_sprt,
    metavar="ELO0,ELO1",
    default="0,10",
    show_default=True,
    help="A new version's SPRT against its previous one (nElo, 5% error rates).",
)
@click.option(
    "--export",
    "export_to",
    type=click.Path(path_type=Path),
    default=None,
    metavar="DIR",
    help="Write the league's games as a run folder (for `arena "
    "leaderboard` and `arena report`), and stop.",
)
@click.option(
    "--checks",
    type=click.IntRange(1, MAX_CHECKS),
    default=CheckPolicy.checks,
    show_default=True,
    metavar="N",
    help="Submissions checked at once; the others wait their turn, round robin by author.",
)
@click.option(
    "--build-cpu",
    "build_cpu_s",
    type=click.IntRange(1, 3600),
    default=CheckPolicy.build_cpu_s,
    show_default=True,
    metavar="S",
    help="CPU seconds a submission's build process may use (RLIMIT_CPU).",
)
@click.option(
    "--build-timeout",
    "build_timeout_s",
    type=click.IntRange(1, 3600),
    default=CheckPolicy.build_timeout_s,
    show_default=True,
    metavar="S",
    help="Seconds a submission's build may take.",
)
@click.option(
    "--bot-disk-mb",
    type=click.IntRange(1, 1 << 20),
    default=CheckPolicy.bot_disk_mb,
    show_default=True,
    metavar="M",
    help="MiB a bot version's folder may hold while it builds and after (also its largest file).",
)
@limit_options
def serve(
    folder: Path, db: str | None, game: str, game_options: dict[str, Any], seats: int | None, workers: int, host: str, port: int,
    public_url: str | None, trusted_proxies: tuple[str, ...],
    cluster: str | None, scheduler: str | None, add_author: str | None, admin: bool, invite: bool,
    revoke: str | None, reissue: str | None, show_audit: bool, bounds: tuple[float, float], export_to: Path | None, checks: int, build_cpu_s: int,
    build_timeout_s: int, bot_disk_mb: int, move_ms: int, time_bank_ms: int, cpu_ms: int | None,
) -> None:  # fmt: skip
    """Run a league: bots submitted over the web page or `arena submit` are checked, then
    play continuously; the leaderboard is live at http://HOST:PORT/. With --scheduler, each
    bot version is shipped to the Dask workers and built there; the records come back.

    The time options are those of `arena run` and hold for the checks and the games of this
    run of the server: the league does not keep them, so a restart may give others."""
    blas.one_thread()  # the pair fit beside the server: before anything loads numpy
    allocator.return_large_blocks()  # its n×n arrays, freed, go back to the system
    from arena.league.exposure import plain_http_warning
    from arena.players.limits import Limits

    warning = plain_http_warning(host, public_url)  # tokens readable on the way: say so
    if warning is not None:
        click.echo(warning, err=True)
    given = click.get_current_context().get_parameter_source("game") != ParameterSource.DEFAULT
    game_asked, options_asked = (game if given else None), (game_options or None)
    at_console = console_act(add_author, admin, invite, revoke, reissue, show_audit)
    if at_console is not None:  # beside a playing league too: its store alone
        making = add_author is not None or invite  # these may make the league; the others not
        click.echo(in_store(folder, db, (game_asked, seats, options_asked), at_console, making, public_url, host, port))  # fmt: skip
        return
    limits = _server_limits(trusted_proxies)  # a bad address said before the league opens
    league = _open_league(
        folder, db, (game_asked, seats, options_asked), workers, bounds, export_to,
        CheckPolicy(checks, build_cpu_s, build_timeout_s, bot_disk_mb),
        Limits(move_ms=move_ms, time_bank_ms=time_bank_ms, cpu_ms=cpu_ms),
    )  # fmt: skip
    if league is not None:
        _serve_league(league, host, port, public_url, cluster, scheduler, limits)


def _open_league(
    folder: Path, db: str | None, table_asked: tuple[str | None, int | None, dict[str, Any] | None],
    workers: int, bounds: tuple[float, float], export_to: Path | None, checking: CheckPolicy,
    limits: Limits,
) -> League | None:  # fmt: skip
    """The league in `folder`, opened; None when it was only exported (--export)."""
    from arena.league.export import export
    from arena.league.league import League
    from arena.stats.sprt import Sprt

    game_asked, seats, options_asked = table_asked
    try:
        test = Sprt(*bounds)
        league = League(
            folder, game=game_asked, seats=seats, game_options=options_asked, workers=workers,
            test=test, db=db, checking=checking, limits=limits,
        )  # fmt: skip
        if league.made is not None:  # a new league: its game and seats, said
            click.echo(league.made)
        if export_to is not None:
            count = export(league, export_to)
            league.close()
            click.echo(f"{count} games written to {export_to}; `arena report {export_to}`.")
            return None
    except ArenaError as error:
        raise click.ClickException(str(error)) from None
    return league


def _serve_league(
    league: League, host: str, port: int, public_url: str | None, cluster: str | None,
    scheduler: str | None, limits: ServerLimits,
) -> None:  # fmt: skip
    """Play the league and serve its pages until Ctrl-C (or SIGTERM); the league closed at
    the end."""
    from arena.league.web import league_server

    listening = None
    try:
        listening = listen(host, port)
        league.executor_factory = executor_factory(cluster, scheduler)
        league.start()
    except BaseException as error:  # a usage error or Ctrl-C too: the league closed first
        league.close()
        if listening is not None:
            listening.close()
        if isinstance(error, ArenaError):
            raise click.ClickException(str(error)) from None
        raise
    listened = web_address(host, listening.getsockname()[1])
    with league.lock:  # for `arena serve --invite` beside it
        league.store.set_setting(ADDRESS_SETTING, public_url or listened)
    _log_to_output()
    reached = f" (reached at {public_url}/)" if public_url else ""
    click.echo(f"League of {league.game} ({league.seats} seats) at {listened}/{reached}")
    try:  # timeouts, caps, the file limit raised; a stop stops the league first
        league_server(league, limits, log_level="warning").run(sockets=[listening])
    finally:
        league.close()
        listening.close()


def _server_limits(trusted_proxies: tuple[str, ...]) -> ServerLimits:
    """The server's limits with the proxies trusted (`--trusted-proxy`), checked."""
    from arena.league.server import TRUSTED_PROXIES, ServerLimits

    proxies = tuple(p for p in trusted_proxies if p != "none") if trusted_proxies else None
    try:
        return ServerLimits(trusted_proxies=TRUSTED_PROXIES if proxies is None else proxies)
    except ArenaError as error:
        raise click.BadParameter(str(error), param_hint="--trusted-proxy") from None


def _public_url(text: str | None) -> str | None:
    from arena.league.exposure import public_url

    try:
        return None if text is None else public_url(text)
    except ArenaError as error:
        raise click.BadParameter(str(error)) from None


def _log_to_output() -> None:
    """The league's log lines (a submission, a check, a verdict; never a token) on stderr,
    with their time."""
    import logging

    league_log = logging.getLogger("arena.league")
    if not league_log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        league_log.addHandler(handler)
    league_log.setLevel(logging.INFO)
    league_log.propagate = False


def listen(host: str, port: int) -> socket.socket:
    """The server's socket, bound before the league starts playing: a port in use is one
    sentence, not a league that plays on with no page."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family, backlog=2048)
    except OSError as error:
        raise ArenaError(
            f"Cannot listen on {host}:{port} ({error.strerror or error}); choose another "
            "--port, or stop what uses it."
        ) from None


def executor_factory(cluster: str | None, scheduler: str | None) -> Callable[[int], Executor]:
    """The league's executor: Dask as `--cluster`/`--scheduler` ask (connected now, so a
    wrong address is one sentence at start-up), else the local pool of `--workers`."""
    from arena.execution import make_executor

    dask = cluster_executor(cluster, scheduler)
    return make_executor if dask is None else (lambda workers: dask)


@click.command()
@click.argument("bot")
@click.option("--to", "url", required=True, help="The league, e.g. http://127.0.0.1:8000")
@click.option("--token", default=None, help=f"Your token [${TOKEN_ENV}].")
def submit(bot: str, url: str, token: str | None) -> None:
    """Send BOT (a bot's folder, or its name: a bot in bots/ here, else a bundled one) to a
    league as a new version."""
    from arena.league.uploads import archive_folder, check_size
    from arena.players.manifest import resolve_bot

    token = token or os.environ.get(TOKEN_ENV)
    if not token:
        raise click.ClickException(f"Give your token with --token or ${TOKEN_ENV}.")
    with tempfile.TemporaryDirectory() as scratch:
        try:
            folder = resolve_bot(bot).folder  # a folder, or a name (as `arena check`)
        except ArenaError as error:
            raise click.ClickException(str(error)) from None
        archive = archive_folder(folder, Path(scratch))
        try:
            check_size(archive)
        except ArenaError as error:
            raise click.ClickException(str(error)) from None
        shown = _sent(url, token, archive.read_bytes())
    click.echo(f"Submitted {shown[0]} ({shown[1]}); it plays once its check passes.")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is refused: urllib would send the token on to wherever it points, and a
    POST comes out of it a GET without the archive."""

    def redirect_request(
        self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str
    ) -> None:
        raise click.ClickException(
            f"The league at {req.full_url} sent the request on to {newurl} (HTTP {code}); give "
            "that league's own address with --to, e.g. https://... when it redirects to HTTPS."
        )


def _sent(url: str, token: str, archive: bytes) -> tuple[str, str]:
    """POST `archive` to the league at `url` as `token`; the new version's label and status
    (the answer read bounded), or a ClickException with one sentence."""
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise click.ClickException(
            f"--to must be the league's http:// or https:// address, e.g. http://127.0.0.1:8000, "
            f"not {url!r}."
        )
    request = urllib.request.Request(
        url.rstrip("/") + "/api/bots",
        data=archive,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/gzip"},
        method="POST",
    )
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=120) as answer:
            raw = answer.read(1 << 16)
    except urllib.error.HTTPError as error:
        try:  # bounded: a body of `[[[[...` raised RecursionError
            said = bounded.loads(error.read(1 << 16), "The league's answer", max_depth=0)
            reason = said.get("error", error.reason)
        except (bounded.BoundedReadError, AttributeError):
            reason = error.reason
        shown = visible(str(reason))  # the server's words: bounded, safe to print
        raise click.ClickException(f"The league refused it: {shown[:500]}") from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise click.ClickException(f"Cannot reach the league at {url} ({error}).") from None
    try:
        shown = bounded.loads(raw, "The league's answer", max_depth=0)
        label, status = shown["bot"], shown["status"]
        if not isinstance(label, str) or not isinstance(status, str):
            raise TypeError
    except (bounded.BoundedReadError, KeyError, TypeError):
        raise click.ClickException(
            f"{url} answered, but not as a league does ({raw[:60]!r}); check the address."
        ) from None
    return visible(label), visible(status)
