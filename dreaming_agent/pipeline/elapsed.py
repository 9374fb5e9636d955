"""How long between two things the person told, or since one, counted in code: a small model reads two dates but
does not subtract them ("How many days passed between X and Y?" got "1" with both days in its evidence).

The things are the dated lines the question's words are in: for "…ago?", the one line that holds most of them,
counted to the day asked; otherwise the two lines, on different days, that hold most of them together. Each line
stands at the day it says the thing happened (`dates.when`), else the day it was said. Nothing is counted for a
question in a language no module knows, nor when no line holds a word of the question.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from itertools import combinations

from .. import lang
from ..text import content_words, numbers
from . import dates

_ASKED = {code: re.compile(rule, re.I) for code, rule in lang.each("ELAPSED").items()}
_SINCE_NOW = {code: re.compile(rule, re.I) for code, rule in lang.each("SINCE_NOW").items()}


@dataclass(frozen=True)
class Counted:
    """The count the question asks for, from one day to another, and the line that says it."""

    start: dt.date
    end: dt.date
    count: int
    unit: str  # the question's word for it ("days", "semanas")
    line: str
    counted_from: tuple[str, ...] = ()  # the texts of the lines whose days it was counted from


def asked_unit(question: str, code: str | None) -> str | None:
    """The unit a question asks a count of ("days" in "How many days passed…"); None when it asks none."""
    m = _ASKED[code].search(question) if code in _ASKED else None
    return m.group(1).lower() if m else None


def counted(question: str, today: str, dated: list[tuple[str, dt.date]], code: str | None) -> Counted | None:
    """The count `question` asks for over `dated` (each line's text and the day it stands at), up to `today` for a
    question that counts back from now; None when it asks no count or no line holds its words."""
    m = _ASKED[code].search(question) if code in _ASKED else None
    if m is None:
        return None
    unit, asked = m.group(1).lower(), content_words(question) - content_words(m.group(0))
    held = [(content_words(text) & asked, day, text) for text, day in dated]
    if _SINCE_NOW[code].search(question):
        found, day, text = max(held, key=lambda h: len(h[0]), default=(set(), None, ""))
        if not found:
            return None
        start, end, texts = day, dt.date.fromisoformat(today[:10]), (text,)
    else:
        pairs = [(a, b) for a, b in combinations(held, 2) if a[1] != b[1] and a[0] - b[0] and b[0] - a[0]]
        if not pairs:
            return None
        a, b = max(pairs, key=lambda p: len(p[0][0] | p[1][0]))
        (start, first), (end, second) = sorted([(a[1], a[2]), (b[1], b[2])])
        texts = (first, second)
    days = (end - start).days
    count = round(days / lang.of(code).ELAPSED_UNITS[unit])
    if count <= 0:
        return None
    said_in = lang.of(code)
    line = said_in.COUNTED.format(start=dates.written(start, code), end=dates.written(end, code), count=count,
                                  unit=said_in.ELAPSED_ONE.get(unit, unit) if count == 1 else unit)
    return Counted(start, end, count, unit, line, texts)


def said_as_a_count(number: str, unit: str, lines: list[str], code: str) -> bool:
    """Whether a line says `number` of `unit` itself ("for 5 years", "dos semanas"): a count the person gave, which
    an answer may give though code counted otherwise between the lines' days."""
    per = lang.of(code).ELAPSED_UNITS[unit]
    forms = "|".join(sorted((w for w, days in lang.of(code).ELAPSED_UNITS.items() if days == per), key=len,
                            reverse=True))
    return any(number in numbers(m.group(1))
               for line in lines for m in re.finditer(rf"(\S+)\s+(?:{forms})\b", line, re.IGNORECASE))
