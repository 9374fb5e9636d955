"""The reply path reads what is current: the profile rows that bear on a question first in the evidence, dated
events in date order for a question about time, a check on an answer that gives a value a newer one replaced, and a
bounded wait for the Writer still busy with what was just said.

Nothing here reads words of a language: rows are chosen by the question's embedding, values compared as names.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from ..store import Store
from ..store.facts import ProfileRow
from ..text import mentions
from .evidence import Evidence
from .retriever import Candidate
from .trace import Step


@dataclass(frozen=True)
class CurrentSettings:
    rows: int = 3  # at most this many profile rows in the evidence
    min_similarity: float = 0.15  # question to entry, with the shipped embedder (unrelated rows score about 0)
    events: int = 8  # at most this many dated events, the newest kept
    writer_wait_s: float = 8.0  # the longest a question waits for the Writer busy with the last statements


def bearing_rows(store: Store, question_vector: np.ndarray, settings: CurrentSettings = CurrentSettings()
                 ) -> list[tuple[ProfileRow, Candidate]]:
    """The current values closest to the question, best first, each with its entry as a candidate."""
    rows = [r for r in store.facts.profile() if r.attribute != "other"]  # "other" is no key with a value
    vectors = store.memory_vectors(ids=[r.memory_id for r in rows])
    scored = [(float(np.asarray(vectors[r.memory_id]) @ question_vector), r) for r in rows if r.memory_id in vectors]
    chosen = sorted((pair for pair in scored if pair[0] >= settings.min_similarity), key=lambda p: -p[0])
    chosen = chosen[: settings.rows]
    entries = {m.id: m for m in store.memories(ids=[r.memory_id for _, r in chosen], with_sources=True)}
    return [(r, Candidate(entries[r.memory_id], score)) for score, r in chosen if r.memory_id in entries]


def row_line(row: ProfileRow, entry_text: str, *, with_before: bool = True) -> str:
    """"- current since 2026-11-18: The user lives in Bristol (before: Leeds)"."""
    before = f" (before: {', '.join(p.value for p in row.before)})" if row.before and with_before else ""
    return f"- current since {row.since}: {entry_text}{before}"


def timeline_lines(store: Store, settings: CurrentSettings = CurrentSettings()) -> list[tuple[str, Candidate]]:
    """Dated events and plans, oldest first (the newest `events` of them), each as a line and its entry."""
    dated = store.facts.timeline()[-settings.events:]
    entries = {m.id: m for m in store.memories(ids=[d.memory_id for d in dated], with_sources=True)}
    return [(f"- {d.date}: {entries[d.memory_id].text}", Candidate(entries[d.memory_id], 1.0))
            for d in dated if d.memory_id in entries]


def current_first(evidence: Evidence, store: Store, question_vector: np.ndarray, *, about_time: bool,
                  about_the_past: bool = True, settings: CurrentSettings = CurrentSettings()) -> Evidence:
    """The same evidence with the profile rows bearing on the question first (and, for a question about time, the
    dated events in date order next); the verbatim lines stay after them, as the floor. What a value replaced is
    named only for a question about the past: a small model shown both values often answers with the old one."""
    started = time.perf_counter()
    rows = bearing_rows(store, question_vector, settings)
    lines = [(row_line(row, c.text, with_before=about_the_past), c) for row, c in rows]
    if about_time:
        lines += timeline_lines(store, settings)
    shown_keys = {c.key for c in evidence.shown}
    lines = [(line, c) for line, c in lines if c.key not in shown_keys]
    if not lines:
        return evidence
    step = Step("Current", round((time.perf_counter() - started) * 1000, 1),
                f"{len(rows)} current values{' and the dated events' if about_time else ''} first",
                parsed=[line for line, _ in lines])
    return replace(evidence, lines=[line for line, _ in lines] + evidence.lines,
                   shown=[c for _, c in lines] + evidence.shown, steps=[*evidence.steps, step])


@dataclass(frozen=True)
class Stale:
    """An answer that gives a replaced value: which, what holds now, and the evidence lines that said the old one."""

    old: str
    current: str
    lines: list[int]

    @property
    def reason(self) -> str:
        return (f"the answer gave '{self.old}', which '{self.current}' replaced; asked again without the lines "
                "that say the old value")


def gives_superseded(answer: str, shown: list[Candidate], rows: list[ProfileRow]) -> Stale | None:
    """For a question about now: the answer names a value a newer one replaced and not the newer one."""
    for row in rows:
        if mentions(row.value, answer):
            continue
        for prior in row.before:
            if prior.value and not _same(prior.value, row.value) and mentions(prior.value, answer):
                lines = [i for i, c in enumerate(shown) if mentions(prior.value, c.text)]
                return Stale(prior.value, row.value, lines)
    return None


def wait_for_writer(learning, settings: CurrentSettings = CurrentSettings()) -> float:
    """Wait, at most `writer_wait_s`, for the Writer still learning from earlier messages; the seconds waited."""
    if not learning.running:
        return 0.0
    started = time.perf_counter()
    learning.wait(timeout=settings.writer_wait_s)
    return round(time.perf_counter() - started, 3)


def _same(a: str, b: str) -> bool:
    return mentions(a, b) and mentions(b, a)
