"""The bench scenario file: dated sessions of user turns, then dated questions with their expected answers."""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from dreaming_agent.errors import ConfigError

QuestionType = Literal["single", "update", "cross_session", "temporal", "abstention"]
QUESTION_TYPES: tuple[QuestionType, ...] = ("single", "update", "cross_session", "temporal", "abstention")


class _Strict(BaseModel):
    # A misspelt key (e.g. "expect_al") must fail loudly rather than silently drop an expectation.
    model_config = ConfigDict(extra="forbid")


class Session(_Strict):
    id: str = Field(min_length=1)
    date: dt.date
    turns: list[str] = Field(min_length=1)


class Question(_Strict):
    id: str = Field(min_length=1)
    type: QuestionType
    question: str = Field(min_length=1)
    date: dt.date | None = None  # filled in by Scenario: the day after the last session
    expect_any: list[str] = []
    expect_all: list[str] = []
    reject_any: list[str] = []
    evidence_any: list[str] = []

    @property
    def evidence_phrases(self) -> list[str]:
        """What must reach the Responder's prompt: evidence_any, else every expected phrase."""
        return self.evidence_any or [*self.expect_any, *self.expect_all]


class Scenario(_Strict):
    name: str = Field(min_length=1)
    description: str = ""
    sessions: list[Session] = Field(min_length=1)
    questions: list[Question] = Field(min_length=1)

    @model_validator(mode="after")
    def _check(self) -> Scenario:
        for kind, items in (("session", self.sessions), ("question", self.questions)):
            seen: set[str] = set()
            for item in items:
                if item.id in seen:
                    raise ValueError(f"duplicate {kind} id {item.id!r}")
                seen.add(item.id)
        dates = [s.date for s in self.sessions]
        if dates != sorted(dates):
            raise ValueError("sessions must be in date order")
        day_after = dates[-1] + dt.timedelta(days=1)
        for q in self.questions:
            if q.type != "abstention" and not (q.expect_any or q.expect_all):
                raise ValueError(f"question {q.id!r} ({q.type}) needs expect_any or expect_all")
            if q.date is None:
                q.date = day_after
            elif q.date < dates[-1]:
                raise ValueError(f"question {q.id!r} is dated {q.date}, before the last session {dates[-1]}")
        return self

    @property
    def turn_count(self) -> int:
        return sum(len(s.turns) for s in self.sessions)


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario JSON file; any problem raises ConfigError naming the file."""
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"Cannot read scenario file {path}: {e.strerror or e}. Check the path.") from e
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        raise ConfigError(
            f"Scenario file {path} is not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}."
        ) from e
    try:
        return Scenario.model_validate(data)
    except ValidationError as e:
        problems = "; ".join(_describe(err) for err in e.errors()[:5])
        more = f" (and {e.error_count() - 5} more)" if e.error_count() > 5 else ""
        raise ConfigError(f"Scenario file {path} is malformed: {problems}{more}.") from e


def _describe(error: dict) -> str:
    where = ".".join(str(part) for part in error["loc"]) or "top level"
    return f"{where}: {error['msg']}"
