"""AgentMemory with injected instances: real SQLite and Chroma, the scripted model, the hashing embedder."""
from __future__ import annotations

import pytest

from dreaming_agent.api import AgentMemory
from dreaming_agent.errors import InvalidInput, NotFound
from dreaming_agent.pipeline.agent import Agent
from dreaming_agent.testing import HashEmbedder

from .scripts import ALLERGY, BRISTOL, HASH_CONFIG, LEEDS, SISTER, scripted_llm


@pytest.fixture
def memory(store, index):
    agent = Agent(store=store, index=index, llm=scripted_llm(), embedder=HashEmbedder(), config=HASH_CONFIG)
    yield AgentMemory(agent)
    agent.close()


def test_add_then_search_finds_what_was_said_with_its_dated_source(memory):
    added = memory.add(SISTER, at="2026-05-10")
    assert added.date == "2026-05-10T12:00:00"
    assert [m.text for m in added.memories] == ["The user's sister Ana lives in Porto"]
    hits = memory.search("Where does my sister Ana live?", limit=3)
    said = next(h for h in hits if h.kind == "sentence")
    assert said.text == SISTER and said.date.startswith("2026-05-10")
    assert said.sources[0].message_id == added.message_id and said.sources[0].text == SISTER


def test_add_of_a_credential_learns_nothing_and_says_why(memory):
    added = memory.add("My bank PIN is 4471, don't tell anyone.", at="2026-05-10")
    assert added.memories == [] and added.withheld
    assert all("4471" not in h.text for h in memory.search("What is my bank PIN?", limit=20))
    assert memory.add(SISTER, at="2026-05-10").withheld is None


def test_search_reads_what_a_chat_turn_reads(memory):
    """The chat's gathering: small talk and the person's questions never come back, durable facts come as entries."""
    memory.add("Thanks so much, Ana!", at="2026-05-09")
    memory.add("Did Ana call you?", at="2026-05-09")
    memory.add(SISTER, at="2026-05-10")
    typed = memory.add("My sister Ana lives in Porto", infer=False).memories[0]
    question = "Where does my sister Ana live?"
    hits = memory.search(question, limit=20)
    assert {h.text for h in hits if h.kind == "sentence"} == {SISTER}
    assert [(h.kind, h.id) for h in hits if h.kind == "memory"] == [("memory", typed.id)]
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    turn = memory.agent.ask(question)  # what the Responder read for the same question
    assert {c.key for c in turn.evidence} == {f"s{h.id}" for h in hits if h.kind == "sentence"}
    assert "My sister Ana lives in Porto" in turn.prompt_text
    assert len(memory.search(question, limit=1)) == 1


def test_a_value_changed_later_is_found_marked_replaced_below_the_current_one_and_the_profile_says_so(memory):
    leeds = memory.add(LEEDS, at="2026-11-01").memories
    bristol = memory.add(BRISTOL, at="2026-11-27").memories
    moved, teacher = (m.id for m in bristol)
    hits = memory.search("Where does the user live now?", limit=20)
    current = [h for h in hits if h.status == "current"]
    replaced = [h for h in hits if h.status == "replaced"]
    assert any("Bristol" in h.text for h in current) and not any("Leeds" in h.text for h in current)
    assert hits == current + replaced  # what was replaced ranks below every current line
    assert [(h.text, h.replaced_by) for h in replaced] == [(LEEDS, [moved, teacher])]  # it said both things
    rows = {row.attribute: row for row in memory.profile()}
    home, job = rows["home"], rows["occupation"]
    assert [(v.value, v.since, v.memory_id) for v in home.current] == [("Bristol", "2026-11-27", moved)]
    assert [(v.value, v.memory_id) for v in home.before] == [("Leeds", leeds[0].id)]
    assert [v.value for v in job.current] == ["a teacher"] and [v.value for v in job.before] == ["a pharmacist"]
    assert [(e.memory_id, e.day, e.said) for e in memory.timeline()] == [(moved, "2026-11-20", "last week"),
                                                                         (teacher, "2026-11-20", "last week")]
    memory.delete(moved)  # the person deletes the move: Leeds is where they live again
    assert [v.value for v in next(r for r in memory.profile() if r.attribute == "home").current] == ["Leeds"]


