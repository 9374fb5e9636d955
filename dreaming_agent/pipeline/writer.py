"""Writer (background, after the reply): extract typed facts, ground them, fold duplicates, store as MTM.

Each fact is data (`fact_schema`): whose, which attribute, which value, since when. A newer value of a
single-valued attribute supersedes the older one in the store. A secret is never stored, and the message that
holds one is taken out of the evidence (it stays in the log) with a notice saying so."""
from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass, field

from ..embed.base import Embedder
from ..llm.base import LLM
from ..llm.structured import structured_call
from ..prompts import PromptLibrary
from ..store import Message, Store, VectorIndex
from ..store.records import Typed
from ..store.vocabulary import ATTRIBUTES, NEVER_STORED, USER, entry_text, same_value, spoken_by, subject_key
from ..text import normalize, says_nothing, split_sentences
from .fact_schema import ExtractedFacts, StatedFact, decoding_schema, resolve
from .grounding import lexical, relation, role, semantic
from .retriever import is_question
from .secrets import secret_like
from .trace import Step

__all__ = ["ExtractedFacts", "WriterOutcome", "WriterSettings", "write"]


@dataclass(frozen=True)
class WriterSettings:
    semantic_threshold: float = 0.25  # calibrated on the development conversation: docs/results/grounding.md
    duplicate_threshold: float = 0.95
    max_fact_chars: int = 240


@dataclass
class WriterOutcome:
    message_id: int
    stored: list[tuple[int, str]] = field(default_factory=list)
    dropped: list[tuple[str, str]] = field(default_factory=list)  # (fact, why)
    duplicates: list[tuple[str, int]] = field(default_factory=list)  # (fact, existing memory id)
    withheld: list[str] = field(default_factory=list)  # why nothing of the message was kept (a secret)
    withheld_sentences: list[int] = field(default_factory=list)  # taken out of the evidence
    superseded: list[int] = field(default_factory=list)  # older values the stored facts replaced
    step: Step | None = None
    unavailable: bool = False  # the model could not be reached: the job must be retried


def write(
    store: Store,
    index: VectorIndex,
    embedder: Embedder,
    llm: LLM,
    prompts: PromptLibrary,
    message: Message,
    *,
    settings: WriterSettings = WriterSettings(),
    seed: int = 0,
) -> WriterOutcome:
    started = time.perf_counter()
    sentences = split_sentences(message.text)
    if all(is_question(sentence) for sentence in sentences):
        # "Is there new information?" is the Writer's call, and a message that only asks tells nothing: a small
        # model asked for facts about "What's my blood type?" invents one ("The user's blood type is O+").
        return WriterOutcome(message.id, step=Step("Writer", _ms(started), "the message only asks: nothing to learn"))
    if all(is_question(sentence) or says_nothing(sentence) for sentence in sentences):
        # Nor does small talk: from "¡Gracias, genial!" the 0.5B model kept "The user is grateful" and "The user is
        # genial", and a Dream merged them into one long-term candidate (in the app).
        return WriterOutcome(message.id, step=Step("Writer", _ms(started), "small talk: nothing to learn"))
    found = secret_like(message.text)
    if found:  # no model call: nothing of this message may be kept, and a model would read the secret
        outcome = _withhold(store, index, message, found)
        outcome.step = Step("Writer", _ms(started), _describe(outcome), parsed=_parsed([], outcome))
        return outcome
    prompt = prompts["writer"]
    extracted = structured_call(
        llm, prompt.render(today=message.created_at[:10], message=message.text[:4000], attributes=_ATTRIBUTE_LINES),
        ExtractedFacts, lambda: ExtractedFacts(facts=[]), max_tokens=360, seed=seed, schema=decoding_schema(),
    )
    secret = next((_what(f) for f in extracted.value.facts
                   if (f.attribute == "secret" and _CODE_LIKE.search(message.text)) or secret_like(f.value)), None)
    if secret:
        outcome = _withhold(store, index, message, secret)
        outcome.unavailable = extracted.unavailable
        step = Step.from_structured("Writer", extracted, _describe(outcome))
        step.duration_ms = _ms(started)
        step.parsed = _parsed([], outcome)
        outcome.step = step
        return outcome
    outcome = WriterOutcome(message.id, unavailable=extracted.unavailable)
    typed = _typed(store, extracted.value.facts, message.created_at, message.speaker)
    typed = {text: fact for text, fact in typed.items() if len(text) <= settings.max_fact_chars}
    facts = list(typed)
    if facts:
        sentences = split_sentences(message.text) or [message.text]
        vectors = embedder.embed_batch(facts + sentences, role="passage")
        fact_vectors, sentence_vectors = vectors[: len(facts)], vectors[len(facts):]
        for fact, vector in zip(facts, fact_vectors):
            verdict = lexical(fact, message.text)
            if verdict.ok:
                verdict = role(fact, message.text)
            if verdict.ok and not _known_subject(store, typed[fact].subject):  # "Pepper" is the dog memory knows
                verdict = relation(fact, message.text)
            if verdict.ok:
                verdict = semantic(vector, sentence_vectors, settings.semantic_threshold)
            if not verdict.ok:
                outcome.dropped.append((fact, verdict.reason))
                continue
            key = typed[fact]
            said = store.facts.holding(key.subject, key.attribute, key.value)
            if said is None and key.attribute == "other":  # a typed key says what is a repeat; free text, closeness
                near = index.search("memories", vector, 1)
                said = near[0].id if near and near[0].score >= settings.duplicate_threshold else None
            if said is not None:
                outcome.duplicates.append((fact, said))
                continue
            try:
                memory_id = store.add_memory(
                    fact, tier="mtm", origin="writer", source_message_ids=[message.id], embedding=vector,
                    created_at=message.created_at, prompt_version=prompt.version, typed=key,
                )
            except sqlite3.IntegrityError:
                break  # the person deleted the message while the Writer ran: nothing may be derived from it
            older = _older(store, memory_id)
            if memory_id not in older:  # a value said after its successor is stored superseded: no search finds it
                index.add("memories", [memory_id], vector[None, :])
            index.remove("memories", [i for i in older if i != memory_id])  # the index holds active entries only
            outcome.stored.append((memory_id, fact))
            outcome.superseded += older
    outcome.dropped += [(f"{f.attribute}: {f.value}", "an instruction to the assistant is no fact about the person")
                        for f in extracted.value.facts if f.attribute == "instruction"]
    step = Step.from_structured("Writer", extracted, _describe(outcome))
    step.duration_ms = _ms(started)
    step.parsed = _parsed(facts, outcome, typed)
    outcome.step = step
    return outcome


