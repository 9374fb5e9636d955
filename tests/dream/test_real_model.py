"""A Dream with the real embedded model (SmolLM2) on a small conversation: every proposal is judged, and undo
puts back exactly what was there."""
from collections import Counter

import pytest

from dreaming_agent.dream.model import DreamProposal
from dreaming_agent.settings import Settings
from dreaming_agent.wiring import build_agent

pytestmark = pytest.mark.model

# The two entries about the cat make a group the model is asked to merge or leave; the allergy, a health fact said
# once, stands alone and may become long-term, so the Dream has a change to accept and the undo something to undo.
SAID = [
    ("My cat Pimienta is ginger.", "The user has a ginger cat named Pimienta"),
    ("Pimienta the cat sleeps on my bed.", "The user's cat Pimienta sleeps on the user's bed"),
    ("I'm allergic to cashews.", "The user is allergic to cashews"),
    ("I work as a nurse in Porto.", "The user works as a nurse in Porto"),
    ("Yesterday I bought bread.", "The user bought bread yesterday"),
]
SNAPSHOT = "SELECT id, tier, status, text, superseded_by FROM memories ORDER BY id"


def test_every_proposal_is_judged_and_undo_restores_the_entries(tmp_path):
    agent = build_agent(Settings.load({}, {"db": str(tmp_path / "db.sqlite3"), "llm": "embedded"}))
    try:
        for i, (message, fact) in enumerate(SAID):
            m = agent.store.add_message(agent.session, "user", message, f"2026-03-0{i + 1}T10:00:00")
            vector = agent.embedder.embed(fact)
            memory_id = agent.store.add_memory(fact, source_message_ids=[m.id], embedding=vector, created_at=m.created_at)
            agent.index.add("memories", [memory_id], vector[None, :])
        before = agent.store.query(SNAPSHOT)
        report = agent.memory.dream(now="2026-03-09T23:00:00")
        data = report.to_json()
        assert report.clusters >= 1 and report.llm_calls >= report.clusters

        # What the model proposed (its last parsed output per group) is exactly what was judged: none dropped,
        # none added; every refusal carries its reason.
        proposed = Counter(
            (op.op, tuple(op.target_ids))
            for output in data["raw_outputs"] if not output["fell_back"]
            for op in DreamProposal.model_validate_json(output["raw"][-1]).operations
        )
        judged = Counter((op["op"], tuple(op["target_ids"])) for op in data["accepted"] + data["rejected"])
        assert judged == proposed
        assert all(op["verdict"].strip() for op in data["rejected"])
        assert data["accepted"], "the lone health fact was not promoted: the Dream accepted nothing to undo"

        # Whatever the model proposed, the durable facts survive: nothing about health or work is forgotten.
        forgotten = {r[0] for r in agent.store.query("SELECT text FROM memories WHERE status = 'forgotten'")}
        assert not forgotten & {"The user is allergic to cashews", "The user works as a nurse in Porto"}
        assert agent.index.ids("memories") == {m.id for m in agent.store.memories()}

        undone = agent.memory.undo_last_dream()
        assert undone is not None and undone.dream_id == data["dream_id"]
        assert agent.store.query(SNAPSHOT) == before
        assert agent.index.ids("memories") == {row[0] for row in before}
        assert agent.memory.undo_last_dream() is None  # nothing left to undo
    finally:
        agent.close()
