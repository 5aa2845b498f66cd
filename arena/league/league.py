"""A running league: submissions checked and admitted, tables played without end, games stored.

A league lives in one folder: `league.sqlite` (the store, unless `db` names another file or
a PostgreSQL database), `bots/<label>/` (each submitted version, unpacked), `checks/<label>/`
(its conformance games and logs), `records/` (every league game's record, as `arena run`
writes them) and `logs/` (the bots' stderr). The store keeps the league's game, options and
table size, so a restart plays on without being told.

- `submit`: the archive is unpacked (`uploads`), its bot.toml read, a new version stored as
  `building`; then, in the background, `arena check`'s conformance games (the build
  included) against `random`: it becomes `active` and is matched, or `failed` with the
  check's own sentence on its page.
- `play_forever` (a thread; one process per league folder, see `start`): keeps the executor
  busy (the local pool of `workers` processes, or Dask, whose workers on other machines get
  each bot version shipped to them by `remote` and send the records back) with tables from
  `matchmaking` (every other table seats a candidate, a new version whose SPRT against its
  previous version continues, with that version: `candidates`), each deal played with the
  seats rotated, and stores every finished game at once. A table's game ids come from a
  counter kept in the store and advanced before the table is handed out, so a league killed
  at any moment and restarted abandons the tables it was playing (none of their games was
  stored) and plays new ones: no finished game is lost, none is stored twice. The field of
  a table is the active bots as it starts; a bot retired meanwhile finishes that table.
- `record`: a table's games (or many tables') stored in one transaction with what they
  change of the league's state (league_state.py: standings, TrueSkill and its history, the
  pairs' meetings, the candidates' SPRT sums), which the league keeps in memory and never
  rebuilds from the games: opened again, it reads the state back (an older league's is
  built once from its games). The server holds no game: pages and downloads read the store
  a page at a time. (recording.py; what a stopped league left half done is put right by
  recovery.py when it plays again.)
"""

from __future__ import annotations

import dataclasses
import logging
import random
import shutil
import threading
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from arena.errors import ArenaError, BotManifestError
from arena.execution import (
    Executor,
    WorkerContext,
    make_executor,
)
from arena.game_sources import get_game
from arena.league import public, uploads
from arena.league.bot_games import Trail
from arena.league.candidates import DEFAULT_TEST, CandidateTests, Verdict, verdict_for
from arena.league.checking import CheckPolicy, CheckQueue, build_version
from arena.league.database import lock_file
from arena.league.matchmaking import next_table
from arena.league.outage import Outage
from arena.league.paths import bot_folders
from arena.league.recording import Recording
from arena.league.recovery import recover
from arena.league.standings import Standings
from arena.league.store import Author, Bot, Store, StoreError
from arena.league.table import made_line, settle
from arena.league.table_loop import LeagueSteps, play_tables
from arena.players.bundled import bundled_bots
from arena.players.limits import Limits
from arena.players.manifest import BotManifest, game_refusal, written_for
from arena.players.ready import fingerprint, read
from arena.players.toolchains import league_refusal
from arena.schedule import GameSlot, TableTask, seatings
from arena.stats.sprt import Sprt

log = logging.getLogger(__name__)

PAUSED = "paused"
NEXT_TABLE = "next_table"
CHECK_GAMES = 4
CHECK_RETRIES = 3
"""Times a check game is played again (after 2, 4, 8 s) when its late reply's CPU time was
within the limit (the machine was busy) or the opponent failed: never the bot's fault."""
DEFAULT_DB = "league.sqlite"
"""The store's file in the league's folder when no other database is named."""
LOCK_NAME = "league.lock"
"""Locked by the one process playing the league (`start`)."""


