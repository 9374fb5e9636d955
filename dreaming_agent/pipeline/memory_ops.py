"""What the person (and the Dream) can do to memory: add, edit, delete, dream, undo; every index follows."""
from __future__ import annotations

import threading
from typing import Callable

import numpy as np

from ..embed.base import Embedder
from .. import secrets
from ..errors import DuplicateMemory, SecretRefused
from ..llm.base import LLM
from ..prompts import PromptLibrary
from ..store import Memory, Message, Store, VectorIndex, attributes
from ..text import normalize
from .learning import Learning
from .timeline import Event, timeline


class MemoryOps:
    """An agent's memory as the person sees it; each change waits for background learning and takes the turn lock."""

    def __init__(self, *, store: Store, index: VectorIndex, llm: LLM, embedder: Embedder, prompts: PromptLibrary,
                 learning: Learning, turn_lock: threading.RLock):
        self.store, self.index, self.llm, self.embedder, self.prompts = store, index, llm, embedder, prompts
        self.learning = learning
        self._turn_lock = turn_lock

    def facts(self) -> list[Memory]:
        """'Memory about you': the durable (LTM) entries."""
        return self.store.memories(tier="ltm")

    def mid_term(self) -> list[Memory]:
        return self.store.memories(tier="mtm")

    def replaced(self, entries: list[Memory]) -> dict[int, int]:
        """Each of `entries` whose value the person changed later (a move, a new job, a new car) -> the entry saying
        the new one."""
        return {old: newer.id for old, newer in attributes.replaced(self.store, entries).items()}

    def profile(self) -> list[attributes.Current]:
        """What holds one value at a time — home, work, diet, car, partner, a pet's name — now and before
        (`attributes.profile`)."""
        return attributes.profile(self.store)

    def timeline(self) -> list[Event]:
        """The entries that say when something happened, at the day it stands for, oldest first."""
        return timeline(self.store)

    def history(self) -> list[Message]:
        return self.store.messages()

    def add(self, text: str) -> int:
        """A fact typed by the person: durable, origin 'manual'; refused if an active entry already says it, or if it
        holds a credential."""
        _refuse_secret(text)
        vector = self.embedder.embed(text.strip() or " ", role="passage")
        with self._turn_lock:
            self._refuse_duplicate(text)
            memory_id = self.store.add_memory(text, tier="ltm", origin="manual", embedding=vector)
            self.index.add("memories", [memory_id], vector[None, :])
        return memory_id

    def edit(self, memory_id: int, text: str) -> None:
        _refuse_secret(text)
        vector = self.embedder.embed(text.strip() or " ", role="passage")
        with self._turn_lock:
            self._refuse_duplicate(text, besides=memory_id)
            self.store.edit_memory(memory_id, text, vector)
            self.index.add("memories", [memory_id], vector[None, :])

    def _refuse_duplicate(self, text: str, besides: int | None = None) -> None:
        """Two active entries saying the same thing would be retrieved twice and crowd the prompt."""
        wanted = _comparable(text)
        for memory in self.store.memories():
            if memory.id != besides and _comparable(memory.text) == wanted:
                raise DuplicateMemory(memory.id)

    def delete(self, memory_id: int) -> list[int]:
        with self._turn_lock:
            removed = self.store.delete_memory(memory_id)
            self.index.remove("memories", removed)
        return removed

    def delete_message(self, message_id: int):
        """Delete a message, its sentences and the entries that drew on it, from SQLite and the index."""
        self.learning.wait(timeout=60)  # a Writer still reading it would otherwise race the delete
        with self._turn_lock:
            deletion = self.store.delete_message(message_id)
            self.index.remove("memories", deletion.memories)
            self.index.remove("sentences", deletion.sentences)
            vectors = self.store.memory_vectors()
            restored = [i for i in deletion.restored if i in vectors]
            if restored:
                self.index.add("memories", restored, np.stack([vectors[i] for i in restored]))
        return deletion

    def delete_conversation(self) -> int:
        """Every message, and all that was learned only from them; entries the person typed stay. Returns the count."""
        messages = self.store.messages()
        for message in messages:
            self.delete_message(message.id)  # one at a time: each waits for the Writer, then takes the turn lock
        return len(messages)

    def dream(self, *, now: str | None = None, on_progress: Callable[[int, int], None] | None = None):
        """Consolidate now (after the Writer has caught up); returns the Dream report.

        `on_progress(done, total)` hears of each group of entries the model has been asked about."""
        from ..dream import run_dream

        self.learning.wait()
        with self._turn_lock:
            return run_dream(self.store, self.index, self.llm, self.embedder, now=now, prompts=self.prompts,
                             on_progress=on_progress)

    def undo_last_dream(self):
        from ..dream import undo_last_dream

        self.learning.wait()
        with self._turn_lock:
            return undo_last_dream(self.store, self.index)


def _comparable(text: str) -> str:
    return normalize(text).rstrip(" .!?;")


def _refuse_secret(text: str) -> None:
    if why := secrets.withheld(text):
        raise SecretRefused(why)
