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
class Typed:
    """What a typed fact says, as stored beside its English entry."""

    subject: str  # a `vocabulary.subject_key`
    attribute: str  # a key of `vocabulary.ATTRIBUTES`
    value: str
    valid_from: str | None = None  # ISO date; None when the message does not say


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
    subject: str | None = None  # typed facts (`store.vocabulary`): "user", "pet:dog:pepper"; None for an untyped entry
    attribute: str | None = None
    value: str | None = None
    valid_from: str | None = None  # the day it holds from, resolved in code from the message's date
    superseded_at: str | None = None  # set when a newer value of its single-valued attribute replaced it
    source_message_ids: tuple[int, ...] = field(default=())
    sources: tuple[Source, ...] = ()  # filled only when asked for: `Store.memories(with_sources=True)`

    @property
    def newest(self) -> str:
        """Date of the latest evidence for this entry (its newest source, else its own date)."""
        return max((s.date for s in self.sources), default=self.created_at)

    @property
    def replaced(self) -> bool:
        """A newer value of the same subject and attribute superseded it: no longer current (a merge is not this)."""
        return self.status == "superseded" and self.superseded_at is not None


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
