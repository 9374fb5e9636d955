"""The loop that runs the answer checks (`checks.py`): what a check is, the verdicts it gives, and `run`, which owns
the model calls, the retry budget (a check asks again at most once; its verdict on the new answer keeps or replaces)
and the trace. A check may also filter the reply as it streams (`Check.stream`), so that what the person sees while
it is written agrees with what the check will decide.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from ..context.budget import PackedPrompt
from ..errors import BackendUnavailable, ModelTimeout
from ..llm.base import ChatMessage
from .evidence import Evidence
from .plan import Plan
from .responder import Responder
from .trace import Step, Trace

OnText = Callable[[str | None], None]  # a piece of the reply as it is written; None: what was shown is withdrawn


@dataclass(frozen=True)
class Verdict:
    """Keep (the default), replace (`text`), or ask again (`again_without`): what a check decided."""

    text: str | None = None  # the answer shown instead of the model's
    again_without: tuple[int, ...] | None = None  # ask again, without these evidence lines
    without_recent: bool = False  # ...and without the recent turns
    in_memory_words: bool = False  # ...and from memory's entries alone, in the Writer's words
    note: Step | None = None  # traced at once
    ruling: Step | None = None  # code's own verdict on the answer (abstention, acknowledgement), traced last
    error: str | None = None  # the answer is a failure to show, not one to store


KEEP = Verdict()


def replaced(text: str, *, note: Step | None = None, ruling: Step | None = None, error: str | None = None) -> Verdict:
    return Verdict(text, note=note, ruling=ruling, error=error)


def asked_again(without: tuple[int, ...] = (), *, without_recent: bool = False, in_memory_words: bool = False,
                note: Step | None = None) -> Verdict:
    return Verdict(again_without=tuple(without), without_recent=without_recent, in_memory_words=in_memory_words,
                   note=note)


@dataclass(frozen=True)
class Draft:
    """The answer under check and what it was written from."""

    text: str
    evidence: Evidence
    recent: list[ChatMessage]
    packed: PackedPrompt
    ruling: Step | None = None
    error: str | None = None


@dataclass(frozen=True)
class Context:
    """What the checks read besides the answer: the message's plan and the checks' settings."""

    plan: Plan
    name_checks: bool  # see `AgentConfig.name_checks`


class Check:
    name = ""
    before_the_model = False  # decides from the evidence alone; a replacement is the answer, no model call

    def applies(self, plan: Plan, evidence: Evidence) -> bool:
        return True

    def verdict(self, draft: Draft, context: Context, *, again: bool = False) -> Verdict:
        raise NotImplementedError

    def stream(self, on_text: OnText, plan: Plan) -> OnText | None:
        """A filter of the streamed reply that agrees with this check, or None."""
        return None


def run(checks: list[Check], draft: Draft, context: Context, responder: Responder, trace: Trace,
        on_text: OnText | None) -> Draft:
    """The answer: decided by a check from the evidence alone, or the model's reply after every check that applies.

    Blocking model calls: one, and one more for each check that asks again (at most two today). A model that fails
    leaves the draft as it was before that call, with the failure as its answer."""
    applicable = [check for check in checks if check.applies(context.plan, draft.evidence)]
    filters = []
    for check in reversed(applicable) if on_text else ():
        if (wrapped := check.stream(on_text, context.plan)) is not None:
            on_text = wrapped
            filters.append(wrapped)
    for check in (c for c in applicable if c.before_the_model):
        verdict = check.verdict(draft, context)
        if verdict.text is not None:
            return _applied(draft, verdict, trace, ruled=True)
    try:
        text, step = responder.reply(draft.packed, on_text)
        trace.add(step)
        draft = replace(draft, text=text)
        for check in (c for c in applicable if not c.before_the_model):
            verdict = check.verdict(draft, context)
            if verdict.again_without is not None:
                if verdict.note:
                    trace.add(verdict.note)
                draft = _again(draft, verdict, responder, trace, on_text)
                verdict = check.verdict(draft, context, again=True)
            draft = _applied(draft, verdict, trace)
    except (BackendUnavailable, ModelTimeout) as e:
        trace.add(Step("Responder", 0.0, "model failed", error=str(e)))
        return replace(draft, text=f"⚠️ {e} Your message is saved; send it again once the model is back.", error=str(e))
    for shown in filters:
        if hasattr(shown, "finish"):
            shown.finish()
    if draft.ruling:
        trace.add(draft.ruling)
    return draft


def _applied(draft: Draft, verdict: Verdict, trace: Trace, *, ruled: bool = False) -> Draft:
    """The draft after a verdict that keeps or replaces (asking again twice is not in the budget: kept)."""
    if verdict.text is None:
        return draft
    if verdict.note:
        trace.add(verdict.note)
    if verdict.error:
        trace.step("Responder").error = verdict.error
    draft = replace(draft, text=verdict.text, ruling=verdict.ruling or draft.ruling, error=verdict.error or draft.error)
    if ruled and draft.ruling:
        trace.add(draft.ruling)
    return draft


def _again(draft: Draft, verdict: Verdict, responder: Responder, trace: Trace, on_text: OnText | None) -> Draft:
    """The question asked once more without the evidence lines (and turns) the verdict names: a blocking call."""
    evidence = draft.evidence
    for i in sorted(verdict.again_without, reverse=True):
        evidence = evidence.without(i)
    if verdict.in_memory_words:
        evidence = evidence.in_memory_words()
    recent = [] if verdict.without_recent else draft.recent
    packed = responder.prompt(evidence.lines, recent)
    if on_text:
        on_text(None)  # the reply streamed so far is withdrawn; the next one is judged from its start
    text, step = responder.reply(packed, on_text)
    step.name = "Responder, again"
    trace.add(step)
    return replace(draft, text=text, evidence=evidence, recent=recent, packed=packed)
