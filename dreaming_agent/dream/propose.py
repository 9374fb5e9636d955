"""The model's side of the Dream: show it one cluster of entries with their sources, parse what it proposes."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal, Union

from pydantic import BaseModel, Field, create_model

from ..llm.base import LLM
from ..llm.structured import structured_call
from ..prompts import Prompt
from ..store import Store
from ..text import mentions, split_sentences
from .validate import Entry, Source
from .vocab import content_words

_SOURCES_SHOWN = 3
_QUOTE_CHARS = 300
_REASON_CHARS = 100


class DreamOperation(BaseModel):
    op: Literal["MERGE", "UPDATE", "PROMOTE", "FORGET"]
    target_ids: list[int]
    text: str | None = None
    reason: str


class DreamProposal(BaseModel):
    operations: list[DreamOperation]


def proposal_schema(entries: list[Entry]) -> dict:
    """DreamProposal narrowed to one cluster, for the decoder: only these ids, and each operation in the shape it
    needs (a MERGE names two or more entries and gives a text, PROMOTE and FORGET name short-term entries and no
    text). A small model then cannot merge one entry or name one that is not there; whether an operation is sound
    stays the validator's call."""
    every_id = Literal[tuple(e.id for e in entries)]
    short_term = tuple(e.id for e in entries if e.tier != "ltm")
    reason = (str, Field(max_length=_REASON_CHARS))
    shapes = []
    if len(entries) > 1:  # one entry has nothing to be merged with, nor a newer message to be updated from
        shapes += [create_model("Merge", op=(Literal["MERGE"], ...), text=(str, ...), reason=reason,
                                target_ids=(list[every_id], Field(min_length=2, max_length=len(entries)))),
                   create_model("Update", op=(Literal["UPDATE"], ...), text=(str, ...), reason=reason,
                                target_ids=(list[every_id], Field(min_length=1, max_length=len(entries))))]
    if short_term:
        ids = (list[Literal[short_term]], Field(min_length=1, max_length=len(short_term)))
        shapes += [create_model(name, op=(Literal[name.upper()], ...), target_ids=ids, reason=reason)
                   for name in ("Promote", "Forget")]
    if not shapes:
        return DreamProposal.model_json_schema()  # a lone long-term entry: run_dream does not ask about it
    operation = Annotated[Union[tuple(shapes)], Field(discriminator="op")] if len(shapes) > 1 else shapes[0]
    narrowed = create_model("DreamProposal", operations=(list[operation], Field(max_length=len(entries))))
    return narrowed.model_json_schema()


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
        llm, messages, DreamProposal, lambda: DreamProposal(operations=[]), max_tokens=200 + 150 * len(entries),
        schema=proposal_schema(entries),
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
