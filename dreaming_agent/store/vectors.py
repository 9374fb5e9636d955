"""Vector index on Chroma with our own vectors. Derived data: SQLite is the truth, `sync` repairs drift."""
from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ..errors import BackendUnavailable
from .sqlite import Store

Kind = Literal["memories", "sentences"]
KINDS: tuple[Kind, ...] = ("memories", "sentences")
# Search breadth: at 128, a LoCoMo conversation's real sentence vectors (1,445) lost 1.5% of their exact top 16, and
# which ones changed from one build of the index to the next; at 512 the search is as good as exact there.
_SEARCH_EF = 512
# The graph: with 16 links a node and 128 candidates while building, a search now and then left out a sentence
# that belonged in its top 16, and not the same one from one build to the next: on the ten LoCoMo conversations'
# real vectors, three builds each, 49 of 5,958 searches less the mean and 24 of 5,958 plain; with 48 and 400, 4 and
# 0. Adding a vector takes about twice as long, searching the same (docs/results/HISTORY.md, round 17).
_M, _CONSTRUCTION_EF = 48, 400
_HNSW = {"hnsw:space": "cosine", "hnsw:search_ef": _SEARCH_EF, "hnsw:construction_ef": _CONSTRUCTION_EF,
         "hnsw:M": _M}


