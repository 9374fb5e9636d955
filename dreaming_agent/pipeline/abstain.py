"""Abstention decided by code: an answer that names what no evidence line says becomes "I don't know"."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

from .. import lang
from ..lang import language
from . import whose
from ..text import (mentions, normalize, numbers, proper_nouns, relation_group, relation_words, split_sentences,
                    without_possessive, words)

UNKNOWN = lang.each("UNKNOWN")

# Words that open a reply without naming anything ("Based on the memory, …", "Según lo que me dijiste, …").
_OPENERS = frozenset(normalize(w) for w in lang.words("OPENERS"))
_OPENER_ENDINGS = lang.phrases("OPENER_ENDINGS")  # "Currently, …", "According to…": adverbs and gerunds open too


def _named(answer: str) -> set[str]:
    """Names and specific values the answer states; an opening word is a name only if it is not a common opener."""
    found = set()
    for sentence in split_sentences(answer):
        tokens = words(sentence)
        if tokens and normalize(tokens[0]) in _OPENERS or (tokens and normalize(tokens[0]).endswith(_OPENER_ENDINGS)):
            sentence = sentence[sentence.find(tokens[0]) + len(tokens[0]):]
        found |= proper_nouns(sentence)
    return {n for n in found if len(n) > 1}


def _letters(answer: str) -> set[str]:
    """A capital letter standing alone inside a sentence is a value ("blood type O", "grade B"), not the Spanish
    "o" or an opening "A"; the 0.5B model invented "Noemí's blood type is O." with no blood type in its evidence."""
    return {t for sentence in split_sentences(answer) for t in words(sentence)[1:]
            if len(t) == 1 and t.isupper() and t != "I"}


def _says_letter(letter: str, text: str) -> bool:
    return re.search(rf"(?<!\w){letter}(?!\w)", text) is not None  # as written: "o" is a word, "O" a value


@dataclass(frozen=True)
class Check:
    answer: str
    abstained: bool
    reason: str
    unsupported: tuple[str, ...] = ()  # what the answer said that no line or message supports (names, numbers)
    never_mentioned: tuple[str, ...] = ()  # the relations asked after that the person never mentioned


def in_their_language(answer: str, question: str) -> str:
    """A reply that only says it does not know, in the question's language: the prompt names the Spanish words ("No lo
    sé"), and the 0.5B model wrote them for English questions (LoCoMo conv-26: 5 of B's and 6 of E's answers)."""
    code = language(question)
    return UNKNOWN[code] if code is not None and says_unknown(answer) else answer


def says_unknown(answer: str) -> bool:
    """The answer only says it does not know, in a language a module knows."""
    said = normalize(answer).strip(" .!¡")
    return any(said == normalize(unknown).strip(" .") for unknown in UNKNOWN.values())


# A question after the person's own name: "What's my name?", "¿Cómo me llamo?", "Who am I?"
_OWN_NAME_ASKED = re.compile(r"\b(?:" + lang.pattern("OWN_NAME_ASKED") + r")\b")
# The person giving their own name: "Me llamo Bruno", "my name is Héctor Alcaraz", "I'm Tomás", "call me Ro".
_INTRODUCED = re.compile(r"(?i:\b(?:" + lang.pattern("INTRODUCTION") + r"))\s+"
                         r"((?:[A-ZÁÉÍÓÚÑ][^\W\d_]+)(?:\s+[A-ZÁÉÍÓÚÑ][^\W\d_]+)*)")


def asks_anothers_name(question: str) -> bool:
    """A question after who someone or something is, or its name, but not the person's own ("Who is my boss?",
    "¿Cómo se llama mi gato?"; not "What's my name?")."""
    asked = normalize(question)
    return bool(_ASKS_NAME & set(words(asked))) and _OWN_NAME_ASKED.search(asked) is None


def own_name_given(answer: str, question: str, shown: list[str]) -> list[int] | None:
    """The lines of `shown` in which the person gives their own name, when that name is all the answer names and the
    question asks the name of someone or something else; None when the answer is no such slip.

    In the held-out scenarios the 0.5B model answered "¿Cómo se llama mi gato?" and "¿Cómo se llama el taller donde
    trabajo?" with "Bruno." from "Me llamo Bruno.", and "¿Quién es mi médico ahora?" with the person's own name: the
    naming word of the question matches the person's introduction better than anything else."""
    if not asks_anothers_name(question) or language(question) is None:
        return None
    asked = normalize(question)
    named = {n for n in _named(answer) if not mentions(n, asked)}
    own = {i: [normalize(m) for m in _INTRODUCED.findall(line)] for i, line in enumerate(shown)}
    own_words = {w for names in own.values() for name in names for w in name.split()}
    if not named or not all(set(n.split()) <= own_words for n in named):
        return None
    return [i for i, names in own.items() if names]


def own_names(entries: Iterable[str]) -> set[str]:
    """The names the person gave themselves, read from the memory entries the Writer wrote in English about them."""
    return {name for entry in entries if (name := whose.given_name(entry))}


def own_name_read_wrongly(answer: str, question: str, shown: list, own: Iterable[str]) -> list[int] | None:
    """In a language whose words this does not know: the lines of `shown` (scored candidates) that give the person's
    own name, when the answer gives that name, the question does not, and the line nearest the question (by the
    embedder's score) does not either: the model read the introduction instead of the line the question is about
    ("Comment s'appelle ma sœur ?" answered "Je m'appelle Claire."). None when the answer is no such slip."""
    given = [n for n in own if mentions(n, answer) and not mentions(n, question)]
    if not given or not shown:
        return None
    nearest = max(shown, key=lambda c: c.score)
    if any(mentions(n, nearest.text) for n in given):
        return None
    return [i for i, c in enumerate(shown) if any(mentions(n, c.text) for n in given)]


