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
    best: dict[tuple[str, int], float] = {}
    kinds = [kind for kind, on in (("memories", memories), ("sentences", sentences)) if on]
    for vector in vectors:
        for kind in kinds:
            for hit in index.search(kind, vector, k):
                key = (kind, hit.id)
                best[key] = max(best.get(key, -1.0), hit.score)
    ranked = sorted(best.items(), key=lambda item: -item[1])[: 2 * k]
    candidates = _hydrate(store, ranked)
    if touch_at is not None:
        store.touch([c.id for c in candidates if c.kind == "memory"], touch_at)
    return _dedupe(candidates)


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
    """Drop a sentence already shown as the source of a kept memory, and exact repeats of a text."""
    seen_texts: set[str] = set()
    shown_sources: set[str] = set()
    out: list[Candidate] = []
    for c in candidates:
        norm = normalize(c.text)
        if norm in seen_texts or (c.kind == "sentence" and norm in shown_sources):
            continue
        seen_texts.add(norm)
        shown_sources.update(normalize(s.text) for s in c.sources)
        out.append(c)
    return out
