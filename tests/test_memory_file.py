"""'Download my memory' and 'Load memory': a conversation, its entries and its Dreams survive the trip, ids and all."""
from __future__ import annotations

import json
import re

import pytest

from dreaming_agent.errors import MemoryFileInvalid, MemoryNotEmpty
from dreaming_agent.settings import Settings
from dreaming_agent.store import Store, memory_file
from dreaming_agent.testing import ScriptedLLM
from dreaming_agent.wiring import build_agent

TOLD = ["I live in Lisbon and work at Acme.", "I moved from Lisbon to Porto last week."]
FACTS = {"Acme": ["The user lives in Lisbon", "The user works at Acme"],
         "Porto": ["The user moved from Lisbon to Porto"]}


def facts(messages, schema):
    said = messages[-1]["content"]
    return json.dumps({"facts": next((f for key, f in FACTS.items() if key in said), [])})


def dream(messages, schema):
    listed = re.findall(r"^\[(\d+)\].*\n\s+entry: (.*)$", messages[-1]["content"], re.M)
    entries = {text: int(i) for i, text in listed}
    old, new = entries.get("The user lives in Lisbon"), entries.get("The user moved from Lisbon to Porto")
    ops = [{"op": "UPDATE", "target_ids": [old, new], "text": "The user lives in Porto (previously Lisbon)",
            "reason": "They moved."}] if old and new else []
    return json.dumps({"operations": ops})


@pytest.fixture
def make_agent(tmp_path, chroma_client, embedder):
    from dreaming_agent.pipeline.agent import AgentConfig
    from dreaming_agent.pipeline.writer import WriterSettings

    agents = []

    def make(name: str):
        agent = build_agent(Settings(), llm=ScriptedLLM(defaults={"ExtractedFacts": facts, "DreamProposal": dream}),
                            embedder=embedder, client=chroma_client, store=Store(tmp_path / f"{name}.sqlite3"),
                            config=AgentConfig(writer=WriterSettings(semantic_threshold=-1.0)))
        agents.append(agent)
        return agent

    yield make
    for agent in agents:
        agent.close()
        agent.index.drop()
        agent.store.close()


def everything(agent) -> dict:
    """All a memory file holds (ids, sources, dates, Dreams) but the moment it was written."""
    return agent.export_memory().model_dump(exclude={"exported_at"})


def test_download_then_load_restores_messages_entries_sources_dates_and_dreams(make_agent):
    ana = make_agent("ana")
    for text in TOLD:
        ana.turn(text)
    ana.learning.wait()
    report = ana.memory.dream(now="2026-03-05T09:00:00")
    assert report.accepted
    scratch = ana.memory.add("A scratch entry")
    ana.memory.delete(scratch)  # the newest id is gone: it stays used after the trip
    saved = ana.export_memory().model_dump_json()

    again = make_agent("again")
    loaded = again.load_memory(saved)
    assert everything(again) == everything(ana)
    assert [m.text for m in again.memory.history()] == [m.text for m in ana.memory.history()]
    assert {m.session for m in again.memory.history()} == {again.session}
    moved = next(m for m in again.memory.facts() + again.memory.mid_term() if "Porto (previously" in m.text)
    assert [again.store.message(i).text for i in moved.source_message_ids] == TOLD
    assert moved.created_at == "2026-03-05T09:00:00" and len(loaded.dreams) == 1

    # Derived data is rebuilt: the index finds the loaded entries and sentences, the Dream can be undone.
    assert again.index.ids("memories") == {m.id for m in again.store.memories()}
    assert len(again.index.ids("sentences")) == len(again.store.sentences()) > 0
    assert again.memory.undo_last_dream() is not None
    restored = {m.text for m in again.store.memories()}
    assert {"The user lives in Lisbon", "The user moved from Lisbon to Porto"} <= restored
    # Ids deleted before the download are never handed out again.
    assert again.memory.add("The user likes tea") == scratch + 1


def test_loading_into_a_conversation_that_has_begun_is_refused(make_agent):
    ana = make_agent("ana")
    ana.turn(TOLD[0])
    saved = ana.export_memory().model_dump_json()
    with pytest.raises(MemoryNotEmpty, match="new tab"):
        ana.load_memory(saved)
    assert [m.text for m in ana.memory.history()].count(TOLD[0]) == 1


@pytest.mark.parametrize("raw, reason", [
    (b"\x89PNG not json", "Invalid JSON"),
    (json.dumps({"format": "something-else", "exported_at": "2026-03-05"}), "format"),
    (json.dumps({"exported_at": "2026-03-05", "messages": [{"id": "two", "role": "user", "text": "x",
                                                            "created_at": "2026-03-05"}]}), "messages.0.id"),
])
def test_a_file_that_is_not_a_memory_file_is_refused_and_nothing_is_stored(store, embedder, raw, reason):
    with pytest.raises(MemoryFileInvalid, match=reason) as refused:
        memory_file.load(store, memory_file.parse(raw), "s1", embedder)
    assert "Download my memory" in str(refused.value)


def test_an_entry_naming_a_message_not_in_the_file_is_refused_whole(store, embedder):
    broken = memory_file.MemoryFile(
        exported_at="2026-03-05T09:00:00",
        messages=[memory_file.MessageRecord(id=1, role="user", text="I live in Porto.", created_at="2026-03-05")],
        memories=[memory_file.MemoryRecord(id=1, tier="mtm", text="The user lives in Porto", origin="writer",
                                           status="active", created_at="2026-03-05", updated_at="2026-03-05",
                                           source_message_ids=[1, 9])],
    )
    with pytest.raises(MemoryFileInvalid, match="memory_sources names a messages row"):
        memory_file.load(store, broken, "s1", embedder)
    assert store.messages() == [] and store.memories(status=None) == []
