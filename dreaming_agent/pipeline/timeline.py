"""When things happened: the entries that say a time ("yesterday", "last Saturday", "hace tres semanas"), each at the
day it stands for, counted in code from the day it was said (`dates`), oldest first.

The Writer states entries in English whatever language the person wrote in, so an entry's own words are read first;
then the sentences it was drawn from, in their own language where a `lang` module knows it. An entry that says no
time a known language reads is no event here: it stays among the entries, dated by the day it was said.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..store import Memory, Store
from .evidence import happened


@dataclass(frozen=True)
class Event:
    day: str  # the ISO day it happened (a week said around a day: a week before or after that day)
    when: str  # "21 March 2026", "the week before 27 November 2026"
    text: str  # the entry
    memory_id: int
    said_on: str  # the ISO day it was said
    said: str  # the words that told the time


def timeline(store: Store) -> list[Event]:
    """The active entries that say when something happened, oldest first."""
    events = [event for m in store.memories(with_sources=True) if (event := _event(m))]
    return sorted(events, key=lambda e: (e.day, e.memory_id))


def _event(memory: Memory) -> Event | None:
    found = happened(memory)
    if found is None:
        return None
    when, said_on = found
    return Event(when.day.isoformat(), when.label, memory.text, memory.id, said_on[:10], when.said)
