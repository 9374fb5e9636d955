"""The Dream's tables: each run, every operation it judged, and the row images that let it be undone."""
from __future__ import annotations

import json
import sqlite3
from contextlib import AbstractContextManager
from typing import Callable, Iterable

from .records import DreamRun, RecordedOperation

# A memory row as a row image keeps every column but the embedding (the Dream never changes that).
ROW_COLUMNS = (
    "id", "tier", "text", "origin", "status", "superseded_by", "created_at", "updated_at",
    "last_accessed", "access_count", "prompt_version",
)
# What a Dream may change on an existing row, and so what undo puts back.
_RESTORED = ("tier", "status", "superseded_by", "updated_at")
# A Dream operation that names an entry, as its result or one of its targets (parameters: the id twice).
_NAMES_ENTRY = "(new_memory_id = ? OR EXISTS (SELECT 1 FROM json_each(dream_ops.target_ids) WHERE json_each.value = ?))"


class DreamRecords:
    """Reads and writes of dream_runs, dream_ops and dream_changes; the Dream decides, this records and replays.

    Every command joins the caller's transaction, so a whole Dream stays one atomic unit."""

    def __init__(self, transaction: Callable[[], AbstractContextManager[sqlite3.Connection]],
                 query: Callable[..., list[tuple]]):
        self._transaction, self._query = transaction, query

    # -- recording a run ------------------------------------------------------------------------------
    def begin(self, started_at: str, *, model: str | None, prompt_version: str | None) -> int:
        with self._transaction() as db:
            return db.execute(
                "INSERT INTO dream_runs (started_at, status, model, prompt_version) VALUES (?, 'applied', ?, ?)",
                (started_at, model, prompt_version),
            ).lastrowid

    def record(self, dream_id: int, operation: RecordedOperation) -> None:
        """One proposed operation and the verdict on it, accepted or not."""
        o = operation
        with self._transaction() as db:
            db.execute(
                "INSERT INTO dream_ops (dream_id, op, target_ids, text, reason, accepted, verdict, new_memory_id) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (dream_id, o.op, json.dumps(o.target_ids), o.text, o.reason, int(o.accepted), o.verdict,
                 o.new_memory_id),
            )

    def finish(self, dream_id: int, finished_at: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE dream_runs SET finished_at = ? WHERE id = ?", (finished_at, dream_id))

    def snapshot(self, dream_id: int, memory_id: int) -> None:
        """Keep the row as it is now, so undo can put it back."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO dream_changes (dream_id, memory_id, before) VALUES (?, ?, ?)",
                (dream_id, memory_id, json.dumps(_row_image(db, memory_id))),
            )

    def created(self, dream_id: int, memory_id: int) -> None:
        """The Dream wrote this entry: undo deletes it (an image with no row before)."""
        with self._transaction() as db:
            db.execute("INSERT INTO dream_changes (dream_id, memory_id, before) VALUES (?, ?, NULL)",
                       (dream_id, memory_id))

    # -- what a Dream does to existing entries ---------------------------------------------------------
    def promote(self, memory_ids: list[int], stamp: str) -> None:
        self._set(memory_ids, "tier = 'ltm', updated_at = ?", (stamp,))

    def forget(self, memory_ids: list[int], stamp: str) -> None:
        self._set(memory_ids, "status = 'forgotten', updated_at = ?", (stamp,))

    def supersede(self, memory_ids: list[int], by: int, stamp: str) -> None:
        self._set(memory_ids, "status = 'superseded', superseded_by = ?, updated_at = ?", (by, stamp))

    def _set(self, memory_ids: list[int], assignments: str, values: tuple) -> None:
        marks = ",".join("?" * len(memory_ids))
        with self._transaction() as db:
            db.execute(f"UPDATE memories SET {assignments} WHERE id IN ({marks})", (*values, *memory_ids))

    # -- undo -----------------------------------------------------------------------------------------
    def last_undoable(self) -> int | None:
        """The newest applied Dream that still changes something the person has not deleted since."""
        rows = self._query(
            "SELECT id FROM dream_runs r WHERE status = 'applied' "
            "AND EXISTS (SELECT 1 FROM dream_changes c WHERE c.dream_id = r.id) ORDER BY id DESC LIMIT 1"
        )
        return rows[0][0] if rows else None

    def undo(self, dream_id: int) -> tuple[list[int], list[int]]:
        """Put every row the Dream touched back as it was, in one transaction; return (removed, restored) ids.

        Rows it created are deleted, except those the person edited since (origin 'manual': their own words now,
        which nothing may lose); rows the person deleted since stay deleted (their images went with them).
        """
        with self._transaction() as db:
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
        return created, restored

    # -- reading --------------------------------------------------------------------------------------
    def latest(self) -> int | None:
        """The newest run, applied or undone."""
        return self._query("SELECT max(id) FROM dream_runs")[0][0]

    def run(self, dream_id: int) -> DreamRun:
        (row,) = self._query(
            "SELECT id, started_at, status, model, prompt_version FROM dream_runs WHERE id = ?", (dream_id,))
        return DreamRun(*row)

    def images(self, dream_id: int) -> dict[int, dict]:
        """The row images the run kept of the entries it changed (not of those it created)."""
        return {
            memory_id: json.loads(before)
            for memory_id, before in self._query(
                "SELECT memory_id, before FROM dream_changes WHERE dream_id = ? AND before IS NOT NULL", (dream_id,)
            )
        }

    def operations(self, dream_id: int) -> list[RecordedOperation]:
        rows = self._query(
            "SELECT op, target_ids, text, reason, accepted, verdict, new_memory_id FROM dream_ops "
            "WHERE dream_id = ? ORDER BY id",
            (dream_id,),
        )
        return [RecordedOperation(op, json.loads(targets), text, reason, bool(accepted), verdict, new_id)
                for op, targets, text, reason, accepted, verdict, new_id in rows]

    def changed_since_last(self) -> set[int]:
        """Active entries created or changed after the last applied Dream (every active entry if none)."""
        last = self._query(
            "SELECT id, started_at FROM dream_runs WHERE status = 'applied' ORDER BY started_at DESC, id DESC LIMIT 1")
        if not last:
            return {r[0] for r in self._query("SELECT id FROM memories WHERE status = 'active'")}
        (dream_id, started_at), = last
        # Stamps have one-second resolution: an entry stamped in the Dream's own second may have come just after it,
        # so it counts as new unless that Dream wrote it (an extra model call at worst, never a missed entry).
        return {r[0] for r in self._query(
            "SELECT id FROM memories WHERE status = 'active' AND (updated_at > ? OR (updated_at = ? AND id NOT IN "
            "(SELECT memory_id FROM dream_changes WHERE dream_id = ?)))", (started_at, started_at, dream_id))}

    def updated_away(self) -> set[int]:
        """Entries an applied Dream's UPDATE replaced by a newer value: every target but the newest said."""
        rows = self._query(
            "SELECT o.target_ids FROM dream_ops o JOIN dream_runs r ON r.id = o.dream_id "
            "WHERE o.op = 'UPDATE' AND o.accepted = 1 AND r.status = 'applied'"
        )
        replaced: set[int] = set()
        for (targets,) in rows:
            ids = [int(i) for i in json.loads(targets)]
            # Message ids grow with time: the target drawn from the latest message holds the newest value.
            said = dict(self._query(
                "SELECT m.id, COALESCE(max(s.message_id), 0) FROM memories m "
                "LEFT JOIN memory_sources s ON s.memory_id = m.id "
                f"WHERE m.id IN ({','.join('?' * len(ids))}) GROUP BY m.id", ids))
            if len(said) > 1:
                newest = max(said, key=lambda i: (said[i], i))
                replaced |= set(said) - {newest}
        return replaced

    # -- the store's own deletes and edits, inside their transaction ------------------------------------
    def drop(self, db: sqlite3.Connection, memory_ids: Iterable[int]) -> None:
        """A deleted entry: no image to restore, and no record that quotes it."""
        for memory_id in memory_ids:
            db.execute("DELETE FROM dream_changes WHERE memory_id = ?", (memory_id,))
            self.forget_quotes(db, memory_id)

    def forget_quotes(self, db: sqlite3.Connection, memory_id: int) -> None:
        """A Dream's record of a proposal quotes the entries it named: the undo page must not show them again."""
        db.execute(f"DELETE FROM dream_ops WHERE {_NAMES_ENTRY}", (memory_id, memory_id))

    def redact(self, db: sqlite3.Connection, memory_id: int, text: str) -> None:
        """The person rewrote an entry: Dream records may no longer quote its old words.

        A refused proposal naming it changed nothing and goes; an applied one stays on record (the report shows what
        was done) without the model's wording, and the entry's image shows the person's text (undo never restores
        text)."""
        db.execute(f"DELETE FROM dream_ops WHERE accepted = 0 AND {_NAMES_ENTRY}", (memory_id, memory_id))
        db.execute(f"UPDATE dream_ops SET text = NULL, reason = NULL WHERE {_NAMES_ENTRY}", (memory_id, memory_id))
        db.execute("UPDATE dream_changes SET before = json_set(before, '$.text', ?) "
                   "WHERE memory_id = ? AND before IS NOT NULL", (text, memory_id))


def _row_image(db: sqlite3.Connection, memory_id: int) -> dict:
    row = db.execute(f"SELECT {', '.join(ROW_COLUMNS)} FROM memories WHERE id = ?", (memory_id,)).fetchone()
    return dict(zip(ROW_COLUMNS, row))