_UNKNOWN_LANGUAGE = "the question is in a language this does not know: the model's answer stands"


def no_evidence(question: str) -> Check:
    return Check(UNKNOWN[language(question)], True, "no evidence line was found for the question (no model call)")


def check(answer: str, question: str, evidence_text: str) -> Check:
    """Keep the answer unless it names someone or something absent from both the evidence and the question."""
    if language(question) is None:
        return Check(answer, False, _UNKNOWN_LANGUAGE)
    named, letters = _named(answer), _letters(answer)
    asked = normalize(question)
    unsupported = sorted(n for n in named if not mentions(n, evidence_text) and not mentions(n, asked))
    unsupported += sorted(c for c in letters if not _says_letter(c, f"{evidence_text}\n{question}"))
    named |= letters
    if not unsupported:
        return Check(answer, False, "every name in the answer is in the evidence" if named else "the answer names nothing")
    return Check(UNKNOWN[language(question)], True,
                 f"the answer named {', '.join(unsupported)}, which no evidence line says; replaced by 'I don't know'",
                 tuple(unsupported))


# A question that asks for a name: "What's my mother's name?", "¿Cómo se llama mi perro?", "Who is my boss?"
_ASKS_NAME = lang.words("ASKS_NAME")
_FIRST_PERSON = lang.words("FIRST_PERSON") | lang.words("FIRST_PERSON_PLURAL")  # the person's own: "my", "mis"


# A question that asks for a quantity: "How old is my brother?", "¿Cuántos hijos tiene mi hermana?"
_ASKS_NUMBER = re.compile(r"\b(?:" + lang.pattern("ASKS_NUMBER") + r")\b")


@dataclass(frozen=True)
class Relations:
    """What the person's own words say about the relations a question asks after (mother, perro, boss…)."""

    asked: tuple[str, ...]  # relation words of the question, as normalised
    unsaid: tuple[str, ...]  # those the person never named, in either language
    told_with: str  # every message of the person's that names an asked relation
    wants_name: bool  # the question asks for a name or a who

    def about_someone_known(self, question: str) -> bool:
        """"¿Cómo se llama la novia de Joaquín?": a name in the question that the person said with the relation."""
        return any(mentions(n, self.told_with) for n in proper_nouns(question))

    def check(self, answer: str, question: str, *, dated: bool = False) -> Check:
        """A name asked for a relation must be one the person said in a message that names that relation; so must
        a number asked of it ("¿Cuántos años tiene mi hermano?" was answered "2 años" from the dog's "La adopté hace
        dos años"), unless the answer names a day (`dated`), as one counted from dated lines does. A span written
        without a day ("3 semanas" for a granddaughter born on a dated day) is refused too: a limit, measured once."""
        asked = normalize(question)
        if not self.wants_name and _ASKS_NUMBER.search(asked):
            counted = sorted(numbers(answer) - numbers(question) - numbers(self.told_with))
            if counted and not dated:
                return Check(UNKNOWN[language(question)], True,
                             f"the answer said {', '.join(counted)}, which no message about your "
                             f"{'/'.join(self.asked)} says; replaced by 'I don't know'", tuple(counted))
        named = sorted(n for n in _named(answer) if not mentions(n, asked))
        if not self.wants_name or not named:
            return Check(answer, False, "no name to tie to the relation asked about")
        if any(mentions(n, self.told_with) for n in named):
            return Check(answer, False, f"you named {', '.join(named)} where you spoke of your {'/'.join(self.asked)}")
        return Check(UNKNOWN[language(question)], True,
                     f"you never named {', '.join(named)} where you spoke of your {'/'.join(self.asked)}; "
                     "replaced by 'I don't know'", tuple(named))


def _theirs(question: str, relation: str) -> bool:
    """Whether the question asks after the relation, not a thing named after it: a possessive with no first-person
    word ("my", "mis", "our") in the three words before it names a thing ("a local children's hospital"); "my
    sister's name", "Joaquín's girlfriend" and "my coworker and brother" ask after a person."""
    said = words(normalize(question))
    return any(without_possessive(word) == relation
               and (without_possessive(word) == word or _FIRST_PERSON & set(said[max(0, i - 3):i]))
               for i, word in enumerate(said))


def relations(question: str, said: Callable[[], Iterable[str]]) -> Relations | None:
    """The relations `question` asks after, checked against everything the person said (`said()`: their messages,
    read only when the question names a relation).

    None when the question names no relation to a person (animals go by breed: "my greyhound" is a dog) or is in a
    language this does not know."""
    code = language(question)
    asked = tuple(w for w in relation_words(question, language=code, people=True) if _theirs(question, w)
                  ) if code else ()
    if not asked:
        return None
    groups = {w: relation_group(w) for w in asked}
    named: set[str] = set()
    told_with: list[str] = []
    for text in said():  # one pass, each message read once: a long log is thousands of them
        present = set(words(normalize(text)))
        hits = {w for w, g in groups.items() if g & present}
        if hits:
            named |= hits
            told_with.append(text)
    unsaid = tuple(w for w in asked if w not in named)
    return Relations(asked, unsaid, "\n".join(told_with), bool(_ASKS_NAME & set(words(normalize(question)))))
