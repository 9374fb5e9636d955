"""Pack one prompt inside the model's real window, in priority order, with a per-layer token breakdown."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..errors import ConfigError
from ..llm.base import ChatMessage

# Chat templates wrap each message in role markers (about 4-6 tokens in ChatML); count 8 to stay on the safe side.
MESSAGE_OVERHEAD = 8
SUMMARY_MIN_FREE = 200  # the rolling summary goes in only if more than this many tokens remain
LAYERS = ("instructions", "current", "facts", "summary", "evidence", "recent", "question")


@dataclass(frozen=True)
class BudgetLimits:
    window: int = 4096
    reply_reserve: int = 512
    instruction_reserve: int = 300


@dataclass
class PackedPrompt:
    messages: list[ChatMessage]
    breakdown: dict[str, int]
    included: dict[str, int] = field(default_factory=dict)  # how many items of each layer made it in
    kept_evidence: list[int] = field(default_factory=list)  # indices of the evidence items that made it in

    @property
    def text(self) -> str:
        return "\n\n".join(f"[{m['role']}]\n{m['content']}" for m in self.messages)

    @property
    def prompt_tokens(self) -> int:
        return sum(self.breakdown[layer] for layer in LAYERS)


def pack(
    count: Callable[[str], int],
    limits: BudgetLimits,
    *,
    render_system: Callable[[str], str],
    question: str,
    current: list[str] = (),
    facts: list[str] = (),
    summary: str = "",
    evidence: list[str] = (),
    recent: list[ChatMessage] = (),
) -> PackedPrompt:
    """`render_system(sections)` returns the system message with the packed sections inside.

    Order of priority: the question, the current values memory knows replaced older ones, durable facts, the summary (only with > 200 tokens free), evidence
    (most relevant first), then the verbatim tail newest-first. Whatever does not fit is left out whole;
    only the question itself is ever cut, and only when it alone would not fit.
    """
    limit = limits.window - limits.reply_reserve
    instructions = count(render_system("")) + MESSAGE_OVERHEAD
    free = limit - max(instructions, limits.instruction_reserve)
    if free < 2 * MESSAGE_OVERHEAD + 16:
        raise ConfigError(
            f"The context window ({limits.window}) leaves no room for a question after the reply reserve "
            f"({limits.reply_reserve}) and the instructions ({instructions} tokens); raise DREAMING_CONTEXT_WINDOW."
        )
    question, question_tokens = _fit_question(count, question, max(16, free // 2))
    free -= question_tokens

    kept_current = _take(count, ["- " + row for row in current], free, header="Current values:")
    free -= kept_current.tokens
    kept_facts = _take(count, ["- " + f for f in facts], free, header="Facts about the person:")
    free -= kept_facts.tokens
    kept_summary = _Take([], 0)
    if summary and free - SUMMARY_MIN_FREE > 0:
        kept_summary = _take(count, [summary], free, header="Summary of earlier conversation:")
        free -= kept_summary.tokens
    kept_evidence = _take(count, list(evidence), free, header="Evidence from memory (dated):")
    free -= kept_evidence.tokens
    kept_recent: list[ChatMessage] = []
    recent_tokens = 0
    for turn in reversed(list(recent)):
        cost = count(turn["content"]) + MESSAGE_OVERHEAD
        if cost > free:
            break
        kept_recent.insert(0, turn)
        recent_tokens += cost
        free -= cost

    sections = "\n\n".join(s for s in (kept_current.block, kept_facts.block, kept_summary.block, kept_evidence.block)
                           if s)
    messages: list[ChatMessage] = [{"role": "system", "content": render_system(sections)}]
    messages += kept_recent + [{"role": "user", "content": question}]
    packed = PackedPrompt(
        messages,
        {
            "instructions": instructions,
            "current": kept_current.tokens,
            "facts": kept_facts.tokens,
            "summary": kept_summary.tokens,
            "evidence": kept_evidence.tokens,
            "recent": recent_tokens,
            "question": question_tokens,
            "reply_reserve": limits.reply_reserve,
            "window": limits.window,
        },
        {"current": len(kept_current.items), "facts": len(kept_facts.items), "summary": len(kept_summary.items),
         "evidence": len(kept_evidence.items), "recent": len(kept_recent)},
        kept_evidence.indices,
    )
    # Parts were counted one by one; the joined text can tokenize differently. Measure the real thing
    # and drop the least important layer item until it fits: the window is never exceeded.
    while measure(count, packed.messages) > limit:
        packed = _drop_one(count, limits, render_system, question, current, facts, summary, evidence, recent, packed)
    return packed


def measure(count: Callable[[str], int], messages: list[ChatMessage]) -> int:
    return sum(count(m["content"]) + MESSAGE_OVERHEAD for m in messages)


@dataclass
class _Take:
    items: list[str]
    tokens: int
    header: str = ""
    indices: list[int] = field(default_factory=list)

    @property
    def block(self) -> str:
        return self.header + "\n" + "\n".join(self.items) if self.items else ""


def _take(count: Callable[[str], int], items: list[str], free: int, *, header: str) -> _Take:
    taken: list[str] = []
    indices: list[int] = []
    used = count(header) + 1
    for i, item in enumerate(items):
        cost = count(item) + 1
        if used + cost > free:
            continue  # a shorter, less relevant item may still fit
        taken.append(item)
        indices.append(i)
        used += cost
    return _Take(taken, used if taken else 0, header, indices)


def _fit_question(count: Callable[[str], int], question: str, cap: int) -> tuple[str, int]:
    tokens = count(question) + MESSAGE_OVERHEAD
    while tokens > cap and question:
        keep = max(0, int(len(question) * (cap - MESSAGE_OVERHEAD) / tokens) - 1)
        question = question[:keep]
        tokens = count(question) + MESSAGE_OVERHEAD
    return question, tokens


def _drop_one(count, limits, render_system, question, current, facts, summary, evidence, recent, packed) -> PackedPrompt:
    n = dict(packed.included)
    if n["recent"]:
        recent = list(recent)[len(recent) - n["recent"] + 1:]
    elif n["evidence"]:
        evidence = list(evidence)[: n["evidence"] - 1]
        recent = []
    elif n["summary"]:
        summary, evidence, recent = "", [], []
    elif n["facts"]:
        facts, summary, evidence, recent = list(facts)[: n["facts"] - 1], "", [], []
    elif n["current"]:
        current, facts, summary, evidence, recent = list(current)[: n["current"] - 1], [], "", [], []
    else:
        return _shrink_question(count, limits, render_system, question)
    if n["recent"] == 0:
        recent = []
    return pack(count, limits, render_system=render_system, question=question, current=current, facts=facts,
                summary=summary, evidence=evidence, recent=recent)


def _shrink_question(count, limits, render_system, question) -> PackedPrompt:
    shorter = question[: max(0, int(len(question) * 0.9) - 1)]
    return pack(count, limits, render_system=render_system, question=shorter)
