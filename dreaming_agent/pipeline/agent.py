"""One agent per conversation: a turn reads top to bottom — persist, control, retrieve, select, pack, respond, learn."""
from __future__ import annotations

import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Literal

from ..context.budget import BudgetLimits, PackedPrompt
from ..context.window import current_window, fold_if_needed
from ..embed.base import Embedder
from ..errors import BackendUnavailable, InvalidInput, ModelTimeout
from ..llm.base import LLM
from ..prompts import PromptLibrary
from ..store import Message, Store, VectorIndex, now_iso
from . import controller, selector
from .memory_ops import MemoryOps
from .rag import rag_evidence, rag_lines
from .responder import build_prompt, evidence_lines, respond
from .retriever import Candidate, retrieve
from .trace import Step, Trace
from .writer import WriterOutcome, WriterSettings, write

Mode = Literal["lightmem", "rag", "none"]
MODES: tuple[str, ...] = ("lightmem", "rag", "none")


@dataclass(frozen=True)
class AgentConfig:
    variant: Literal["default", "published"] = "default"  # published: memories only, no sources shown
    top_k: int = 8
    rag_top_k: int = 8
    min_keep: int = 3
    limits: BudgetLimits = BudgetLimits()
    reply_tokens: int = 200
    window_tokens: int = 1200  # verbatim tail kept before the oldest half is folded into the summary
    max_facts: int = 40
    writer: WriterSettings = WriterSettings()
    learn: bool = True  # run the background Writer after each user message
    dream_every_n_turns: int = 0
    seed: int = 0


@dataclass
class TurnResult:
    answer: str
    mode: str
    message_id: int | None
    trace: Trace
    prompt: PackedPrompt | None
    timings: dict[str, float] = field(default_factory=dict)
    error: str | None = None
    evidence: list[Candidate] = field(default_factory=list)  # entries whose lines reached the prompt

    @property
    def blocking_llm_calls(self) -> int:
        return self.trace.llm_calls

    @property
    def prompt_text(self) -> str:
        return self.prompt.text if self.prompt else ""


