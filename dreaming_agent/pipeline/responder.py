"""Responder: one free-text call on the prompt the budget packed — facts, summary, dated evidence, recent turns."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from ..context.budget import BudgetLimits, PackedPrompt, pack
from ..llm.base import LLM, ChatMessage, streamed
from ..errors import PromptError
from ..lang import language
from ..prompts import PromptLibrary
from ..text import normalize, split_sentences, words
from .abstain import UNKNOWN
from .controller import asks, only_about_relatives
from .evidence import Evidence
from .plan import Plan
from .trace import Step


def recent_turns(window: list[ChatMessage], plan: Plan, evidence: Evidence, *, current: bool,
                 quiet: bool) -> list[ChatMessage]:
    """The turns before the message that its answer reads (`current`: the window ends with the message itself;
    `quiet`: the assistant's replies cut short). A statement is acknowledged from the message alone: given earlier
    turns a small model copies or impersonates them. A question that does not lean on the turns before sees only
    what was told there and, asked about the person, not what they told of a relative or pet. A turn saying a value
    the evidence left out as replaced is left out with its reply: "I live in Leeds" just above a question about
    now is read before the dated line saying the move."""
    recent = window[:-1] if current and window and window[-1]["role"] == "user" else window
    if quiet:
        recent = quiet_replies(recent)
    if not evidence.question:
        return []
    replaced = lambda said: any(old in said for old in evidence.replaced)  # noqa: E731
    if not evidence.follow_up:
        relatives = only_about_relatives if plan.about_the_person else lambda _: False
        return told_only(recent, left_out=lambda said: relatives(said) or replaced(said))
    return told_only(recent, left_out=replaced, questions=True) if evidence.replaced else recent


def quiet_replies(recent: list[ChatMessage], *, keep: int = 6, reply_chars: int = 120) -> list[ChatMessage]:
    """The last few turns, the assistant's own replies cut to their opening: a small model copies long replies back.

    A question answered "I don't know" is left out with its answer: it tells the next turn nothing, and a small model
    shown "No lo sé." answers the next question the same way, with the evidence in front of it. A reply that only
    repeated the message before it goes too (the person's words stay): in any language, a small model shown its own
    echo answers the next questions with that sentence."""
    out: list[ChatMessage] = []
    for turn in recent[-keep:]:
        if turn["role"] == "assistant":
            if out and out[-1]["role"] == "user" and repeats(turn["content"], out[-1]["content"]):
                continue
            first = split_sentences(turn["content"])[:1]
            content = (first[0] if first else "")[:reply_chars]
            if not content:
                continue
            if content.strip() in UNKNOWN.values():
                if out and out[-1]["role"] == "user":
                    out.pop()
                continue
            turn = {"role": "assistant", "content": content}
        out.append(turn)
    return out


def repeats(reply: str, said: str, *, share: float = 0.8) -> bool:
    """`reply` is `said` handed back: nearly all its words (of three or more) are words of `said`, in any language."""
    reply_words, said_words = words(normalize(reply)), set(words(normalize(said)))
    return len(reply_words) >= 3 and sum(w in said_words for w in reply_words) >= share * len(reply_words)


def hands_back(reply: str, said: str) -> bool:
    """`reply` is `said` whole, given back: each is nearly all words of the other, in any language ("Ich bin letzte
    Woche nach München umgezogen." for a question it does not answer), not a part of it reworded."""
    return repeats(reply, said) and repeats(said, reply)


def told_only(recent: list[ChatMessage], *, left_out: Callable[[str], bool] = lambda _: False,
              questions: bool = False) -> list[ChatMessage]:
    """The exchanges in which the person told something (and with `questions`, asked something), for a question
    that stands alone: an earlier question and its answer are left out (a small model copies earlier answers into
    unrelated ones), what was just said stays, unless `left_out(what they said)`."""
    out: list[ChatMessage] = []
    telling = False
    for turn in recent:
        if turn["role"] == "user":
            telling = (questions or not asks(turn["content"])) and not left_out(turn["content"])
        if telling:
            out.append(turn)
    return out


def unknown_example(prompts: PromptLibrary, question: str) -> str:
    """How the prompt says "I don't know", in the question's language: a small model copies the example it is
    shown, so a Spanish one made it answer English questions in Spanish. A language with no file gets a plain rule."""
    code = language(question)
    try:
        return prompts[f"unknown.{code}"].template.strip() if code else prompts["unknown"].template.strip()
    except PromptError:
        return prompts["unknown"].template.strip()


def build_prompt(
    llm: LLM,
    prompts: PromptLibrary,
    limits: BudgetLimits,
    *,
    template: str = "responder",
    question: str,
    today: str,
    facts: list[str],
    summary: str,
    evidence: list[str],
    recent: list[ChatMessage],
    current: list[str] = (),
) -> PackedPrompt:
    prompt = prompts[template]
    unknown = unknown_example(prompts, question)
    render_system = lambda sections: prompt.render(today=today, sections=sections or "(no memory found)",  # noqa: E731
                                                   unknown=unknown)[0]["content"]
    return pack(llm.count_tokens, limits, render_system=render_system, question=question, current=current,
                facts=facts, summary=summary, evidence=evidence, recent=recent)


def respond(llm: LLM, packed: PackedPrompt, *, max_tokens: int, seed: int = 0,
            on_text: Callable[[str], None] | None = None) -> tuple[str, Step]:
    """The reply, streamed piece by piece to `on_text` when given (same settings, so the same text).

    Lets BackendUnavailable / ModelTimeout through: with no answer there is nothing to fall back to."""
    started = time.perf_counter()
    if on_text is None:
        completion = llm.complete(packed.messages, max_tokens=max_tokens, seed=seed)
    else:
        completion = streamed(llm.stream(packed.messages, max_tokens=max_tokens, seed=seed), on_text)
    answer = completion.text.strip()
    step = Step(
        "Responder",
        round((time.perf_counter() - started) * 1000, 1),
        f"answered in {len(answer.split())} words",
        raw=[completion.text],
        parsed={"breakdown": packed.breakdown, "included": packed.included},
        prompt_tokens=completion.prompt_tokens,
        completion_tokens=completion.completion_tokens,
        llm_calls=1,
    )
    return answer, step



@dataclass(frozen=True)
class Responder:
    """One answer's Responder: its prompt, packed from the evidence lines and turns it reads, and the model's reply."""

    llm: LLM
    prompts: PromptLibrary
    limits: BudgetLimits
    template: str
    question: str
    today: str
    facts: list[str]
    summary: str
    max_tokens: int
    seed: int = 0
    current: tuple[str, ...] = ()  # the values memory knows replaced older ones, read first

    def prompt(self, evidence: list[str], recent: list[ChatMessage]) -> PackedPrompt:
        return build_prompt(self.llm, self.prompts, self.limits, template=self.template, question=self.question,
                            today=self.today, facts=self.facts, summary=self.summary, evidence=evidence,
                            recent=recent, current=list(self.current))

    def reply(self, packed: PackedPrompt, on_text: Callable[[str], None] | None) -> tuple[str, Step]:
        """One blocking model call: the reply and its trace step."""
        return respond(self.llm, packed, max_tokens=self.max_tokens, seed=self.seed, on_text=on_text)
