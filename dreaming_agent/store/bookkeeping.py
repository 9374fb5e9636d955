"""The store's bookkeeping tables: each conversation's rolling summary and the Writer's job per message."""
from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager
from typing import Callable

from .records import now_iso


class Bookkeeping:
    """Part of `Store` (its `query` and `transaction`): what learning keeps track of, apart from what is learned."""

    query: Callable[..., list[tuple]]
    transaction: Callable[[], AbstractContextManager[sqlite3.Connection]]

    # -- rolling summary ------------------------------------------------------------------------------
    def summary(self, session: str) -> tuple[str, int]:
        rows = self.query("SELECT text, through_message_id FROM summaries WHERE session = ?", (session,))
        return rows[0] if rows else ("", 0)

    def set_summary(self, session: str, text: str, through_message_id: int) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO summaries (session, text, through_message_id, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(session) DO UPDATE SET text = excluded.text, "
                "through_message_id = excluded.through_message_id, updated_at = excluded.updated_at",
                (session, text, through_message_id, now_iso()),
            )

    # -- writer jobs ----------------------------------------------------------------------------------
    def set_writer_job(self, message_id: int, status: str, error: str | None = None) -> None:
        with self.transaction() as db:
            db.execute(
                "INSERT INTO writer_jobs (message_id, status, attempts, last_error, updated_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(message_id) DO UPDATE SET status = excluded.status, last_error = excluded.last_error, "
                "attempts = writer_jobs.attempts + (excluded.status != 'pending'), updated_at = excluded.updated_at",
                (message_id, status, int(status != "pending"), error, now_iso()),
            )

    def writer_jobs(self, status: str) -> list[int]:
        return [r[0] for r in self.query("SELECT message_id FROM writer_jobs WHERE status = ? ORDER BY message_id", (status,))]
