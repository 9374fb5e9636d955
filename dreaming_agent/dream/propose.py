"""The model's side of the Dream: show it one cluster of entries with their sources, parse what it proposes."""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, create_model

from ..llm.base import LLM
from ..llm.structured import structured_call
from ..prompts import Prompt
from ..store import Memory, Store
from ..text import mentions, split_sentences
from .model import ClusterProposal, DreamProposal
from .vocab import content_words

_SOURCES_SHOWN = 3
_QUOTE_CHARS = 300
_REASON_CHARS = 100


def load_entries(store: Store) -> dict[int, Memory]:
    """Every active memory with its source messages (text and date), for the model and the validator."""
    return {memory.id: memory for memory in store.memories(with_sources=True)}


def proposal_schema(entries: list[Memory]) -> dict:
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


def propose(llm: LLM, entries: list[Memory], *, today: str, prompt: Prompt) -> ClusterProposal:
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


def render_entries(entries: list[Memory]) -> str:
    """Each entry with id, tier, date, text and the person's verbatim sentences it came from."""
    blocks = []
    for entry in entries:
        tier = "long-term" if entry.tier == "ltm" else "short-term"
        lines = [f"[{entry.id}] {tier}, noted {entry.created_at[:10] or 'unknown date'}", f"    entry: {entry.text}"]
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
