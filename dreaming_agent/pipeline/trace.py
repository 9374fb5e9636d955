"""What each step of a turn decided, how long it took, and what the model really said."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..llm.structured import Structured


@dataclass
class Step:
    name: str
    duration_ms: float
    decision: str
    raw: list[str] = field(default_factory=list)
    parsed: Any = None
    retried: bool = False
    fell_back: bool = False
    error: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_calls: int = 0

    @classmethod
    def from_structured(cls, name: str, result: Structured, decision: str) -> "Step":
        return cls(
            name=name,
            duration_ms=round(result.duration_ms, 1),
            decision=decision,
            raw=list(result.raw),
            parsed=result.value.model_dump(),
            retried=result.retried,
            fell_back=result.fell_back,
            error=result.error,
            prompt_tokens=result.prompt_tokens,
            completion_tokens=result.completion_tokens,
            llm_calls=result.calls,
        )


@dataclass
class Trace:
    steps: list[Step] = field(default_factory=list)

    def add(self, step: Step) -> Step:
        self.steps.append(step)
        return step

    def step(self, name: str) -> Step | None:
        return next((s for s in self.steps if s.name == name), None)

    @property
    def llm_calls(self) -> int:
        return sum(s.llm_calls for s in self.steps)

    def to_json(self) -> list[dict]:
        return [asdict(s) for s in self.steps]
