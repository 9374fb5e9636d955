"""The Dream's writes: verdicts become store commands, all in one transaction, so the Dream can be undone."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

import numpy as np

from ..embed.base import Embedder
from ..store import Memory, RecordedOperation, Store, VectorIndex
from .model import Decision, DreamOperation, Verdict


@dataclass(frozen=True)
class Applied:
    dream_id: int
    removed_from_index: list[int]
    added_to_index: list[int]


def apply_dream(
    store: Store,
    index: VectorIndex | None,
    embedder: Embedder,
    decisions: list[Decision],
    entries: Mapping[int, Memory],
    *,
    started_at: str,
    model: str | None = None,
    prompt_version: str | None = None,
    pause: Callable[[], None] | None = None,
) -> Applied:
    """Record the run and every decision; apply the accepted ones atomically; then let the index follow.

    `pause` runs between statements; the crash test uses it to be killed mid-transaction.
    """
    pause = pause or (lambda: None)
    rewrites = [i for i, d in enumerate(decisions) if d.verdict.accepted and d.op.op in ("MERGE", "UPDATE")]
    # The embedder may be slow: never hold the write lock while it runs.
    vectors = _embed(embedder, [decisions[i].op.text.strip() for i in rewrites])
    vector_of = dict(zip(rewrites, vectors))
    removed: list[int] = []
    added: list[tuple[int, np.ndarray]] = []
    with store.transaction():
        dream_id = store.dreams.begin(started_at, model=model, prompt_version=prompt_version)
        for position, decision in enumerate(decisions):
            pause()
            op, verdict, new_id = decision.op, decision.verdict, None
            if verdict.accepted:
                stale = _stale_target(store, op.target_ids, entries)
                if stale:
                    verdict = Verdict(False, stale)
                else:
                    new_id = _apply_one(store, dream_id, op, vector_of.get(position), started_at, prompt_version, pause)
                    if op.op != "PROMOTE":
                        removed.extend(op.target_ids)
                    if new_id is not None:
                        added.append((new_id, vector_of[position]))
            store.dreams.record(dream_id, RecordedOperation(
                op.op, op.target_ids, op.text, op.reason, verdict.accepted, verdict.reason, new_id))
        pause()
        store.dreams.finish(dream_id, started_at)
    if index is not None:
        index.remove("memories", removed)
        if added:
            index.add("memories", [i for i, _ in added], np.stack([v for _, v in added]))
    return Applied(dream_id, removed, [i for i, _ in added])


def _embed(embedder: Embedder, texts: list[str]) -> list[np.ndarray]:
    return list(embedder.embed_batch(texts, role="passage")) if texts else []


def _stale_target(store: Store, target_ids: list[int], entries: Mapping[int, Memory]) -> str | None:
    """The person (or the Writer) may have changed an entry while the model was thinking."""
    now = {m.id: m for m in store.memories(status=None, ids=target_ids)}
    for memory_id in target_ids:
        row, entry = now.get(memory_id), entries[memory_id]
        if row is None or (row.status, row.tier, row.text) != ("active", entry.tier, entry.text):
            return (
                f"Entry {memory_id} was edited, deleted or replaced while the Dream was running, "
                "so this operation was dropped."
            )
    return None


def _apply_one(
    store: Store,
    dream_id: int,
    op: DreamOperation,
    vector: np.ndarray | None,
    stamp: str,
    prompt_version: str | None,
    pause: Callable[[], None],
) -> int | None:
    """One accepted operation: keep each target's row image, then change the rows; returns a new entry's id."""
    targets = op.target_ids
    for memory_id in targets:
        store.dreams.snapshot(dream_id, memory_id)
    pause()
    if op.op == "PROMOTE":
        store.dreams.promote(targets, stamp)
        return None
    if op.op == "FORGET":
        store.dreams.forget(targets, stamp)
        return None
    replaced = store.memories(status=None, ids=targets)
    sources = sorted({m for memory in replaced for m in memory.source_message_ids})
    new_id = store.add_memory(
        op.text or "", tier="ltm" if any(m.tier == "ltm" for m in replaced) else "mtm", origin="dream",
        source_message_ids=sources, embedding=vector, created_at=stamp, prompt_version=prompt_version,
    )
    store.dreams.created(dream_id, new_id)
    pause()
    store.dreams.supersede(targets, new_id, stamp)
    return new_id


def undo_dream(store: Store, index: VectorIndex | None, dream_id: int) -> tuple[list[int], list[int]]:
    """Put every row the Dream touched back as it was, in one transaction; then let the index follow.

    Returns (removed, restored) ids; see `DreamRecords.undo` for what stays."""
    created, restored = store.dreams.undo(dream_id)
    if index is not None:
        _follow(store, index, created, restored)
    return created, restored


def _follow(store: Store, index: VectorIndex, created: list[int], restored: list[int]) -> None:
    index.remove("memories", created)
    if not restored:
        return
    rows = store.memories(status=None, ids=restored)
    index.remove("memories", [m.id for m in rows if m.status != "active"])
    vectors = store.memory_vectors(ids=restored)
    active = [(m.id, vectors[m.id]) for m in rows if m.id in vectors]
    if active:
        index.add("memories", [i for i, _ in active], np.stack([v for _, v in active]))
