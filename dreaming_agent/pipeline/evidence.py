"""What a mode gathered for one question: the dated lines the Responder reads, the entries behind them, the trace."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..store import Store
from ..text import normalize, words
from .retriever import Candidate
from .trace import Step


@dataclass
class Evidence:
    """One mode's answer to `gather(question)`; `lines[i]` shows `shown[i]`."""

    lines: list[str] = field(default_factory=list)
    shown: list[Candidate] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)  # durable facts (long-term tier) that bear on the question
    steps: list[Step] = field(default_factory=list)
    question: bool = True  # False: a statement, answered with an acknowledgement and never abstained on
    prompt: str = "answer"  # which prompt file the Responder renders


def said_line(c: Candidate, mark: str = "", *, compact: bool = False) -> str:
    if compact:
        return f"- {c.date[:10]}: {c.text}{mark}"
    return f'- ({c.date[:10]}) the person said: "{c.text}"{mark}'


def memory_line(c: Candidate, *, with_sources: bool) -> str:
    """A memory entry with its date and verbatim source sentence(s); the published variant shows the text only."""
    if not with_sources:
        return f"- {c.text}"
    said = " / ".join(f'"{s.text}" ({s.date[:10]})' for s in c.sources[:2])
    return f"- ({c.date[:10]}) {c.text}" + (f" — the person said: {said}" if said else "")


def in_date_order(candidates: list[Candidate]) -> list[Candidate]:
    """Oldest first, so that the last line about a thing is its current value; ties keep their score order."""
    return sorted(candidates, key=lambda c: c.date)


def replacement_marks(store: Store, sentences: list[Candidate]) -> dict[str, str]:
    """What memory knows about each shown sentence: its fact was replaced later, or it holds the current value.

    A sentence is matched to the entries drawn from its message that share a content word with it; a Dream's
    UPDATE or MERGE leaves the older entry `superseded`, the newer one active with a predecessor.
    """
    message_ids = {s.sources[0].message_id for s in sentences if s.sources}
    derived = store.memories_from_messages(message_ids)
    replaced_ids = {m.superseded_by for m in derived if m.status == "superseded" and m.superseded_by}
    marks: dict[str, str] = {}
    for s in sentences:
        said = _content(s.text)
        mine = [m for m in derived if s.sources and s.sources[0].message_id in m.source_message_ids
                and said & _content(m.text)]
        if mine and all(m.status == "superseded" for m in mine):
            marks[s.key] = " (replaced later)"
        elif any(m.status == "active" and m.id in replaced_ids for m in mine):
            marks[s.key] = " (current)"
    return marks


def _content(text: str) -> set[str]:
    return {w for w in words(normalize(text)) if len(w) > 3}
