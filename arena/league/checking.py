"""A league's checks of submitted versions, bounded: a queue, build limits and a disk quota.

Issue 31: six submissions whose builds spun 45 s were all checked at once (the games of
the league halved), and a 1 kB upload whose build wrote 3 x 300 MiB went active with 900
MiB on disk. Now:

- `CheckQueue`: versions are checked by at most `CheckPolicy.checks` threads at a time,
  round robin by author (issue 42: three 25 s builds of one author delayed another's bot
  95 s when they ran in submission order); a waiting version stays `building` with the
  message "waiting to be checked (N ahead)".
- `build_version`: the build runs under `CheckPolicy.build_limits` (the build limits of
  every build, with a CPU time and the largest file lowered to the quota) and within
  `build_timeout_s`; its folder (every file, build outputs included) may hold at most
  `bot_disk_mb`, weighed every second while it builds (a build past it is stopped) and once
  after, or the version fails and the folder is emptied. A build that fails has its
  folder emptied too (issue 42: a 1 kB upload whose build wrote 600 MiB and exited 1 kept
  it all), and so has a failed version's folder over the quota when the league next starts
  (`League._recover`: a build cut short by a crash, or an older arena's).
"""

from __future__ import annotations

import dataclasses
import itertools
import logging
import os
import shutil
import stat
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from arena.errors import BotBuildError
from arena.league.store import CUT_SHORT
from arena.players import halting
from arena.players.build import BUILD_LIMITS, BuildOverDisk, folder_bytes
from arena.players.limits import SandboxLimits
from arena.players.manifest import BotManifest
from arena.players.ready import build, refuse_forbidden

if TYPE_CHECKING:
    from arena.league.store import Bot, Store

log = logging.getLogger(__name__)

MAX_CHECKS = 8
"""The most checks a league may run at once (`arena serve --checks`)."""


@dataclass(frozen=True)
class CheckPolicy:
    """How a league checks submitted versions: the defaults of `arena serve`."""

    checks: int = 1
    """Versions checked at once (1..MAX_CHECKS); the others wait their turn."""
    build_cpu_s: int = 120
    """CPU time a build's process may use (RLIMIT_CPU), in seconds."""
    build_timeout_s: int = 300
    """Wall time a build may take, in seconds."""
    bot_disk_mb: int = 256
    """The most a version's folder may hold while it builds and after, in MiB (also the
    largest file its build may write)."""

    def __post_init__(self) -> None:
        if not 1 <= self.checks <= MAX_CHECKS:
            raise ValueError(f"checks must be 1 to {MAX_CHECKS}, not {self.checks!r}.")
        for key in ("build_cpu_s", "build_timeout_s", "bot_disk_mb"):
            if getattr(self, key) <= 0:
                raise ValueError(f"{key} must be a positive number, not {getattr(self, key)!r}.")

    @property
    def build_limits(self) -> SandboxLimits:
        """The limits of every build, with this CPU time and no file larger than the quota."""
        file_mb = self.bot_disk_mb
        if BUILD_LIMITS.file_mb is not None:
            file_mb = min(file_mb, BUILD_LIMITS.file_mb)
        return dataclasses.replace(BUILD_LIMITS, cpu_s=self.build_cpu_s, file_mb=file_mb)


def build_version(bot: BotManifest, policy: CheckPolicy) -> str | None:
    """Build a submitted version under the policy's limits and weigh its folder; the sentence
    that fails it, or None when it may be checked (its build done: check it without one)."""
    try:
        found = build(
            bot,
            force=True,
            limits=policy.build_limits,
            timeout_s=policy.build_timeout_s,
            disk_mb=policy.bot_disk_mb,  # weighed as it builds too: many files under the cap
        )
        refuse_forbidden(bot, found)  # set-id files or devices its build left
    except BuildOverDisk:
        empty_folder(bot.folder)
        return _over_quota(f"held more than {policy.bot_disk_mb} MiB as it built", policy)
    except BotBuildError as error:
        empty_folder(bot.folder)  # a failed version is never played: what it wrote goes
        return f"build: {error}"
    size = folder_bytes(bot.folder)
    if size <= policy.bot_disk_mb << 20:
        return None
    empty_folder(bot.folder)
    return _over_quota(f"holds {_mib(size)} after its build", policy)


def _over_quota(held: str, policy: CheckPolicy) -> str:
    """The sentence of a version whose folder `held` more than the quota, found as it built
    or after."""
    return (
        f"build: its folder {held}; a bot version may hold at most {policy.bot_disk_mb} MiB, "
        "so its files were deleted: build less, or leave out what the bot does not need to play."
    )


def empty_folder(folder: Path) -> None:
    """Delete everything in `folder` (the folder stays), whatever the modes its build set."""

    def writable_and_again(function: Callable[[str], object], path: str, _: object) -> None:
        parent = os.path.dirname(path)
        try:
            os.chmod(parent, stat.S_IRWXU)
            if os.path.isdir(path) and not os.path.islink(path):
                os.chmod(path, stat.S_IRWXU)
            function(path)
        except OSError:
            log.warning("could not delete %s", path)

    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, onerror=writable_and_again)
        else:
            try:
                os.unlink(entry.path)
            except OSError:
                log.warning("could not delete %s", entry.path)


def _mib(size: int) -> str:
    return f"{size / (1 << 20):.0f} MiB"


@dataclass(order=True)
class _Waiting:
    """A version waiting: its place in the round robin, then the version and its result."""

    place: tuple[int, int, int]
    """(its round, its author's previous round, the order it came in): the least goes first."""
    bot: Bot = field(compare=False)
    future: Future[Bot] = field(compare=False)


