"""Controller: does the message carry news about the person, does it need memory, what to search for."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated

from pydantic import BaseModel, Field

from .. import lang
from ..lang import language
from ..llm.base import LLM
from ..llm.structured import Structured, structured_call
from ..prompts import PromptLibrary
from ..text import QUESTION_MARKS, proper_nouns, relation_words, split_sentences


class ControllerDecision(BaseModel):
    new_info: bool
    needs_memory: bool
    # Short, few queries: the grammar keeps the output to a few dozen tokens, since this call blocks the reply.
    queries: list[Annotated[str, Field(max_length=48)]] = Field(default_factory=list, max_length=3)


def decide(llm: LLM, prompts: PromptLibrary, text: str, *, today: str, seed: int = 0) -> Structured[ControllerDecision]:
    messages = prompts["controller"].render(today=today, message=text[:1500])
    # Fallback assumes the worst case: search anyway and let the Writer look for facts.
    fallback = lambda: ControllerDecision(new_info=True, needs_memory=True, queries=[])  # noqa: E731
    result = structured_call(llm, messages, ControllerDecision, fallback, max_tokens=48, seed=seed)
    result.value.queries = [q.strip() for q in result.value.queries if q.strip()][:3]
    return result


def describe(decision: ControllerDecision) -> str:
    parts = ["new info" if decision.new_info else "no new info", "needs memory" if decision.needs_memory else "no memory needed"]
    if decision.queries:
        parts.append("queries: " + " | ".join(decision.queries))
    return "; ".join(parts) + " (retrieval always runs)"


# -- the default variant decides in code: nothing before the Responder waits for a model -------------------

_WH = lang.phrases("QUESTION_WORDS")
_ASKING_OPENERS = lang.phrases("ASKING_OPENERS")
# A second question joined to the first: "…, and what's his name?", "… y en qué ciudad vive?"
_JOIN = re.compile(r"(?:,?\s+(?:" + lang.pattern("AND") + r")\s+|,\s+)(?=(?:" +
                   "|".join(re.escape(w) for w in sorted(_WH, key=len, reverse=True)) + r")\b)", re.IGNORECASE)


_FIRST_PERSON = re.compile(lang.pattern("FIRST_PERSON_ASKING"), re.IGNORECASE)


_NOW = re.compile(lang.pattern("NOW"), re.IGNORECASE)


# ...unless it asks about the past as well ("my first teacher and the one now", "¿quién me daba clases…?"):
# then both values are the answer.
_PAST = re.compile(lang.pattern("PAST"), re.IGNORECASE)


# A question over the person's history reads every value, not only the current one: "Which cities have I lived in?",
# "¿Dónde viví antes de Bilbao?", "How many times…?"; not one that says it asks about now ("How many times a week am
# I running now?")
_HISTORY = re.compile(lang.pattern("HISTORY"), re.IGNORECASE)


_WHEN = re.compile(lang.pattern("WHEN"), re.IGNORECASE)


# A question that leans on the turns before it: a pronoun or "that" with no name of its own ("Where does she
# live?", "¿Y eso cuándo fue?"), an opening "and"/"y"/"what about", what was said in this conversation, or a few
# words with no subject of their own ("¿Cómo se llama?").
_FOLLOW_UP = re.compile(lang.pattern("FOLLOW_UP"), re.IGNORECASE)


# A pronoun for someone or some animal ("his", "sus"), which the question itself may have named before it
_SOMEONES = lang.words("SOMEONES")


def _leans_on_before(question: str) -> bool:
    """Whether `question` leans on the turns before it (`_FOLLOW_UP`), unless the someone its pronouns stand for is
    named in it first: "What did I give my nephew for his birthday?", "¿Cuántos kilos ha adelgazado mi gato entre
    sus dos visitas?" stand alone; live, read beside the turns before, the 0.5B model answered "Did I run the half
    marathon before or after taking my cat to the vet for his yearly check-up?" the other way round."""
    for found in _FOLLOW_UP.finditer(question):
        before = question[:found.start()]
        named = relation_words(before) or proper_nouns(before)
        if found.group(0).lower() not in _SOMEONES or not named:
            return True
    return False


