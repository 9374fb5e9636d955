"""Retriever: cosine top-k over active memories and verbatim user sentences, merged and hydrated from SQLite."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..embed.base import Embedder
from ..store import Store, VectorIndex
from ..store.records import Memory, Message
from ..text import normalize, split_sentences, words


@dataclass(frozen=True)
class Source:
    message_id: int
    date: str
    text: str  # the verbatim sentence(s) of the message that support the entry
    external_id: str | None = None


@dataclass
class Candidate:
    key: str  # "m12" for a memory, "s40" for a sentence: what the Selector answers with
    kind: str  # "memory" | "sentence"
    id: int
    text: str
    score: float
    date: str
    tier: str | None = None
    origin: str | None = None
    sources: list[Source] = field(default_factory=list)


def retrieve(
    store: Store,
    index: VectorIndex,
    embedder: Embedder,
    queries: list[str],
    *,
    k: int = 8,
    memories: bool = True,
    sentences: bool = True,
    touch_at: str | None = None,
) -> list[Candidate]:
    """Search every query in both collections; keep each entry's best score; best first, at most 2k."""
    queries = [q for q in dict.fromkeys(q.strip() for q in queries) if q]
    if not queries:
        return []
    vectors = embedder.embed_batch(queries, role="query")
    found = search(store, index, vectors, k=k, fetch=k, memories=memories, sentences=sentences, touch_at=touch_at)
    return found.candidates[: 2 * k]


@dataclass
class Search:
    """Hydrated candidates (best score first, deduplicated) and, per query vector, the keys it found best first."""

    candidates: list[Candidate]
    by_query: list[list[str]]

    def top_sentences(self, query: int, k: int) -> list[Candidate]:
        """The k verbatim sentences query `query` found first: exactly what naive RAG shows for it."""
        by_key = {c.key: c for c in self.candidates}
        found = [by_key[key] for key in self.by_query[query] if key in by_key and key.startswith("s")]
        return found[:k]


def search(
    store: Store,
    index: VectorIndex,
    vectors,
    *,
    k: int = 8,
    fetch: int | None = None,
    memories: bool = True,
    sentences: bool = True,
    touch_at: str | None = None,
    exclude_message: int | None = None,
) -> Search:
    """Each query vector searched once per collection; the person's own questions are never candidates."""
    best: dict[tuple[str, int], float] = {}
    per_query: list[list[tuple[str, int]]] = []
    kinds = [kind for kind, on in (("memories", memories), ("sentences", sentences)) if on]
    for vector in vectors:
        found: list[tuple[float, tuple[str, int]]] = []
        for kind in kinds:
            # Over-fetch by default: questions and the current message are dropped after hydration.
            for hit in index.search(kind, vector, fetch or 2 * k):
                key = (kind, hit.id)
                best[key] = max(best.get(key, -1.0), hit.score)
                found.append((hit.score, key))
        per_query.append([key for _, key in sorted(found, key=lambda f: -f[0])])
    ranked = sorted(best.items(), key=lambda item: -item[1])
    candidates = [c for c in _hydrate(store, ranked) if _usable(c, exclude_message)]
    if touch_at is not None:
        store.touch([c.id for c in candidates if c.kind == "memory"], touch_at)
    candidates = _dedupe(candidates)
    keys = {c.key for c in candidates}
    by_query = [[k_ for k_ in (f"{'m' if kind == 'memories' else 's'}{i}" for kind, i in order) if k_ in keys]
                for order in per_query]
    return Search(candidates, by_query)


def is_question(text: str) -> bool:
    """A sentence the person asked rather than told: it is never evidence about them."""
    stripped = text.strip()
    return stripped.endswith("?") or stripped.startswith("¿")


def _usable(c: "Candidate", exclude_message: int | None) -> bool:
    if exclude_message is not None and any(s.message_id == exclude_message for s in c.sources):
        return False
    return not (c.kind == "sentence" and is_question(c.text))


def _hydrate(store: Store, ranked: list[tuple[tuple[str, int], float]]) -> list[Candidate]:
    memory_ids = [i for (kind, i), _ in ranked if kind == "memories"]
    sentence_ids = [i for (kind, i), _ in ranked if kind == "sentences"]
    memories = {m.id: m for m in store.memories(ids=memory_ids)}  # active only: a stale index hit is dropped
    sentences = {s.id: s for s in store.sentences(ids=sentence_ids)}
    source_ids = {mid for m in memories.values() for mid in m.source_message_ids}
    messages = store.messages_by_id(source_ids)
    out: list[Candidate] = []
    for (kind, ident), score in ranked:
        if kind == "memories" and ident in memories:
            memory = memories[ident]
            sources = [_source_for(memory, messages[m]) for m in memory.source_message_ids if m in messages]
            date = max((s.date for s in sources), default=memory.created_at)
            out.append(Candidate(f"m{ident}", "memory", ident, memory.text, score, date, memory.tier, memory.origin, sources))
        elif kind == "sentences" and ident in sentences:
            s = sentences[ident]
            out.append(Candidate(f"s{ident}", "sentence", ident, s.text, score, s.created_at,
                                 sources=[Source(s.message_id, s.created_at, s.text, s.external_id)]))
    return out


def _source_for(memory: Memory, message: Message) -> Source:
    """The sentence of the source message that shares most words with the memory (whole message if short)."""
    text = message.text
    if len(text) > 280:
        wanted = set(words(normalize(memory.text)))
        text = max(split_sentences(text), key=lambda s: len(wanted & set(words(normalize(s)))), default=text[:280])
    return Source(message.id, message.created_at, text, message.external_id)


def _dedupe(candidates: list[Candidate]) -> list[Candidate]:
    """Drop exact repeats of a text (the same words said twice, or an entry that copies a sentence)."""
    seen: set[str] = set()
    out: list[Candidate] = []
    for c in candidates:
        norm = normalize(c.text)
        if norm not in seen:
            seen.add(norm)
            out.append(c)
    return out
