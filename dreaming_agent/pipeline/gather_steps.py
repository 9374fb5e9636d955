"""What one LightMem gather found and chose, and how the trace says it: the records the Retriever and Selector
steps show, and their wording."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import abstain
from .evidence import Asked
from .retriever import Candidate, Search
from .trace import Step


@dataclass
class Found:
    """What LightMem's searches found: every candidate, naive RAG's sentences (the floor), and what the
    distinctive search and the word index add to them."""

    search: Search
    floor: list[Candidate]
    set_apart: list[Candidate]
    by_words: list[Candidate]
    long_memory: bool
    question: np.ndarray | None = None  # the whole message's vector

    def step(self, duration_ms: float, queries: int) -> Step:
        worded = [c for c in self.by_words if c not in self.search.candidates]
        return Step("Retriever", duration_ms, f"{len(self.search.candidates)} candidates for {queries} queries"
                    f"{ranked_apart(self.long_memory)}{_worded(self.by_words)}",
                    parsed=listing(self.search.candidates + worded))


@dataclass
class Chosen:
    """The sentences and durable facts LightMem shows, and what it left out or added on the way."""

    sentences: list[Candidate]
    facts: list[Candidate]
    marks: dict[str, str] = field(default_factory=dict)  # sentence key -> " (replaced later)"
    older: dict[str, list[str]] = field(default_factory=dict)  # left out: what replaced each (a part may stay)
    relatives: list[Candidate] = field(default_factory=list)  # left out: about a relative, asked about the person
    newer: list[Candidate] = field(default_factory=list)  # added: the newer values memory knows
    replaced: list[str] = field(default_factory=list)  # the text of the sentences left out as older values
    current: list[str] = field(default_factory=list)  # what is current of each value left out as older
    superseded: list[tuple[Candidate, tuple[int, ...]]] = field(default_factory=list)  # left out, by the newer entries
    asked: Asked = field(default_factory=Asked)  # memory's current values of what a question about now asks after

    def decided(self, found: Found, known: abstain.Relations | None, shown: list[Candidate]) -> dict:
        """What was chosen, by key: the sentences `shown` and the durable facts, those marked, those found only by
        the distinctive search or by words, those left out (older values, about a relative) or added (newer values),
        and the relations asked after that the person never mentioned."""
        distinct = {c.key for c in found.set_apart} - {c.key for c in found.floor}
        return {"kept": [c.key for c in shown], "facts": [c.key for c in self.facts],
                "marked": [c.key for c in self.sentences if c.key in self.marks],
                "set_apart": [c.key for c in self.sentences if c.key in distinct],
                "by_words": [c.key for c in self.sentences if c in found.by_words],
                "older": list(self.older), "relatives": [c.key for c in self.relatives],
                "newer": [c.key for c in self.newer], "current": list(self.current),
                "unsaid": list(known.unsaid) if known else []}

    def describe(self, decided: dict) -> str:
        unsaid = f"; never mentioned: {', '.join(decided['unsaid'])}" if decided["unsaid"] else ""
        return (f"kept {len(decided['kept'])} sentences, {len(decided['facts'])} durable facts; "
                f"{len(decided['marked'])} marked current/replaced{_apart(len(decided['set_apart']))}"
                f"{_words_kept(len(decided['by_words']))}{_left_out(self.older)}{_newer_shown(self.newer)}"
                f"{_relatives(self.relatives)}{unsaid} (decided in code)")


def _apart(n: int) -> str:
    return (f"; {n} found only once what every sentence shares was taken out of the question" if n else "")


def _worded(found: list[Candidate]) -> str:
    return f"; {len(found)} more found by the question's rarest words" if found else ""


def _words_kept(n: int) -> str:
    return f"; {n} found only by the question's rarest words" if n else ""


def ranked_apart(long_memory: bool) -> str:
    return "; naive RAG's ranked less what every sentence shares (a long memory)" if long_memory else ""


def _newer_shown(newer: list[Candidate]) -> str:
    return f"; shown {len(newer)} newer value{'s' if len(newer) != 1 else ''} memory knows" if newer else ""


def _relatives(relatives: list[Candidate]) -> str:
    n = len(relatives)
    return f"; left out {n} line{'s' if n != 1 else ''} about a relative or pet, the question being about you" if n else ""


def _left_out(older: dict[str, list[str]]) -> str:
    return f"; left out {len(older)} older value{'s' if len(older) != 1 else ''} a newer line replaced" if older else ""


def listing(candidates: list[Candidate]) -> list[dict]:
    return [{"key": c.key, "score": round(c.score, 3), "date": c.date, "text": c.text} for c in candidates]
