"""What the memory API returns: plain pydantic records, the same shape in Python, JSON and MCP tool results."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel


class Source(BaseModel):
    """A message the person sent, with its date: the evidence behind a memory or a recalled sentence."""

    message_id: int
    date: str
    text: str


class Entry(BaseModel):
    """One memory entry; `tier` ltm is durable ('memory about you'), mtm is short-term until a Dream decides."""

    id: int
    text: str
    tier: str
    status: str  # active | superseded | forgotten
    origin: str  # writer | dream | manual
    created_at: str
    updated_at: str
    superseded_by: int | None = None
    sources: list[Source] = []


class Recollection(BaseModel):
    """A search hit: a memory entry, or a sentence the person said verbatim; what is current first, best score first,
    then what was replaced later."""

    kind: Literal["memory", "sentence"]
    id: int  # the memory id, or the sentence id (its message is sources[0].message_id)
    text: str
    score: float
    date: str
    sources: list[Source]
    status: Literal["current", "replaced"] = "current"  # replaced: the person said a newer value later
    replaced_by: list[int] = []  # the entries that say the newer values, where memory has them


class HeldValue(BaseModel):
    value: str
    since: str  # the day it was first said
    memory_id: int  # the entry that says it


class ProfileRow(BaseModel):
    """One thing about the person that holds one value at a time (home, workplace, occupation): its value now and
    the values it replaced, newest first."""

    attribute: str
    current: list[HeldValue]
    before: list[HeldValue] = []


class Added(BaseModel):
    """What `add` stored: the dated message, and the entries learned from it."""

    message_id: int | None  # None when the text was stored directly as an entry (infer=False)
    date: str
    memories: list[Entry]
    withheld: str | None = None  # why nothing was learned: the text holds a credential (it stays in the log)


class Forgotten(BaseModel):
    memory_ids: list[int]
    message_ids: list[int]
    sentence_ids: list[int] = []


class HistoryEvent(BaseModel):
    """One step in an entry's life, oldest first."""

    at: str
    event: Literal["said", "created", "edited", "replaced", "superseded", "forgotten"]
    memory_id: int | None = None
    message_id: int | None = None
    text: str


class DreamChange(BaseModel):
    op: str
    target_ids: list[int]
    text: str | None = None
    reason: str
    verdict: str
    new_memory_id: int | None = None


class DreamOutcome(BaseModel):
    """What a Dream (or its undo) did: accepted changes, and proposals the validator refused with why."""

    dream_id: int | None
    status: str  # applied | undone | nothing to undo
    started_at: str | None = None
    accepted: list[DreamChange] = []
    rejected: list[DreamChange] = []


class TimelineEvent(BaseModel):
    """An entry that says when something happened, at the day it stands for (counted in code from the day said)."""

    day: str  # ISO day (a week said around a day: a week before or after it)
    when: str  # "21 March 2026", "the week before 27 November 2026"
    text: str
    memory_id: int
    said_on: str
    said: str  # the words that told the time: "yesterday"
