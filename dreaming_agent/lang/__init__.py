"""Every language the code reads, one module each, and which of them a text is in.

A module (`en.py`, `es.py`) defines the same names: word lists as whitespace-separated strings, phrase tuples, maps and
regular-expression fragments. Code reads a name across every language (`words`, `phrases`, `pattern`, `merged`) or
one language's (`of`). Adding a language is adding a module with those names and listing it in `LANGUAGES`.
"""
from __future__ import annotations

import re
from types import ModuleType

from . import en, es

LANGUAGES: dict[str, ModuleType] = {module.CODE: module for module in (en, es)}


def of(code: str) -> ModuleType:
    """The module of language `code`."""
    return LANGUAGES[code]


def words(name: str) -> frozenset[str]:
    """The words every language lists under `name`."""
    return frozenset(w for module in LANGUAGES.values() for w in getattr(module, name).split())


def phrases(name: str) -> tuple:
    """The phrases every language lists under `name`, in the order of `LANGUAGES`."""
    return tuple(p for module in LANGUAGES.values() for p in getattr(module, name))


def merged(name: str) -> dict:
    """The maps every language defines under `name`, as one."""
    out: dict = {}
    for module in LANGUAGES.values():
        out.update(getattr(module, name))
    return out


def pattern(name: str) -> str:
    """The regular-expression fragments every language defines under `name`, as alternatives of one."""
    return "|".join(f for module in LANGUAGES.values() if (f := getattr(module, name)))


def each(name: str) -> dict[str, object]:
    """What each language defines under `name`, by language code."""
    return {code: getattr(module, name) for code, module in LANGUAGES.items()}


def groups(name: str) -> list[frozenset[str]]:
    """One group per key of the maps every language defines under `name` (a relation: sister, hermana, sis…)."""
    keys = list(dict.fromkeys(k for module in LANGUAGES.values() for k in getattr(module, name)))
    return [frozenset(w for module in LANGUAGES.values() for w in getattr(module, name).get(k, "").split())
            for k in keys]


_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")


def said_in(text: str) -> str | None:
    """The language its punctuation or frequent words tell; None when they do not ("Hola", a name)."""
    for code, module in LANGUAGES.items():
        if module.MARKS and any(mark in text for mark in module.MARKS):
            return code
    tokens = [w.lower().replace("’", "'") for w in _WORD.findall(text)]
    counts = {code: sum(t in _distinct(code) for t in tokens) for code in LANGUAGES}
    best = max(counts.values())
    leaders = [code for code, n in counts.items() if n == best]
    return leaders[0] if len(leaders) == 1 else None


def language(text: str) -> str:
    """The language of `text`: `said_in`, else the one whose accented letters it holds, else English."""
    return said_in(text) or next((code for code, m in LANGUAGES.items() if m.ACCENTS and
                                  any(c in text for c in m.ACCENTS)), "en")


_DISTINCT = {code: frozenset(module.DISTINCT.split()) for code, module in LANGUAGES.items()}


def _distinct(code: str) -> frozenset[str]:
    return _DISTINCT[code]
