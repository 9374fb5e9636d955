"""Relative dates resolved in code: "born yesterday", said on 2026-03-22, reads "born yesterday (21 March 2026)".

A small model reads each evidence line's date but does not count back from it; code does, for the expressions
whose meaning is fixed (yesterday, anoche, last Monday, hace tres semanas, next Saturday…). Nothing is guessed:
"la mañana" is a morning, not tomorrow, and a vague "recently" is left alone. The date is written the way people
write one, in the line's language: the model copies it into the reply ("2026-03-21" read as a code, and LoCoMo's
token F1 scored a right ISO date 0 against "21 March 2026").
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Callable

from ..text import number_word
from .. import lang
from ..lang import language

_MONTHS = lang.each("MONTHS")
_SPANS = lang.each("WEEK_AROUND")

_WEEKDAYS = lang.merged("WEEKDAYS")
_DAYS = {code: "|".join(sorted(days, key=len, reverse=True)) for code, days in lang.each("WEEKDAYS").items()}
_COUNT = r"(\d+|[a-záéíóúñ]+)"
_UNITS = lang.merged("UNITS")
_UNIT = "|".join(sorted(_UNITS, key=len, reverse=True))

# What an expression stands for, counted from the day it was said, read in language `code`: a day, or
# ("before"|"after", day) for a week said around a day; None when unreadable.
Meaning = Callable[[re.Match, dt.date, str], "dt.date | tuple[str, dt.date] | None"]
# Each kind of relative date, in the order they are read: "antes de ayer" is read before "ayer" and is not also it,
# "last Friday" before "Friday".
_MEANINGS: dict[str, Meaning] = {
    "two days ago": lambda m, d, code: d - _days(2),
    "in two days": lambda m, d, code: d + _days(2),
    "today": lambda m, d, code: d,
    "yesterday": lambda m, d, code: d - _days(1),
    "tomorrow": lambda m, d, code: d + _days(1),
    # A week is not a day: it is written as said, counted from the line's date ("the week before 8 February 2026").
    "last week": lambda m, d, code: ("before", d),
    "next week": lambda m, d, code: ("after", d),
    "last weekday": lambda m, d, code: _weekday(m, d, -1),
    "next weekday": lambda m, d, code: _weekday(m, d, +1),
    "weekday": lambda m, d, code: _weekday_alone(m, d, code),
    "ago": lambda m, d, code: _count(m, d, -1),
    "from now": lambda m, d, code: _count(m, d, +1),
}
_RULES: list[tuple[re.Pattern, Meaning, str, str]] = [
    (re.compile(rule.format(day=_DAYS[code], count=_COUNT, unit=_UNIT), re.I), meaning, code, kind)
    for kind, meaning in _MEANINGS.items() for code, rules in lang.each("RELATIVE_DATES").items()
    if (rule := rules[kind])]
# A day said by its month ("January 10th", "10 de enero"): what it stands for needs no counting, only a year.
_ON_DAY: list[tuple[re.Pattern, str]] = [
    (re.compile(rule.format(month="|".join(months)), re.I), code)
    for code, months in _MONTHS.items() for rule in lang.of(code).DAY_OF_MONTH]
_TENSES = {code: {tense: re.compile(rule, re.I) for tense, rule in tenses.items()}
           for code, tenses in lang.each("TENSE").items()}


def resolve(text: str, said_on: str, code: str | None = None) -> str:
    """`text` with the date each relative expression stands for written after it, counted from `said_on`, in `code`
    (the text's own language when None); not "today", which the line's own date already says."""
    code = code or language(text)
    spans = [f for f in _found(text, said_on, code) if f.day.isoformat() != said_on[:10] and not f.absolute]
    for found in sorted(spans, key=lambda f: f.start, reverse=True):
        text = f"{text[:found.end]} ({found.label}){text[found.end:]}"
    return text


@dataclass(frozen=True)
class Happened:
    """When a text says something happened, counted from the day it was said."""

    day: dt.date  # the day; for a week said around a day ("last week"), a week before or after it, to order by
    label: str  # "21 March 2026", "the week before 8 February 2026"
    said: str  # the words that said it ("yesterday")
    start: int = 0
    end: int = 0
    absolute: bool = False  # said by its month ("on January 10th"): the words already say the day
    alone: bool = False  # a weekday said alone, read by its sentence's tense: any other date the sentence says wins


def when(text: str, said_on: str, code: str | None = None) -> Happened | None:
    """The first relative date `text` says, counted from `said_on`; None when it says none a known language reads."""
    return min(_found(text, said_on, code or language(text)), key=lambda f: (f.alone, f.start), default=None)


def _found(text: str, said_on: str, code: str | None) -> list[Happened]:
    try:
        day = dt.date.fromisoformat(said_on[:10])
    except ValueError:
        return []
    if code is None:
        return []  # no words of a known language to read it with, nor to write the date in
    spans: list[Happened] = []
    for pattern, read_in in _ON_DAY:
        for m in pattern.finditer(text):
            if on := _on_day(m, day, read_in):
                spans.append(Happened(on, written(on, code), m.group(0), m.start(), m.end(), absolute=True))
    for pattern, meaning, read_in, kind in _RULES:
        for m in pattern.finditer(text):
            if any(m.start() < f.end and f.start < m.end() for f in spans):
                continue  # "antes de ayer" is not also "ayer"
            value = meaning(m, day, read_in)
            if value is None:
                continue
            label = (f"{_SPANS[code][value[0]]} {written(value[1], code)}" if isinstance(value, tuple)
                     else written(value, code))
            on = value[1] + _days(-7 if value[0] == "before" else 7) if isinstance(value, tuple) else value
            spans.append(Happened(on, label, m.group(0), m.start(), m.end(), alone=kind == "weekday"))
    return spans


def spoken(stamp: str, code: str = "en") -> str:
    """The day of a stored stamp in words ("2026-03-21T10:00:00" → "21 March 2026"), as a line shows its date to a
    question about time; the stamp as given when it holds no date."""
    try:
        return written(dt.date.fromisoformat(stamp[:10]), code)
    except ValueError:
        return stamp


_ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


_MONTH_WORDS = frozenset(m.lower() for m in lang.phrases("MONTHS"))


def names_a_day(text: str) -> bool:
    """Whether `text` names a day, a month or a year ("21 March 2026", "2026-03-21", "en febrero")."""
    return (_ISO_DAY.search(text) is not None or re.search(r"\b(?:19|20)\d\d\b", text) is not None
            or any(w in _MONTH_WORDS for w in re.findall(r"\w+", text.lower())))


def with_words(text: str) -> str:
    """`text` followed by each date it holds written in words, in English and Spanish: an answer that writes a
    line's "2026-03-29" as "29 March" names no month the lines do not say (code abstained on it)."""
    spelled = [spoken(stamp, code) for stamp in dict.fromkeys(_ISO_DAY.findall(text)) for code in _MONTHS]
    return "\n".join([text, *spelled])


def written(day: dt.date, code: str = "en") -> str:
    """'21 March 2026' / '21 de marzo de 2026'."""
    return lang.of(code).DATE.format(day=day.day, month=lang.of(code).MONTHS[day.month - 1], year=day.year)


def _days(n: int) -> dt.timedelta:
    return dt.timedelta(days=n)


def _weekday(m: re.Match, day: dt.date, direction: int) -> dt.date:
    wanted = _WEEKDAYS[next(g for g in m.groups() if g).lower()]
    step = 1 if direction > 0 else -1
    candidate = day + _days(step)
    while candidate.weekday() != wanted:
        candidate += _days(step)
    return candidate


def _weekday_alone(m: re.Match, day: dt.date, code: str) -> dt.date | None:
    """A weekday said alone: the one before the day it was said when its sentence tells of the past ("I started on
    Monday"), the one after when it tells of what is to come ("I'm flying out on Friday"); None when it tells both
    or neither, as in "We fly out on Saturday" (`TENSE`)."""
    tense = {name for name, rule in _TENSES[code].items() if rule.search(m.string)}
    if len(tense) != 1:
        return None
    return _weekday(m, day, -1 if tense == {"past"} else +1)


def _on_day(m: re.Match, said: dt.date, code: str) -> dt.date | None:
    """The day a month and a day of it stand for: in the year said, else in the year nearest the day it was said
    ("December 28th" said on 3 January is the one just past); None when no such day exists ("February 30")."""
    month = [name.lower() for name in _MONTHS[code]].index(m.group("month").lower()) + 1
    years = [int(m.group("year"))] if m.group("year") else [said.year - 1, said.year, said.year + 1]
    days = []
    for year in years:
        try:
            days.append(dt.date(year, month, int(m.group("day"))))
        except ValueError:
            continue
    return min(days, key=lambda d: abs((d - said).days), default=None)


def _count(m: re.Match, day: dt.date, direction: int) -> dt.date | None:
    raw, unit = m.group(1).lower(), m.group(2).lower()
    n = int(raw) if raw.isdigit() else number_word(raw)
    if n is None or n > 60:
        return None
    return day + _days(direction * n * _UNITS[unit])
