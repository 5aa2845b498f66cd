"""The pair tallies' index of pair numbers (league/pair_index.py): a dict's answers in 12
bytes a pair, across merges of the recent pairs into the sorted arrays."""

from __future__ import annotations

import random

import numpy as np
import pytest

from arena.league import pair_index
from arena.league.pair_index import PairIndex


def test_it_answers_as_a_dict_does_across_merges(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pair_index, "RECENT", 7)  # a merge every 7 pairs put
    rng = random.Random(45)
    keys = rng.sample(range(1 << 40), 300)
    index, truth = PairIndex(), {}
    index.update(np.array(keys[:50]), np.arange(50))
    truth.update(zip(keys[:50], range(50), strict=True))
    for number, key in enumerate(keys[50:250], 50):
        index.put(key, number)
        truth[key] = number
        assert index.get(key) == number  # found at once, merged or not
    assert len(index) == len(truth) == 250 and len(index.recent) < 7
    for key in keys:
        assert index.get(key) == truth.get(key)  # the 50 never put: None


def test_a_merge_leaves_every_pair_findable_by_a_reader_between_its_steps() -> None:
    """A reader without the lock reads the recent dict, then the arrays: the arrays are
    replaced before the recent dict is let go, so no pair is missing between the two."""
    index = PairIndex()
    index.put(5, 0)
    recent_before = index.recent
    index.update(np.array([9]), np.array([1]))
    assert index.recent == {} and recent_before == {5: 0}
    assert index.get(5) == 0 and index.get(9) == 1 and index.get(7) is None
