"""Layer 1: the conversation window — the verbatim tail plus a rolling summary, rebuilt from the log."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from pydantic import BaseModel, Field

from ..llm.base import LLM, ChatMessage
from ..llm.structured import Structured, structured_call
from ..prompts import PromptLibrary
from ..store import Message, Store


class Summary(BaseModel):
    summary: str = Field(description="2-3 sentences")


@dataclass
class WindowView:
    summary: str
    turns: list[Message]

    def chat_messages(self, mode: str | None = None) -> list[ChatMessage]:
        """Turns as chat messages; in a compared conversation only this mode's own answers are kept. A withheld
        message (it holds a credential) is no model's to read."""
        return [
            {"role": m.role, "content": m.text}
            for m in self.turns
            if (m.role == "user" and not m.withheld) or (m.role == "assistant" and m.speaker in (None, mode))
        ]


def current_window(store: Store, session: str) -> WindowView:
    summary, through = store.summary(session)
    return WindowView(summary, store.messages(session, after_id=through))


def fold_if_needed(
    store: Store,
    llm: LLM,
    prompts: PromptLibrary,
    session: str,
    *,
    budget_tokens: int,
    today: str,
    count: Callable[[str], int] | None = None,
) -> Structured[Summary] | None:
    """When the tail outgrows its budget, fold its oldest half into the summary with one model call."""
    count = count or llm.count_tokens
    view = current_window(store, session)
    if sum(count(m.text) for m in view.turns) <= budget_tokens or len(view.turns) < 2:
        return None
    oldest = view.turns[: len(view.turns) // 2]
    transcript = "\n".join(f"{m.role}: {m.text[:2000]}" for m in oldest if not m.withheld)
    messages = prompts["summarize"].render(today=today, previous_summary=view.summary or "(none)", transcript=transcript)
    result = structured_call(
        llm, messages, Summary, lambda: Summary(summary=_fallback_summary(view.summary, oldest)), max_tokens=160
    )
    store.set_summary(session, result.value.summary.strip(), oldest[-1].id)
    return result


def _fallback_summary(previous: str, folded: list[Message]) -> str:
    """Without a model: keep the previous summary and the opening words of what the person said."""
    said = "; ".join(" ".join(m.text.split()[:12]) for m in folded if m.role == "user" and not m.withheld)
    return (previous + " " if previous else "") + (f"Earlier the person said: {said}." if said else "")