class CheckQueue:
    """Versions waiting to be checked, checked by at most `workers` daemon threads at a time,
    round robin by author: an author's next version waits behind every other author's first
    (start-time fair queuing: a version's round is one past the later of its author's last
    one and the round of the version started last; the least round goes first, and at a tie
    the author served longer ago, then the one that came first). So one author's many
    submissions delay another's by at most one of theirs per check slot. A waiting one's
    message in `store` says how many are ahead (written holding `lock`, the store's; call
    `put` without it)."""

    def __init__(
        self, workers: int, check: Callable[[Bot], Bot], store: Store, lock: threading.Lock
    ) -> None:
        self.workers, self.check, self.store, self.lock = workers, check, store, lock
        self._lock = threading.Condition()  # the waiting list, the rounds, the messages
        self._waiting: list[_Waiting] = []
        self._rounds: dict[str, int] = {}  # each author's latest round given
        self._now = 0  # the round of the version started last
        self._came = itertools.count()
        self._running = 0
        self._noted: dict[int, int] = {}  # the "N ahead" each waiting version was told
        self._threads: list[threading.Thread] = []
        self._checking: dict[int, Bot] = {}  # by id: the versions being checked now
        self._cut: set[int] = set()  # the ids of those `close` cut short (under `lock`)
        self._closed = False

    def put(self, bot: Bot) -> Future[Bot]:
        """Check `bot` when its turn comes (round robin by author); its result, later."""
        future: Future[Bot] = Future()
        with self._lock:
            if self._closed:
                future.cancel()
                return future
            if not self._threads:
                for n in range(self.workers):
                    thread = threading.Thread(
                        target=self._serve, daemon=True, name=f"league-check-{n + 1}"
                    )
                    thread.start()
                    self._threads.append(thread)
            previous = self._rounds.get(bot.author, 0)
            turn = self._rounds[bot.author] = max(self._now, previous) + 1
            self._waiting.append(_Waiting((turn, previous, next(self._came)), bot, future))
            self._lock.notify()
            self._note_waiting()
        return future

    def _serve(self) -> None:
        while True:
            with self._lock:
                while not self._waiting and not self._closed:
                    self._lock.wait()
                if self._closed:
                    return
                item = min(self._waiting)
                self._waiting.remove(item)
                self._noted.pop(item.bot.id, None)
                self._now = item.place[0]
                self._rounds = {  # an author idle since an earlier round needs no memory
                    author: turn for author, turn in self._rounds.items() if turn >= self._now
                }
                self._running += 1
                self._checking[item.bot.id] = item.bot
            try:
                item.future.set_result(self.check(item.bot))
            except Exception as error:  # the check's own fault: the caller of put sees it
                if self._closed:  # its processes killed, its store maybe closed: no fault
                    log.info("the check of %s was cut short (%s)", item.bot.label, error)
                else:
                    log.exception("the check of %s failed", item.bot.label)
                    self._failed(item.bot, error)
                item.future.set_exception(error)
            with self._lock:
                self._running -= 1
                self._checking.pop(item.bot.id, None)
                self._note_waiting()

    def _failed(self, bot: Bot, error: Exception) -> None:
        """A version whose check raised (the arena's fault, not the bot's) is failed with a
        sentence saying so, rather than left `checking` until the league restarts."""
        message = (
            f"the arena's check stopped on an error of its own ({type(error).__name__}); "
            "submit it again, and tell the league's admin if it happens again"
        )
        try:
            self.write(bot, "failed", message)
        except Exception:  # the database away: the next start marks it cut short
            log.exception("the failed check of %s was not written", bot.label)

    def write(self, bot: Bot, status: str, message: str = "") -> Bot:
        """Write a check's status (taking `lock`) and log its result, unless `close` cut the
        check short: then the version stays failed with CUT_SHORT, and its late result (its
        processes killed) is neither written nor told."""
        with self.lock:
            if bot.id in self._cut:
                return bot
            written = self.store.set_status(bot, status, message)
        if status != "checking":
            log.info("check of %s: %s (%s)", bot.label, status, message)
        return written

    def _note_waiting(self) -> None:
        """Tell each waiting version how many are ahead of it now, if that changed (holding
        `_lock`)."""
        if self._closed:
            return
        for ahead, waiting in enumerate(sorted(self._waiting), self._running):
            if ahead >= self.workers and self._noted.get(waiting.bot.id) != ahead:
                self._noted[waiting.bot.id] = ahead
                self.note(waiting.bot, ahead)

    def note(self, bot: Bot, ahead: int) -> None:
        """A waiting version's message (a store that fails meanwhile only loses it)."""
        try:
            with self.lock:
                self.store.set_status(bot, "building", f"waiting to be checked ({ahead} ahead)")
        except Exception:  # the database away: the queue goes on
            log.exception("the message of %s waiting to be checked was not written", bot.label)

    def close(self, timeout: float = 2) -> None:
        """No more checks: the waiting ones are dropped (they stay `building`: the league
        marks them failed when it next starts); the running ones are cut short at once, as a
        restart would find them: their processes (builds, bots) killed, and any they start
        after, and their versions failed with CUT_SHORT; their threads get `timeout` to end
        (daemons: one that takes longer writes nothing more)."""
        with self._lock:
            self._closed = True
            threads, self._threads = self._threads, []
            dropped, self._waiting = self._waiting, []
            running = list(self._checking.values())
            self._lock.notify_all()
        for item in dropped:
            item.future.cancel()
        with self.lock:  # cut short before the kill: a check that then ends writes nothing
            for bot in running:
                self._cut.add(bot.id)
                try:
                    self.store.set_status(bot, "failed", CUT_SHORT)
                except Exception:  # the database away: the next start marks it the same
                    log.exception("%s was not marked as cut short", bot.label)
        halting.halt(threads)
        if running:
            log.info("checks cut short by the stop: %s", ", ".join(b.label for b in running))
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
