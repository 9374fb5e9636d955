"""Selector: which candidates are relevant; never fewer than `min_keep`, since temporal questions join two facts."""
from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from ..llm.base import LLM
from ..llm.structured import Structured, structured_call
from ..prompts import PromptLibrary
from .retriever import Candidate


class Selection(BaseModel):
    keep: list[Annotated[str, Field(max_length=10)]] = Field(max_length=16)


def select(
    llm: LLM, prompts: PromptLibrary, question: str, candidates: list[Candidate], *,
    today: str, min_keep: int = 3, fallback_keep: int = 5, seed: int = 0,
) -> tuple[list[Candidate], Structured[Selection] | None]:
    """Returns the kept candidates (in score order) and the model call, or None when there was nothing to choose."""
    if len(candidates) <= min_keep:
        return list(candidates), None
    # Short lines keep this blocking call cheap; the Responder sees the full texts and their sources.
    listing = "\n".join(f"[{c.key}] ({c.date[:10]}) {c.text[:160]}" for c in candidates)
    messages = prompts["selector"].render(today=today, question=question[:1500], candidates=listing)
    fallback = lambda: Selection(keep=[c.key for c in candidates[:fallback_keep]])  # noqa: E731
    result = structured_call(llm, messages, Selection, fallback, max_tokens=48, seed=seed)
    wanted = {key.strip().strip("[]") for key in result.value.keep}
    kept = [c for c in candidates if c.key in wanted]
    for c in candidates:  # top up by score
        if len(kept) >= min_keep:
            break
        if c not in kept:
            kept.append(c)
    kept.sort(key=lambda c: -c.score)
    return kept, result
