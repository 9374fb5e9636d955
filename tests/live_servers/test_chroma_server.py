"""The agent on a real `chroma run` server: a turn, a Dream and a delete; a server lost mid-session and back."""
from __future__ import annotations

import pytest

from dreaming_agent.api import AgentMemory
from dreaming_agent.errors import VectorServerLost
from dreaming_agent.settings import Settings
from dreaming_agent.testing import HashEmbedder
from dreaming_agent.wiring import build_agent
from memory_api.scripts import ALLERGY, HASH_CONFIG, SISTER, scripted_llm

from . import chroma_server


def _memory(tmp_path, port: int) -> AgentMemory:
    settings = Settings(db=str(tmp_path / "memory.sqlite3"), chroma_host="127.0.0.1", chroma_port=port)
    agent = build_agent(settings, llm=scripted_llm(), embedder=HashEmbedder(), config=HASH_CONFIG)
    return AgentMemory(agent, owns_agent=True)


def _in_step(memory: AgentMemory) -> bool:
    """The server's collections hold exactly what SQLite says they should."""
    store, index = memory.agent.store, memory.agent.index
    memories, sentences = set(store.memory_vectors()), set(store.sentence_vectors())
    return index.ids("memories") == memories and index.ids("sentences") == sentences


def test_turn_dream_and_delete_against_a_chroma_server(tmp_path, chroma):
    memory = _memory(tmp_path, chroma.port)
    try:
        result = memory.agent.turn(SISTER, now="2026-05-10")
        assert result.error is None and result.answer
        memory.agent.learning.wait(timeout=60)
        allergy = memory.add(ALLERGY, at="2026-05-11").memories[0]
        assert _in_step(memory) and len(memory.agent.index.ids("memories")) == 2

        dreamt = memory.dream(at="2026-05-12")
        assert [c.op for c in dreamt.accepted] == ["PROMOTE"] and memory.get(allergy.id).tier == "ltm"
        found = memory.search("allergic to peanuts", limit=1)[0]
        assert found.id == allergy.id and found.sources[0].date.startswith("2026-05-11")

        forgotten = memory.forget(allergy.id)
        assert allergy.id in forgotten.memory_ids and forgotten.sentence_ids
        assert _in_step(memory) and allergy.id not in memory.agent.index.ids("memories")
        assert memory.repair_index() == {"added": 0, "removed": 0}
    finally:
        memory.agent.index.drop()
        memory.close()


def test_lost_server_is_a_clear_error_and_sync_repairs_the_index_when_it_is_back(tmp_path):
    server = chroma_server(tmp_path).start()
    memory = _memory(tmp_path, server.port)
    try:
        kept = memory.add(SISTER, at="2026-05-10").memories[0]
        server.stop()

        with pytest.raises(VectorServerLost) as caught:
            memory.add("The user prefers tea to coffee", infer=False)
        message = str(caught.value)
        assert f"127.0.0.1:{server.port}" in message and "chroma run" in message and "Nothing is lost" in message
        with pytest.raises(VectorServerLost):
            memory.search("tea or coffee")
        # SQLite took the entry before the index call failed: it is only missing from the index.
        typed = next(e for e in memory.get_all() if e.origin == "manual")

        server.start()  # the same port and folder: the collections come back as they were
        assert memory.agent.index.ids("memories") == {kept.id}
        assert memory.repair_index() == {"added": 1, "removed": 0}
        assert memory.search("tea or coffee", limit=1)[0].id == typed.id and _in_step(memory)
    finally:
        if server.process is not None:  # a test that failed mid-outage leaves no server to tidy up
            memory.agent.index.drop()
        memory.close()
        server.stop()
