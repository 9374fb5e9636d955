"""The answer speaks to the person: a reply the small model wrote in the person's own voice is turned to them, in code.

Asked "What's my cat called?", the 0.5B model answers "My cat is Pimentón."; asked "¿A qué soy alérgica?", "Soy
alérgica a la penicilina." — it mirrors the question's first person, and on the three scenarios most of its answers
to such questions read as if the assistant owned the cat. `to_the_person` turns those clauses to the second person
("Your cat is Pimentón.", "Eres alérgica a la penicilina."). A clause where the assistant speaks of itself ("I don't
know", "no tengo esa información, pero…") is left as it is, and so is a Spanish clause with a first-person verb this
module cannot conjugate: a half-turned sentence ("Te dedico…" for "Me dedico…") would say something else.
"""
from __future__ import annotations

import re
from typing import Callable

from .. import lang
from ..lang import language, said_in
from .abstain import asks_anothers_name
from .controller import plan

# A clause in which the assistant speaks of itself: left as it is.
_ASSISTANT = re.compile(lang.pattern("ASSISTANT_SPEAKS"), re.IGNORECASE)

# A clause that already speaks to the person: it is the assistant's ("You told me you live in Bilbao").
_SECOND_PERSON = re.compile(lang.pattern("SPEAKS_TO_YOU"), re.IGNORECASE)  # dijiste, contaste

_JOINERS = "|".join(sorted(lang.words("CLAUSE_JOINERS")))
_CLAUSE = re.compile(r"((?:[,;:]\s*|\s+)(?:" + _JOINERS + r")\s+|[,;:]\s*)", re.IGNORECASE)
_TOKEN = re.compile(r"([^\W\d_]+(?:['’][^\W\d_]+)?)")

_TO_YOU = lang.merged("TO_YOU")
_YOU = lang.phrases("YOU")
_AFTER_YOU = lang.merged("AFTER_YOU")
_VERBS = lang.merged("VERBS_TO_YOU")
# After these a word is a noun ("mi trabajo", "al trabajo"), not a verb ("trabajo en Basurto").
_BEFORE_NOUNS = lang.words("BEFORE_NOUNS")


# The model speaking as the one asked about: "Who is my cello teacher?" -> "I'm Fiona, from Aberdeen." (in the app,
# 0.5B model), which turned to the person would say they are Fiona. Asked another's name (`asks_anothers_name`), the
# name is the answer and the opening goes.
_INTRODUCES = re.compile(r"^(\s*)(?i:" + lang.pattern("INTRODUCTION") + r")\s+(?=[A-ZÁÉÍÓÚÑ])")


def _unintroduced(answer: str) -> str:
    return _INTRODUCES.sub(r"\1", answer, count=1)


def asks_about_themselves(question: str) -> bool:
    """A question the person asks in the first person (about themselves or someone of theirs)."""
    return plan(question).personal


def to_the_person(answer: str, question: str, *, personal: bool | None = None) -> str:
    """`answer` with each clause the model wrote in the person's voice turned to the second person; `personal`:
    whether the question is asked in the first person, when the turn's plan knows it already."""
    if not (asks_about_themselves(question) if personal is None else personal):
        return answer
    return _turned(_unintroduced(answer) if asks_anothers_name(question) else answer, language(question))


class Addressed:
    """The reply to a question about the person on its way to them (`on_text`): a sentence is held back from its
    first word in the first person until it ends, and then shown turned to them; the rest streams as it comes."""

    def __init__(self, on_text: Callable[[str | None], None], question: str):
        self._on_text, self._language = on_text, language(question)
        self._sentence, self._shown = "", 0
        self._speaks_as_asked = asks_anothers_name(question)
        self._first = True  # the reply's first sentence is still to be shown

    def __call__(self, piece: str | None) -> None:
        if piece is None:  # the reply starts over
            self._sentence, self._shown, self._first = "", 0, True
            self._on_text(None)
            return
        self._sentence += piece
        while (end := re.search(r"[.!?…]\s+", self._sentence)) is not None:
            done, self._sentence = self._sentence[:end.end()], self._sentence[end.end():]
            self._show(self._as_shown(done))
            self._shown = 0
        settled = self._sentence[:max(self._sentence.rfind(" "), 0)]  # up to its last whole word
        if _turned(settled, self._language) == settled:  # nothing in it to turn: a later word cannot change it
            self._show(settled)

    def finish(self) -> None:
        """The reply is over: what is still held is shown, turned."""
        self._show(self._as_shown(self._sentence))
        self._sentence, self._shown = "", 0

    def _as_shown(self, sentence: str) -> str:
        """A whole sentence as the person sees it: turned, and the first without the model's self-introduction."""
        if self._first and self._speaks_as_asked:
            sentence = _unintroduced(sentence)
        self._first = False
        return _turned(sentence, self._language)

    def _show(self, text: str) -> None:
        if len(text) > self._shown:
            self._on_text(text[self._shown:])
            self._shown = len(text)


def _turned(answer: str, code: str) -> str:
    return "".join(_sentence(part, _said_in(part) or code) for part in re.split(r"((?<=[.!?…])\s+)", answer))


def _said_in(text: str) -> str | None:
    """The language `text`'s words other than "me" tell: "me" is English and Spanish alike ("Dr. Smith sees me
    every two weeks" is English, and turned to "sees te" when read as Spanish)."""
    return said_in(re.sub(r"\bme\b", " ", text, flags=re.IGNORECASE))


def _sentence(sentence: str, code: str) -> str:
    if not sentence.strip() or _SECOND_PERSON.search(sentence):
        return sentence
    parts = _CLAUSE.split(sentence)
    return "".join(part if i % 2 else _clause(part, code, first=i == 0) for i, part in enumerate(parts))


def _clause(clause: str, code: str, *, first: bool) -> str:
    """The clause in the second person, or as it is when the assistant speaks in it or a verb is not known."""
    if _ASSISTANT.search(clause):
        return clause
    code = _said_in(clause) or code  # "…, pero she's happy for me": the clause's own language
    tokens = _TOKEN.split(clause)
    out, previous, opened = [], "", False
    for i, token in enumerate(tokens):
        if not i % 2 or (opened and token[:1].isupper() and token != "I"):  # between words, or a name
            out.append(token)
            continue
        turned = _word(token.lower().replace("’", "'"), previous, code)
        if turned is None:
            return clause
        if turned != token.lower().replace("’", "'") or token == "I":
            at_start = first and not opened
            token = _cased(turned, token, at_start)
        out.append(token)
        previous, opened = token.lower(), True
    return "".join(out)


def _word(word: str, previous: str, code: str) -> str | None:
    """The word turned to the second person (itself when it has no person); None when it is a first-person Spanish
    verb this module cannot turn."""
    if previous in _YOU and word in _AFTER_YOU:
        return _AFTER_YOU[word]
    if word == "me":
        return lang.of(code).ME_TO_YOU
    if word in _TO_YOU:
        return _TO_YOU[word]
    if previous in _BEFORE_NOUNS:
        return word
    if word in _VERBS and word not in lang.of(code).NOT_VERBS.split():
        return _VERBS[word]
    for module in lang.LANGUAGES.values():
        if (turned := module.preterite_to_you(word)) is not None:  # llegué, viví: the preterite
            return turned
    if any(module.unknown_first_person_verb(word, previous) for module in lang.LANGUAGES.values()):
        return None
    return word


def _cased(turned: str, original: str, at_start: bool) -> str:
    if original == "I":
        return turned[:1].upper() + turned[1:] if at_start else turned
    if original[:1].isupper():
        return turned[:1].upper() + turned[1:]
    return turned
