"""'Download my memory' and 'Load memory': one JSON file holding a conversation and all that memory made of it.

Messages, memories (with their source messages and dates) and the Dream history keep their ids, so every
reference between them survives the trip. Sentences and vectors are derived: rebuilt on load with the current
embedder, never stored in the file."""
from __future__ import annotations

import json
import sqlite3
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field, ValidationError

from .. import secrets
from ..embed.base import Embedder
from ..errors import MemoryFileInvalid, MemoryNotEmpty
from ..text import split_sentences
from .sqlite import Store, now_iso, to_blob

FORMAT = "dreaming-agent-memory"
_SEQUENCED = ("messages", "sentences", "memories", "dream_runs", "dream_ops")


class MessageRecord(BaseModel):
    id: int = Field(ge=1)
    role: Literal["user", "assistant"]
    text: str
    created_at: str
    speaker: str | None = None
    external_id: str | None = None
    withheld: str | None = None  # why it never became memory; a file without it is checked again on load


class MemoryRecord(BaseModel):
    id: int = Field(ge=1)
    tier: Literal["mtm", "ltm"]
    text: str = Field(min_length=1)
    origin: Literal["writer", "manual", "dream"]
    status: Literal["active", "superseded", "forgotten"]
    superseded_by: int | None = None
    created_at: str
    updated_at: str
    last_accessed: str | None = None
    access_count: int = Field(0, ge=0)
    prompt_version: str | None = None
    source_message_ids: list[int] = []


class DreamOperation(BaseModel):
    id: int = Field(ge=1)
    op: str
    target_ids: list[int]
    text: str | None = None
    reason: str | None = None
    accepted: bool
    verdict: str
    new_memory_id: int | None = None


class DreamChange(BaseModel):
    memory_id: int
    before: dict | None  # the entry as it was before the Dream; None: the Dream created it


class DreamRecord(BaseModel):
    id: int = Field(ge=1)
    started_at: str
    finished_at: str | None = None
    status: Literal["applied", "undone"]
    model: str | None = None
    prompt_version: str | None = None
    operations: list[DreamOperation] = []
    changes: list[DreamChange] = []


class Summary(BaseModel):
    text: str
    through_message_id: int
    updated_at: str


class MemoryFile(BaseModel):
    format: Literal["dreaming-agent-memory"] = FORMAT
    version: Literal[1] = 1
    exported_at: str
    # The highest id ever handed out per table, so that ids deleted before the download stay unused after it.
    last_ids: dict[str, int] = {}
    messages: list[MessageRecord] = []
    memories: list[MemoryRecord] = []
    dreams: list[DreamRecord] = []
    summary: Summary | None = None


def dump(store: Store, session: str) -> MemoryFile:
    """Everything the person could see about this session's memory, as one validated record."""
    messages = [MessageRecord(id=m.id, role=m.role, text=m.text, created_at=m.created_at, speaker=m.speaker,
                              external_id=m.external_id, withheld=m.withheld) for m in store.messages()]
    memories = [MemoryRecord(id=m.id, tier=m.tier, text=m.text, origin=m.origin, status=m.status,
                             superseded_by=m.superseded_by, created_at=m.created_at, updated_at=m.updated_at,
                             last_accessed=m.last_accessed, access_count=m.access_count,
                             prompt_version=m.prompt_version, source_message_ids=list(m.source_message_ids))
                for m in store.memories(status=None)]
    dreams = []
    runs = store.query("SELECT id, started_at, finished_at, status, model, prompt_version FROM dream_runs ORDER BY id")
    for row in runs:
        operations = [
            DreamOperation(id=i, op=op, target_ids=json.loads(targets), text=text, reason=reason,
                           accepted=bool(accepted), verdict=verdict, new_memory_id=new_id)
            for i, op, targets, text, reason, accepted, verdict, new_id in store.query(
                "SELECT id, op, target_ids, text, reason, accepted, verdict, new_memory_id FROM dream_ops "
                "WHERE dream_id = ? ORDER BY id", (row[0],))
        ]
        changes = [DreamChange(memory_id=memory_id, before=None if before is None else json.loads(before))
                   for memory_id, before in store.query(
                       "SELECT memory_id, before FROM dream_changes WHERE dream_id = ? ORDER BY memory_id", (row[0],))]
        dreams.append(DreamRecord(id=row[0], started_at=row[1], finished_at=row[2], status=row[3], model=row[4],
                                  prompt_version=row[5], operations=operations, changes=changes))
    text, through = store.summary(session)
    summary = None
    if text:
        updated = store.query("SELECT updated_at FROM summaries WHERE session = ?", (session,))[0][0]
        summary = Summary(text=text, through_message_id=through, updated_at=updated)
    last_ids = {name: seq for name, seq in store.query("SELECT name, seq FROM sqlite_sequence") if name in _SEQUENCED}
    return MemoryFile(exported_at=now_iso(), last_ids=last_ids, messages=messages, memories=memories,
                      dreams=dreams, summary=summary)


