"""Ordered schema migrations; each applied once and recorded in `_migrations`."""
from __future__ import annotations

import sqlite3
from typing import Callable

from ..errors import MigrationFailed


def m001_chat_and_memory() -> str:
    return """
        CREATE TABLE messages (
            id INTEGER PRIMARY KEY,
            session TEXT NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
            text TEXT NOT NULL,
            created_at TEXT NOT NULL,
            speaker TEXT,
            external_id TEXT
        );
        CREATE INDEX messages_session ON messages(session, id);

        -- Verbatim sentences of user messages: what naive RAG and the evidence search look up.
        CREATE TABLE sentences (
            id INTEGER PRIMARY KEY,
            message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            text TEXT NOT NULL,
            embedding BLOB
        );
        CREATE INDEX sentences_message ON sentences(message_id);

        CREATE TABLE memories (
            id INTEGER PRIMARY KEY,
            tier TEXT NOT NULL CHECK (tier IN ('mtm', 'ltm')),
            text TEXT NOT NULL,
            origin TEXT NOT NULL CHECK (origin IN ('writer', 'manual', 'dream')),
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'superseded', 'forgotten')),
            superseded_by INTEGER REFERENCES memories(id) ON DELETE SET NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            last_accessed TEXT,
            access_count INTEGER NOT NULL DEFAULT 0,
            embedding BLOB,
            prompt_version TEXT
        );
        CREATE INDEX memories_status ON memories(status, tier);

        CREATE TABLE memory_sources (
            memory_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            PRIMARY KEY (memory_id, message_id)
        );
        CREATE INDEX memory_sources_message ON memory_sources(message_id);

        CREATE TABLE summaries (
            session TEXT PRIMARY KEY,
            through_message_id INTEGER NOT NULL,
            text TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );

        -- Background Writer work: a failed job stays 'failed' and is retried, never dropped.
        CREATE TABLE writer_jobs (
            message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
            status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
            attempts INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            updated_at TEXT NOT NULL
        );
        """


def m002_dreams() -> str:
    return """
        CREATE TABLE dream_runs (
            id INTEGER PRIMARY KEY,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            status TEXT NOT NULL CHECK (status IN ('applied', 'undone')),
            model TEXT,
            prompt_version TEXT
        );
        CREATE TABLE dream_ops (
            id INTEGER PRIMARY KEY,
            dream_id INTEGER NOT NULL REFERENCES dream_runs(id) ON DELETE CASCADE,
            op TEXT NOT NULL,
            target_ids TEXT NOT NULL,
            text TEXT,
            reason TEXT,
            accepted INTEGER NOT NULL,
            verdict TEXT NOT NULL,
            new_memory_id INTEGER
        );
        -- Row images for undo: before IS NULL marks a memory the Dream created.
        CREATE TABLE dream_changes (
            dream_id INTEGER NOT NULL REFERENCES dream_runs(id) ON DELETE CASCADE,
            memory_id INTEGER NOT NULL,
            before TEXT,
            PRIMARY KEY (dream_id, memory_id)
        );
        """


# Tables whose ids are provenance keys (memory sources, Dream records, vector ids, what a person was shown as #id).
_NEVER_REUSED = ("messages", "sentences", "memories", "dream_runs", "dream_ops")


def m003_ids_never_reused() -> str:
    """AUTOINCREMENT on every id a record points at: a deleted id is never handed out again.

    SQLite cannot add AUTOINCREMENT in place, so each table is rebuilt with its rows and ids (foreign keys are off
    while a migration runs; `migrate` checks them before committing)."""
    tables = """
        CREATE TABLE messages_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session TEXT NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
            text TEXT NOT NULL,
            created_at TEXT NOT NULL,
            speaker TEXT,
            external_id TEXT
        );
        CREATE TABLE sentences_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            text TEXT NOT NULL,
            embedding BLOB
        );
        CREATE TABLE memories_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            tier TEXT NOT NULL CHECK (tier IN ('mtm', 'ltm')),
            text TEXT NOT NULL,
            origin TEXT NOT NULL CHECK (origin IN ('writer', 'manual', 'dream')),
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'superseded', 'forgotten')),
            superseded_by INTEGER REFERENCES memories(id) ON DELETE SET NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            last_accessed TEXT,
            access_count INTEGER NOT NULL DEFAULT 0,
            embedding BLOB,
            prompt_version TEXT
        );
        CREATE TABLE dream_runs_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            status TEXT NOT NULL CHECK (status IN ('applied', 'undone')),
            model TEXT,
            prompt_version TEXT
        );
        CREATE TABLE dream_ops_new (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            dream_id INTEGER NOT NULL REFERENCES dream_runs(id) ON DELETE CASCADE,
            op TEXT NOT NULL,
            target_ids TEXT NOT NULL,
            text TEXT,
            reason TEXT,
            accepted INTEGER NOT NULL,
            verdict TEXT NOT NULL,
            new_memory_id INTEGER
        );
        """
    # Column lists are the same in both versions of each table, so SELECT * copies rows and ids as they are.
    moves = "".join(
        f"INSERT INTO {t}_new SELECT * FROM {t};\nDROP TABLE {t};\nALTER TABLE {t}_new RENAME TO {t};\n"
        for t in _NEVER_REUSED
    )
    indexes = """
        CREATE INDEX messages_session ON messages(session, id);
        CREATE INDEX sentences_message ON sentences(message_id);
        CREATE INDEX memories_status ON memories(status, tier);
        """
    return tables + moves + indexes


def m004_withheld_messages() -> str:
    """Why a message was kept out of memory (it holds a credential); NULL for every message before."""
    return "ALTER TABLE messages ADD COLUMN withheld TEXT;"


MIGRATIONS: list[Callable[[], str]] = [m001_chat_and_memory, m002_dreams, m003_ids_never_reused,
                                       m004_withheld_messages]


def migrate(db: sqlite3.Connection) -> list[str]:
    """Apply pending migrations in order, each in its own transaction; return the names applied."""
    db.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT DEFAULT CURRENT_TIMESTAMP)")
    done = {row[0] for row in db.execute("SELECT name FROM _migrations")}
    pending = [m for m in MIGRATIONS if m.__name__ not in done]
    if not pending:
        return []
    # A table rebuild drops the old table: with foreign keys on, that would cascade into every child row.
    # The pragma is ignored inside a transaction, so it is set around them; `foreign_key_check` replaces it.
    enforced = db.execute("PRAGMA foreign_keys").fetchone()[0]
    db.execute("PRAGMA foreign_keys=OFF")
    try:
        for migration in pending:
            _apply(db, migration)
    finally:
        db.execute(f"PRAGMA foreign_keys={'ON' if enforced else 'OFF'}")
    return [m.__name__ for m in pending]


def _apply(db: sqlite3.Connection, migration: Callable[[], str]) -> None:
    """One script, one transaction: a crash or a broken reference leaves it wholly applied or not at all."""
    try:
        db.executescript(
            "BEGIN;\n" + migration() + f"\nINSERT INTO _migrations (name) VALUES ('{migration.__name__}');"
        )
        broken = db.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise MigrationFailed(migration.__name__,
                                  f"{len(broken)} rows point at rows that do not exist: {broken[:5]}")
    except sqlite3.Error as e:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise MigrationFailed(migration.__name__, str(e)) from e
    except MigrationFailed:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
