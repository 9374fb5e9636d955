"""The deletion guarantee under a seeded random walk of every operation (see walk.py for the model)."""
from __future__ import annotations

import time
from collections import Counter

from dreaming_agent.pipeline.agent import Agent, AgentConfig
from dreaming_agent.store import Store, VectorIndex
from dreaming_agent.testing import ScriptedLLM

from .conftest import CONFIG, echo_facts, echo_summary, report
from .walk import WEIGHTS, Walk

FIGURES = ("proposed", "accepted", "undone", "edits_dropped_by_undo", "max_residue_entries")

# A small window so the rolling summary folds often: it is derived from messages and must forget them too.
WALK_CONFIG = AgentConfig(writer=CONFIG.writer, window_tokens=150)


def test_nothing_deleted_ever_shows_again(tmp_path, chroma_client, embedder, full):
    walks = {11: 500, 12: 500} if full else {11: 150}
    totals, started = Counter(), time.perf_counter()
    for seed, steps in walks.items():
        store = Store(tmp_path / f"walk-{seed}.sqlite3")
        index = VectorIndex(chroma_client)
        llm = ScriptedLLM(defaults={"ExtractedFacts": echo_facts, "Summary": echo_summary})
        agent = Agent(store=store, index=index, llm=llm, embedder=embedder, config=WALK_CONFIG)
        walk = Walk(agent, seed)
        try:
            for _ in range(steps):
                walk.step()
        finally:
            agent.close()
            index.drop()
            store.close()
        totals.update(walk.steps)
        totals.update({k: v for k, v in walk.figures.items() if k != "max_residue_entries"})
        totals["max_residue_entries"] = max(totals["max_residue_entries"], walk.figures["max_residue_entries"])
        assert walk.figures["accepted"], "no Dream operation was ever accepted: the walk did not exercise the Dream"
        assert walk.deleted, "nothing was ever deleted"
    report("deletion guarantee", seeds=len(walks), steps=sum(walks.values()), leaks_found=0, losses_found=0,
           seconds=round(time.perf_counter() - started, 1), **{k: totals[k] for k in (*WEIGHTS, *FIGURES)})