@dataclass(frozen=True)
class Plan:
    """The code Controller's decision: is this a question, and which queries to search."""

    question: bool
    queries: list[str]  # the message first, then one query per part of a compound question
    personal: bool = False  # asks about the person (my, I, mi, tengo…): only then may code abstain
    current: bool = False  # asks only for what holds now ("now", "these days", "ahora"): the newest value wins
    temporal: bool = False  # asks when, how long, or which came first: dates are what the answer is made of
    # leans on the turns before it; a question that does not is answered without them (a small model copies an
    # earlier answer into an unrelated one: live, "¿Qué instrumento…?" → "Estoy aprendiendo a tocar la farmacia.")
    follow_up: bool = True
    past: bool = False  # asks about the past or the history ("before", "did", "have I ever", "vivía", "viví"…)
    language: str | None = "en"  # None: a language no module knows, so nothing that reads words runs
    earlier: bool = False  # names an earlier time ("before", "used to", "was", "antes"): an older value may answer

    def describe(self) -> str:
        kind = "question" if self.question else "statement: acknowledge, never abstain"
        kind += " about now (the newest value wins)" if self.current else ""
        kind += "" if self.follow_up or not self.question else ", standing alone (the recent questions and answers left out)"
        shown = " | ".join(q if len(q) <= 80 else q[:79] + "…" for q in self.queries)
        if self.language is None:
            kind += " in a language this does not know (no check that reads words runs; the model's reply stands)"
        return f"{kind}; {len(self.queries)} quer{'y' if len(self.queries) == 1 else 'ies'}: {shown} (decided in code)"


def plan(text: str) -> Plan:
    """Route the message and split a compound question into one query per part, without a model call."""
    text = text.strip()
    is_question = asks(text)
    code = language(text)
    if code is None:
        return Plan(is_question, [text[:1500]], language=None)
    parts = [p.strip(" ,.;¿?¡!") for p in _JOIN.split(text)] if is_question else []
    parts = [p for p in parts if len(p.split()) >= 2]
    queries = [text[:1500], *parts[:3]] if len(parts) > 1 else [text[:1500]]
    earlier = is_question and _PAST.search(text) is not None
    return Plan(is_question, queries, is_question and _FIRST_PERSON.search(text) is not None,
                is_question and _NOW.search(text) is not None and not earlier,
                is_question and _WHEN.search(text) is not None,
                not is_question or _leans_on_before(text)
                or (len(text.split()) <= 3 and _FIRST_PERSON.search(text) is None),
                earlier or (is_question and _HISTORY.search(text) is not None and _NOW.search(text) is None), code,
                earlier=earlier)



# A sentence that opens on a relative of the person's ("Mi hermana Ane vive en Donostia.", "Caroline: My mom is…")
_MINE = "|".join(sorted(lang.words("MINE")))
_OPENS_ON_MINE = re.compile(r"^\s*(?:[\w' ]{1,30}:\s*)?(?:" + _MINE + r")\s+([\w-]+)", re.IGNORECASE)


def about_a_relative(sentence: str) -> bool:
    """The sentence tells about one of the person's relatives or pets and not about the person ("Mi hermana Ane vive
    en Donostia.", "My cat is called Pimentón.", not "My sister and I went to Paris." nor "Mi hermana vive
    conmigo."). Pets since round 21: in the app, "¿A qué soy alérgica?" right after "My cat is called Pimentón."
    read "tu cat es alérgica a la penicilina"; on holdout and third no answer changed."""
    opening = _OPENS_ON_MINE.match(sentence)
    if not opening or not any(relation_words(opening.group(1), language=code) for code in lang.LANGUAGES):
        return False
    rest = sentence[opening.end():]
    return _FIRST_PERSON.search(rest) is None and _WE.search(rest) is None


def only_about_relatives(message: str) -> bool:
    """Every sentence of the message tells about a relative or pet of the person's and none about the person."""
    sentences = split_sentences(message)
    return bool(sentences) and all(about_a_relative(s) for s in sentences)


_WE = re.compile(lang.pattern("WE"), re.IGNORECASE)  # the person among others: "we talk on Sundays"


def about_the_person(question: str) -> bool:
    """A question about the person themselves: in the first person, naming no relative, pet or thing of theirs
    ("Where do I live now?", not "Where does my sister live?"); never in a language this does not know."""
    return language(question) is not None and _FIRST_PERSON.search(question) is not None and not any(
        relation_words(question, language=code) for code in lang.LANGUAGES)


def asks(text: str) -> bool:
    """A question, by its marks or its opening words (what `plan` routes on, without the rest of the plan)."""
    text = text.strip()
    if any(mark in text for mark in (*QUESTION_MARKS, "¿")):
        return True
    first = text.lower().lstrip("¿¡ ")
    return any(first.startswith(w + " ") for w in _WH) or first.startswith(_ASKING_OPENERS)
