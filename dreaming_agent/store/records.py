"""Plain records read from the store."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


def now_iso() -> str:
    """Now, to the second, as the store writes every date."""
    return datetime.now().replace(microsecond=0).isoformat()


@dataclass(frozen=True)
class Message:
    id: int
    session: str
    role: str
    text: str
    created_at: str
    speaker: str | None = None
    external_id: str | None = None
    withheld: str | None = None  # why it never became memory (it holds a credential); it stays in the log


@dataclass(frozen=True)
class Sentence:
    """One sentence of a user message, the unit the verbatim index searches."""

    id: int
    message_id: int
    position: int
    text: str
    created_at: str
    external_id: str | None = None
    speaker: str | None = None

    @property
    def source(self) -> "Source":
        """The sentence as evidence for itself: its own words, dated by its message."""
        return Source(self.message_id, self.created_at, self.text, "user", self.external_id)


@dataclass(frozen=True)
class Source:
    """A message a memory (or a recalled sentence) came from: the person's verbatim words and their date."""

    message_id: int
    date: str
    text: str
    role: str = "user"
    external_id: str | None = None


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
    sources: tuple[Source, ...] = ()  # filled only when asked for: `Store.memories(with_sources=True)`

    @property
    def newest(self) -> str:
        """Date of the latest evidence for this entry (its newest source, else its own date)."""
        return max((s.date for s in self.sources), default=self.created_at)


@dataclass(frozen=True)
class DreamRun:
    id: int
    started_at: str
    status: str  # "applied" | "undone"
    model: str | None
    prompt_version: str | None


@dataclass(frozen=True)
class RecordedOperation:
    """One operation a Dream judged, as recorded: what was proposed, the verdict, and the entry it created."""

    op: str
    target_ids: list[int]
    text: str | None
    reason: str | None
    accepted: bool
    verdict: str
    new_memory_id: int | None = None
