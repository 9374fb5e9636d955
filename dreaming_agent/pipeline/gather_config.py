"""What each mode gathers for a message: the numbers `gather.py` reads that a bench condition or a test varies.

The defaults are the shipped variants (the bench's E and F for LightMem, B for naive RAG); what measured them is in
docs/results/gather.md.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GatherConfig:
    top_k: int = 8  # LightMem: entries and sentences fetched per query
    rag_top_k: int = 8  # naive RAG: verbatim sentences shown (also LightMem's floor)
    facts_min_score: float = 0.45  # LightMem: a durable fact is shown from this score on (0: any among the hits)
    memory_min_score: float = 0.45  # LightMem: a mid-term entry's sentences are shown from this score on
    memories_shown: int = 2  # LightMem: mid-term entries whose sentences are shown, best first, one per message
    replaced_now: float | None = 0.5  # LightMem, a question about now: an older contradicted sentence goes (None: off)
    extra_share: float | None = 0.25  # LightMem: its added lines take at most this share of naive RAG's tokens
    distinctive_k: int = 3  # LightMem: the first sentences of the search less the mean sentence, added
    distinctive_from: int | None = 400  # from this many sentences, naive RAG's come from that search (0: always)
    lexical_k: int = 2  # LightMem, in a long memory: sentences the word index adds (0: none)
    min_keep: int = 3  # lines shown at least, whatever their score
