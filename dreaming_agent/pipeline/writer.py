"""Writer (background, after the reply): extract atomic facts, ground them, skip near-duplicates, store as MTM."""
from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass, field

import numpy as np
from pydantic import BaseModel, Field

from .. import secrets
from ..embed.base import Embedder
from ..llm.base import LLM
from ..llm.structured import structured_call
from ..prompts import PromptLibrary
from ..store import Message, Store, VectorIndex
from ..text import says_nothing, split_sentences
from .grounding import known, lexical, person, relation, role, semantic
from .retriever import is_question
from .trace import Step
from .whose import claimed, given_name, held_as_someone, own_names, restate


# What the Writer's code keeps of the model's facts, as a revision: part of a bench's fed-memory key, so that memory
# fed before a change to it is not reused as if it were the same. 2: whose (round 47); 3: person, any_language (48).
KEEPS = 3


class ExtractedFacts(BaseModel):
    facts: list[str] = Field(max_length=5)  # required: JSON of another shape is a fault, not "no facts"


@dataclass(frozen=True)
class WriterSettings:
    semantic_threshold: float = 0.25  # calibrated on the development conversation: docs/results/grounding.md
    duplicate_threshold: float = 0.95
    max_fact_chars: int = 240
    # Keep facts drawn from a sentence in a language no module knows (`lang`). There nothing checks the model's English but
    # the embedder, and the 0.5B model's was mostly wrong: 1 true of the facts kept on 22 probe messages (round 43);
    # of the entries fed memories held, about 3 of 34 right on Portuguese, 10 of 39 on Chinese, 1 of 23 on Japanese
    # (docs/results/round48). Off, the message's sentences are still the person's words in the log and in evidence;
    # on, for a model that writes those languages well.
    any_language: bool = False


@dataclass
class WriterOutcome:
    message_id: int
    stored: list[tuple[int, str]] = field(default_factory=list)
    dropped: list[tuple[str, str]] = field(default_factory=list)  # (fact, why)
    duplicates: list[tuple[str, int]] = field(default_factory=list)  # (fact, existing memory id)
    step: Step | None = None
    unavailable: bool = False  # the model could not be reached: the job must be retried
    withheld: str | None = None  # why nothing of the message is kept (it holds a credential)
    about: str | None = None  # whom the message's entries about "the user" were restated of (`whose`)


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
        return _nothing_to_learn(message, started, "question", "the message only asks: nothing to learn")
    if all(is_question(sentence) or says_nothing(sentence) for sentence in sentences):
        # Nor does small talk: from "¡Gracias, genial!" the 0.5B model kept "The user is grateful" and "The user is
        # genial", and a Dream merged them into one long-term candidate (in the app).
        return _nothing_to_learn(message, started, "small talk", "small talk: nothing to learn")
    prompt = prompts["writer"]
    extracted = structured_call(
        llm, prompt.render(today=message.created_at[:10], message=message.text[:4000]),
        ExtractedFacts, lambda: ExtractedFacts(facts=[]), max_tokens=160, seed=seed,
    )
    outcome = WriterOutcome(message.id, unavailable=extracted.unavailable)
    facts = [f.strip() for f in extracted.value.facts if f.strip()]
    facts = list(dict.fromkeys(f for f in facts if len(f) <= settings.max_fact_chars))
    credential = next((named for f in facts if (named := secrets.names_credential(f))), None)
    if credential:  # a credential the message's words did not show (no digit: "my password is swordfish")
        outcome.withheld = f"the Writer read a credential ({credential})"
        index.remove("sentences", store.withhold(message.id, outcome.withheld))
        facts = []
    extracted_facts = facts
    if any(claimed(f) for f in facts):  # a message that names the person as someone else is about that someone
        restated = restate(facts, own_names(store, message), lambda name: held_as_someone(store, name))
        facts, outcome.about = restated.facts, restated.about
        outcome.dropped.extend(restated.dropped)
    if facts:
        sentences = split_sentences(message.text) or [message.text]
        vectors = embedder.embed_batch(facts + sentences, role="passage")
        fact_vectors, sentence_vectors = vectors[: len(facts)], vectors[len(facts):]
        for fact, vector in zip(facts, fact_vectors):
            verdict = lexical(fact, message.text)
            if verdict.ok:
                verdict = role(fact, message.text)
            if verdict.ok:
                verdict = person(fact, message.text)
            if verdict.ok:
                verdict = relation(fact, message.text)
            if verdict.ok:
                verdict = semantic(vector, sentence_vectors, settings.semantic_threshold)
            if verdict.ok and not settings.any_language and not given_name(fact):
                # The person's own name is kept: the lexical check found it written in the message, and the answer
                # checks of a language no module knows read it ("Comment s'appelle ma sœur ?" answered "Claire").
                verdict = known(sentences[int(np.argmax(sentence_vectors @ vector))])
            if not verdict.ok:
                outcome.dropped.append((fact, verdict.reason))
                continue
            near = index.search("memories", vector, 1)
            if near and near[0].score >= settings.duplicate_threshold:
                outcome.duplicates.append((fact, near[0].id))
                continue
            try:
                memory_id = store.add_memory(
                    fact, tier="mtm", origin="writer", source_message_ids=[message.id], embedding=vector,
                    created_at=message.created_at, prompt_version=prompt.version,
                )
            except sqlite3.IntegrityError:
                break  # the person deleted the message while the Writer ran: nothing may be derived from it
            index.add("memories", [memory_id], vector[None, :])
            outcome.stored.append((memory_id, fact))
    step = Step.from_structured("Writer", extracted, _describe(outcome))
    step.duration_ms = _ms(started)
    step.parsed = {
        "skipped": None,
        "extracted": extracted_facts,
        "stored": [t for _, t in outcome.stored],
        "dropped": [{"fact": f, "why": why} for f, why in outcome.dropped],
        "duplicates": [f for f, _ in outcome.duplicates],
        "withheld": outcome.withheld,
        "about": outcome.about,
    }
    outcome.step = step
    return outcome


def _nothing_to_learn(message: Message, started: float, skipped: str, why: str) -> WriterOutcome:
    """A message the model is not asked about; `skipped` names what it is ("question", "small talk")."""
    parsed = {"skipped": skipped, "extracted": [], "stored": [], "dropped": [], "duplicates": []}
    return WriterOutcome(message.id, step=Step("Writer", _ms(started), why, parsed=parsed))


def _describe(outcome: WriterOutcome) -> str:
    if outcome.unavailable:
        return "model unavailable; will retry"
    if outcome.withheld:
        return f"not remembered: {outcome.withheld}; the message's sentences left the evidence"
    about = f" (the message's facts about the user restated of {outcome.about})" if outcome.about else ""
    return (f"stored {len(outcome.stored)}{about}, dropped {len(outcome.dropped)} the message does not bear out, "
            f"skipped {len(outcome.duplicates)} duplicates")


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
