"""A Dream with the real embedded model (SmolLM2) on a small conversation completes, validated and undoable."""
import pytest

from dreaming_agent.settings import Settings
from dreaming_agent.wiring import build_agent

pytestmark = pytest.mark.model

SAID = [
    ("My cat Pimienta is ginger.", "The user has a ginger cat named Pimienta"),
    ("Pimienta the cat sleeps on my bed.", "The user's cat Pimienta sleeps on the user's bed"),
    ("I'm allergic to cashews.", "The user is allergic to cashews"),
    ("I work as a nurse in Porto.", "The user works as a nurse in Porto"),
    ("Yesterday I bought bread.", "The user bought bread yesterday"),
]


def test_dream_with_the_real_model_completes_and_undoes(tmp_path):
    agent = build_agent(Settings.load({}, {"db": str(tmp_path / "db.sqlite3")}))
    try:
        for i, (message, fact) in enumerate(SAID):
            m = agent.store.add_message(agent.session, "user", message, f"2026-03-0{i + 1}T10:00:00")
            vector = agent.embedder.embed(fact)
            memory_id = agent.store.add_memory(fact, source_message_ids=[m.id], embedding=vector, created_at=m.created_at)
            agent.index.add("memories", [memory_id], vector[None, :])
        before = agent.store.query("SELECT id, tier, status, superseded_by FROM memories ORDER BY id")
        report = agent.memory.dream(now="2026-03-09T23:00:00")
        data = report.to_json()
        assert report.llm_calls >= 1 and len(data["accepted"]) + len(data["rejected"]) >= 0
        assert all(op["verdict"] for op in data["accepted"] + data["rejected"])
        # Whatever the model proposed, the durable facts survive: nothing about health or work is forgotten.
        forgotten = {r[0] for r in agent.store.query("SELECT text FROM memories WHERE status = 'forgotten'")}
        assert not forgotten & {"The user is allergic to cashews", "The user works as a nurse in Porto"}
        assert agent.index.ids("memories") == {m.id for m in agent.store.memories()}
        if data["accepted"]:
            assert agent.memory.undo_last_dream() is not None
            assert agent.store.query("SELECT id, tier, status, superseded_by FROM memories ORDER BY id") == before
    finally:
        agent.close()
