"""Responder: one free-text call on the prompt the budget packed — facts, summary, dated evidence, recent turns."""
from __future__ import annotations

import time

from ..context.budget import BudgetLimits, PackedPrompt, pack
from ..llm.base import LLM, ChatMessage
from ..prompts import PromptLibrary
from .retriever import Candidate
from .trace import Step


def evidence_lines(candidates: list[Candidate], *, with_sources: bool) -> list[str]:
    """Each selected entry with its date and verbatim source sentence(s); the published variant shows texts only."""
    lines = []
    for c in candidates:
        if not with_sources:
            lines.append(f"- {c.text}")
        elif c.kind == "sentence":
            lines.append(f'- ({c.date[:10]}) the person said: "{c.text}"')
        else:
            said = " / ".join(f'"{s.text}" ({s.date[:10]})' for s in c.sources[:2])
            lines.append(f"- ({c.date[:10]}) {c.text}" + (f" — the person said: {said}" if said else ""))
    return lines


def build_prompt(
    llm: LLM,
    prompts: PromptLibrary,
    limits: BudgetLimits,
    *,
    question: str,
    today: str,
    facts: list[str],
    summary: str,
    evidence: list[str],
    recent: list[ChatMessage],
) -> PackedPrompt:
    template = prompts["responder"]
    render_system = lambda sections: template.render(today=today, sections=sections or "(no memory found)")[0]["content"]  # noqa: E731
    return pack(llm.count_tokens, limits, render_system=render_system, question=question,
                facts=facts, summary=summary, evidence=evidence, recent=recent)


def respond(llm: LLM, packed: PackedPrompt, *, max_tokens: int, seed: int = 0) -> tuple[str, Step]:
    """Lets BackendUnavailable / ModelTimeout through: with no answer there is nothing to fall back to."""
    started = time.perf_counter()
    completion = llm.complete(packed.messages, max_tokens=max_tokens, seed=seed)
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