class Agent(MemoryOps):
    def __init__(
        self, *, store: Store, index: VectorIndex, llm: LLM, embedder: Embedder,
        prompts: PromptLibrary | None = None, config: AgentConfig = AgentConfig(), session: str | None = None,
    ):
        self.store, self.index, self.llm, self.embedder = store, index, llm, embedder
        self.prompts = prompts or PromptLibrary.bundled()
        self.config = config
        self.session = session or uuid.uuid4().hex[:8]
        self._turn_lock = threading.RLock()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="writer")
        self._pending: set[Future] = set()
        self._pending_lock = threading.Lock()
        self._index_lock = threading.Lock()
        self.writer_outcomes: dict[int, WriterOutcome] = {}
        self.turns_since_dream = 0
        self.repairs = index.sync(store)  # the index is derived: bring it in step with SQLite on open
        for interrupted in store.writer_jobs("pending"):  # queued when the last agent stopped: retry, never drop
            store.set_writer_job(interrupted, "failed", "interrupted before the Writer finished")
        self._index_new_sentences()

    # -- the turn ---------------------------------------------------------------------------------------
    def turn(self, text: str, mode: Mode = "lightmem", *, now: str | datetime | date | None = None) -> TurnResult:
        with self._turn_lock:
            stamp = _stamp(now)
            message = self.ingest(text, now=stamp, learn=False)  # stored before any model call
            result = self._answer(message.text, mode, stamp, exclude_message=message.id)
            result.message_id = message.id
            if not result.error:
                self.store.add_message(self.session, "assistant", result.answer, stamp, speaker=mode)
            self._schedule_learning(message)
            return result

    def compare(self, text: str, *, now: str | datetime | date | None = None) -> dict[str, TurnResult]:
        """The same message answered both ways, from one stored copy of it."""
        with self._turn_lock:
            stamp = _stamp(now)
            message = self.ingest(text, now=stamp, learn=False)
            results = {}
            for mode in ("lightmem", "rag"):
                result = self._answer(message.text, mode, stamp, exclude_message=message.id)
                result.message_id = message.id
                if not result.error:
                    self.store.add_message(self.session, "assistant", result.answer, stamp, speaker=mode)
                results[mode] = result
            self._schedule_learning(message)
            return results

    def ask(self, text: str, mode: Mode = "lightmem", *, now: str | datetime | date | None = None) -> TurnResult:
        """Read-only question (the bench): answered like a turn, but nothing is stored or learned."""
        _require_text(text)
        with self._turn_lock:
            return self._answer(text, mode, _stamp(now), exclude_message=None, read_only=True)

    def ingest(self, text: str, *, now: str | datetime | date | None = None, role: str = "user",
               speaker: str | None = None, external_id: str | None = None, learn: bool = True) -> Message:
        """Store a message verbatim (refusing empty ones); optionally schedule the Writer on it."""
        if role == "user":
            _require_text(text)
        self._index_new_sentences()
        message = self.store.add_message(self.session, role, text, _stamp(now), speaker=speaker, external_id=external_id)
        if learn and role == "user":
            self._schedule_learning(message)
        return message

    def _answer(self, text: str, mode: str, stamp: str, *, exclude_message: int | None, read_only: bool = False) -> TurnResult:
        if mode not in MODES:
            raise InvalidInput(f"Unknown mode {mode!r}; choose one of {', '.join(MODES)}.")
        started = time.perf_counter()
        today = stamp[:10]
        trace = Trace()
        evidence: list[str] = []
        shown: list[Candidate] = []
        facts: list[str] = []
        if mode == "lightmem":
            decision = controller.decide(self.llm, self.prompts, text, today=today, seed=self.config.seed)
            trace.add(Step.from_structured("Controller", decision, controller.describe(decision.value)))
            published = self.config.variant == "published"
            t0 = time.perf_counter()
            candidates = retrieve(
                self.store, self.index, self.embedder, [text, *decision.value.queries], k=self.config.top_k,
                sentences=not published, touch_at=None if read_only else stamp,
            )
            candidates = [c for c in candidates if not any(s.message_id == exclude_message for s in c.sources)]
            trace.add(Step("Retriever", _ms(t0), f"{len(candidates)} candidates",
                           parsed=[{"key": c.key, "score": round(c.score, 3), "date": c.date, "text": c.text} for c in candidates]))
            kept, selection = selector.select(self.llm, self.prompts, text, candidates, today=today,
                                              min_keep=self.config.min_keep, seed=self.config.seed)
            floor_added = 0
            if not published:
                # The RAG floor: whatever the Selector says, the sentences naive RAG would have shown stay in,
                # so this pipeline cannot lose evidence that RAG finds.
                floor, _ = rag_evidence(self.store, self.index, self.embedder, text, k=self.config.rag_top_k + 1)
                floor = [c for c in floor if c.sources[0].message_id != exclude_message][: self.config.rag_top_k]
                before = len(kept)
                kept = selector.with_floor(kept, floor)
                floor_added = len(kept) - before
            note = f" + {floor_added} from the RAG floor" if floor_added else ""
            if selection is None:
                trace.add(Step("Selector", 0.0, f"kept all {len(kept) - floor_added} (nothing to choose){note}",
                               parsed=[c.key for c in kept]))
            else:
                trace.add(Step.from_structured("Selector", selection, f"kept {len(kept) - floor_added} of {len(candidates)}{note}"))
            evidence, shown = evidence_lines(kept, with_sources=not published), kept
            facts = [m.text for m in self.store.memories(tier="ltm")][: self.config.max_facts]
        elif mode == "rag":
            hits, step = rag_evidence(self.store, self.index, self.embedder, text, k=self.config.rag_top_k + 1)
            hits = [c for c in hits if c.sources[0].message_id != exclude_message][: self.config.rag_top_k]
            trace.add(step)
            evidence, shown = rag_lines(hits), hits
        view = current_window(self.store, self.session)
        recent = [m for m in view.chat_messages(mode)]
        if exclude_message is not None and recent and recent[-1]["role"] == "user":
            recent = recent[:-1]  # the current message is the question itself
        packed = build_prompt(self.llm, self.prompts, self.config.limits, question=text, today=today, facts=facts,
                              summary=view.summary, evidence=evidence, recent=recent)
        try:
            answer, step = respond(self.llm, packed, max_tokens=min(self.config.reply_tokens, self.config.limits.reply_reserve),
                                   seed=self.config.seed)
            trace.add(step)
            error = None
            if not answer:  # an empty reply is a failure to show, not an answer to store
                error = "The model returned an empty answer."
                step.error = error
                answer = f"⚠️ {error} Your message is saved; send it again."
        except (BackendUnavailable, ModelTimeout) as e:
            trace.add(Step("Responder", 0.0, "model failed", error=str(e)))
            answer, error = f"⚠️ {e} Your message is saved; send it again once the model is back.", str(e)
        timings = {s.name: s.duration_ms for s in trace.steps}
        timings["total_ms"] = _ms(started)
        system = packed.messages[0]["content"]
        shown = [c for c, line in zip(shown, evidence) if line in system]
        return TurnResult(answer, mode, None, trace, packed, timings, error, shown)

    # -- background learning --------------------------------------------------------------------------
    def _schedule_learning(self, message: Message) -> None:
        if not self.config.learn:
            self._submit(self._index_new_sentences)
            return
        self.store.set_writer_job(message.id, "pending")
        for failed in self.store.writer_jobs("failed"):
            if failed != message.id:
                self._submit(self._learn, failed)
        self._submit(self._learn, message.id)
        self.turns_since_dream += 1
        every = self.config.dream_every_n_turns
        if every and self.turns_since_dream >= every:
            self.turns_since_dream = 0
            self._submit(self._dream_in_background)

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
            self._index_new_sentences()
            message = self.store.messages_by_id([message_id]).get(message_id)
            if message is None:
                return  # deleted meanwhile; its job row went with it
            outcome = write(self.store, self.index, self.embedder, self.llm, self.prompts, message,
                            settings=self.config.writer, seed=self.config.seed)
            self.writer_outcomes[message_id] = outcome
            if outcome.unavailable:
                self.store.set_writer_job(message_id, "failed", outcome.step.error if outcome.step else "unavailable")
                return
            self.store.set_writer_job(message_id, "done")
            fold_if_needed(self.store, self.llm, self.prompts, message.session,
                           budget_tokens=self.config.window_tokens, today=message.created_at[:10])
        except Exception as e:  # the worker thread must record every failure, never lose it silently
            self._record_failure(message_id, e)

    def _record_failure(self, message_id: int, error: Exception) -> None:
        try:
            self.store.set_writer_job(message_id, "failed", f"{type(error).__name__}: {error}")
        except Exception:  # the message itself may be gone (FK): nothing left to retry
            pass

    def _index_new_sentences(self) -> None:
        with self._index_lock:
            pending = self.store.sentences(missing_embedding=True)
            if not pending:
                return
            vectors = self.embedder.embed_batch([s.text for s in pending], role="passage")
            self.store.set_sentence_embeddings([(s.id, v) for s, v in zip(pending, vectors)])
            self.index.add("sentences", [s.id for s in pending], vectors)

    @property
    def writer_running(self) -> bool:
        with self._pending_lock:
            return any(not f.done() for f in self._pending)

    def wait_for_writer(self, timeout: float | None = None) -> bool:
        """Block until background learning is done; False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.writer_running:
            if deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def new_conversation(self, session: str | None = None) -> str:
        """A fresh conversation window; all memory stays."""
        self.session = session or uuid.uuid4().hex[:8]
        return self.session

    def close(self) -> None:
        """Stop background work; waits for a turn in progress (a closing browser tab must not cut it off)."""
        with self._turn_lock:
            self._worker.shutdown(wait=True, cancel_futures=True)


def _require_text(text: str) -> None:
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("The message is empty: type something to send.")


def _stamp(now: str | datetime | date | None) -> str:
    if now is None:
        return now_iso()
    if isinstance(now, datetime):
        return now.replace(microsecond=0).isoformat()
    if isinstance(now, date):
        return now.isoformat() + "T12:00:00"
    return now if "T" in now else now + "T12:00:00"


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 1)
