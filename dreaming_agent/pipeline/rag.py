"""Naive RAG baseline: the 8 user sentences most similar to the message, verbatim and dated, one model call."""
from __future__ import annotations

import time

from ..embed.base import Embedder
from ..store import Store, VectorIndex
from .retriever import Candidate, retrieve
from .trace import Step


def rag_evidence(store: Store, index: VectorIndex, embedder: Embedder, text: str, *, k: int = 8) -> tuple[list[Candidate], Step]:
    started = time.perf_counter()
    hits = retrieve(store, index, embedder, [text], k=k, memories=False, sentences=True)[:k]
    step = Step(
        "Retriever",
        round((time.perf_counter() - started) * 1000, 1),
        f"{len(hits)} verbatim sentences",
        parsed=[{"key": c.key, "score": round(c.score, 3), "date": c.date, "text": c.text} for c in hits],
    )
    return hits, step


def rag_lines(candidates: list[Candidate]) -> list[str]:
    return [f'- ({c.date[:10]}) the person said: "{c.text}"' for c in candidates]
