"""Controller: does the message carry news about the person, does it need memory, what to search for."""
from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from ..llm.base import LLM
from ..llm.structured import Structured, structured_call
from ..prompts import PromptLibrary


class ControllerDecision(BaseModel):
    new_info: bool
    needs_memory: bool
    # Short, few queries: the grammar keeps the output to a few dozen tokens, since this call blocks the reply.
    queries: list[Annotated[str, Field(max_length=48)]] = Field(default_factory=list, max_length=3)


def decide(llm: LLM, prompts: PromptLibrary, text: str, *, today: str, seed: int = 0) -> Structured[ControllerDecision]:
    messages = prompts["controller"].render(today=today, message=text[:1500])
    # Fallback assumes the worst case: search anyway and let the Writer look for facts.
    fallback = lambda: ControllerDecision(new_info=True, needs_memory=True, queries=[])  # noqa: E731
    result = structured_call(llm, messages, ControllerDecision, fallback, max_tokens=48, seed=seed)
    result.value.queries = [q.strip() for q in result.value.queries if q.strip()][:3]
    return result


def describe(decision: ControllerDecision) -> str:
    parts = ["new info" if decision.new_info else "no new info", "needs memory" if decision.needs_memory else "no memory needed"]
    if decision.queries:
        parts.append("queries: " + " | ".join(decision.queries))
    return "; ".join(parts) + " (retrieval always runs)"
