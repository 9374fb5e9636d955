"""The system of record: every message verbatim, memories with provenance, Dream runs. Stdlib sqlite3."""
from __future__ import annotations

import atexit
import os
import sqlite3
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Iterable, Iterator, NamedTuple

import numpy as np

from ..errors import InvalidInput, NotFound, StoreNotWritable
from ..text import split_sentences
from .dreams import DreamRecords
from .migrations import migrate
from .bookkeeping import Bookkeeping
from .kinds import EntryKinds
from .records import Memory, Message, Sentence, Source, now_iso

_MESSAGE_COLUMNS = "SELECT id, session, role, text, created_at, speaker, external_id, withheld FROM messages"
_MEMORY_COLUMNS = (
    "id, tier, text, origin, status, superseded_by, created_at, updated_at, last_accessed, access_count, prompt_version"
)


def to_blob(vector: np.ndarray | None) -> bytes | None:
    return None if vector is None else np.asarray(vector, dtype=np.float32).tobytes()


def from_blob(blob: bytes | None) -> np.ndarray | None:
    return None if blob is None else np.frombuffer(blob, dtype=np.float32)


class Deletion(NamedTuple):
    memories: list[int]  # memory ids removed
    sentences: list[int]  # sentence ids removed
    restored: list[int]  # entries made active again because what replaced them drew on the deleted message


