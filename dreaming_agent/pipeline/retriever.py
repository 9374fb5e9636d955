"""Retriever: cosine top-k over active memories and verbatim user sentences, merged and hydrated from SQLite."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..embed.base import Embedder
from ..store import Store, VectorIndex
from ..store.records import Memory, Sentence, Source
from ..text import QUESTION_MARKS, normalize, says_nothing, split_sentences, words


@dataclass
class Candidate:
    """A stored memory or verbatim sentence that a search found, with its best score."""

    record: Memory | Sentence
    score: float

    @property
    def kind(self) -> str:
        return "memory" if isinstance(self.record, Memory) else "sentence"

    @property
    def key(self) -> str:
        """"m12" for a memory, "s40" for a sentence: what the Selector answers with."""
        return f"{'m' if self.kind == 'memory' else 's'}{self.record.id}"

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def text(self) -> str:
        return self.record.text

    @property
    def date(self) -> str:
        """When it was said: a sentence's message, or a memory's newest source."""
        return self.record.newest if isinstance(self.record, Memory) else self.record.created_at

    @property
    def tier(self) -> str | None:
        return self.record.tier if isinstance(self.record, Memory) else None

    @property
    def origin(self) -> str | None:
        return self.record.origin if isinstance(self.record, Memory) else None

    @property
    def sources(self) -> tuple[Source, ...]:
        return self.record.sources if isinstance(self.record, Memory) else (self.record.source,)


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
    """Hydrated candidates (best score first, deduplicated) and, per query vector, the keys it found best first;
    with `distinctive`, also the sentence keys it found first once what all sentences share was taken out."""

    candidates: list[Candidate]
    by_query: list[list[str]]
    distinctive_by_query: list[list[str]] = field(default_factory=list)

    def top_sentences(self, query: int, k: int) -> list[Candidate]:
        """The k verbatim sentences query `query` found first: exactly what naive RAG shows for it."""
        return self._sentences(self.by_query[query], k)

    def distinctive(self, query: int, k: int) -> list[Candidate]:
        """The k sentences query `query` found first searched as its vector less the mean sentence vector: a short
        remark near every question ("Caroline: Sounds fun!") no longer outranks the one that answers it."""
        return self._sentences(self.distinctive_by_query[query], k) if self.distinctive_by_query else []

    def filled(self, k: int) -> bool:
        """Whether every query found at least k usable sentences, in each search it ran."""
        return all(len(self._sentences(keys, k)) >= k for keys in [*self.by_query, *self.distinctive_by_query])

    def _sentences(self, keys: list[str], k: int) -> list[Candidate]:
        by_key = {c.key: c for c in self.candidates}
        return [by_key[key] for key in keys if key in by_key and key.startswith("s")][:k]


# The widest `fill` searches: 512 sentences of which fewer than 8 are usable is a memory of questions, not of facts
_WIDEST = 512


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
    small_talk: bool = True,
    distinctive: bool = False,
    fill: int = 0,
) -> Search:
    """Each query vector searched once per collection (and, with `distinctive`, the sentences once more less their
    mean vector); the person's own questions are never candidates, nor small talk ("Wow, Mel!") when `small_talk`
    is off. With `fill`, the search is run again twice as wide while a query found fewer than `fill` usable
    sentences and the index holds more: in LoCoMo the conversation's own questions took up to half of the 16 that
    naive RAG fetched, and it showed 6.8 of its 8 lines on average (conv-49; 5.0 from the distinctive search)."""
    wide = fetch or 2 * k
    while True:
        found, entries = _search(store, index, vectors, fetch=wide, memories=memories, sentences=sentences,
                                 exclude_message=exclude_message, small_talk=small_talk, distinctive=distinctive)
        if not fill or found.filled(fill) or wide >= min(index.held("sentences"), _WIDEST):
            break
        wide *= 2
    if touch_at is not None:
        store.touch(entries, touch_at)
    return found


def _search(store: Store, index: VectorIndex, vectors, *, fetch: int, memories: bool, sentences: bool,
            exclude_message: int | None, small_talk: bool, distinctive: bool) -> tuple[Search, list[int]]:
    """One search of every query at breadth `fetch`, and the ids of the entries it found (before deduplication)."""
    best: dict[tuple[str, int], float] = {}
    per_query: list[list[tuple[str, int]]] = []
    per_query_distinctive: list[list[tuple[str, int]]] = []
    kinds = [kind for kind, on in (("memories", memories), ("sentences", sentences)) if on]
    mean = index.mean("sentences") if distinctive and sentences else None
    for vector in vectors:
        found: list[tuple[float, tuple[str, int]]] = []
        for kind in kinds:
            # Over-fetch by default: questions and the current message are dropped after hydration.
            for hit in index.search(kind, vector, fetch):
                key = (kind, hit.id)
                best[key] = max(best.get(key, -1.0), hit.score)
                found.append((hit.score, key))
        per_query.append([key for _, key in sorted(found, key=lambda f: -f[0])])
        if mean is not None:
            hits = index.search("sentences", vector, fetch, less=mean)
            for hit in hits:
                best[("sentences", hit.id)] = max(best.get(("sentences", hit.id), -1.0), hit.score)
            per_query_distinctive.append([("sentences", hit.id) for hit in hits])
    ranked = sorted(best.items(), key=lambda item: -item[1])
    candidates = [c for c in _hydrate(store, ranked) if _usable(c, exclude_message, small_talk)]
    entries = [c.id for c in candidates if c.kind == "memory"]
    candidates = _dedupe(candidates)
    keys = {c.key for c in candidates}
    by_query, distinctive_by_query = ([[k_ for k_ in (f"{'m' if kind == 'memories' else 's'}{i}" for kind, i in order)
                                        if k_ in keys] for order in orders]
                                      for orders in (per_query, per_query_distinctive))
    return Search(candidates, by_query, distinctive_by_query), entries


def is_question(text: str) -> bool:
    """A sentence the person asked rather than told: it is never evidence about them."""
    stripped = text.strip()
    return stripped.endswith(QUESTION_MARKS) or stripped.startswith("¿")


def never_evidence(text: str, *, small_talk: bool = False) -> bool:
    """A sentence the person asked, or one of greetings, thanks and exclamations (unless small talk may be shown)."""
    return is_question(text) or (not small_talk and says_nothing(text))


def _usable(c: "Candidate", exclude_message: int | None, small_talk: bool) -> bool:
    if exclude_message is not None and any(s.message_id == exclude_message for s in c.sources):
        return False
    return not (c.kind == "sentence" and never_evidence(c.text, small_talk=small_talk))


def _hydrate(store: Store, ranked: list[tuple[tuple[str, int], float]]) -> list[Candidate]:
    memory_ids = [i for (kind, i), _ in ranked if kind == "memories"]
    sentence_ids = [i for (kind, i), _ in ranked if kind == "sentences"]
    # Active only: a stale index hit is dropped.
    memories = {m.id: _with_excerpts(m) for m in store.memories(ids=memory_ids, with_sources=True)}
    sentences = {s.id: s for s in store.sentences(ids=sentence_ids)}
    out: list[Candidate] = []
    for (kind, ident), score in ranked:
        record = memories.get(ident) if kind == "memories" else sentences.get(ident)
        if record is not None:
            out.append(Candidate(record, score))
    return out


def _with_excerpts(memory: Memory) -> Memory:
    """Each long source message cut to the sentence that shares most words with the memory."""
    return replace(memory, sources=tuple(replace(s, text=_excerpt(memory, s.text)) for s in memory.sources))


def _excerpt(memory: Memory, text: str) -> str:
    if len(text) > 280:
        wanted = set(words(normalize(memory.text)))
        text = max(split_sentences(text), key=lambda s: len(wanted & set(words(normalize(s)))), default=text[:280])
    return text


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