class League(Recording):
    """One league folder, its store, and (once started) its play and checks."""

    def __init__(
        self,
        folder: Path,
        *,
        game: str | None = None,
        seats: int | None = None,
        game_options: Mapping[str, Any] | None = None,
        workers: int = 2,
        limits: Limits | None = None,
        executor_factory: Callable[[int], Executor] = make_executor,
        test: Sprt = DEFAULT_TEST,
        db: str | Path | None = None,
        checking: CheckPolicy | None = None,
    ) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.workers = workers
        self.limits = limits or Limits()
        self._claims: list[Callable[[], None]] = []  # held while playing (`start`)
        self.remote = False
        """Playing on Dask workers of other machines: bots shipped, records carried back."""
        self.address = folder / DEFAULT_DB if db is None else db
        """The store's file or URL (password and all: for a process of the league's own)."""
        self.store = Store(self.address)
        try:
            table = settle(self.store, game, seats, game_options)
        except ArenaError:
            self.store.close()
            raise
        self.game, self.seats, self.game_options = table.game, table.seats, table.options
        self.made = made_line(table, folder)
        """The line saying this start made the league (its game and seats), else None."""
        self.seq_per_table = get_game(self.game).max_players
        """Game sequence numbers are spaced by the largest table: in order as sizes change."""
        self.lock = threading.Lock()  # one connection, many threads: one at a time
        self.reader = Store(self.store.where, db=self.store.db.reader())
        """The web side's reads, on a connection and lock of their own (`reading`): never
        queued behind a write that waits for the database (another process holding it)."""
        self.reading = threading.Lock()
        self.outage = Outage(log)  # a database that keeps failing: told once a minute
        self.executor_factory = executor_factory
        self.test = test
        self.checking = checking or CheckPolicy()
        """How submissions are checked: at most so many at once, their builds bounded."""
        self.checks = CheckQueue(self.checking.checks, self._check, self.store, self.lock)
        self.stop = threading.Event()
        self.threads: list[threading.Thread] = []
        self.rng = random.Random()
        self._told: set[str] = set()  # the versions whose SPRT verdict was logged
        self.manifests: dict[str, BotManifest] = {}
        self._open_games()
        for sub in ("bots", "checks", "records", "logs", "uploads"):
            (folder / sub).mkdir(exist_ok=True)

    def _open_games(self) -> None:
        """The league's settings and state (never its games), read from the store once when
        it opens."""
        # This process alone plays the league (`start`), so these live here, written through
        self._paused = self.store.setting(PAUSED) == "1"
        self.next_table = int(self.store.setting(NEXT_TABLE, "0"))
        self._stale = False
        """The state in memory may differ from the one stored (a transaction failed)."""
        with self.lock:
            self.state = self._read_state()

    @property
    def standings(self) -> Standings:
        """The plain leaderboard's tallies, each stored game counted once (`record`)."""
        return self.state.standings

    @property
    def ratings(self) -> dict[str, Any]:
        """TrueSkill by bot, each game rated as it was stored (matchmaking's)."""
        return self.state.ratings

    @property
    def tests(self) -> CandidateTests:
        """Each candidate's SPRT, final at its verdict."""
        return self.state.tests

    # --- submissions ---

    def submit(self, author: Author, archive: Path, *, wait: bool = False) -> Bot:
        """A new bot version from `archive`, checked in the background (or now, `wait`)."""
        incoming = self.folder / "bots" / f".incoming-{uuid.uuid4().hex}"
        folder = uploads.unpack(archive, incoming)
        try:
            manifest = read(folder)
            if not written_for(manifest, self.game):  # a bot plays the games it says it plays
                raise BotManifestError(game_refusal(manifest, self.game))
            unbuildable = league_refusal(manifest)  # before any build (issue 41)
            if unbuildable is not None:
                raise BotManifestError(unbuildable)
            name = manifest.name
            sources = fingerprint(folder)  # before its build; the same as a version's: refused
            with self.lock:
                bot = self.store.add_bot(name, author, sources)
            target = bot_folders(self.folder, bot)[0]  # proven inside bots/
        except ArenaError as error:
            shutil.rmtree(incoming, ignore_errors=True)
            for where in (folder, incoming):  # the upload's files by their own names
                error.args = (str(error).replace(f"{where}/", "").replace(str(where), "it"),)
            raise
        shutil.move(str(folder), target)
        if folder != incoming:
            shutil.rmtree(incoming, ignore_errors=True)
        log.info("submission: %s by %s (version %d)", bot.label, author.name, bot.version)
        checked = self.checks.put(bot)  # round robin by author, `checking.checks` at a time
        return checked.result() if wait else bot

    def _check(self, bot: Bot) -> Bot:
        from arena.conformance import check_bot

        bot = self.checks.write(bot, "checking")  # none once a stop cut the check short
        try:
            manifest = self.manifest(bot)
            problem = build_version(manifest, self.checking)  # bounded, its folder weighed
            if problem is not None:
                problem = public.check_message(problem, self.folder, bot.label)  # whole: its log
                return self.checks.write(bot, "failed", problem)
            opponent = read(bundled_bots() / "random")  # never ./bots: it may lack one
            results = check_bot(
                dataclasses.replace(manifest, build=None),  # built just now
                opponent,
                self.limits,
                bot_folders(self.folder, bot)[1],  # proven inside checks/
                games=CHECK_GAMES,
                game=self.game,
                seats=self.seats,
                game_config=self.game_options,
                retries=CHECK_RETRIES,
            )
            failed = [result for result in results if result.failed]
            status = "failed" if failed else "active"
            message = f"{failed[0].name}: {failed[0].detail}" if failed else "passed arena check"
            notes = [result.note for result in results if result.note and not failed]
            if notes:  # played again for the machine's or the opponent's fault: say so
                message += f"; {'; '.join(notes)}"
        except (ArenaError, OSError) as error:
            status, message = "failed", str(error)
        message = public.check_message(message, self.folder, bot.label)  # whole: in its log
        return self.checks.write(bot, status, message)

    def manifest(self, bot: Bot) -> BotManifest:
        """The bot's manifest, named with its league label (read once: a version's folder
        never changes)."""
        manifest = self.manifests.get(bot.label)
        if manifest is None:
            manifest = read(bot_folders(self.folder, bot)[0])
            manifest = self.manifests[bot.label] = dataclasses.replace(manifest, name=bot.label)
        return manifest

    def retire(self, author: Author, label: str) -> Bot:
        """Stop matching a bot (it stays on the leaderboard with its games); only its author
        or an admin may."""
        return self._set_status(author, label, "retired", "retire")

    def remove(self, author: Author, label: str) -> Bot:
        """Take a bot out of the league: no longer matched nor on the leaderboards, its
        folder deleted when the league next starts playing (a table in flight may still be
        using it).
        Its games stay, for the other bots' ratings and replays. Its author or an admin."""
        return self._set_status(author, label, "removed", "remove")

    def unretire(self, author: Author, label: str) -> Bot:
        """Bring a retired bot back: matched again, its games and any test going on where
        they stopped. The admin's alone (a bot the admin retired stays retired)."""
        return self._set_status(author, label, "active", "unretire")

    def _set_status(self, author: Author, label: str, status: str, verb: str) -> Bot:
        """The act `verb` (retire, remove, unretire) of `author` on bot `label`: its author or
        an admin may retire or remove it, an admin alone unretire it; an admin's act is in the
        audit log."""
        with self.lock:
            bot = self.store.bot(label)
            if bot is None or bot.status == "removed":
                raise StoreError(f"There is no bot {label} in this league.")
            if verb == "unretire" and not author.admin:
                raise StoreError(
                    f"Only the league's admin may unretire a bot; ask them for {label}."
                )
            if bot.author != author.name and not author.admin:
                raise StoreError(f"{label} belongs to {bot.author}; you may {verb} only yours.")
            if bot.status in ("building", "checking"):
                raise StoreError(f"{label} is being checked; {verb} it once its check is done.")
            wanted = {"retire": "active", "unretire": "retired"}.get(verb)
            if wanted is not None and bot.status != wanted:
                doing = "not playing" if verb == "retire" else "not retired"
                raise StoreError(f"{label} is {bot.status}, {doing}; there is nothing to {verb}.")
            with self.store.db.transaction():
                if author.admin:
                    self.store.audit(author.name, f"{verb}d {label} ({bot.author}'s)")
                return self.store.set_status(bot, status)

    # --- play ---

    def paused(self) -> bool:
        return self._paused

    def set_paused(self, paused: bool, by: Author | None = None) -> None:
        """Matchmaking stopped or started again; `by`: the admin who did it, for the audit
        log (None: not logged)."""
        with self.lock, self.store.db.transaction():
            self.store.set_setting(PAUSED, "1" if paused else "0")
            if by is not None:
                self.store.audit(by.name, "paused the league" if paused else "resumed the league")
            self._paused = paused

    def verdict(self, bot: Bot, bots: list[Bot] | None = None) -> Verdict | None:
        """The SPRT of a new version against its author's last active version (None for a
        first version; `untested` without one: candidates.verdict_for), as its games were
        stored; `bots`: every bot (read from the store if not given: then call it holding
        `lock`)."""
        if bot.version < 2:
            return None
        if bots is None:
            bots = self.store.bots()
        state = self.state
        return verdict_for(bot, bots, state.met(), state.tests)

    def history(self, label: str) -> list[dict[str, float]]:
        """Bot `label`'s TrueSkill from its start to its latest game (bot_games.Trail)."""
        trail = self.state.trails.get(label)  # read without the lock: a game changes it by
        return (trail or Trail()).shown()  # appending, or by replacing its points whole

    def _open_test(self, active: list[Bot]) -> tuple[str, str] | None:
        """A candidate whose test continues, with its previous version (both active)."""
        every = self.store.bots()
        playing = [bot.label for bot in active]
        for bot in active:
            verdict = self.verdict(bot, every)
            if verdict is not None and not verdict.decided and verdict.previous in playing:
                return verdict.candidate, verdict.previous
        return None

    def _next_task(self) -> tuple[TableTask, WorkerContext] | None:
        with self.lock:
            active = self.store.bots("active")
            number = self.next_table
            labels = [bot.label for bot in active]
            played = {label: self.state.games_of(label) for label in labels}
            test = self._open_test(active) if number % 2 == 0 else None
            met = self.state.met()  # games each pair met, kept up to date
            # every other table: a candidate meets its previous version (`test`, seated)
            table = next_table(
                labels, played, self.ratings, self.seats, self.rng, met, seated=test or ()
            )
            if table is None:
                return None
            self.store.set_setting(NEXT_TABLE, str(number + 1))  # before the table is out
            self.next_table = number + 1
        seed = self.rng.randrange(1 << 62)
        slots = tuple(
            GameSlot(
                f"L{number:07d}-g{n}",
                number * self.seq_per_table + n - 1,
                1,
                number,
                n,
                seed,
                seating,
            )
            for n, seating in enumerate(seatings(table), 1)
        )
        context = WorkerContext(
            run_id=f"league:{self.folder.resolve()}:{','.join(sorted(labels))}",
            bots=tuple(self.manifest(bot) for bot in active if bot.label in table),
            limits=dataclasses.asdict(self.limits.hiding(self.folder)),
            game=self.game,
            game_config=self.game_options,
            log_dir=self.folder / "logs",
            records_dir=self.folder / "records",
            carry_records=self.remote,
        )
        return TableTask(number, 1, seed, slots), context

    def game_count(self) -> int:
        with self.lock:
            return self.store.game_count()

    def play_forever(self) -> None:
        """Keep the executor busy until `stop` is set (run it in a thread; table_loop.py)."""
        executor = self.executor_factory(self.workers)
        self.remote = executor.remote
        steps = LeagueSteps(
            self._next_task, self.record, self.paused, self.outage, self.stop,
            in_flight=2 * max(1, self.workers), building=self.checking,
        )  # fmt: skip
        play_tables(executor, steps)

    def start(self) -> None:
        """Play in a thread. One league process plays a league folder at a time (a second
        would hand out the same table numbers and write over the first's records): a lock
        on `league.lock` in the folder and a claim on the database (database.py), held
        until `close`, refuse the second. Before that, a bot started as the sandbox starts
        them must run in a folder of `bots/` (sandbox/reach.py), else one sentence says why."""
        if not self._claims:
            from arena.players.sandbox.reach import check_reachable

            check_reachable(self.folder / "bots", self.limits.sandbox, "give another --league")
            folder = lock_file(self.folder / LOCK_NAME)
            if folder is None:
                raise StoreError(
                    f"Another arena serve is playing the league in {self.folder}; stop it "
                    "first, or give another --league folder."
                )
            database = self.store.db.claim()
            if database is None:
                folder()
                raise StoreError(
                    f"Another arena serve is playing a league on the database {self.store.where}; "
                    "stop it first, or give another --db."
                )
            self._claims = [database, folder]
            with self.lock:
                recover(self.folder, self.store, self.checking.bot_disk_mb)
        thread = threading.Thread(target=self.play_forever, daemon=True, name="league-play")
        thread.start()
        self.threads.append(thread)

    def close(self) -> None:
        self.stop.set()
        self.checks.close()
        for thread in self.threads:
            thread.join(timeout=30)
        if self._claims:  # this process played the league: its state is the last stored
            self.write_snapshot()
        self.store.close()
        for release in self._claims:
            release()
        self._claims = []
