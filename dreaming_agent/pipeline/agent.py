"""One agent per conversation: a turn reads top to bottom — persist, control, retrieve, select, pack, respond, learn."""
from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import partial
from typing import Callable, Literal

from .. import lang, secrets
from ..context.budget import BudgetLimits, PackedPrompt
from ..context.window import current_window
from ..embed.base import Embedder
from ..errors import InvalidInput
from ..llm.base import LLM
from ..prompts import PromptLibrary
from ..store import Message, Store, TermIndex, VectorIndex, kinds, memory_file, now_iso
from . import checks
from .evidence import Evidence
from .gather import Gatherer
from .gather_config import GatherConfig
from .learning import Learning
from .memory_ops import MemoryOps
from .plan import Plan, Told, plan
from .responder import Responder, recent_turns
from .retriever import Candidate
from .trace import Step, Trace
from .writer import WriterSettings

Mode = Literal["lightmem", "rag", "none"]
MODES: tuple[str, ...] = ("lightmem", "rag", "none")
# (mode, piece of the reply as the model generates it; None: the reply so far is withdrawn, another one follows)
OnText = Callable[[str, str | None], None]


@dataclass(frozen=True)
class AgentConfig:
    variant: Literal["default", "published"] = "default"  # published: model Controller/Selector, memories only
    gather: GatherConfig = GatherConfig()
    limits: BudgetLimits = BudgetLimits()
    reply_tokens: int = 200
    window_tokens: int = 1200  # verbatim tail kept before the oldest half is folded into the summary
    fold_window: bool = True  # False where no later turn reads the window: the bench asks in fresh conversations
    writer: WriterSettings = WriterSettings()
    learn: bool = True  # run the background Writer after each user message
    dream_every_n_turns: int = 0
    seed: int = 0
    writer_wait_s: float = 30.0  # a question waits this long at most for the Writer still on the statements before
    # Default LightMem variant: an answer that gives the person's own name for a name asked of someone or something
    # else is asked again without the lines saying it (`checks.WrongLine`).
    name_checks: bool = True


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


