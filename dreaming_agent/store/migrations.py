"""Ordered schema migrations; each applied once and recorded in `_migrations`."""
from __future__ import annotations

import sqlite3
from typing import Callable


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


MIGRATIONS: list[Callable[[], str]] = [m001_chat_and_memory, m002_dreams]


def migrate(db: sqlite3.Connection) -> list[str]:
    """Apply pending migrations in order, each in its own transaction; return the names applied."""
    db.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT DEFAULT CURRENT_TIMESTAMP)")
    done = {row[0] for row in db.execute("SELECT name FROM _migrations")}
    applied = []
    for migration in MIGRATIONS:
        if migration.__name__ in done:
            continue
        # One script, one transaction: a crash leaves the migration wholly applied or not at all.
        db.executescript(
            "BEGIN;\n" + migration()
            + f"\nINSERT INTO _migrations (name) VALUES ('{migration.__name__}');\nCOMMIT;"
        )
        applied.append(migration.__name__)
    return applied
