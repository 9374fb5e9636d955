"""The model's side of the Dream: show it one cluster of entries with their sources, parse what it proposes."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel

from ..llm.base import LLM
from ..llm.structured import structured_call
from ..prompts import Prompt
from ..store import Store
from ..text import mentions, split_sentences
from .validate import Entry, Source
from .vocab import content_words

_SOURCES_SHOWN = 3
_QUOTE_CHARS = 300


class DreamOperation(BaseModel):
    op: Literal["MERGE", "UPDATE", "PROMOTE", "FORGET"]
    target_ids: list[int]
    text: str | None = None
    reason: str


class DreamProposal(BaseModel):
    operations: list[DreamOperation]


@dataclass
class ClusterProposal:
    """What the model proposed for one cluster, with its raw output and how it was obtained."""

    cluster: list[int]
    operations: list[DreamOperation]
    raw: list[str] = field(default_factory=list)
    retried: bool = False
    fell_back: bool = False
    error: str | None = None
    duration_ms: float = 0.0
    calls: int = 0


def load_entries(store: Store) -> dict[int, Entry]:
    """Every active memory as an Entry, with its source messages (text and date) for the model and the validator."""
    memories = store.memories()
    message_ids = sorted({m for memory in memories for m in memory.source_message_ids})
    messages = {}
    for start in range(0, len(message_ids), 900):
        messages.update(store.messages_by_id(message_ids[start:start + 900]))
    entries = {}
    for memory in memories:
        sources = tuple(
            Source(messages[m].text, messages[m].created_at, m, messages[m].role)
            for m in memory.source_message_ids
            if m in messages
        )
        entries[memory.id] = Entry(
            memory.id, memory.tier, memory.status, memory.text, sources, memory.created_at, memory.origin
        )
    return entries


def propose(llm: LLM, entries: list[Entry], *, today: str, prompt: Prompt) -> ClusterProposal:
    """One structured call for one cluster; a model that fails twice proposes nothing."""
    messages = prompt.render(today=today, entries=render_entries(entries))
    result = structured_call(
        llm, messages, DreamProposal, lambda: DreamProposal(operations=[]), max_tokens=200 + 150 * len(entries)
    )
    return ClusterProposal(
        cluster=[e.id for e in entries],
        operations=list(result.value.operations),
        raw=list(result.raw),
        retried=result.retried,
        fell_back=result.fell_back,
        error=result.error,
        duration_ms=result.duration_ms,
        calls=result.calls,
    )


def render_entries(entries: list[Entry]) -> str:
    """Each entry with id, tier, date, text and the person's verbatim sentences it came from."""
    blocks = []
    for entry in entries:
        tier = "long-term" if entry.tier == "ltm" else "short-term"
        lines = [f"[{entry.id}] {tier}, noted {entry.date[:10] or 'unknown date'}", f"    entry: {entry.text}"]
        newest_first = sorted(entry.sources, key=lambda s: s.date, reverse=True)[:_SOURCES_SHOWN]
        for source in newest_first:
            who = "the person said" if source.role == "user" else "the assistant said"
            lines.append(f"    on {source.date[:10]} {who}: \"{quote(source.text, entry.text)}\"")
        if len(entry.sources) > _SOURCES_SHOWN:
            lines.append(f"    (and {len(entry.sources) - _SOURCES_SHOWN} older messages)")
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def quote(message: str, about: str) -> str:
    """The sentences of `message` that share a word with `about`, verbatim; the first sentence if none do."""
    sentences = split_sentences(message)
    if not sentences:
        return ""
    keywords = content_words(about)
    related = [s for s in sentences if any(mentions(k, s) for k in keywords)] or sentences[:1]
    text = " ".join(related)
    return text if len(text) <= _QUOTE_CHARS else text[:_QUOTE_CHARS].rstrip() + "…"