class Agent:
    def __init__(
        self, *, store: Store, index: VectorIndex, llm: LLM, embedder: Embedder,
        prompts: PromptLibrary | None = None, config: AgentConfig = AgentConfig(), session: str | None = None,
    ):
        self.store, self.index, self.llm, self.embedder, self.terms = store, index, llm, embedder, TermIndex()
        self.prompts = prompts or PromptLibrary.bundled()
        lang.load()  # the language identifier, before the first turn rather than during it (~1 s, once)
        self.config = config
        self.session = session or uuid.uuid4().hex[:8]
        store.kinds.use(kinds.for_embedder(embedder))  # what kind of thing each entry says, read from its vector
        self._turn_lock = threading.RLock()
        self.learning = Learning(store=store, index=index, llm=llm, embedder=embedder, prompts=self.prompts,
                                 turn_lock=self._turn_lock, writer=config.writer,
                                 window_tokens=config.window_tokens if config.fold_window else None,
                                 dream_every_n_turns=config.dream_every_n_turns, seed=config.seed)
        self.memory = MemoryOps(store=store, index=index, llm=llm, embedder=embedder, prompts=self.prompts,
                                learning=self.learning, turn_lock=self._turn_lock)
        self.repairs = index.sync(store)  # the index is derived: bring it in step with SQLite on open
        self.learning.retry_interrupted()  # queued when the last agent stopped: retry, never drop
        self.learning.index_new_sentences()

    # -- the turn ---------------------------------------------------------------------------------------
    def turn(self, text: str, mode: Mode = "lightmem", *, now: str | datetime | date | None = None,
             on_text: OnText | None = None) -> TurnResult:
        """One message answered in one mode; `on_text(mode, piece)` sees the reply as it is generated."""
        return self._converse(text, (mode,), now, on_text)[mode]

    def compare(self, text: str, *, now: str | datetime | date | None = None,
                on_text: OnText | None = None) -> dict[str, TurnResult]:
        """The same message answered both ways, from one stored copy of it (streamed one after the other)."""
        return self._converse(text, ("lightmem", "rag"), now, on_text)

    def _converse(self, text: str, modes: tuple[str, ...], now, on_text: OnText | None) -> dict[str, TurnResult]:
        """Store the message before any model call, answer it in each mode, store the answers, learn after.

        The stored answer is the result's, not the streamed text: a code abstention may replace what streamed."""
        for mode in modes:
            _check_mode(mode)
        _require_text(text)
        planned = plan(text)
        waited = self._wait_for_writer(planned, modes)  # outside the lock: the Writer's calls take it in turn
        with self._turn_lock:
            stamp = _stamp(now)
            message = self.ingest(text, now=stamp, learn=False)
            results = {}
            for mode in modes:
                pieces = partial(on_text, mode) if on_text else None
                if message.withheld:  # no model reads it, no reply quotes it: the person is told instead
                    result = _not_remembered(message, planned.language, mode, pieces)
                else:
                    result = self._answer(planned, mode, stamp, exclude_message=message.id, on_text=pieces)
                if waited and mode == "lightmem":
                    result.trace.steps.insert(0, waited)
                    result.timings[waited.name] = waited.duration_ms
                result.message_id = message.id
                if not result.error:
                    self.store.add_message(self.session, "assistant", result.answer, stamp, speaker=mode)
                results[mode] = result
            self.learning.schedule(message, learn=self.config.learn and not message.withheld)
            return results

    def _wait_for_writer(self, planned: Plan, modes: tuple[str, ...]) -> Step | None:
        """A question LightMem answers waits, at most `writer_wait_s`, for the Writer still learning from the
        statements before it: what was just told must be memory (a move, and the old home it replaces) when the
        question reads memory. Naive RAG reads the sentences, stored at once, and never waits."""
        if not (planned.question and "lightmem" in modes and self.learning.running):
            return None
        started = time.perf_counter()
        done = self.learning.wait(timeout=self.config.writer_wait_s)
        waited = _ms(started)
        said = (f"waited {waited:.0f} ms for the Writer to finish the statements before" if done else
                f"the Writer was still learning after {self.config.writer_wait_s:.0f} s: answered without waiting more")
        return Step("Waited for the Writer", waited, said, parsed={"finished": done, "bound_s": self.config.writer_wait_s})

    def ask(self, text: str, mode: Mode = "lightmem", *, now: str | datetime | date | None = None) -> TurnResult:
        """Read-only question (the bench): answered like a turn, but nothing is stored or learned."""
        _require_text(text)
        _check_mode(mode)
        with self._turn_lock:
            self.learning.index_new_sentences()  # what was ingested without learning is searchable too
            return self._answer(plan(text), mode, _stamp(now), exclude_message=None, read_only=True)

    def ingest(self, text: str, *, now: str | datetime | date | None = None, role: str = "user",
               speaker: str | None = None, external_id: str | None = None, learn: bool = True) -> Message:
        """Store a message verbatim (refusing empty ones); optionally schedule the Writer on it. A user message holding
        a credential is stored withheld (`secrets`): in the log, never searched, never learned from."""
        withheld = None
        if role == "user":
            _require_text(text)
            withheld = secrets.withheld(text)
        message = self.store.add_message(self.session, role, text, _stamp(now), speaker=speaker,
                                         external_id=external_id, withheld=withheld)
        self.learning.index_new_sentences()  # after storing: a vector server that is down must not cost the message
        if learn and role == "user" and not withheld:
            self.learning.schedule(message, learn=self.config.learn)
        return message

    def gather(self, message: Plan | str, mode: str, *, today: str, exclude_message: int | None = None,
               touch_at: str | None = None) -> Evidence:
        """What `mode` shows the Responder for this message (or its plan): dated lines, the entries behind them,
        trace steps."""
        planned = plan(message) if isinstance(message, str) else message
        gatherer = Gatherer(self.store, self.index, self.embedder, self.llm, self.prompts, self.config.gather,
                            self.config.seed, self.terms)
        if mode == "lightmem":
            way = gatherer.published if self.config.variant == "published" else gatherer.lightmem
        else:
            way = gatherer.rag if mode == "rag" else gatherer.none
        return way(planned, today=today, exclude_message=exclude_message, touch_at=touch_at, told=Told(self.store))

    def _answer(self, planned: Plan, mode: str, stamp: str, *, exclude_message: int | None, read_only: bool = False,
                on_text: Callable[[str | None], None] | None = None) -> TurnResult:
        """Gather, read the turns before, ask the model, run the answer checks (`checks.run`)."""
        started, today = time.perf_counter(), stamp[:10]
        evidence = self.gather(planned, mode, today=today, exclude_message=exclude_message,
                               touch_at=None if read_only else stamp)
        trace = Trace(list(evidence.steps))
        view = current_window(self.store, self.session)
        recent = recent_turns(view.chat_messages(mode), planned, evidence, current=exclude_message is not None,
                              quiet=self.config.variant == "default")
        if not evidence.question:
            evidence = evidence.for_a_statement()
        responder = Responder(self.llm, self.prompts, self.config.limits, evidence.prompt, planned.text, today,
                              [c.text for c in evidence.facts], view.summary, self._reply_tokens, self.config.seed,
                              tuple(evidence.current))
        draft = checks.Draft("", evidence, recent, responder.prompt(evidence.lines, recent))
        context = checks.Context(planned, self.config.name_checks)
        draft = checks.run(checks.FOR_VARIANT[self.config.variant], draft, context, responder, trace, on_text)
        timings = {s.name: s.duration_ms for s in trace.steps}
        timings["total_ms"] = _ms(started)
        shown = [draft.evidence.shown[i] for i in draft.packed.kept_evidence]
        return TurnResult(draft.text, mode, None, trace, draft.packed, timings, draft.error, shown)

    @property
    def _reply_tokens(self) -> int:
        """A reply's length cap: the configured one, within what the prompt budget reserves for it."""
        return min(self.config.reply_tokens, self.config.limits.reply_reserve)

    # -- this conversation's memory file ------------------------------------------------------------
    def export_memory(self) -> memory_file.MemoryFile:
        """'Download my memory': messages, entries with their sources and dates, the Dream history."""
        self.learning.wait()  # what is being learned now belongs in the file
        with self._turn_lock:
            return memory_file.dump(self.store, self.session)

    def load_memory(self, raw: bytes | str) -> memory_file.MemoryFile:
        """'Load memory' into this empty conversation; the index is rebuilt from what was loaded."""
        loaded = memory_file.parse(raw)
        with self._turn_lock:
            memory_file.load(self.store, loaded, self.session, self.embedder)
            self.index.sync(self.store)
        return loaded

    def new_conversation(self, session: str | None = None) -> str:
        """A fresh conversation window; all memory stays."""
        self.session = session or uuid.uuid4().hex[:8]
        return self.session

    def close(self) -> None:
        """Stop background work; waits for a turn in progress (a closing browser tab must not cut it off)."""
        with self._turn_lock:
            pass
        self.learning.close()  # outside the lock: the Writer's next call waits for turns to end, so not for this


def _not_remembered(message: Message, language: str | None, mode: str,
                    on_text: Callable[[str | None], None] | None) -> TurnResult:
    """The reply to a withheld message: that it was not remembered and how to delete it, in the person's language
    (the plan's) when it is one the code knows, else in the app's own (English)."""
    code = language or "en"
    notice = lang.of(code).NOT_REMEMBERED.format(id=message.id)
    if on_text:
        on_text(notice)
    step = Step("Not remembered", 0.0, f"withheld: {message.withheld}; no model call",
                parsed={"withheld": message.withheld, "language": code})
    return TurnResult(notice, mode, message.id, Trace([step]), None)


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        raise InvalidInput(f"Unknown mode {mode!r}; choose one of {', '.join(MODES)}.")


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
