"""Retrieval at one memory size: the real path (Chroma + SQLite hydration) against exact numpy search."""
from __future__ import annotations

import contextlib
import os
import time

import numpy as np

from ..embed.base import Embedder, Role
from ..pipeline.retriever import retrieve
from .corpus import Corpus

K = 8
# Other processes share a small machine's CPUs: each figure is from the best of a few passes (as timeit takes
# the minimum), so a burst of someone else's work does not pass for this code's cost.
PASSES = 3


class PrecomputedQueries(Embedder):
    """Hands `retrieve` vectors embedded beforehand, so its timing holds search and hydration only."""

    name = "precomputed"

    def __init__(self, texts: list[str], vectors: np.ndarray):
        self.dim = vectors.shape[1]
        self.by_text = dict(zip(texts, vectors))

    def embed_batch(self, texts: list[str], role: Role = "query") -> np.ndarray:
        return np.stack([self.by_text[t] for t in texts])


def embed_queries(embedder: Embedder, questions: list[str]) -> np.ndarray:
    """Each question embedded alone, as a turn does."""
    return np.stack([embedder.embed_batch([q], role="query")[0] for q in questions]).astype(np.float32)


def measure(corpus: Corpus, questions: list[str], vectors: np.ndarray, real_embedder: Embedder, *,
            warmup: int = 3, passes: int = PASSES) -> dict:
    """p50/p95 of the real path, the exact floor, recall@8 against the exact top-8, and the path with embedding."""
    embedder = PrecomputedQueries(questions, vectors)
    for question in questions[:warmup]:  # first queries load Chroma's segment readers; not what a turn pays
        retrieve(corpus.store, corpus.index, embedder, [question], k=K)
    # One loop per measure: interleaved, each would run amid the other's leftover threads (Chroma's, OpenBLAS's).
    real_ms, found = _timed(lambda q: retrieve(corpus.store, corpus.index, embedder, [q], k=K), questions, passes)
    matrix = corpus.matrix
    with one_blas_thread():
        floor_ms, exact = _timed(lambda v: exact_top_k(matrix, v, K), list(vectors), passes)
    embed_ms, _ = _timed(lambda q: real_embedder.embed_batch([q], role="query"), questions, passes)
    with_embedding_ms, _ = _timed(
        lambda q: retrieve(corpus.store, corpus.index, real_embedder, [q], k=K), questions, passes)
    # VectorIndex.search asks Chroma for the count before every query: what does that cost at this size?
    count_ms, _ = _timed(lambda kind: corpus.index.count(kind), ["memories"] * 20, passes)
    recalls = [recall([(c.kind, c.id) for c in hits[:K]], [corpus.keys[row] for row in rows])
               for hits, rows in zip(found, exact)]
    p50, floor_p50 = percentile(real_ms, 50), percentile(floor_ms, 50)
    return {
        "n": corpus.size,
        "p50_ms": p50,
        "p95_ms": percentile(real_ms, 95),
        "floor_p50_ms": floor_p50,
        "ratio": round(p50 / floor_p50, 2) if floor_p50 else None,
        "recall_at_8": round(float(np.mean(recalls)), 4),
        "embed_query_p50_ms": percentile(embed_ms, 50),
        "with_embedding_p50_ms": percentile(with_embedding_ms, 50),
        "index_count_p50_ms": percentile(count_ms, 50),
        "queries": len(questions),
    }


def _timed(fn, items: list, passes: int = 1) -> tuple[list[float], list]:
    """Milliseconds of fn(item) for each item in the pass with the lowest median, and the first pass's results."""
    best, first = None, None
    for _ in range(passes):
        times, results = [], []
        for item in items:
            started = time.perf_counter()
            results.append(fn(item))
            times.append(_ms(started))
        first = results if first is None else first
        best = times if best is None or np.median(times) < np.median(best) else best
    return best, first


def one_blas_thread():
    """A single BLAS thread for the floor: on a shared 2-CPU machine a second one waits for a CPU, often for ms."""
    try:
        from threadpoolctl import threadpool_limits  # comes with scikit-learn (sentence-transformers)
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


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
