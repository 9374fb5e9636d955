"""Undo puts back exactly the memories and the index as they were, and never revives what the person deleted."""
from __future__ import annotations

import pytest

from dreaming_agent.dream import run_dream, undo_last_dream
from dreaming_agent.testing import ScriptedLLM

from .builders import planner, remember, snapshot


@pytest.fixture
def world(store, index, embedder):
    ids = {
        "acme": remember(store, embedder, "The user works at Acme", ("I work at Acme.", "2024-02-01")),
        "lisbon": remember(store, embedder, "The user's Acme office is in Lisbon",
                           ("Our Acme office is in Lisbon.", "2024-02-02")),
        "hiking": remember(store, embedder, "The user enjoys hiking",
                           ("I enjoy hiking.", "2024-01-14"), ("Hiking again, I enjoy it.", "2024-02-14")),
        "concert": remember(store, embedder, "The user went to a concert on Friday",
                            ("I went to a concert on Friday, it was loud!", "2024-01-12")),
    }
    store.touch([ids["acme"]], when="2024-03-01T00:00:00")  # a row with access stats must come back with them
    index.sync(store)
    return ids


def dream(store, index, embedder, world, now="2024-08-01T03:00:00"):
    w = world
    llm = ScriptedLLM(defaults={"DreamProposal": planner(
        {"op": "MERGE", "target_ids": [w["acme"], w["lisbon"]], "text": "The user works at Acme, whose office is in Lisbon",
         "reason": "same"},
        {"op": "PROMOTE", "target_ids": [w["hiking"]], "text": None, "reason": "twice"},
        {"op": "FORGET", "target_ids": [w["concert"]], "text": None, "reason": "one-off"},
    )})
    report = run_dream(store, index, llm, embedder, now=now, min_similarity=-1.0, max_cluster=6)  # one group
    assert len(report.accepted) == 3
    return report


def test_undo_restores_every_row_and_the_index_exactly(store, index, embedder, world):
    before, index_before = snapshot(store), index.ids("memories")
    applied = dream(store, index, embedder, world)
    assert snapshot(store) != before

    undone = undo_last_dream(store, index)

    assert snapshot(store) == before
    assert index.ids("memories") == index_before == set(store.memory_vectors())
    assert undone.dream_id == applied.dream_id and undone.status == "undone"
    assert [o.op for o in undone.accepted] == ["MERGE", "PROMOTE", "FORGET"]
    assert store.query("SELECT status FROM dream_runs") == [("undone",)]
    assert undo_last_dream(store, index) is None


def test_undo_walks_back_one_dream_at_a_time(store, index, embedder, world):
    original = snapshot(store)
    first = dream(store, index, embedder, world)
    after_first, index_after_first = snapshot(store), index.ids("memories")
    merged = first.accepted[0].new_memory_id
    extra = remember(store, embedder, "The user works at Acme in the design team", ("At Acme I'm in design.", "2024-08-02"))
    index.sync(store)
    llm = ScriptedLLM(defaults={"DreamProposal": planner({
        "op": "MERGE", "target_ids": [merged, extra],
        "text": "The user works at Acme in the design team, whose office is in Lisbon", "reason": "same",
    })})
    second = run_dream(store, index, llm, embedder, now="2024-08-03T03:00:00", min_similarity=-1.0)
    assert len(second.accepted) == 1

    assert undo_last_dream(store, index).dream_id == second.dream_id
    assert without(snapshot(store), extra) == after_first
    assert index.ids("memories") - {extra} == index_after_first
    assert undo_last_dream(store, index).dream_id == first.dream_id
    assert without(snapshot(store), extra) == original


def without(snap, memory_id):
    """A snapshot minus one memory (an entry added between the two Dreams)."""
    memories, sources = snap
    return [r for r in memories if r[0] != memory_id], [r for r in sources if r[0] != memory_id]


def test_what_the_person_deleted_after_the_dream_stays_deleted(store, index, embedder, world):
    w = world
    applied = dream(store, index, embedder, world)
    merged = applied.accepted[0].new_memory_id
    removed = store.delete_memory(merged)  # takes the two entries it replaced with it
    index.remove("memories", removed)
    store.delete_memory(w["concert"])

    undone = undo_last_dream(store, index)

    assert undone is not None
    remaining = {m.id: m for m in store.memories(status=None)}
    assert set(remaining) == {w["hiking"]}
    assert remaining[w["hiking"]].tier == "mtm"
    assert index.ids("memories") == {w["hiking"]}
    assert undo_last_dream(store, index) is None


def test_nothing_to_undo(store, index, embedder):
    assert undo_last_dream(store, index) is None
    remember(store, embedder, "The user likes jazz", ("I like jazz.", "2024-01-01"))
    run_dream(store, index, ScriptedLLM(), embedder, now="2024-08-01T03:00:00")
    assert undo_last_dream(store, index) is None  # the Dream changed nothing
