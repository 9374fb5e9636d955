"""The bench conditions, A–E (F: E without its Writer and Dream; G: naive RAG with E's distinctive search; H: E on
G's lines): same model, same data, different memory."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Condition:
    name: str
    label: str
    mode: str  # the agent mode questions are asked in
    variant: str = "default"
    learn: bool = False  # run the Writer while the sessions are fed
    dream_each_session: bool = False
    rag_distinctive: bool = False  # naive RAG's sentences ranked for the question less the mean sentence
    distinctive_floor: bool = False  # LightMem's floor from that search too (fed like E)


CONDITIONS: dict[str, Condition] = {
    c.name: c
    for c in (
        Condition("A", "no memory (recent turns only)", "none"),
        Condition("B", "naive RAG (verbatim sentences, top 8)", "rag"),
        Condition("C", "LightMem as published (memory texts, no Dream)", "lightmem", "published", learn=True),
        Condition("D", "C + Dream after every session", "lightmem", "published", learn=True, dream_each_session=True),
        Condition("E", "ours: D + verbatim evidence with dated sources", "lightmem", "default", learn=True,
                  dream_each_session=True),
        # What E's reply path does on the person's sentences alone: the part of E that needs no Writer or Dream,
        # and a run as cheap as B's where feeding the Writer would take hours (LoCoMo on two cores).
        Condition("F", "E's reply path without Writer or Dream (sentences only)", "lightmem", "default"),
        # Naive RAG given the search E adds its distinctive sentences from: what that search is worth on its own.
        Condition("G", "naive RAG, its top 8 searched less the mean sentence", "rag", rag_distinctive=True),
        # E on G's lines: its floor from the distinctive search (an experiment, round 14)
        Condition("H", "E with G's 8 sentences as its floor", "lightmem", "default", learn=True,
                  dream_each_session=True, distinctive_floor=True),
    )
}


def parse_conditions(text: str) -> list[Condition]:
    names = [n.strip().upper() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in CONDITIONS]
    if unknown or not names:
        from ..errors import ConfigError

        raise ConfigError(f"Unknown conditions {unknown or text!r}; choose from {', '.join(CONDITIONS)} (e.g. A,B,E).")
    return [CONDITIONS[n] for n in names]
