"""The plan of a message, decided once per turn in code and carried to every step that needs it."""
from __future__ import annotations

import time
from dataclasses import dataclass

from .. import lang
from ..store import Store
from ..text import relation_words
from . import abstain, controller
from .retriever import is_question


@dataclass(frozen=True)
class Plan:
    """What the message is (question or statement), about whom, about now or the past, its parts, its language."""

    text: str
    route: controller.Plan  # the code Controller's decision: question, queries, personal, current, temporal…
    language: str
    about_the_person: bool  # about the person themselves, not a relative, pet or thing of theirs
    decided_ms: float = 0.0  # how long deciding it took (the Controller's step)
    people: tuple[str, ...] = ()  # the people of theirs it names (sister, novio…), in the languages known

    @property
    def question(self) -> bool:
        return self.route.question

    @property
    def personal(self) -> bool:
        return self.route.personal

    @property
    def follow_up(self) -> bool:
        return self.route.follow_up


def plan(text: str) -> Plan:
    """The plan of `text`: every rule it takes is read here, once."""
    started = time.perf_counter()
    route = controller.plan(text)
    language, about_the_person = abstain.language(text), controller.about_the_person(text)
    people = tuple(dict.fromkeys(w for code in lang.LANGUAGES for w in relation_words(text, language=code, people=True)))
    return Plan(text, route, language, about_the_person, round((time.perf_counter() - started) * 1000, 1), people)


class Told:
    """Everything the person told (`told`), read from the store at most once for the question being answered."""

    def __init__(self, store: Store):
        self._store, self._texts = store, None

    def __call__(self) -> list[str]:
        if self._texts is None:
            self._texts = told(self._store)
        return self._texts


def told(store: Store) -> list[str]:
    """Everything the person told, one text per message (questions left out), and every entry memory holds
    (one they typed into "memory about you" was never a message)."""
    by_message: dict[int, list[str]] = {}
    for s in store.sentences():
        if not is_question(s.text):
            by_message.setdefault(s.message_id, []).append(s.text)
    return [" ".join(texts) for texts in by_message.values()] + [m.text for m in store.memories()]
