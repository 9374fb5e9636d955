"""One agent per conversation: a turn reads top to bottom — persist, control, retrieve, select, pack, respond, learn."""
from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import partial
from typing import Callable, Literal

from ..context.budget import BudgetLimits, PackedPrompt
from ..context.window import current_window
from ..embed.base import Embedder
from ..errors import BackendUnavailable, InvalidInput, ModelTimeout
from ..llm.base import LLM
from ..prompts import PromptLibrary
from ..store import Message, Store, TermIndex, VectorIndex, memory_file, now_iso
from ..text import mentions
from . import abstain, acknowledge, controller, current, dates, voice
from .controller import asks
from .evidence import Evidence
from .gather import Gatherer, told
from .gather_config import GatherConfig
from .learning import Learning
from .memory_ops import MemoryOps
from .responder import build_prompt, in_parts, quiet_replies, respond, told_only
from .retriever import Candidate, is_question
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
    writer: WriterSettings = WriterSettings()
    learn: bool = True  # run the background Writer after each user message
    dream_every_n_turns: int = 0
    seed: int = 0
    # Default LightMem variant: an answer that restates an evidence line whose message is in the question's language
    # with none of its words, the line scoring lowest and under this share of the best line's score, is asked once
    # more without that line (None: off; `abstain.off_the_question`). In the app, after the move was deleted, "Where do I live
    # now?" got "I'm allergic to peanuts.", the one English line shown.
    off_the_question: float | None = 0.6
    # Default LightMem variant: an answer that gives the person's own name for the name asked of someone or something
    # else ("¿Cómo se llama mi gato?" -> "Bruno." from "Me llamo Bruno.", `abstain.own_name_given`), or a name the
    # person gave only to a person for a pet's or the other way round ("¿Cómo se llama mi loro?" -> the son), only
    # with another animal (the cat's for "¿Cómo se llama mi perro?") or to another relative (the daughter's for "mi
    # nieta"; `abstain.given_to_another_kind`), is asked again without the lines saying it; again: "I don't know".
    name_checks: bool = True