def test_get_all_update_history_and_delete(memory):
    entry = memory.add(SISTER, at="2026-05-10").memories[0]
    typed = memory.add("The user prefers tea to coffee", infer=False).memories[0]
    assert typed.origin == "manual" and typed.tier == "ltm" and not typed.sources
    assert [e.id for e in memory.get_all()] == [entry.id, typed.id]
    assert [e.id for e in memory.get_all(tier="ltm")] == [typed.id]
    edited = memory.update(entry.id, "The user's sister Ana lives in Porto, Portugal")
    assert edited.origin == "manual" and edited.sources[0].text == SISTER
    events = [(e.event, e.text) for e in memory.history(entry.id)]
    assert events[0] == ("said", SISTER) and ("created", "The user's sister Ana lives in Porto, Portugal") in events
    assert memory.delete(typed.id).memory_ids == [typed.id]
    assert [e.id for e in memory.get_all()] == [entry.id]
    with pytest.raises(NotFound):
        memory.delete(typed.id)


def test_forget_removes_the_entry_and_what_was_said(memory):
    added = memory.add(SISTER, at="2026-05-10")
    forgotten = memory.forget(added.memories[0].id)
    assert forgotten.message_ids == [added.message_id] and added.memories[0].id in forgotten.memory_ids
    assert not [h for h in memory.search("sister Ana Porto") if "Porto" in h.text]
    assert memory.get_all() == []


def test_dream_undo_and_the_history_of_a_promoted_entry(memory):
    allergy = memory.add(ALLERGY, at="2026-05-11").memories[0]
    dreamt = memory.dream(at="2026-05-12")
    assert dreamt.status == "applied" and [c.op for c in dreamt.accepted] == ["PROMOTE"]
    assert memory.get(allergy.id).tier == "ltm"
    undone = memory.undo()
    assert undone.status == "undone" and undone.dream_id == dreamt.dream_id
    assert memory.get(allergy.id).tier == "mtm"
    assert memory.undo().status == "nothing to undo"


def test_export_then_load_into_a_fresh_memory(memory, tmp_path, chroma_client):
    from dreaming_agent.store import Store, VectorIndex

    memory.add(SISTER, at="2026-05-10")
    memory.add(LEEDS, at="2026-11-01")
    memory.add(BRISTOL, at="2026-11-27")
    exported = memory.export()
    fresh_store, fresh_index = Store(tmp_path / "fresh.sqlite3"), VectorIndex(chroma_client)
    fresh = AgentMemory(Agent(store=fresh_store, index=fresh_index, llm=scripted_llm(), embedder=HashEmbedder(),
                              config=HASH_CONFIG))
    try:
        fresh.load(exported.model_dump_json())
        assert [e.text for e in fresh.get_all()] == [e.text for e in memory.get_all()]
        assert fresh.get_all()[0].text == "The user's sister Ana lives in Porto"
        assert fresh.search("sister Ana")[0].sources[0].date.startswith("2026-05-10")
        # what is current, and since when, comes back with the file: the profile and timeline are read from it
        assert fresh.profile() == memory.profile() and [r.attribute for r in fresh.profile()] == ["home", "occupation"]
        assert fresh.timeline() == memory.timeline() != []
    finally:
        fresh.agent.close()
        fresh_index.drop()
        fresh_store.close()


@pytest.mark.parametrize("call", [
    lambda m: m.search("  "), lambda m: m.search("x", limit=0), lambda m: m.add("hi", at="yesterday"),
    lambda m: m.get_all(tier="forever"),
])
def test_bad_input_is_refused_with_the_fix(memory, call):
    with pytest.raises(InvalidInput):
        call(memory)


def test_a_search_about_the_past_still_finds_the_old_value_marked_replaced(memory):
    memory.add(LEEDS, at="2026-11-01")
    moved = next(m.id for m in memory.add(BRISTOL, at="2026-11-27").memories if "Bristol" in m.text)
    hits = memory.search("Where did I live before?", limit=20)  # the past: the old home is evidence, marked
    (leeds,) = [h for h in hits if h.text == LEEDS]
    assert leeds.status == "replaced" and moved in leeds.replaced_by
    assert hits.index(leeds) > max(i for i, h in enumerate(hits) if h.status == "current")
