"""Applying a Dream on real SQLite and Chroma: statuses, provenance, tiers, the record of every decision, the index."""
from __future__ import annotations

import json

import pytest

from dreaming_agent.dream import run_dream
from dreaming_agent.dream.apply import apply_dream, undo_dream
from dreaming_agent.dream.diff import report_from_store
from dreaming_agent.dream.model import Decision
from dreaming_agent.dream.propose import load_entries
from dreaming_agent.dream.validate import validate
from dreaming_agent.testing import ScriptedLLM
from dreaming_agent.ui.render import dream_html

from .builders import op, planner, remember, snapshot

NOW = "2024-08-01T03:00:00"


@pytest.fixture
def world(store, index, embedder):
    ids = {
        "acme": remember(store, embedder, "The user works at Acme", ("I work at Acme.", "2024-02-01")),
        "lisbon": remember(store, embedder, "The user's Acme office is in Lisbon",
                           ("Our Acme office is in Lisbon.", "2024-02-02")),
        "sister": remember(store, embedder, "The user's sister is Ana", ("My sister Ana is visiting.", "2024-01-01"),
                           tier="ltm"),
        "nurse": remember(store, embedder, "The user's sister Ana is a nurse", ("Ana, my sister, is a nurse.", "2024-03-01")),
        "hiking": remember(store, embedder, "The user enjoys hiking",
                           ("I enjoy hiking.", "2024-01-14"), ("Hiking again, I enjoy it.", "2024-02-14")),
        "concert": remember(store, embedder, "The user went to a concert on Friday",
                            ("I went to a concert on Friday, it was loud!", "2024-01-12")),
    }
    index.sync(store)
    return ids


def dream(store, index, embedder, *operations):
    llm = ScriptedLLM(defaults={"DreamProposal": planner(*operations)})
    return run_dream(store, index, llm, embedder, now=NOW, min_similarity=-1.0, max_cluster=6)  # one group


def test_accepted_operations_change_statuses_and_keep_everything(store, index, embedder, world):
    w = world
    report = dream(
        store, index, embedder,
        {"op": "MERGE", "target_ids": [w["acme"], w["lisbon"]], "text": "The user lives in Acme", "reason": "bad"},
        {"op": "MERGE", "target_ids": [w["acme"], w["lisbon"]], "text": "The user works at Acme, whose office is in Lisbon",
         "reason": "same topic"},
        {"op": "PROMOTE", "target_ids": [w["hiking"]], "text": None, "reason": "said twice"},
        {"op": "FORGET", "target_ids": [w["concert"]], "text": None, "reason": "one-off"},
    )

    merged = report.accepted[0].new_memory_id
    rows = {m.id: m for m in store.memories(status=None)}
    assert len(rows) == 7  # six entries and the merged one: nothing deleted
    assert rows[w["acme"]].status == rows[w["lisbon"]].status == "superseded"
    assert rows[w["acme"]].superseded_by == rows[w["lisbon"]].superseded_by == merged
    new = rows[merged]
    assert (new.origin, new.tier, new.status, new.text) == ("dream", "mtm", "active", "The user works at Acme, whose office is in Lisbon")
    assert set(new.source_message_ids) == set(rows[w["acme"]].source_message_ids) | set(rows[w["lisbon"]].source_message_ids)
    assert new.prompt_version.startswith("dream@") and new.created_at == NOW
    assert rows[w["hiking"]].tier == "ltm" and rows[w["hiking"]].status == "active"
    assert rows[w["concert"]].status == "forgotten"
    assert index.ids("memories") == set(store.memory_vectors()) == {w["sister"], w["nurse"], w["hiking"], merged}

    assert [o.op for o in report.accepted] == ["MERGE", "PROMOTE", "FORGET"]
    assert [o.text for o in report.rejected] == ["The user lives in Acme"]
    recorded = store.query("SELECT op, accepted, verdict FROM dream_ops WHERE dream_id = ? ORDER BY id", (report.dream_id,))
    assert [(o, a) for o, a, _ in recorded] == [("MERGE", 0), ("MERGE", 1), ("PROMOTE", 1), ("FORGET", 1)]
    assert "employer" in recorded[0][2]
    assert report.llm_calls == 1 and report.clusters == 1 and set(report.timings) >= {"propose_ms", "apply_ms"}