# Why an answer asked again without the lines it was read from became "I don't know", by the check that found it.
_AGAIN = {"Off the question": "asked again without that line, the answer restated another line off the question",
          "Own name": "asked again without those lines, the answer gave the person's own name again",
          "Another's name": "asked again without those lines, the answer again named one of another kind",
          "Replaced value": "asked again without those lines, the answer again gave a value a newer one replaced"}


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
        self.config = config
        self.session = session or uuid.uuid4().hex[:8]
        self._turn_lock = threading.RLock()
        self.learning = Learning(store=store, index=index, llm=llm, embedder=embedder, prompts=self.prompts,
                                 turn_lock=self._turn_lock, writer=config.writer, window_tokens=config.window_tokens,
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
        waited = self._wait_for_writer(text) if "lightmem" in modes else 0.0  # naive RAG reads no learned memory
        with self._turn_lock:
            stamp = _stamp(now)
            message = self.ingest(text, now=stamp, learn=False)
            results = {}
            for mode in modes:
                pieces = partial(on_text, mode) if on_text else None
                result = self._answer(message.text, mode, stamp, exclude_message=message.id, on_text=pieces)
                result.message_id = message.id
                if not result.error:
                    self.store.add_message(self.session, "assistant", result.answer, stamp, speaker=mode)
                results[mode] = result
                if waited:  # first: it came before everything else the turn did
                    result.trace.steps.insert(0, Step("Writer wait", waited * 1000, "waited for the Writer to finish "
                                                      "the last statements", parsed={"waited_s": waited}))
            self.learning.schedule(message, learn=self.config.learn)
            return results

    def _wait_for_writer(self, text: str) -> float:
        """A question waits (within a bound) for what was just told to be learned; outside the turn lock, which the
        Writer's model call takes."""
        settings = self.config.gather.current
        if settings is None or not self.config.learn or not is_question(text):
            return 0.0
        return current.wait_for_writer(self.learning, settings)

    def ask(self, text: str, mode: Mode = "lightmem", *, now: str | datetime | date | None = None) -> TurnResult:
        """Read-only question (the bench): answered like a turn, but nothing is stored or learned."""
        _require_text(text)
        _check_mode(mode)
        with self._turn_lock:
            self.learning.index_new_sentences()  # what was ingested without learning is searchable too
            return self._answer(text, mode, _stamp(now), exclude_message=None, read_only=True)

    def ingest(self, text: str, *, now: str | datetime | date | None = None, role: str = "user",
               speaker: str | None = None, external_id: str | None = None, learn: bool = True) -> Message:
        """Store a message verbatim (refusing empty ones); optionally schedule the Writer on it."""
        if role == "user":
            _require_text(text)
        message = self.store.add_message(self.session, role, text, _stamp(now), speaker=speaker, external_id=external_id)
        self.learning.index_new_sentences()  # after storing: a vector server that is down must not cost the message
        if learn and role == "user":
            self.learning.schedule(message, learn=self.config.learn)
        return message

    def gather(self, text: str, mode: str, *, today: str, exclude_message: int | None = None,
               touch_at: str | None = None) -> Evidence:
        """What `mode` shows the Responder for this message: dated lines, the entries behind them, trace steps."""
        gatherer = Gatherer(self.store, self.index, self.embedder, self.llm, self.prompts, self.config.gather,
                            self.config.seed, self.terms)
        if mode == "lightmem":
            way = gatherer.published if self.config.variant == "published" else gatherer.lightmem
        else:
            way = gatherer.rag if mode == "rag" else gatherer.none
        return way(text, today=today, exclude_message=exclude_message, touch_at=touch_at)

    def _answer(self, text: str, mode: str, stamp: str, *, exclude_message: int | None, read_only: bool = False,
                on_text: Callable[[str | None], None] | None = None) -> TurnResult:
        started = time.perf_counter()
        today = stamp[:10]
        evidence = self.gather(text, mode, today=today, exclude_message=exclude_message,
                               touch_at=None if read_only else stamp)
        trace = Trace(list(evidence.steps))
        view = current_window(self.store, self.session)
        recent = view.chat_messages(mode)
        if exclude_message is not None and recent and recent[-1]["role"] == "user":
            recent = recent[:-1]  # the current message is the question itself
        if self.config.variant == "default":  # the published pipeline keeps its whole window
            recent = quiet_replies(recent)
        # A statement is acknowledged from the conversation alone: shown its own earlier sentences, a small model
        # repeats them back or speaks as the person.
        template, lines = (evidence.prompt, evidence.lines) if evidence.question else ("acknowledge", [])
        if not evidence.question:  # and from the message alone: given earlier turns it copies or impersonates them
            recent = []
            if on_text:  # a refusal is never shown, not even for the moment before the check replaces it
                on_text = acknowledge.Held(on_text, text)
        elif not evidence.follow_up:  # a question that does not lean on the turns before sees only what was told
            # and, asked about the person, not what they told of a relative or pet: with "Mi hermana Ane vive en
            # Donostia." just said, "¿A qué soy alérgica?" was answered about the sister (in the app)
            about_them = self.config.gather.relatives_out and controller.about_the_person(text)
            recent = told_only(recent, left_out=controller.only_about_relatives if about_them else lambda _: False)
        # A question in any mode (RAG's messages are all "questions" to its gatherer; `asks` tells which are) is
        # never answered with the acknowledgement of an earlier statement copied from the window.
        unechoed = evidence.question and self.config.variant == "default" and asks(text)
        # and answered to the person, not in their voice ("My cat is Pimentón." to "What's my cat called?")
        addressed = unechoed and voice.asks_about_themselves(text)
        voiced = voice.Addressed(on_text, text) if addressed and on_text else None
        on_text = voiced or on_text
        if unechoed and on_text:
            on_text = acknowledge.Stripped(on_text)
        packed_with = partial(build_prompt, self.llm, self.prompts, self.config.limits, template=template,
                              question=in_parts(text, evidence.parts),
                              today=today, facts=evidence.facts if evidence.question else [], summary=view.summary,
                              recent=recent)
        packed = packed_with(evidence=lines)
        abstaining = evidence.may_abstain  # only the default LightMem variant's Controller ever sets it
        error = None
        try:
            known = evidence.relations
            if abstaining and known is not None and known.unsaid:
                verdict = known.never_said(text)
                answer = verdict.answer
            elif abstaining and not evidence.lines and not evidence.facts:
                verdict = abstain.no_evidence(text)
                answer = verdict.answer
            else:
                answer, step = respond(self.llm, packed, max_tokens=self._reply_tokens, seed=self.config.seed,
                                       on_text=on_text)
                trace.add(step)
                verdict = None
                if unechoed:
                    answer, packed, packed_with = self._unless_copied_acknowledgement(
                        answer, text, lines, packed, packed_with, trace, on_text)
                if abstaining and answer:
                    answer, evidence, packed, verdict = self._unless_off_the_question(
                        answer, text, evidence, packed, packed_with, trace, on_text)
                if not answer:  # an empty reply is a failure to show, not an answer to store
                    error = "The model returned an empty answer."
                    step.error = error
                    answer = f"⚠️ {error} Your message is saved; send it again."
                elif abstaining and verdict is None:
                    kept_lines = "\n".join([*(evidence.lines[i] for i in packed.kept_evidence), *evidence.facts])
                    verdict = abstain.check(answer, text, dates.with_words(kept_lines))
                    if not verdict.abstained and known is not None:
                        verdict = known.check(answer, text, dated=dates.names_a_day(answer))
                elif not evidence.question:  # a statement: never a refusal, never the person's words as ours
                    verdict = acknowledge.check(answer, text)
                answer = abstain.in_their_language(verdict.answer if verdict else answer, text)
                if voiced:
                    voiced.finish()
                if addressed and not error and (turned := voice.to_the_person(answer, text)) != answer:
                    trace.add(Step("Voice", 0.0, "the person's own first person turned to them",
                                   parsed={"model": answer, "shown": turned}))
                    answer = turned
            if verdict is not None:
                name, key = ("Abstention", "abstained") if abstaining else ("Acknowledgement", "replaced")
                trace.add(Step(name, 0.0, verdict.reason, parsed={key: verdict.abstained}))
        except (BackendUnavailable, ModelTimeout) as e:
            trace.add(Step("Responder", 0.0, "model failed", error=str(e)))
            answer, error = f"⚠️ {e} Your message is saved; send it again once the model is back.", str(e)
        timings = {s.name: s.duration_ms for s in trace.steps}
        timings["total_ms"] = _ms(started)
        shown = [evidence.shown[i] for i in packed.kept_evidence]
        return TurnResult(answer, mode, None, trace, packed, timings, error, shown)

    @property
    def _reply_tokens(self) -> int:
        """A reply's length cap: the configured one, within what the prompt budget reserves for it."""
        return min(self.config.reply_tokens, self.config.limits.reply_reserve)

    def _unless_copied_acknowledgement(self, answer: str, question: str, lines: list[str], packed: PackedPrompt,
                                       packed_with: Callable[..., PackedPrompt], trace: Trace,
                                       on_text: Callable[[str | None], None] | None):
        """`answer` without the code's acknowledgement the model copied from the window at its start; when that was
        all of it, the question asked once more without the recent turns (a second model call only then), and
        "I don't know" if the new reply is the acknowledgement again. Returns the answer, its prompt and the prompt
        builder that later steps use."""
        rest = acknowledge.without_copied(answer)
        if rest == answer:
            return answer, packed, packed_with
        if rest:
            trace.add(Step("Acknowledgement copied", 0.0, "the reply opened with an earlier statement's "
                           "acknowledgement, copied from the window; that opening is left out"))
            return rest, packed, packed_with
        trace.add(Step("Acknowledgement copied", 0.0, "the reply was only an earlier statement's acknowledgement, "
                       "copied from the window; asked again without the recent turns"))
        packed_with = partial(packed_with, recent=[])
        packed = packed_with(evidence=lines)
        if on_text:
            on_text(None)  # nothing of the copy was shown; the next reply is judged from its start
        answer, step = respond(self.llm, packed, max_tokens=self._reply_tokens, seed=self.config.seed, on_text=on_text)
        step.name = "Responder, again"
        trace.add(step)
        return acknowledge.without_copied(answer) or abstain.UNKNOWN[abstain.language(question)], packed, packed_with

    def _unless_off_the_question(self, answer: str, question: str, evidence: Evidence, packed: PackedPrompt,
                                 packed_with: Callable[..., PackedPrompt], trace: Trace,
                                 on_text: Callable[[str | None], None] | None):
        """`answer` as it is, or, when it restates an evidence line off the question (`abstain.off_the_question`),
        gives the person's own name for someone else's (`abstain.own_name_given`) or a name of another kind
        (`abstain.given_to_another_kind`), the answer asked once more without the lines behind it: a second model
        call (as for a copied acknowledgement). Still off: "I don't know".
        Returns the answer, the evidence and prompt it came from, and the verdict when code decided it."""
        off = self._off_the_question(answer, question, evidence, packed)
        if off is None:
            return answer, evidence, packed, None
        indices, name, reason = off
        trace.add(Step(name, 0.0, reason, parsed={"left_out": [evidence.lines[i] for i in indices]}))
        unknown = abstain.UNKNOWN[abstain.language(question)]
        if not indices:  # nothing to leave out: asked again, the same prompt would give the same answer
            return answer, evidence, packed, abstain.Check(unknown, True, reason)
        for i in sorted(indices, reverse=True):
            evidence = evidence.without(i)
        packed = packed_with(evidence=evidence.lines)
        if on_text:
            on_text(None)  # the reply streamed so far is withdrawn
        answer, step = respond(self.llm, packed, max_tokens=self._reply_tokens, seed=self.config.seed, on_text=on_text)
        step.name = "Responder, again"
        trace.add(step)
        again = self._off_the_question(answer, question, evidence, packed) if answer else None
        if again is not None:
            return answer, evidence, packed, abstain.Check(unknown, True, _AGAIN[again[1]])
        return answer, evidence, packed, None

    def _off_the_question(self, answer: str, question: str, evidence: Evidence,
                          packed: PackedPrompt) -> tuple[list[int], str, str] | None:
        """The indices of the evidence lines to leave out for an answer off the question, the check's name and why;
        None when the checks are off or the answer is neither slip."""
        kept = [evidence.shown[i] for i in packed.kept_evidence]
        if self.config.name_checks:
            own = abstain.own_name_given(answer, question, [c.text for c in kept])
            if own is not None:
                return [packed.kept_evidence[i] for i in own], "Own name", (
                    "the answer gave the person's own name for the name of someone or something else; "
                    + ("asked again without the lines where they give it" if own else "replaced by 'I don't know'"))
            misnamed = abstain.given_to_another_kind(answer, question, lambda: told(self.store))
            if misnamed.names:
                lines = [i for i, c in enumerate(kept) if any(mentions(n, c.text) for n in misnamed.names)]
                return [packed.kept_evidence[i] for i in lines], "Another's name", (
                    f"the answer named {', '.join(misnamed.names)} for a {misnamed.asked}'s name, a name the person "
                    f"gave only to {misnamed.given_to}; "
                    + ("asked again without the lines that name them" if lines else "replaced by 'I don't know'"))
        if self.config.gather.current is not None and not controller.plan(question).past:
            stale = current.gives_superseded(answer, kept, self.store.facts.profile())
            if stale is not None and stale.lines:
                return [packed.kept_evidence[i] for i in stale.lines], "Replaced value", stale.reason
        below = self.config.off_the_question
        if below is None:
            return None

        def message_of(i: int) -> str:  # the whole message(s) the line comes from
            c = kept[i]
            ids = {c.record.message_id} if c.kind == "sentence" else {s.message_id for s in c.record.sources}
            return " ".join(s.text for s in self.store.sentences(message_ids=ids)) or c.text

        line = abstain.off_the_question(answer, question, [(c.text, c.score) for c in kept], message_of, below=below)
        if line is None:
            return None
        best = max(c.score for c in kept)
        return [packed.kept_evidence[line]], "Off the question", (
            f"the answer restated {kept[line].text!r}, the lowest-scored line, from a message with no word of the "
            f"question: {kept[line].score:.2f} (under {below:g} x the best line's {best:.2f}); asked again without it")

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
