"""The Writer's output as data: whose fact, which attribute, which value, and when it holds, said so that code —
not the model, not a word list — turns "yesterday" or "el domingo" into a date."""
from __future__ import annotations

from datetime import date, timedelta
from typing import Literal

from pydantic import BaseModel, Field, field_validator

from ..store.vocabulary import AttributeName, SubjectKind

Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


class Subject(BaseModel):
    """Whose fact: the person ("user"), or someone or something of theirs with its relation word in English."""

    kind: SubjectKind = "user"
    relation: str = Field("", max_length=40)  # "sister", "dog", "car"; empty for the user
    name: str = Field("", max_length=60)  # "Ruth", "Pepper"; empty when not said


class When(BaseModel):
    """When the fact holds or happened, relative to the day of the message; code computes the date."""

    kind: Literal["now", "unknown", "days_ago", "weeks_ago", "months_ago", "years_ago", "last_weekday",
                  "next_weekday", "in_days", "date"] = "now"
    n: int | None = Field(None, ge=0, le=400)
    weekday: Weekday | None = None
    date: str | None = Field(None, pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")  # no \d: llama.cpp grammars lack it


class StatedFact(BaseModel):
    subject: Subject = Subject()
    attribute: AttributeName
    value: str = Field(max_length=160)  # in English
    when: When = When()


class ExtractedFacts(BaseModel):
    facts: list[StatedFact] = Field(max_length=5)  # required: JSON of another shape is a fault, not "no facts"

    @field_validator("facts", mode="before")
    @classmethod
    def _untyped(cls, facts):
        """A backend that decodes without the grammar may still send plain English sentences: each is kept as a
        fact about the person of attribute "other", so it is remembered but never supersedes anything."""
        if isinstance(facts, list):
            return [{"attribute": "other", "value": f} if isinstance(f, str) else f for f in facts]
        return facts


def decoding_schema() -> dict:
    """`ExtractedFacts`' JSON schema with every property required: under a grammar the model must choose whose fact
    and when, rather than leave them out (parsing still accepts the defaults a backend without grammars leaves)."""
    schema = ExtractedFacts.model_json_schema()
    for part in [schema, *schema.get("$defs", {}).values()]:
        if "properties" in part:
            part["required"] = list(part["properties"])
            for prop in part["properties"].values():
                prop.pop("default", None)
    return schema


def resolve(when: When, said_on: str) -> str | None:
    """The ISO date a fact holds from, computed from the message's date; None when the message does not say."""
    day = date.fromisoformat(said_on[:10])
    n = when.n if when.n is not None else 1
    if when.kind == "now":
        return day.isoformat()
    if when.kind == "days_ago":
        return (day - timedelta(days=n)).isoformat()
    if when.kind == "in_days":
        return (day + timedelta(days=n)).isoformat()
    if when.kind == "weeks_ago":
        return (day - timedelta(weeks=n)).isoformat()
    if when.kind == "months_ago":
        return _months_before(day, n).isoformat()
    if when.kind == "years_ago":
        return _months_before(day, 12 * n).isoformat()
    if when.kind in ("last_weekday", "next_weekday") and when.weekday:
        target = _WEEKDAYS.index(when.weekday)
        if when.kind == "last_weekday":  # the latest such day before the message's day
            return (day - timedelta(days=(day.weekday() - target - 1) % 7 + 1)).isoformat()
        return (day + timedelta(days=(target - day.weekday() - 1) % 7 + 1)).isoformat()
    if when.kind == "date" and when.date:
        try:
            return date.fromisoformat(when.date).isoformat()
        except ValueError:  # "2026-02-30" matches the pattern and is no day
            return None
    return None


def _months_before(day: date, months: int) -> date:
    total = day.year * 12 + day.month - 1 - months
    year, month = divmod(total, 12)
    for last in (day.day, 30, 29, 28):
        try:
            return date(year, month + 1, last)
        except ValueError:
            continue
    raise AssertionError("every month has 28 days")