def test_a_merge_touching_long_term_memory_stays_long_term(store, index, embedder, world):
    w = world
    report = dream(store, index, embedder, {
        "op": "MERGE", "target_ids": [w["sister"], w["nurse"]], "text": "The user's sister Ana is a nurse", "reason": "same",
    })
    (merge,) = report.accepted
    assert store.memory(merge.new_memory_id).tier == "ltm"
    assert [v.status for v in merge.after] == ["superseded", "superseded", "active"]
    assert [v.status for v in merge.before] == ["active", "active"]


def test_an_entry_edited_while_the_model_thought_is_left_alone(store, index, embedder, world):
    w = world
    entries = load_entries(store)
    merge = op("MERGE", [w["acme"], w["lisbon"]], "The user works at Acme, whose office is in Lisbon")
    verdict = validate(merge, entries)
    assert verdict.accepted
    store.edit_memory(w["lisbon"], "The user lives in Porto", embedder.embed("The user lives in Porto"))
    before = snapshot(store)

    applied = apply_dream(store, index, embedder, [Decision(merge, verdict)], entries, started_at=NOW)

    assert snapshot(store) == before
    (accepted, reason), = store.query("SELECT accepted, verdict FROM dream_ops WHERE dream_id = ?", (applied.dream_id,))
    assert accepted == 0 and "edited, deleted or replaced" in reason
    assert applied.added_to_index == [] and applied.removed_from_index == []


def test_a_model_that_never_answers_properly_changes_nothing(store, index, embedder, world):
    before, index_before = snapshot(store), index.ids("memories")
    llm = ScriptedLLM(defaults={"DreamProposal": "I think entries 1 and 2 should merge."})

    report = run_dream(store, index, llm, embedder, now=NOW, min_similarity=-1.0, max_cluster=6)

    assert snapshot(store) == before and index.ids("memories") == index_before
    assert report.accepted == [] and report.rejected == []
    assert report.raw_outputs[0]["fell_back"] is True
    assert report.raw_outputs[0]["raw"] == ["I think entries 1 and 2 should merge."] * 2
    assert report.llm_calls == 2
    assert json.loads(json.dumps(report.to_json()))["dream_id"] == report.dream_id


def test_each_entry_is_changed_by_one_operation_at_most(store, index, embedder, world):
    w = world
    report = dream(
        store, index, embedder,
        {"op": "FORGET", "target_ids": [w["concert"]], "text": None, "reason": "one-off"},
        {"op": "PROMOTE", "target_ids": [w["concert"]], "text": None, "reason": "again"},
    )
    assert [o.op for o in report.accepted] == ["FORGET"]
    assert "already changed" in report.rejected[0].verdict
    assert store.memory(w["concert"]).tier == "mtm"


def test_editing_an_entry_takes_its_old_words_out_of_every_dream_record(store, index, embedder, world):
    w = world
    report = dream(
        store, index, embedder,
        {"op": "PROMOTE", "target_ids": [w["hiking"]], "text": None, "reason": "said twice"},
        {"op": "UPDATE", "target_ids": [w["acme"]], "text": "The user works at Acme in Zanzibar", "reason": "x"},
    )
    assert [o.op for o in report.accepted] == ["PROMOTE"] and [o.op for o in report.rejected] == ["UPDATE"]
    assert "Acme" in dream_html(report_from_store(store, report.dream_id))

    store.edit_memory(w["acme"], "The user works at a bakery", embedder.embed("The user works at a bakery"))
    store.edit_memory(w["hiking"], "The user enjoys swimming", embedder.embed("The user enjoys swimming"))

    page = dream_html(report_from_store(store, report.dream_id))
    assert "Acme" not in page and "Zanzibar" not in page and "hiking" not in page
    assert "The user enjoys swimming" in page  # the promotion is still on record, in the person's words
    undo_dream(store, index, report.dream_id)
    assert store.memory(w["hiking"]).text == "The user enjoys swimming" and store.memory(w["hiking"]).tier == "mtm"
