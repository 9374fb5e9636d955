"""Dream cost at a given number of memories: wall time and model calls (one per cluster worth asking about)."""
from __future__ import annotations

import json
import time
from typing import Callable

import numpy as np

from ..llm.base import LLM, Completion
from ..pipeline.agent import Agent
from ..store import Store


class ProposesNothing(LLM):
    """The Dream's model, answering every cluster with no operations: what is timed is the Dream's own code.

    The real model would add one call per cluster (minutes at 1,000 memories on 2 CPUs)."""

    name = "proposes-nothing"

    def complete(self, messages, *, schema=None, max_tokens=256, seed=0) -> Completion:
        return Completion(json.dumps({"operations": []}), 0, 0, 0.0)


def measure_dream(new_agent: Callable[[Store], Agent], texts: list[str], vectors: np.ndarray) -> dict:
    """Memories with real embeddings, written straight to SQLite; the agent's open syncs them into Chroma."""
    store = Store()
    with store.transaction():
        for text, vector in zip(texts, vectors):
            store.add_memory(text, embedding=vector, created_at="2025-01-01T12:00:00")
    agent = new_agent(store)
    started = time.perf_counter()
    report = agent.memory.dream(now="2025-01-03T03:00:00")
    elapsed_ms = (time.perf_counter() - started) * 1000
    agent.close()
    store.close()
    return {
        "memories": len(texts),
        "dream_ms": round(elapsed_ms, 1),
        "clusters": report.clusters,
        "llm_calls": report.llm_calls,
        "accepted": len(report.accepted),
        "rejected": len(report.rejected),
        "timings": report.timings,
    }
