"""Background learning after a reply: index the message's sentences, run the Writer, fold the window, Dream now
and then. One worker thread, so learning happens in the order the person spoke; every failure is recorded."""
from __future__ import annotations

import sqlite3
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from ..context.window import fold_if_needed
from ..embed.base import Embedder
from ..llm.base import LLM, ChatMessage, Completion
from ..prompts import PromptLibrary
from ..store import Message, Store, VectorIndex
from .writer import WriterOutcome, WriterSettings, write


class Learning:
    """The queue of what is learned from each stored user message, off the reply path."""

    def __init__(self, *, store: Store, index: VectorIndex, llm: LLM, embedder: Embedder, prompts: PromptLibrary,
                 turn_lock: threading.RLock, writer: WriterSettings, window_tokens: int | None,
                 dream_every_n_turns: int, seed: int):
        self.store, self.index, self.embedder, self.prompts = store, index, embedder, prompts
        self.llm = AfterTurns(llm, turn_lock)  # a reply never waits behind a backlog of Writer calls
        self.writer, self.window_tokens, self.dream_every_n_turns, self.seed = (
            writer, window_tokens, dream_every_n_turns, seed)
        self._turn_lock = turn_lock  # a background Dream must not interleave with a turn
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="writer")
        self._pending: set[Future] = set()
        self._pending_lock = threading.Lock()
        self._index_lock = threading.Lock()
        self.outcomes: dict[int, WriterOutcome] = {}
        self.turns_since_dream = 0

    def retry_interrupted(self) -> None:
        """Writer jobs still pending when the last agent stopped are marked failed, so the next turn retries them."""
        for interrupted in self.store.writer_jobs("pending"):
            self.store.set_writer_job(interrupted, "failed", "interrupted before the Writer finished")

    def schedule(self, message: Message, *, learn: bool) -> None:
        """After a user message is stored: learn from it (and retry earlier failures), or only index it."""
        if not learn:
            self._submit(self.index_new_sentences)
            return
        self.store.set_writer_job(message.id, "pending")
        for failed in self.store.writer_jobs("failed"):
            if failed != message.id:
                self._submit(self._learn, failed)
        self._submit(self._learn, message.id)
        self.turns_since_dream += 1
        every = self.dream_every_n_turns
        if every and self.turns_since_dream >= every:
            self.turns_since_dream = 0
            self._submit(self._dream)

    def index_new_sentences(self) -> None:
        with self._index_lock:
            pending = self.store.sentences(missing_embedding=True)
            if not pending:
                return
            vectors = self.embedder.embed_batch([s.text for s in pending], role="passage")
            self.store.set_sentence_embeddings([(s.id, v) for s, v in zip(pending, vectors)])
            self.index.add("sentences", [s.id for s in pending], vectors)

    @property
    def running(self) -> bool:
        with self._pending_lock:
            return any(not f.done() for f in self._pending)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until background learning is done; False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.running:
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def close(self) -> None:
        self._worker.shutdown(wait=True, cancel_futures=True)

    def _submit(self, fn, *args) -> None:
        future = self._worker.submit(fn, *args)
        with self._pending_lock:
            self._pending.add(future)
        future.add_done_callback(self._forget_future)

    def _forget_future(self, future: Future) -> None:
        with self._pending_lock:
            self._pending.discard(future)

    def _learn(self, message_id: int) -> None:
        """Index the message's sentences, run the Writer, fold the window; a failure is recorded for retry."""
        try:
            self.index_new_sentences()
            message = self.store.messages_by_id([message_id]).get(message_id)
            if message is None:
                return  # deleted meanwhile; its job row went with it
            outcome = write(self.store, self.index, self.embedder, self.llm, self.prompts, message,
                            settings=self.writer, seed=self.seed)
            self.outcomes[message_id] = outcome
            if outcome.unavailable:
                self.store.set_writer_job(message_id, "failed", outcome.step.error if outcome.step else "unavailable")
                return
            self.store.set_writer_job(message_id, "done")
            if self.window_tokens is not None:  # None: no later turn reads this conversation's window
                fold_if_needed(self.store, self.llm, self.prompts, message.session,
                               budget_tokens=self.window_tokens, today=message.created_at[:10])
        except Exception as e:  # the worker thread must record every failure, never lose it silently
            self._record_failure(message_id, e)

    def _record_failure(self, message_id: int, error: Exception) -> None:
        try:
            self.store.set_writer_job(message_id, "failed", f"{type(error).__name__}: {error}")
        except sqlite3.IntegrityError:  # the message itself is gone (FK): nothing left to retry
            pass

    def _dream(self) -> None:
        from ..dream import run_dream

        with self._turn_lock:
            run_dream(self.store, self.index, self.llm, self.embedder, prompts=self.prompts)


class AfterTurns(LLM):
    """The model as background learning uses it: each call first waits until no turn is being answered.

    One model serves both; without this a reply could wait behind the Writer's retry and the summary call that
    follow at once (in the app, 41.7 s to the first streamed word). A call already running still finishes first."""

    def __init__(self, llm: LLM, turn_lock: threading.RLock):
        self.model, self._turn_lock = llm, turn_lock
        self.name, self.supports_schema, self.structured_output = llm.name, llm.supports_schema, llm.structured_output

    def complete(self, messages: list[ChatMessage], *, schema: dict | None = None, max_tokens: int = 256,
                 seed: int = 0) -> Completion:
        with self._turn_lock:  # held by a turn from its message to its stored reply
            pass
        return self.model.complete(messages, schema=schema, max_tokens=max_tokens, seed=seed)

    def count_tokens(self, text: str) -> int:
        return self.model.count_tokens(text)
