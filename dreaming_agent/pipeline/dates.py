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
from typing import Callable

from ..text import number_word
from .abstain import language

_MONTHS = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"),
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
           "noviembre", "diciembre"),
}
_SPANS = {"en": {"before": "the week before", "after": "the week after"},
          "es": {"before": "la semana anterior al", "after": "la semana siguiente al"}}

_WEEKDAYS = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6,
    "lunes": 0, "martes": 1, "miercoles": 2, "miércoles": 2, "jueves": 3, "viernes": 4, "sabado": 5, "sábado": 5,
    "domingo": 6,
}
_DAY = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
_COUNT = r"(\d+|[a-záéíóúñ]+)"
_UNITS = {"day": 1, "days": 1, "dia": 1, "dias": 1, "día": 1, "días": 1, "week": 7, "weeks": 7, "semana": 7,
          "semanas": 7}
_UNIT = "|".join(sorted(_UNITS, key=len, reverse=True))

# What an expression stands for: a day, or ("before"|"after", day) for a week said around a day; None when unreadable.
Meaning = Callable[[re.Match, dt.date], "dt.date | tuple[str, dt.date] | None"]
_RULES: list[tuple[re.Pattern, Meaning]] = [
    (re.compile(r"\b(?:the day before yesterday|anteayer|antier|antes de ayer)\b", re.I), lambda m, d: d - _days(2)),
    (re.compile(r"\bpasado mañana\b|\bthe day after tomorrow\b", re.I), lambda m, d: d + _days(2)),
    (re.compile(r"\b(?:yesterday|ayer|anoche|last night)\b", re.I), lambda m, d: d - _days(1)),
    # "mañana" is also "morning": only a "mañana" no article or "esta/cada/por" comes before means tomorrow.
    (re.compile(r"\btomorrow\b|(?<![\w])(?<!la )(?<!esta )(?<!cada )(?<!una )(?<!por )mañana\b(?! por la)", re.I),
     lambda m, d: d + _days(1)),
    # A week is not a day: it is written as said, counted from the line's date ("the week before 8 February 2026").
    (re.compile(r"\b(?:last week|la semana pasada)\b", re.I), lambda m, d: ("before", d)),
    (re.compile(r"\b(?:next week|la semana que viene|la próxima semana|la proxima semana)\b", re.I),
     lambda m, d: ("after", d)),
    (re.compile(rf"\blast ({_DAY})\b|\bel ({_DAY}) pasado\b", re.I), lambda m, d: _weekday(m, d, -1)),
    (re.compile(rf"\bnext ({_DAY})\b|\bel próximo ({_DAY})\b|\bel proximo ({_DAY})\b|\bel ({_DAY}) que viene\b", re.I),
     lambda m, d: _weekday(m, d, +1)),
    (re.compile(rf"\b{_COUNT} ({_UNIT}) ago\b", re.I), lambda m, d: _count(m, d, -1)),
    (re.compile(rf"\bhace {_COUNT} ({_UNIT})\b", re.I), lambda m, d: _count(m, d, -1)),
    # Not "in three days": it is as often how long something took ("in two weeks I lost 3 kilos").
    (re.compile(rf"\bdentro de {_COUNT} ({_UNIT})\b", re.I), lambda m, d: _count(m, d, +1)),
]


def resolve(text: str, said_on: str, lang: str | None = None) -> str:
    """`text` with the date each relative expression stands for written after it, counted from `said_on`, in `lang`
    (the text's own language when None)."""
    try:
        day = dt.date.fromisoformat(said_on[:10])
    except ValueError:
        return text
    lang = lang or language(text)
    spans: list[tuple[int, int, str]] = []
    for pattern, meaning in _RULES:
        for m in pattern.finditer(text):
            if any(m.start() < end and start < m.end() for start, end, _ in spans):
                continue  # "antes de ayer" is not also "ayer"
            value = meaning(m, day)
            if value is None:
                continue
            label = (f"{_SPANS[lang][value[0]]} {written(value[1], lang)}" if isinstance(value, tuple)
                     else written(value, lang))
            spans.append((m.start(), m.end(), label))
    for start, end, label in sorted(spans, reverse=True):
        text = f"{text[:end]} ({label}){text[end:]}"
    return text


def spoken(stamp: str, lang: str = "en") -> str:
    """The day of a stored stamp in words ("2026-03-21T10:00:00" → "21 March 2026"), as a line shows its date to a
    question about time; the stamp as given when it holds no date."""
    try:
        return written(dt.date.fromisoformat(stamp[:10]), lang)
    except ValueError:
        return stamp


_ISO_DAY = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


_MONTH_WORDS = frozenset(m.lower() for names in _MONTHS.values() for m in names)


def names_a_day(text: str) -> bool:
    """Whether `text` names a day, a month or a year ("21 March 2026", "2026-03-21", "en febrero")."""
    return (_ISO_DAY.search(text) is not None or re.search(r"\b(?:19|20)\d\d\b", text) is not None
            or any(w in _MONTH_WORDS for w in re.findall(r"\w+", text.lower())))


def with_words(text: str) -> str:
    """`text` followed by each date it holds written in words, in English and Spanish: an answer that writes a
    line's "2026-03-29" as "29 March" names no month the lines do not say (code abstained on it)."""
    spelled = [spoken(stamp, lang) for stamp in dict.fromkeys(_ISO_DAY.findall(text)) for lang in _MONTHS]
    return "\n".join([text, *spelled])


def written(day: dt.date, lang: str = "en") -> str:
    """'21 March 2026' / '21 de marzo de 2026'."""
    month = _MONTHS[lang][day.month - 1]
    return f"{day.day} de {month} de {day.year}" if lang == "es" else f"{day.day} {month} {day.year}"


def _days(n: int) -> dt.timedelta:
    return dt.timedelta(days=n)


def _weekday(m: re.Match, day: dt.date, direction: int) -> dt.date:
    wanted = _WEEKDAYS[next(g for g in m.groups() if g).lower()]
    step = 1 if direction > 0 else -1
    candidate = day + _days(step)
    while candidate.weekday() != wanted:
        candidate += _days(step)
    return candidate


def _count(m: re.Match, day: dt.date, direction: int) -> dt.date | None:
    raw, unit = m.group(1).lower(), m.group(2).lower()
    n = int(raw) if raw.isdigit() else number_word(raw)
    if n is None or n > 60:
        return None
    return day + _days(direction * n * _UNITS[unit])
