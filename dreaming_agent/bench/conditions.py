"""The bench conditions, A–E (F: E without its Writer and Dream; G and H: B and E with their lines from the distinctive
search whatever the memory's size): same model, same data, different memory."""
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
    # Naive RAG's sentences (LightMem's floor) ranked for the question less the mean sentence in a memory of any size,
    # not only from `GatherConfig.distinctive_from` sentences on
    distinctive_always: bool = False


CONDITIONS: dict[str, Condition] = {
    c.name: c
    for c in (
        Condition("A", "no memory (recent turns only)", "none"),
        # Until round 14, B's 8 were plain cosine's in any memory; from round 15, in a long one, the distinctive search's
        Condition("B", "naive RAG (verbatim sentences, top 8)", "rag"),
        Condition("C", "LightMem as published (memory texts, no Dream)", "lightmem", "published", learn=True),
        Condition("D", "C + Dream after every session", "lightmem", "published", learn=True, dream_each_session=True),
        Condition("E", "ours: D + verbatim evidence with dated sources", "lightmem", "default", learn=True,
                  dream_each_session=True),
        # What E's reply path does on the person's sentences alone: the part of E that needs no Writer or Dream,
        # and a run as cheap as B's where feeding the Writer would take hours (LoCoMo on two cores).
        Condition("F", "E's reply path without Writer or Dream (sentences only)", "lightmem", "default"),
        # Round 14's ablations: B and E with the distinctive search's 8 in a short memory too
        Condition("G", "naive RAG, its top 8 searched less the mean sentence", "rag", distinctive_always=True),
        Condition("H", "E with G's 8 sentences as its floor", "lightmem", "default", learn=True,
                  dream_each_session=True, distinctive_always=True),
    )
}


def parse_conditions(text: str) -> list[Condition]:
    names = [n.strip().upper() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in CONDITIONS]
    if unknown or not names:
        from ..errors import ConfigError

        raise ConfigError(f"Unknown conditions {unknown or text!r}; choose from {', '.join(CONDITIONS)} (e.g. A,B,E).")
    return [CONDITIONS[n] for n in names]
