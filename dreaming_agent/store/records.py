"""Plain records read from the store."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Message:
    id: int
    session: str
    role: str
    text: str
    created_at: str
    speaker: str | None = None
    external_id: str | None = None


@dataclass(frozen=True)
class Sentence:
    id: int
    message_id: int
    position: int
    text: str
    created_at: str
    external_id: str | None = None
    speaker: str | None = None


@dataclass(frozen=True)
class Memory:
    id: int
    tier: str
    text: str
    origin: str
    status: str
    superseded_by: int | None
    created_at: str
    updated_at: str
    last_accessed: str | None
    access_count: int
    prompt_version: str | None = None
    source_message_ids: tuple[int, ...] = field(default=())
