"""Loader for LongMemEval (Wu et al., ICLR 2025): per question, its dated user–assistant sessions, read in place."""
from __future__ import annotations

import datetime as dt
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from dreaming_agent.errors import ConfigError

# The types in the order the paper lists them; a report's rows follow it.
QUESTION_TYPES = ("single-session-user", "single-session-assistant", "single-session-preference", "multi-session",
                  "knowledge-update", "temporal-reasoning")
# Its answer is a rubric of what the person would like ("The user would prefer…"), not a fact to find in a reply.
PREFERENCE = "single-session-preference"
# "2023/04/10 (Mon) 23:07": the weekday is dropped rather than parsed, so the locale does not matter.
_WEEKDAY = re.compile(r"\s*\([A-Za-z]+\)\s*")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Turn(_Frozen):
    role: Literal["user", "assistant"]
    content: str
    has_answer: bool = False
    external_id: str  # "<session id>:<index in the session>": how evidence is traced back to the prompt


class Session(_Frozen):
    id: str
    date: dt.datetime
    turns: tuple[Turn, ...]


class LongMemQuestion(_Frozen):
    id: str
    type: str
    question: str
    answer: str  # 15 of the file's answers are numbers; read as text
    date: dt.datetime
    sessions: tuple[Session, ...]  # in date order

    @property
    def abstention(self) -> bool:
        """An `_abs` item: what it asks was never said, and the right reply says so."""
        return self.id.endswith("_abs")

    @property
    def preference(self) -> bool:
        return self.type == PREFERENCE

    @property
    def evidence(self) -> tuple[str, ...]:
        """The turns the data marks as holding the answer (`has_answer`), by external id."""
        return tuple(t.external_id for s in self.sessions for t in s.turns if t.has_answer)

    @property
    def turn_count(self) -> int:
        return sum(len(s.turns) for s in self.sessions)


def parse_date(value: str) -> dt.datetime:
    """Parse LongMemEval's "2023/04/10 (Mon) 23:07"."""
    return dt.datetime.strptime(_WEEKDAY.sub(" ", value).strip(), "%Y/%m/%d %H:%M")


def load_longmemeval(path: str | Path, per_type: int | None = None) -> list[LongMemQuestion]:
    """Read the questions, each with its sessions in date order; with `per_type`, the first that many of each type
    and, apart, of each type's abstention items, in file order."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError(f"Cannot read LongMemEval file {path}: {e.strerror or e}. It is expected at "
                          "../shared/data/longmemeval/longmemeval_oracle_dev.json.") from e
    except json.JSONDecodeError as e:
        raise ConfigError(f"LongMemEval file {path} is not valid JSON: {e.msg} at line {e.lineno}.") from e
    if not isinstance(data, list):
        raise ConfigError(f"LongMemEval file {path} should hold a list of questions, found {type(data).__name__}.")
    try:
        questions = [_question(raw) for raw in data]
    except (KeyError, TypeError, ValueError) as e:
        raise ConfigError(f"LongMemEval file {path} has an unexpected shape: {e!r}.") from e
    return questions if per_type is None else first_per_type(questions, per_type)


def first_per_type(questions: list[LongMemQuestion], n: int) -> list[LongMemQuestion]:
    """The first `n` of each (type, abstention) group, in file order."""
    taken: dict[tuple[str, bool], int] = defaultdict(int)
    chosen = []
    for q in questions:
        group = (q.type, q.abstention)
        if taken[group] < n:
            taken[group] += 1
            chosen.append(q)
    return chosen


def _question(raw: dict) -> LongMemQuestion:
    ids, dates, sessions = raw["haystack_session_ids"], raw["haystack_dates"], raw["haystack_sessions"]
    if not len(ids) == len(dates) == len(sessions):
        raise ValueError(f"question {raw['question_id']}: {len(ids)} session ids, {len(dates)} dates, "
                         f"{len(sessions)} sessions")
    read = [Session(id=sid, date=parse_date(when), turns=tuple(
                Turn(role=t["role"], content=t["content"], has_answer=bool(t.get("has_answer")),
                     external_id=f"{sid}:{i}") for i, t in enumerate(turns)))
            for sid, when, turns in zip(ids, dates, sessions)]
    return LongMemQuestion(
        id=str(raw["question_id"]), type=raw["question_type"], question=raw["question"], answer=str(raw["answer"]),
        date=parse_date(raw["question_date"]), sessions=tuple(sorted(read, key=lambda s: s.date)),  # stable
    )
