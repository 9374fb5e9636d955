"""The Dream: offline consolidation where the model proposes, code decides, nothing is destroyed, all is undoable."""
from __future__ import annotations

import time
from typing import Callable

from ..embed.base import Embedder
from ..llm.base import LLM
from ..prompts import PromptLibrary
from ..store import Memory, Store, VectorIndex, attributes, now_iso
from .apply import apply_dream, undo_dream
from .cluster import cluster_memories
from .diff import DreamReport, report_from_store
from .model import Decision, DreamOperation, DreamProposal, Verdict
from .propose import load_entries, propose
from .validate import validate, validate_all

__all__ = [
    "run_dream", "undo_last_dream", "DreamReport", "DreamOperation", "DreamProposal", "Decision", "Verdict",
    "validate",
]


def run_dream(
    store: Store,
    index: VectorIndex,
    llm: LLM,
    embedder: Embedder,
    *,
    now: str | None = None,
    prompts: PromptLibrary | None = None,
    max_cluster: int = 3,
    min_similarity: float = 0.75,
    on_progress: Callable[[int, int], None] | None = None,
) -> DreamReport:
    """Cluster → one proposal per cluster → validate every operation → apply the accepted ones atomically.

    `on_progress(done, total)` hears of each group (cluster) proposed on, from (0, total) on."""
    started_at = now or now_iso()
    prompt = (prompts or PromptLibrary.bundled())["dream"]
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    entries = load_entries(store)
    clusters = cluster_memories(store, max_cluster=max_cluster, min_similarity=min_similarity)
    # The Writer may have added entries since `entries` was read; they wait for the next Dream.
    clusters = [[i for i in c if i in entries] for c in clusters]
    # Like sleep, a Dream works on the new day: entries an earlier Dream already saw unchanged get no model call
    # (its cost grows with what is new, not with all that is remembered); after an undo they count as new again.
    fresh = store.dreams.changed_since_last()
    clusters = [c for c in clusters if c and fresh.intersection(c)]
    # Which entries hold a value the person changed later (a move, a new job): the validator keeps them from
    # becoming long-term. Read in code from the entries, before any proposal, and only when there is a group to judge.
    replaced = attributes.replaced(store, list(entries.values())) if clusters else {}
    asked = [c for c in clusters if _worth_asking(c, entries, replaced)]
    settled = len(clusters) - len(asked)
    clusters = asked
    clock = _lap(timings, "cluster_ms", clock)

    proposals = []
    for cluster in clusters:  # one model call each: the Dream's time goes here
        if on_progress:
            on_progress(len(proposals), len(clusters))
        proposals.append(propose(llm, [entries[i] for i in cluster], today=started_at[:10], prompt=prompt))
    if on_progress:
        on_progress(len(proposals), len(clusters))
    clock = _lap(timings, "propose_ms", clock)

    operations = [op for proposal in proposals for op in proposal.operations]
    verdicts = validate_all(operations, entries, replaced, store.kinds.typed() if operations else {})
    decisions = [Decision(op, verdict) for op, verdict in zip(operations, verdicts)]
    clock = _lap(timings, "validate_ms", clock)

    applied = apply_dream(
        store, index, embedder, decisions, entries,
        started_at=started_at, model=llm.name, prompt_version=prompt.version,
    )
    _lap(timings, "apply_ms", clock)

    report = report_from_store(store, applied.dream_id)
    report.clusters = len(clusters)
    report.settled = settled
    report.llm_calls = sum(p.calls for p in proposals)
    report.raw_outputs = [
        {"cluster": p.cluster, "raw": p.raw, "retried": p.retried, "fell_back": p.fell_back, "error": p.error,
         "duration_ms": round(p.duration_ms, 1)}
        for p in proposals
    ]
    timings["total_ms"] = round(sum(timings.values()), 1)
    report.timings = timings
    return report


def undo_last_dream(store: Store, index: VectorIndex) -> DreamReport | None:
    """Undo the newest Dream that still has effects; None when there is nothing to undo."""
    dream_id = store.dreams.last_undoable()
    if dream_id is None:
        return None
    # Read the report first: undo deletes the entries the Dream created.
    report = report_from_store(store, dream_id)
    undo_dream(store, index, dream_id)
    report.status = "undone"
    return report


def _worth_asking(cluster: list[int], entries: dict[int, Memory], replaced: dict[int, Memory]) -> bool:
    """A lone entry can only be promoted or forgotten, and neither takes a text from the model: when the validator
    would refuse both whatever the model says (a long-term entry, a one-off remark about work…), no call for it."""
    if len(cluster) > 1:
        return True
    return any(validate(DreamOperation(op=op, target_ids=cluster, reason=""), entries, replaced=replaced).accepted
               for op in ("PROMOTE", "FORGET"))


def _lap(timings: dict[str, float], name: str, since: float) -> float:
    now = time.perf_counter()
    timings[name] = round((now - since) * 1000, 1)
    return now