# The attributes as the prompt lists them, from the one table that declares them
_ATTRIBUTE_LINES = "\n".join(f"  {name}: {a.meaning}" for name, a in ATTRIBUTES.items())
# What a secret holds, in any language: a digit, or a word mixing letters and digits. A small model copies its
# prompt's example (a "secret" for a message about a move); only a message holding such a thing is withheld whole.
_CODE_LIKE = re.compile(r"\d")


def _typed(store: Store, facts: list[StatedFact], said_on: str, speaker: str | None) -> dict[str, Typed]:
    """Each storable fact as its English entry and its key; one per subject, attribute and value (the model repeats
    itself), in the order given."""
    out: dict[str, Typed] = {}
    seen = set()
    for fact in facts:
        value = " ".join(fact.value.split())
        if fact.attribute in NEVER_STORED or not value:
            continue
        subject = _subject(store, fact, value)
        folded = (subject, fact.attribute, normalize(value))
        if folded in seen:
            continue
        seen.add(folded)
        # A fact sent as a plain English sentence ("The user likes jazz") is its own entry.
        own_entry = subject == USER and fact.attribute == "other" and normalize(value).startswith("the user")
        text = value if own_entry else entry_text(subject, fact.attribute, value)
        out.setdefault(text, Typed(spoken_by(subject, speaker), fact.attribute, value, resolve(fact.when, said_on)))
    return out


def _subject(store: Store, fact: StatedFact, value: str) -> str:
    """Whose fact, with the small model's slips mended in code: "user" with a relation is someone of theirs; a
    subject named as memory already knows it keeps that key ("pet:dog:pepper" however it is called now); "user"
    renamed to another name is something of theirs."""
    kind, relation, name = fact.subject.kind, fact.subject.relation.strip(), fact.subject.name.strip()
    if kind == USER and relation:
        kind = "person"
    renamed = kind == USER and name and fact.attribute in ("name", "nickname") and not same_value(name, value)
    if kind == USER and not renamed:
        return USER
    if name:
        known = store.facts.subject_named(subject_key("thing", "", name).split(":")[-1])
        if known:
            return known.rpartition("/")[2]
    return subject_key("thing" if renamed else kind, relation, name)


def _known_subject(store: Store, subject: str) -> bool:
    return subject != USER and store.facts.knows(subject)


def _older(store: Store, memory_id: int) -> list[int]:
    """The values `memory_id` replaced when it was stored (or itself, when it stated an older value)."""
    return store.facts.replaced_on_write(memory_id)


def _what(fact: StatedFact) -> str:
    return "a secret (a PIN, password, number or code)" if fact.attribute == "secret" else (
        secret_like(fact.value) or "a secret")


def _withhold(store: Store, index: VectorIndex, message: Message, what: str) -> WriterOutcome:
    """Nothing of the message is kept as memory, and its sentences are no evidence; the message stays in the log."""
    removed = store.withhold_sentences(message.id)
    index.remove("sentences", removed)
    return WriterOutcome(message.id, withheld=[what], withheld_sentences=removed)


def notice(outcome: WriterOutcome) -> str | None:
    """What the person is told when a message was not remembered, and how to remove it from the log too."""
    if not outcome.withheld:
        return None
    return (f"Not remembered: message #{outcome.message_id} holds {outcome.withheld[0]}. It stays only in your "
            f"conversation history; to remove it there too, delete message #{outcome.message_id}.")


def _parsed(facts: list[str], outcome: WriterOutcome, typed: dict[str, Typed] | None = None) -> dict:
    return {
        "extracted": facts,
        "typed": [{"entry": t, "subject": k.subject, "attribute": k.attribute, "value": k.value,
                   "valid_from": k.valid_from} for t, k in (typed or {}).items()],
        "stored": [t for _, t in outcome.stored],
        "dropped": [{"fact": f, "why": why} for f, why in outcome.dropped],
        "duplicates": [f for f, _ in outcome.duplicates],
        "superseded": outcome.superseded,
        "withheld": outcome.withheld,
        "notice": notice(outcome),
    }


def _describe(outcome: WriterOutcome) -> str:
    if outcome.unavailable:
        return "model unavailable; will retry"
    if outcome.withheld:
        return f"not remembered: {outcome.withheld[0]}; {len(outcome.withheld_sentences)} sentences kept out of the evidence"
    return (f"stored {len(outcome.stored)}, dropped {len(outcome.dropped)} ungrounded, skipped "
            f"{len(outcome.duplicates)} duplicates, superseded {len(outcome.superseded)}")


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
