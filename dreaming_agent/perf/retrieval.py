"""Retrieval at one memory size: the real path (Chroma + SQLite hydration) against exact numpy search."""
from __future__ import annotations

import os
import time

import numpy as np

from ..embed.base import Embedder, Role
from ..pipeline.retriever import retrieve
from .corpus import Corpus

K = 8


class PrecomputedQueries(Embedder):
    """Hands `retrieve` vectors embedded beforehand, so its timing holds search and hydration only."""

    name = "precomputed"

    def __init__(self, texts: list[str], vectors: np.ndarray):
        self.dim = vectors.shape[1]
        self.by_text = dict(zip(texts, vectors))

    def embed_batch(self, texts: list[str], role: Role = "query") -> np.ndarray:
        return np.stack([self.by_text[t] for t in texts])


def embed_queries(embedder: Embedder, questions: list[str]) -> tuple[np.ndarray, list[float]]:
    """Each question embedded alone, as a turn does; returns the vectors and the per-query milliseconds."""
    vectors, times = [], []
    for question in questions:
        started = time.perf_counter()
        vectors.append(embedder.embed_batch([question], role="query")[0])
        times.append(_ms(started))
    return np.stack(vectors).astype(np.float32), times


def measure(corpus: Corpus, questions: list[str], vectors: np.ndarray, *, warmup: int = 3) -> dict:
    """p50/p95 of the real path, the exact floor, and recall@8 of the real path against the exact top-8."""
    embedder = PrecomputedQueries(questions, vectors)
    for question in questions[:warmup]:  # first queries load Chroma's segment readers; not what a turn pays
        retrieve(corpus.store, corpus.index, embedder, [question], k=K)
    real_ms, floor_ms, recalls = [], [], []
    matrix = corpus.matrix
    for question, vector in zip(questions, vectors):
        started = time.perf_counter()
        found = retrieve(corpus.store, corpus.index, embedder, [question], k=K)
        real_ms.append(_ms(started))
        started = time.perf_counter()
        exact = exact_top_k(matrix, vector, K)
        floor_ms.append(_ms(started))
        recalls.append(recall([(c.kind, c.id) for c in found[:K]], [corpus.keys[row] for row in exact]))
    p50, floor_p50 = percentile(real_ms, 50), percentile(floor_ms, 50)
    return {
        "n": corpus.size,
        "p50_ms": p50,
        "p95_ms": percentile(real_ms, 95),
        "floor_p50_ms": floor_p50,
        "ratio": round(p50 / floor_p50, 2) if floor_p50 else None,
        "recall_at_8": round(float(np.mean(recalls)), 4),
        "queries": len(questions),
    }


def exact_top_k(matrix: np.ndarray, vector: np.ndarray, k: int) -> np.ndarray:
    """Rows of the k highest cosine similarities, best first (rows and query are unit vectors)."""
    scores = matrix @ vector
    k = min(k, len(scores))
    top = np.argpartition(-scores, k - 1)[:k]
    return top[np.argsort(-scores[top])]


def recall(found: list, exact: list) -> float:
    return len(set(found) & set(exact)) / len(exact) if exact else 1.0


def percentile(values: list[float], q: float) -> float:
    return round(float(np.percentile(values, q)), 3) if values else 0.0


def rss_mb() -> float:
    """Resident memory of this process now (Linux /proc); the peak from getrusage elsewhere."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return round(pages * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)
    except (OSError, ValueError):
        import resource

        return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000
