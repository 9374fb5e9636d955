"""The assistant's own earlier replies as evidence, for a question about what it said, suggested or recommended.

Only then: a small model's replies are not facts about the person, so no other question reads them.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

import numpy as np

from .. import lang
from ..embed.base import Embedder
from ..store import Store, TermIndex
from ..store.records import Message, Sentence, Source
from ..text import normalize, split_sentences
from . import dates
from .retriever import Candidate
from .trace import Step

_ASKS = re.compile(lang.pattern("ASKS_ABOUT_REPLIES"))
SHOWN = 4  # passages of earlier replies shown at most
POOL = 24  # passages the word index hands to the embedder to rank: a bound on the cost in a long memory


def asks_about_replies(text: str) -> bool:
    """Whether the message asks what the assistant itself said, suggested or recommended before."""
    return _ASKS.search(normalize(text.replace("’", "'"))) is not None


@dataclass(frozen=True)
class ReplyPassage(Sentence):
    """A sentence of an earlier assistant reply: shown like the person's sentences, but its source is the
    assistant's. Its id is negative, so that it never meets a stored sentence's."""

    asked: str = ""  # the person's message the reply answered: what a later question about it echoes

    @property
    def source(self) -> Source:
        return Source(self.message_id, self.created_at, self.text, "assistant", self.external_id)


def passages(messages: list[Message]) -> list[ReplyPassage]:
    """Every sentence of every assistant reply (a list item is a sentence), with the reply's date, external id and
    the person's message before it in its conversation."""
    out: list[ReplyPassage] = []
    asked: dict[str, str] = {}
    for m in messages:
        if m.role == "user":
            asked[m.session] = m.text
            continue
        out += [ReplyPassage(-(m.id * 10_000 + i) - 1, m.id, i, text, m.created_at, m.external_id,
                             asked=asked.get(m.session, "")) for i, text in enumerate(split_sentences(m.text))]
    return out


def earlier_replies(store: Store, embedder: Embedder, question: str, k: int = SHOWN) -> list[Candidate]:
    """The `k` sentences of the assistant's stored replies closest to the question, each read with the message it
    answered ("Any bakery in Porto?" names what "Try Padaria Ribeiro." is), in the order they were said: the word
    index narrows them to `POOL`, the embedder ranks those."""
    pieces = passages(store.messages())
    if not pieces or k <= 0:
        return []
    pool = pieces if len(pieces) <= POOL else _by_words(pieces, question)
    asked = np.asarray(embedder.embed_batch([question], role="query")[0], dtype=np.float32)
    said = np.asarray(embedder.embed_batch([f"{p.asked}\n{p.text}" for p in pool], role="passage"), dtype=np.float32)
    scores = said @ asked / np.maximum(np.linalg.norm(said, axis=1) * np.linalg.norm(asked), 1e-12)
    best = sorted(range(len(pool)), key=lambda i: -scores[i])[:k]
    return [Candidate(pool[i], float(scores[i])) for i in sorted(best, key=lambda i: (pool[i].created_at, -pool[i].id))]


def _by_words(pieces: list[ReplyPassage], question: str) -> list[ReplyPassage]:
    """The `POOL` passages the word index ranks highest for the question, the latest others after them."""
    words = TermIndex()
    for i, piece in enumerate(pieces):
        words.add(i, f"{piece.asked} {piece.text}")
    chosen = [i for i, _ in words.search(None, question, POOL)]
    found = set(chosen)
    chosen += [i for i in range(len(pieces) - 1, -1, -1) if i not in found][: POOL - len(chosen)]
    return [pieces[i] for i in sorted(chosen)]


def reply_line(c: Candidate, *, compact: bool = True, words_in: str | None = None) -> str:
    """An earlier reply's sentence, dated and marked as the assistant's own ("you" to the Responder)."""
    day = dates.spoken(c.date, words_in) if words_in else c.date[:10]
    return f'- {day}: you replied: "{c.text}"' if compact else f'- ({day}) you (the assistant) replied: "{c.text}"'


@dataclass
class EarlierReplies:
    """What a question about the assistant's own words adds to the evidence: lines first, they are what it asks."""

    lines: list[str] = field(default_factory=list)
    shown: list[Candidate] = field(default_factory=list)
    step: Step | None = None


def if_asked(store: Store, embedder: Embedder, question: str, *, compact: bool = True,
             words_in: str | None = None) -> EarlierReplies:
    """The earlier replies' lines for a question about them; nothing for any other message."""
    if not asks_about_replies(question):
        return EarlierReplies()
    started = time.perf_counter()
    shown = earlier_replies(store, embedder, question)
    step = Step("Earlier replies", round((time.perf_counter() - started) * 1000, 1),
                f"asked about the assistant's own words: {len(shown)} sentences of its earlier replies",
                parsed=[{"date": c.date, "score": round(c.score, 3), "text": c.text} for c in shown])
    return EarlierReplies([reply_line(c, compact=compact, words_in=words_in) for c in shown], shown, step)