def make_client(*, path: str | None = None, host: str | None = None, port: int = 8000):
    """An in-process ephemeral client by default; persistent with a path; HTTP with a host."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False, allow_reset=True)
    try:
        if host:
            return chromadb.HttpClient(host=host, port=int(port), settings=chroma_settings)
        if path:
            return chromadb.PersistentClient(path=path, settings=chroma_settings)
        return chromadb.EphemeralClient(settings=chroma_settings)
    except Exception as e:  # chromadb raises plain Exception/ValueError subclasses for connection failures
        where = f"{host}:{port}" if host else (path or "memory")
        raise BackendUnavailable(
            f"Cannot open the Chroma vector index at {where}: {e}. "
            "Start it with `chroma run --path DIR --host 127.0.0.1 --port N`, or unset CHROMA_HOST for the in-process index.",
            backend="chroma",
        ) from e


def _opened(client, name: str):
    """The collection `name`, searching and built as a new one would be: an index made before the search widened
    or the graph grew denser (its settings are kept at creation) is widened, or made again from its own vectors."""
    collection = client.get_or_create_collection(name, embedding_function=None, metadata=dict(_HNSW))
    hnsw = (getattr(collection, "configuration", None) or {}).get("hnsw") or {}
    if hnsw.get("max_neighbors", _M) < _M or hnsw.get("ef_construction", _CONSTRUCTION_EF) < _CONSTRUCTION_EF:
        return _rebuilt(client, name, collection)
    if hnsw.get("ef_search", _SEARCH_EF) < _SEARCH_EF:
        _retried(lambda: collection.modify(configuration={"hnsw": {"ef_search": _SEARCH_EF}}))
    return collection


def _rebuilt(client, name: str, old):
    """`old` made again with the current settings and the same vectors. Only the index is at stake (SQLite is the
    truth and an agent syncs from it on open), but nothing is dropped before all of it has been read."""
    pages, offset = [], 0
    while True:
        page = old.get(include=["embeddings"], limit=4000, offset=offset)
        if not len(page["ids"]):
            break
        pages.append((list(page["ids"]), np.asarray(page["embeddings"], dtype=np.float32)))
        offset += len(page["ids"])
    _retried(lambda: client.delete_collection(name))
    new = client.create_collection(name, embedding_function=None, metadata=dict(_HNSW))
    for ids, vectors in pages:
        new.add(ids=ids, embeddings=vectors)
    return new


def _retried(change) -> None:
    """Chroma's own SQLite is sometimes still busy right after it opened the collections ("database is locked": 1 of
    6 runs of tests/test_vectors.py here), so a change is tried again a few times before that error is raised."""
    for wait in (0.05, 0.1, 0.2, 0.4, 0.8, None):
        try:
            change()
            return
        except Exception as e:  # chromadb.errors.InternalError, raised for any database error
            if wait is None or "database is locked" not in str(e):
                raise
            time.sleep(wait)


@dataclass(frozen=True)
class Hit:
    kind: Kind
    id: int
    score: float  # cosine similarity to the query


class VectorIndex:
    """Two collections per namespace: active memories and verbatim user sentences."""

    def __init__(self, client, namespace: str | None = None):
        self.client = client
        self.namespace = namespace or uuid.uuid4().hex[:12]
        self._collections = {kind: _opened(client, f"da-{self.namespace}-{kind}") for kind in KINDS}
        # Per collection, once `mean` was first asked for: the sum and number of its vectors, kept as they change
        self._totals: dict[Kind, tuple[np.ndarray | None, int]] = {}

    def add(self, kind: Kind, ids: list[int], vectors: np.ndarray) -> None:
        if len(ids):
            vectors = np.asarray(vectors, dtype=np.float32)
            if kind in self._totals:
                self._take_out(kind, ids)  # an upsert replaces: the old vector leaves the sum
                self._count_in(kind, vectors, +1)
            self._collections[kind].upsert(ids=[str(i) for i in ids], embeddings=vectors)

    def remove(self, kind: Kind, ids: list[int]) -> None:
        if ids:
            if kind in self._totals:
                self._take_out(kind, ids)
            self._collections[kind].delete(ids=[str(i) for i in ids])

    def mean(self, kind: Kind) -> np.ndarray | None:
        """The mean of the collection's vectors, None when it is empty: counted by `sync` (an agent syncs on start)
        or read from the collection the first time, then kept up to date by this index's `add` and `remove`."""
        total, n = self._counted(kind)
        return None if total is None or n == 0 else (total / n).astype(np.float32)

    def held(self, kind: Kind) -> int:
        """How many vectors the collection holds, as counted for `mean` (no call to Chroma once counted)."""
        return self._counted(kind)[1]

    def _counted(self, kind: Kind) -> tuple[np.ndarray | None, int]:
        if kind not in self._totals:
            self._totals[kind] = (None, 0)
            offset = 0
            while True:
                page = self._collections[kind].get(include=["embeddings"], limit=4000, offset=offset)
                if not len(page["ids"]):
                    break
                self._count_in(kind, np.asarray(page["embeddings"], dtype=np.float32), +1)
                offset += len(page["ids"])
        return self._totals[kind]

    def _take_out(self, kind: Kind, ids: list[int]) -> None:
        present = self._collections[kind].get(ids=[str(i) for i in ids], include=["embeddings"])
        if len(present["ids"]):
            self._count_in(kind, np.asarray(present["embeddings"], dtype=np.float32), -1)

    def _count_in(self, kind: Kind, vectors: np.ndarray, sign: int) -> None:
        total, n = self._totals[kind]
        change = sign * vectors.astype(np.float64).sum(axis=0)
        self._totals[kind] = (change if total is None else total + change, n + sign * len(vectors))

    def count(self, kind: Kind) -> int:
        return self._collections[kind].count()

    def ids(self, kind: Kind) -> set[int]:
        return {int(i) for i in self._collections[kind].get(include=[])["ids"]}

    def search(self, kind: Kind, vector: np.ndarray, k: int, *, less: np.ndarray | None = None) -> list[Hit]:
        """The k nearest by cosine; with `less`, ranked for `vector - less` (the collection's `mean`: what every
        entry shares counts for nothing), each hit still scored against `vector` itself."""
        if k <= 0:
            return []
        vector = np.asarray(vector, dtype=np.float32)
        # No count() first: it costs milliseconds at 100k entries, and Chroma already returns fewer hits (or
        # none) when the collection holds fewer than k.
        result = self._collections[kind].query(
            query_embeddings=(vector if less is None else vector - less)[None, :], n_results=k,
            include=["distances"] if less is None else ["embeddings"],
        )
        if less is None:
            return [Hit(kind, int(i), 1.0 - float(d)) for i, d in zip(result["ids"][0], result["distances"][0])]
        found = np.asarray(result["embeddings"][0], dtype=np.float32).reshape(len(result["ids"][0]), -1)
        scores = found @ vector / np.maximum(np.linalg.norm(found, axis=1) * np.linalg.norm(vector), 1e-12)
        return [Hit(kind, int(i), float(score)) for i, score in zip(result["ids"][0], scores)]

    def sync(self, store: Store) -> dict[str, int]:
        """Make the index hold exactly SQLite's active memories and embedded sentences; return repairs made."""
        repairs = {"added": 0, "removed": 0}
        truth = {"memories": store.memory_vectors(), "sentences": store.sentence_vectors()}
        for kind in KINDS:
            self._totals.pop(kind, None)  # counted afresh from the truth below, not read back from the index
            present = self.ids(kind)
            extra = sorted(present - truth[kind].keys())
            missing = sorted(truth[kind].keys() - present)
            self.remove(kind, extra)
            for start in range(0, len(missing), 4000):
                chunk = missing[start:start + 4000]
                self.add(kind, chunk, np.stack([truth[kind][i] for i in chunk]))
            repairs["added"] += len(missing)
            repairs["removed"] += len(extra)
            self._totals[kind] = (None, 0)
            if truth[kind]:
                self._count_in(kind, np.stack(list(truth[kind].values())), +1)
        return repairs

    def reindex(self, store: Store) -> dict[str, int]:
        """Rebuild both collections from SQLite."""
        for kind in KINDS:
            self.remove(kind, sorted(self.ids(kind)))
        return self.sync(store)

    def drop(self) -> None:
        for kind in KINDS:
            try:
                self.client.delete_collection(f"da-{self.namespace}-{kind}")
            except ValueError:  # already gone
                pass
