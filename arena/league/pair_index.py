"""The number of each pair that met, by its key (the pair tallies' `keys`), in 12 bytes a pair.

A dict of Python ints held about 100 bytes a pair: 49 MiB of a server's memory at the 500,000
pairs of a thousand bots (issue 45: 300 MiB in all). Here the keys are a sorted numpy array
beside the pairs' numbers, searched by bisection, and the pairs met since it was last sorted
wait in a small dict (`RECENT` at most) until they are merged in.

A reader without the tallies' lock (matchmaking's view, a verdict) looks in the recent dict
first and then in the arrays; a merge puts the new arrays in place before it empties the
recent dict, so that such a reader always finds a pair put before it asked.
"""

from __future__ import annotations

import numpy as np

RECENT = 1 << 16
"""Pairs kept in the recent dict before they are merged into the sorted arrays."""


class PairIndex:
    """Pair numbers by key: `get`, `put` and `update` as a dict's."""

    def __init__(self) -> None:
        self.sorted: tuple[np.ndarray, np.ndarray] = (
            np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=np.int32),
        )
        """The merged keys in ascending order, and each one's pair number."""
        self.recent: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self.sorted[0]) + len(self.recent)

    def get(self, key: int) -> int | None:
        """The pair number of `key`, or None."""
        found = self.recent.get(key)
        if found is not None:
            return found
        keys, pairs = self.sorted
        at = int(keys.searchsorted(key))
        if at < len(keys) and keys[at] == key:
            return int(pairs[at])
        return None

    def put(self, key: int, pair: int) -> None:
        """`key` is pair number `pair` (a key never put before)."""
        self.recent[key] = pair
        if len(self.recent) >= RECENT:
            self._merge(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32))

    def update(self, keys: np.ndarray, pairs: np.ndarray) -> None:
        """Many pairs at once (keys and pair numbers, aligned; none put before)."""
        self._merge(np.asarray(keys, dtype=np.int64), np.asarray(pairs, dtype=np.int32))

    def _merge(self, keys: np.ndarray, pairs: np.ndarray) -> None:
        """`keys` and the recent ones merged into the sorted arrays."""
        recent = self.recent
        if recent:
            keys = np.concatenate((keys, np.fromiter(recent, np.int64)))
            pairs = np.concatenate((pairs, np.fromiter(recent.values(), np.int32)))
        old_keys, old_pairs = self.sorted
        keys, pairs = np.concatenate((old_keys, keys)), np.concatenate((old_pairs, pairs))
        order = np.argsort(keys, kind="stable")
        self.sorted = (keys[order], pairs[order])  # in place first, then
        self.recent = {}  # the recent ones it now holds let go