class Store(Bookkeeping):
    """One SQLite database. Thread-safe through one lock: the background Writer shares it with the turn."""

    def __init__(self, path: str | os.PathLike | None = None):
        self.ephemeral = path is None
        if path is None:
            fd, path = tempfile.mkstemp(prefix="dreaming-", suffix=".sqlite3")
            os.close(fd)
            atexit.register(self._remove_files)
        self.path = str(path)
        try:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.execute("PRAGMA busy_timeout=5000")
            migrate(self.db)
        except (sqlite3.Error, OSError) as e:
            raise StoreNotWritable(self.path, str(e)) from e
        self.lock = threading.RLock()
        self._depth = 0
        self.dreams = DreamRecords(self.transaction, self.query)
        # what kind of thing each entry says, read from its vector once the agent gives its embedder's examples
        self.kinds = EntryKinds(self.query, lambda ids: self.memory_vectors(status=None, ids=ids))

    # -- plumbing -------------------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic unit; nested uses join the outer transaction."""
        with self.lock:
            outer = self._depth == 0
            if outer:
                self.db.execute("BEGIN IMMEDIATE")
            self._depth += 1
            try:
                yield self.db
            except BaseException:
                self._depth -= 1
                if outer:
                    self.db.execute("ROLLBACK")
                raise
            self._depth -= 1
            if outer:
                self.db.execute("COMMIT")

    def query(self, sql: str, params: Iterable = ()) -> list[tuple]:
        with self.lock:
            return self.db.execute(sql, tuple(params)).fetchall()

    def close(self) -> None:
        with self.lock:
            self.db.close()
        if self.ephemeral:
            self._remove_files()

    def _remove_files(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            try:
                os.remove(self.path + suffix)
            except FileNotFoundError:
                pass

    # -- messages -------------------------------------------------------------------------------------
    def add_message(
        self,
        session: str,
        role: str,
        text: str,
        created_at: str | None = None,
        *,
        speaker: str | None = None,
        external_id: str | None = None,
        withheld: str | None = None,
    ) -> Message:
        """Store a turn verbatim (and, for user turns, its sentences) before anything else touches it.

        A withheld message (`withheld` says why: it holds a credential) keeps no sentences: nothing searches it."""
        if role not in ("user", "assistant"):
            raise InvalidInput(f"role must be 'user' or 'assistant', not {role!r}")
        created_at = created_at or now_iso()
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO messages (session, role, text, created_at, speaker, external_id, withheld) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (session, role, text, created_at, speaker, external_id, withheld),
            )
            message_id = cur.lastrowid
            if role == "user" and not withheld:
                db.executemany(
                    "INSERT INTO sentences (message_id, position, text) VALUES (?, ?, ?)",
                    [(message_id, i, s) for i, s in enumerate(split_sentences(text))],
                )
        return Message(message_id, session, role, text, created_at, speaker, external_id, withheld)

    def message(self, message_id: int) -> Message:
        rows = self.query(_MESSAGE_COLUMNS + " WHERE id = ?", (message_id,))
        if not rows:
            raise NotFound("message", message_id)
        return Message(*rows[0])

    def messages(self, session: str | None = None, *, after_id: int = 0, role: str | None = None) -> list[Message]:
        sql = _MESSAGE_COLUMNS + " WHERE id > ?"
        params: list = [after_id]
        if session is not None:
            sql += " AND session = ?"
            params.append(session)
        if role is not None:
            sql += " AND role = ?"
            params.append(role)
        return [Message(*r) for r in self.query(sql + " ORDER BY id", params)]

    def messages_by_id(self, ids: Iterable[int]) -> dict[int, Message]:
        ids = list(ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self.query(_MESSAGE_COLUMNS + f" WHERE id IN ({marks})", ids)
        return {r[0]: Message(*r) for r in rows}

    def delete_message(self, message_id: int) -> "Deletion":
        """Delete a message and every learned entry that drew on it, even in part.

        An entry merged from this message and another goes too (its text may quote the deleted words); the
        entries it replaced that never drew on the message become active again. What the person typed or
        edited (origin 'manual') stays: those are their own words now."""
        with self.transaction() as db:
            row = db.execute("SELECT session FROM messages WHERE id = ?", (message_id,)).fetchone()
            if not row:
                raise NotFound("message", message_id)
            # The rolling summary was written from every message it covers: it cannot keep one that is gone.
            db.execute("DELETE FROM summaries WHERE session = ? AND through_message_id >= ?", (row[0], message_id))
            sentence_ids = [r[0] for r in db.execute("SELECT id FROM sentences WHERE message_id = ?", (message_id,))]
            derived = {r[0] for r in db.execute("SELECT memory_id FROM memory_sources WHERE message_id = ?", (message_id,))}
            db.execute("DELETE FROM messages WHERE id = ?", (message_id,))
            manual = {i for i in derived
                      if db.execute("SELECT origin FROM memories WHERE id = ?", (i,)).fetchone()[0] == "manual"}
            doomed = sorted(derived - manual)
            restored = []
            for memory_id in doomed:
                for (older,) in db.execute("SELECT id FROM memories WHERE superseded_by = ?", (memory_id,)).fetchall():
                    if older not in derived:
                        db.execute("UPDATE memories SET status = 'active', superseded_by = NULL, updated_at = ? WHERE id = ?",
                                   (now_iso(), older))
                        restored.append(older)
            removed = self._delete_memories(db, doomed)
            for kept in manual:  # the person's own words stay, but old Dream records may quote the deleted message
                self.dreams.forget_quotes(db, kept)
        return Deletion(removed, sentence_ids, restored)

    def withhold(self, message_id: int, why: str) -> list[int]:
        """Keep a stored message out of memory from now on (it holds a credential): its sentences go, it stays in
        the log. Returns the sentence ids removed, for the index."""
        with self.transaction() as db:
            sentence_ids = [r[0] for r in db.execute("SELECT id FROM sentences WHERE message_id = ?", (message_id,))]
            db.execute("DELETE FROM sentences WHERE message_id = ?", (message_id,))
            db.execute("UPDATE messages SET withheld = ? WHERE id = ?", (why, message_id))
        return sentence_ids

    # -- sentences ------------------------------------------------------------------------------------
    def sentences(self, *, missing_embedding: bool = False, ids: Iterable[int] | None = None,
                  message_ids: Iterable[int] | None = None) -> list[Sentence]:
        sql = (
            "SELECT s.id, s.message_id, s.position, s.text, m.created_at, m.external_id, m.speaker "
            "FROM sentences s JOIN messages m ON m.id = s.message_id"
        )
        params: list = []
        clauses = []
        if missing_embedding:
            clauses.append("s.embedding IS NULL")
        for column, wanted in (("s.id", ids), ("s.message_id", message_ids)):
            if wanted is not None:
                wanted = list(wanted)
                if not wanted:
                    return []
                clauses.append(f"{column} IN ({','.join('?' * len(wanted))})")
                params.extend(wanted)
        if clauses:
            sql += " WHERE " + " AND ".join(clauses)
        return [Sentence(*r) for r in self.query(sql + " ORDER BY s.id", params)]

    def set_sentence_embeddings(self, pairs: list[tuple[int, np.ndarray]]) -> None:
        with self.transaction() as db:
            db.executemany("UPDATE sentences SET embedding = ? WHERE id = ?", [(to_blob(v), i) for i, v in pairs])

    def sentence_vectors(self, ids: Iterable[int] | None = None) -> dict[int, np.ndarray]:
        sql, params = "SELECT id, embedding FROM sentences WHERE embedding IS NOT NULL", []
        if ids is not None:
            params = list(ids)
            sql += f" AND id IN ({','.join('?' * len(params))})" if params else " AND 0"
        return {i: from_blob(b) for i, b in self.query(sql, params)}

    # -- memories -------------------------------------------------------------------------------------
    def add_memory(
        self,
        text: str,
        *,
        tier: str = "mtm",
        origin: str = "writer",
        source_message_ids: Iterable[int] = (),
        embedding: np.ndarray | None = None,
        created_at: str | None = None,
        prompt_version: str | None = None,
    ) -> int:
        text = text.strip()
        if not text:
            raise InvalidInput("A memory needs some text.")
        stamp = created_at or now_iso()
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO memories (tier, text, origin, created_at, updated_at, embedding, prompt_version) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (tier, text, origin, stamp, stamp, to_blob(embedding), prompt_version),
            )
            memory_id = cur.lastrowid
            db.executemany(
                "INSERT OR IGNORE INTO memory_sources (memory_id, message_id) VALUES (?, ?)",
                [(memory_id, m) for m in set(source_message_ids)],
            )
        return memory_id

    def memories(
        self, *, status: str | None = "active", tier: str | None = None, ids: Iterable[int] | None = None,
        with_sources: bool = False, text_like: Iterable[str] = (),
    ) -> list[Memory]:
        """Entries in id order; `with_sources` adds their messages (one more read); `text_like`: SQL LIKE patterns."""
        sql = f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE 1=1"
        params: list = list(text_like)
        if params:  # any one of them, ASCII case ignored
            sql += " AND (" + " OR ".join("text LIKE ?" for _ in params) + ")"
        if status is not None:
            sql += " AND status = ?"
            params.append(status)
        if tier is not None:
            sql += " AND tier = ?"
            params.append(tier)
        if ids is not None:
            ids = list(ids)
            if not ids:
                return []
            sql += f" AND id IN ({','.join('?' * len(ids))})"
            params.extend(ids)
        rows = self.query(sql + " ORDER BY id", params)
        sources = self._sources([r[0] for r in rows])
        found = [Memory(*r, source_message_ids=tuple(sources.get(r[0], ()))) for r in rows]
        return self.with_sources(found) if with_sources else found

    def with_sources(self, memories: list[Memory]) -> list[Memory]:
        """The same entries with `sources` filled: each message they came from, in message order."""
        message_ids = sorted({m for memory in memories for m in memory.source_message_ids})
        messages: dict[int, Message] = {}
        for start in range(0, len(message_ids), 900):
            messages.update(self.messages_by_id(message_ids[start:start + 900]))
        return [
            replace(memory, sources=tuple(
                Source(m, messages[m].created_at, messages[m].text, messages[m].role, messages[m].external_id)
                for m in memory.source_message_ids if m in messages
            ))
            for memory in memories
        ]

    def memory(self, memory_id: int) -> Memory:
        found = self.memories(status=None, ids=[memory_id])
        if not found:
            raise NotFound("memory", memory_id)
        return found[0]

    def memory_vectors(self, *, status: str | None = "active", ids: Iterable[int] | None = None
                       ) -> dict[int, np.ndarray]:
        """Entries' vectors by id, of one status (None: any)."""
        sql = "SELECT id, embedding FROM memories WHERE coalesce(? = status, 1) AND embedding IS NOT NULL"
        params: list = [status]
        if ids is not None:
            ids = list(ids)
            sql += f" AND id IN ({','.join('?' * len(ids))}) ORDER BY id" if ids else " AND 0"
            params.extend(ids)
        return {i: from_blob(b) for i, b in self.query(sql, params)}

    def edit_memory(self, memory_id: int, text: str, embedding: np.ndarray | None) -> None:
        """The person rewrote a memory: it becomes theirs (origin 'manual')."""
        text = text.strip()
        if not text:
            raise InvalidInput("A memory needs some text; to remove it, delete it.")
        with self.transaction() as db:
            cur = db.execute(
                "UPDATE memories SET text = ?, embedding = ?, origin = 'manual', updated_at = ? WHERE id = ? AND status = 'active'",
                (text, to_blob(embedding), now_iso(), memory_id),
            )
            if cur.rowcount == 0:
                raise NotFound("active memory", memory_id)
            self.dreams.redact(db, memory_id, text)

    def delete_memory(self, memory_id: int) -> list[int]:
        """Delete a memory and the entries it superseded (they hold the same information). Returns ids removed."""
        with self.transaction() as db:
            if not db.execute("SELECT 1 FROM memories WHERE id = ?", (memory_id,)).fetchone():
                raise NotFound("memory", memory_id)
            return self._delete_memories(db, [memory_id])

    def _delete_memories(self, db: sqlite3.Connection, ids: list[int]) -> list[int]:
        removed: list[int] = []
        pending = list(ids)
        while pending:
            memory_id = pending.pop()
            if memory_id in removed:
                continue
            pending.extend(r[0] for r in db.execute("SELECT id FROM memories WHERE superseded_by = ?", (memory_id,)))
            db.execute("DELETE FROM memories WHERE id = ?", (memory_id,))
            self.dreams.drop(db, [memory_id])
            removed.append(memory_id)
        return removed

    def touch(self, memory_ids: Iterable[int], when: str | None = None) -> None:
        ids = list(memory_ids)
        if ids:
            with self.transaction() as db:
                db.executemany(
                    "UPDATE memories SET last_accessed = ?, access_count = access_count + 1 WHERE id = ?",
                    [(when or now_iso(), i) for i in ids],
                )

    def memories_from_messages(self, message_ids: Iterable[int]) -> list[Memory]:
        """Every entry (any status) drawn from one of these messages: what memory knows about what was said."""
        message_ids = list(message_ids)
        if not message_ids:
            return []
        rows = self.query(
            f"SELECT DISTINCT memory_id FROM memory_sources WHERE message_id IN ({','.join('?' * len(message_ids))})",
            message_ids,
        )
        return self.memories(status=None, ids=[r[0] for r in rows])

    def _sources(self, memory_ids: list[int]) -> dict[int, list[int]]:
        if not memory_ids:
            return {}
        out: dict[int, list[int]] = {}
        for chunk_start in range(0, len(memory_ids), 900):
            chunk = memory_ids[chunk_start:chunk_start + 900]
            rows = self.query(
                f"SELECT memory_id, message_id FROM memory_sources WHERE memory_id IN ({','.join('?' * len(chunk))}) "
                "ORDER BY message_id",
                chunk,
            )
            for memory_id, message_id in rows:
                out.setdefault(memory_id, []).append(message_id)
        return out