def parse(raw: bytes | str) -> MemoryFile:
    """A downloaded file back into a record; anything else is refused with what to do instead."""
    try:
        return MemoryFile.model_validate_json(raw)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the file"
        raise MemoryFileInvalid(f"{where}: {first['msg']}") from e


def load(store: Store, memory: MemoryFile, session: str, embedder: Embedder) -> None:
    """Fill an empty store from a memory file in one transaction; sentences and vectors are rebuilt here."""
    if store.query("SELECT EXISTS (SELECT 1 FROM messages) OR EXISTS (SELECT 1 FROM memories) "
                   "OR EXISTS (SELECT 1 FROM dream_runs)")[0][0]:
        raise MemoryNotEmpty()
    withheld = {m.id: m.withheld or secrets.withheld(m.text) for m in memory.messages if m.role == "user"}
    sentences = [(m.id, position, text) for m in memory.messages if m.role == "user" and not withheld[m.id]
                 for position, text in enumerate(split_sentences(m.text))]
    sentence_vectors = _embed(embedder, [text for _, _, text in sentences])
    memory_vectors = _embed(embedder, [m.text for m in memory.memories])
    try:
        with store.transaction() as db:
            db.execute("PRAGMA defer_foreign_keys = ON")  # entries may name ones that come later in the file
            db.executemany(
                "INSERT INTO messages (id, session, role, text, created_at, speaker, external_id, withheld) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(m.id, session, m.role, m.text, m.created_at, m.speaker, m.external_id, withheld.get(m.id))
                 for m in memory.messages])
            db.executemany("INSERT INTO sentences (message_id, position, text, embedding) VALUES (?, ?, ?, ?)",
                           [(*sentence, to_blob(v)) for sentence, v in zip(sentences, sentence_vectors)])
            db.executemany(
                "INSERT INTO memories (id, tier, text, origin, status, superseded_by, created_at, updated_at, "
                "last_accessed, access_count, embedding, prompt_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(m.id, m.tier, m.text, m.origin, m.status, m.superseded_by, m.created_at, m.updated_at,
                  m.last_accessed, m.access_count, to_blob(v), m.prompt_version)
                 for m, v in zip(memory.memories, memory_vectors)])
            db.executemany("INSERT INTO memory_sources (memory_id, message_id) VALUES (?, ?)",
                           [(m.id, source) for m in memory.memories for source in set(m.source_message_ids)])
            _load_dreams(db, memory.dreams)
            if memory.summary:
                db.execute("INSERT INTO summaries (session, through_message_id, text, updated_at) VALUES (?, ?, ?, ?)",
                           (session, memory.summary.through_message_id, memory.summary.text, memory.summary.updated_at))
            for table, seq in memory.last_ids.items():
                if table in _SEQUENCED:
                    _raise_sequence(db, table, seq)
            broken = db.execute("PRAGMA foreign_key_check").fetchall()
            if broken:
                table, _, parent, _ = broken[0]
                raise MemoryFileInvalid(f"a row of {table} names a {parent} row that is not in the file")
    except sqlite3.IntegrityError as e:  # two rows with one id, or a value the schema does not allow
        raise MemoryFileInvalid(str(e)) from e


def _load_dreams(db: sqlite3.Connection, dreams: list[DreamRecord]) -> None:
    for dream in dreams:
        db.execute("INSERT INTO dream_runs (id, started_at, finished_at, status, model, prompt_version) "
                   "VALUES (?, ?, ?, ?, ?, ?)",
                   (dream.id, dream.started_at, dream.finished_at, dream.status, dream.model, dream.prompt_version))
        db.executemany(
            "INSERT INTO dream_ops (id, dream_id, op, target_ids, text, reason, accepted, verdict, new_memory_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(op.id, dream.id, op.op, json.dumps(op.target_ids), op.text, op.reason, int(op.accepted), op.verdict,
              op.new_memory_id) for op in dream.operations])
        db.executemany("INSERT INTO dream_changes (dream_id, memory_id, before) VALUES (?, ?, ?)",
                       [(dream.id, change.memory_id, None if change.before is None else json.dumps(change.before))
                        for change in dream.changes])


def _raise_sequence(db: sqlite3.Connection, table: str, seq: int) -> None:
    if db.execute("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?", (seq, table)).rowcount == 0:
        db.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, seq))


def _embed(embedder: Embedder, texts: list[str]) -> list[np.ndarray | None]:
    return list(embedder.embed_batch(texts, role="passage")) if texts else []
