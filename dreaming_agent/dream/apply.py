"""The Dream's writes: every accepted operation in one transaction, row images kept so it can be undone."""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Callable, Mapping

import numpy as np

from ..embed.base import Embedder
from ..store import Store, VectorIndex
from ..store.sqlite import from_blob
from .propose import DreamOperation
from .validate import Entry, Verdict

ROW_COLUMNS = (
    "id", "tier", "text", "origin", "status", "superseded_by", "created_at", "updated_at",
    "last_accessed", "access_count", "prompt_version",
)
# What a Dream may change on an existing row, and so what undo puts back.
_RESTORED = ("tier", "status", "superseded_by", "updated_at")


@dataclass(frozen=True)
class Decision:
    op: DreamOperation
    verdict: Verdict


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
    entries: Mapping[int, Entry],
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
    with store.transaction() as db:
        dream_id = db.execute(
            "INSERT INTO dream_runs (started_at, status, model, prompt_version) VALUES (?, 'applied', ?, ?)",
            (started_at, model, prompt_version),
        ).lastrowid
        for position, decision in enumerate(decisions):
            pause()
            verdict, new_id = decision.verdict, None
            if verdict.accepted:
                stale = _stale_target(db, decision.op.target_ids, entries)
                if stale:
                    verdict = Verdict(False, stale)
                else:
                    new_id = _apply_one(
                        store, db, dream_id, decision.op, vector_of.get(position), started_at, prompt_version, pause
                    )
                    if decision.op.op != "PROMOTE":
                        removed.extend(decision.op.target_ids)
                    if new_id is not None:
                        added.append((new_id, vector_of[position]))
            db.execute(
                "INSERT INTO dream_ops (dream_id, op, target_ids, text, reason, accepted, verdict, new_memory_id) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (dream_id, decision.op.op, json.dumps(decision.op.target_ids), decision.op.text, decision.op.reason,
                 int(verdict.accepted), verdict.reason, new_id),
            )
        pause()
        db.execute("UPDATE dream_runs SET finished_at = ? WHERE id = ?", (started_at, dream_id))
    if index is not None:
        index.remove("memories", removed)
        if added:
            index.add("memories", [i for i, _ in added], np.stack([v for _, v in added]))
    return Applied(dream_id, removed, [i for i, _ in added])


def _embed(embedder: Embedder, texts: list[str]) -> list[np.ndarray]:
    return list(embedder.embed_batch(texts, role="passage")) if texts else []


def _stale_target(db: sqlite3.Connection, target_ids: list[int], entries: Mapping[int, Entry]) -> str | None:
    """The person (or the Writer) may have changed an entry while the model was thinking."""
    for memory_id in target_ids:
        row = db.execute("SELECT status, tier, text FROM memories WHERE id = ?", (memory_id,)).fetchone()
        entry = entries[memory_id]
        if row is None or row != ("active", entry.tier, entry.text):
            return (
                f"Entry {memory_id} was edited, deleted or replaced while the Dream was running, "
                "so this operation was dropped."
            )
    return None


