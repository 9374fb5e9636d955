"""Group active memories that may be about the same thing: close embeddings, a shared name or number, or one
source message (a small Writer splits one statement into pieces: "has a dog", "the dog is a beagle")."""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from ..errors import ConfigError
from ..store import Store
from ..text import entities
from .vocab import COMMON_WORDS

_ROW_BLOCK = 1024
_SAME_MESSAGE = 2.5  # above one shared name ("Barcelona" in a race and in a move), below two


def cluster_memories(store: Store, *, max_cluster: int = 6, min_similarity: float = 0.75) -> list[list[int]]:
    """Clusters of active memory ids, singletons included, each at most `max_cluster` long; deterministic."""
    memories = store.memories()
    texts = {m.id: m.text for m in memories}
    vectors = {i: v for i, v in store.memory_vectors().items() if i in texts}
    sources = {m.id: m.source_message_ids for m in memories}
    return group(texts, vectors, max_cluster=max_cluster, min_similarity=min_similarity, sources=sources)


def group(
    texts: dict[int, str], vectors: dict[int, np.ndarray], *, max_cluster: int = 6, min_similarity: float = 0.75,
    sources: dict[int, list[int]] | None = None,
) -> list[list[int]]:
    """Link the strongest pairs first and never let a cluster grow past `max_cluster`."""
    if max_cluster < 1:
        raise ConfigError(f"max_cluster must be at least 1, not {max_cluster}.")
    edges = _entity_edges(texts, max_cluster) | _embedding_edges(vectors, max_cluster, min_similarity)
    for pair, score in _message_edges(sources or {}, max_cluster).items():
        edges[pair] = max(score, edges.get(pair, 0.0))
    parent = {i: i for i in texts}
    size = {i: 1 for i in texts}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for (a, b), _score in sorted(edges.items(), key=lambda item: (-item[1], item[0])):
        ra, rb = root(a), root(b)
        if ra != rb and size[ra] + size[rb] <= max_cluster:
            keep, gone = min(ra, rb), max(ra, rb)
            parent[gone] = keep
            size[keep] += size[gone]
    clusters: dict[int, list[int]] = defaultdict(list)
    for i in sorted(texts):
        clusters[root(i)].append(i)
    return sorted(clusters.values())


def _entity_edges(texts: dict[int, str], max_cluster: int) -> dict[tuple[int, int], float]:
    """Pairs sharing a name or number score above any embedding pair; more shared names score higher."""
    holders: dict[str, list[int]] = defaultdict(list)
    for memory_id in sorted(texts):
        for name in entities(texts[memory_id]) - COMMON_WORDS:
            holders[name].append(memory_id)
    edges: dict[tuple[int, int], float] = defaultdict(lambda: 1.0)
    for name, ids in holders.items():
        # A name in many entries (often the person's own) links everything and says nothing.
        if len(ids) < 2 or len(ids) > 3 * max_cluster:
            continue
        for x, a in enumerate(ids):
            for b in ids[x + 1:]:
                edges[(a, b)] += 1.0
    return dict(edges)


def _message_edges(sources: dict[int, list[int]], max_cluster: int) -> dict[tuple[int, int], float]:
    """Entries drawn from the same single message; a message that gave many entries links none (too broad)."""
    holders: dict[int, list[int]] = defaultdict(list)
    for memory_id in sorted(sources):
        if len(sources[memory_id]) == 1:
            holders[sources[memory_id][0]].append(memory_id)
    return {(a, b): _SAME_MESSAGE for ids in holders.values() if 1 < len(ids) <= max_cluster
            for x, a in enumerate(ids) for b in ids[x + 1:]}


def _embedding_edges(
    vectors: dict[int, np.ndarray], max_cluster: int, min_similarity: float
) -> dict[tuple[int, int], float]:
    """Each entry's nearest neighbours above `min_similarity`, computed block by block to bound memory."""
    ids = sorted(vectors)
    if len(ids) < 2:
        return {}
    matrix = np.stack([np.asarray(vectors[i], dtype=np.float32) for i in ids])
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix = matrix / np.where(norms == 0, 1.0, norms)
    keep = min(max_cluster, len(ids) - 1)
    edges: dict[tuple[int, int], float] = {}
    for start in range(0, len(ids), _ROW_BLOCK):
        block = matrix[start:start + _ROW_BLOCK] @ matrix.T
        for offset, row in enumerate(block):
            me = start + offset
            row[me] = -np.inf
            candidates = np.argpartition(-row, keep - 1)[:keep]
            for other in sorted(candidates, key=lambda j: (-row[j], j)):
                if row[other] < min_similarity:
                    break
                pair = (min(ids[me], ids[other]), max(ids[me], ids[other]))
                edges[pair] = max(edges.get(pair, 0.0), round(float(row[other]), 6))
    return edges
