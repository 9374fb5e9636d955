"""The validator on typed entries: a MERGE stays within one subject, one attribute and one value; an UPDATE of a
single-valued key records the older value as replaced."""
from __future__ import annotations

from dataclasses import replace

import pytest

from dreaming_agent.dream import run_dream, undo_last_dream, validate
from dreaming_agent.store.records import Typed
from dreaming_agent.testing import ScriptedLLM

from .builders import entry, op, remember


def typed(memory_id, text, subject, attribute, value, *said):
    return replace(entry(memory_id, text, *said), subject=subject, attribute=attribute, value=value)


ENTRIES = {e.id: e for e in [
    typed(1, "The user lives in Bristol", "user", "home", "Bristol", ("I moved to Bristol last week.", "2026-11-25")),
    typed(2, "The user works as a teacher", "user", "occupation", "teacher",
          ("I moved to Bristol and started a new job as a teacher.", "2026-11-25")),
    typed(3, "The user has the pet dog Pepper", "user", "pet", "dog Pepper",
          ("I have a dog called Pepper and a 3-year-old collie.", "2026-11-20")),
    typed(4, "The user has the pet 3-year-old collie", "user", "pet", "3-year-old collie",
          ("I have a dog called Pepper and a 3-year-old collie.", "2026-11-20")),
    typed(5, "The user's sister Ruth lives in Bristol", "person:sister:ruth", "home", "Bristol",
          ("My sister Ruth lives in Bristol.", "2026-11-21")),
    typed(6, "The user lives in Bristol", "user", "home", "bristol", ("Bristol is home now.", "2026-11-26")),
    typed(7, "The user lives in Leeds", "user", "home", "Leeds", ("I live in Leeds.", "2026-11-20")),
    entry(8, "The user lives in Bristol now", ("Bristol is where I live.", "2026-11-27")),
]}


@pytest.mark.parametrize("ids, text, accepted, reason", [
    ([1, 2], "The user lives in Bristol and works as a teacher", False, "different things (home, occupation)"),
    ([3, 4], "The user has a dog called Pepper, a 3-year-old collie", False, "two different pet values"),
    ([1, 5], "The user and the user's sister Ruth live in Bristol", False, "different subjects"),
    ([1, 7], "The user lives in Bristol", False, "which is an UPDATE, not a MERGE"),
    ([1, 6], "The user lives in Bristol", True, "merged into one entry"),
    ([1, 8], "The user lives in Bristol", True, "merged into one entry"),  # an untyped entry: nothing to compare
])
def test_a_merge_stays_within_one_subject_attribute_and_value(ids, text, accepted, reason):
    verdict = validate(op("MERGE", ids, text), ENTRIES)
    assert verdict.accepted is accepted and reason in verdict.reason


def test_an_update_of_a_single_valued_key_records_the_older_value_as_replaced(store, index, embedder):
    leeds = remember(store, embedder, "The user lives in Leeds", ("I live in Leeds.", "2026-11-20T10:00:00"),
                     typed=Typed("user", "home", "Leeds", "2026-11-20"))
    moved = remember(store, embedder, "The user moved to Bristol", ("I moved to Bristol.", "2026-11-25T10:00:00"))
    for memory in store.memories():
        index.add("memories", [memory.id], embedder.embed_batch([memory.text]))
    update = ('{"operations": [{"op": "UPDATE", "target_ids": [%d, %d], "text": "The user lives in Bristol", '
              '"reason": "They moved."}]}' % (leeds, moved))
    # the untyped move is the newest: the rewrite holds no typed value, yet the old home is marked as superseded
    report = run_dream(store, index, ScriptedLLM({"DreamProposal": [update]}, defaults={"DreamProposal": update}),
                       embedder, now="2026-11-26T23:00:00", min_similarity=-1.0)
    assert [o.op for o in report.accepted] == ["UPDATE"]
    assert store.memory(leeds).replaced and store.memory(moved).status == "superseded"
    assert not store.memory(moved).replaced  # the newest value lives on in the rewrite
    undo_last_dream(store, index)
    assert store.memory(leeds).status == "active" and store.memory(leeds).superseded_at is None