def _apply_one(
    store: Store,
    db: sqlite3.Connection,
    dream_id: int,
    op: DreamOperation,
    vector: np.ndarray | None,
    stamp: str,
    prompt_version: str | None,
    pause: Callable[[], None],
) -> int | None:
    targets = op.target_ids
    marks = ",".join("?" * len(targets))
    for memory_id in targets:
        db.execute(
            "INSERT INTO dream_changes (dream_id, memory_id, before) VALUES (?, ?, ?)",
            (dream_id, memory_id, json.dumps(row_image(db, memory_id))),
        )
    pause()
    if op.op == "PROMOTE":
        db.execute(f"UPDATE memories SET tier = 'ltm', updated_at = ? WHERE id IN ({marks})", (stamp, *targets))
        return None
    if op.op == "FORGET":
        db.execute(f"UPDATE memories SET status = 'forgotten', updated_at = ? WHERE id IN ({marks})", (stamp, *targets))
        return None
    tiers = {r[0] for r in db.execute(f"SELECT tier FROM memories WHERE id IN ({marks})", targets)}
    sources = [r[0] for r in db.execute(
        f"SELECT DISTINCT message_id FROM memory_sources WHERE memory_id IN ({marks}) ORDER BY message_id", targets
    )]
    new_id = store.add_memory(
        op.text or "", tier="ltm" if "ltm" in tiers else "mtm", origin="dream", source_message_ids=sources,
        embedding=vector, created_at=stamp, prompt_version=prompt_version,
    )
    db.execute("INSERT INTO dream_changes (dream_id, memory_id, before) VALUES (?, ?, NULL)", (dream_id, new_id))
    pause()
    db.execute(
        f"UPDATE memories SET status = 'superseded', superseded_by = ?, updated_at = ? WHERE id IN ({marks})",
        (new_id, stamp, *targets),
    )
    return new_id


def row_image(db: sqlite3.Connection, memory_id: int) -> dict:
    """A memory row as JSON-ready values, without its embedding (the Dream never changes that)."""
    row = db.execute(f"SELECT {', '.join(ROW_COLUMNS)} FROM memories WHERE id = ?", (memory_id,)).fetchone()
    return dict(zip(ROW_COLUMNS, row))


def last_undoable(store: Store) -> int | None:
    """The newest applied Dream that still changes something the person has not deleted since."""
    rows = store.query(
        "SELECT id FROM dream_runs r WHERE status = 'applied' "
        "AND EXISTS (SELECT 1 FROM dream_changes c WHERE c.dream_id = r.id) ORDER BY id DESC LIMIT 1"
    )
    return rows[0][0] if rows else None


def undo_dream(store: Store, index: VectorIndex | None, dream_id: int) -> tuple[list[int], list[int]]:
    """Put every row the Dream touched back as it was, in one transaction; return (removed, restored) ids.

    Rows it created are deleted, except those the person edited since (origin 'manual': their own words now,
    which nothing may lose); rows the person deleted since stay deleted (their images went with them).
    """
    with store.transaction() as db:
        status = db.execute("SELECT status FROM dream_runs WHERE id = ?", (dream_id,)).fetchone()
        if status is None or status[0] != "applied":
            return [], []
        changes = db.execute(
            "SELECT memory_id, before FROM dream_changes WHERE dream_id = ? ORDER BY memory_id", (dream_id,)
        ).fetchall()
        restored = []
        for memory_id, before in changes:
            if before is None:
                continue
            image = json.loads(before)
            db.execute(
                f"UPDATE memories SET {', '.join(c + ' = ?' for c in _RESTORED)} WHERE id = ?",
                (*(image[c] for c in _RESTORED), memory_id),
            )
            restored.append(memory_id)
        created = [
            memory_id for memory_id, before in changes
            if before is None and db.execute(
                "SELECT 1 FROM memories WHERE id = ? AND origin != 'manual'", (memory_id,)).fetchone()
        ]
        db.executemany("DELETE FROM memories WHERE id = ?", [(i,) for i in created])
        db.execute("UPDATE dream_runs SET status = 'undone' WHERE id = ?", (dream_id,))
    if index is not None:
        _follow(store, index, created, restored)
    return created, restored


def _follow(store: Store, index: VectorIndex, created: list[int], restored: list[int]) -> None:
    index.remove("memories", created)
    if not restored:
        return
    marks = ",".join("?" * len(restored))
    rows = store.query(
        f"SELECT id, status, embedding FROM memories WHERE id IN ({marks}) ORDER BY id", restored
    )
    index.remove("memories", [i for i, status, _ in rows if status != "active"])
    active = [(i, from_blob(blob)) for i, status, blob in rows if status == "active" and blob is not None]
    if active:
        index.add("memories", [i for i, _ in active], np.stack([v for _, v in active]))
