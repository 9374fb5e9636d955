"""Abstention decided by code: an answer that names what no evidence line says becomes "I don't know"."""
from __future__ import annotations

from dataclasses import dataclass

from ..text import mentions, normalize, proper_nouns, split_sentences, words

UNKNOWN = {"es": "No lo sé.", "en": "I don't know."}

# Frequent Spanish words that are not English words: enough to tell the two languages of a short question apart.
_SPANISH = frozenset(
    """el la los las un una de del que qué en y mi mis me se por para con como cómo cuál cuándo dónde quién cuánto
    cuántos cuántas es está estoy tengo tiene hay ahora antes después hace fue era llama vive trabajo ya pero muy
    más desde hoy ayer todo esto eso su sus nos le lo al""".split()
)


# Frequent English words that are not Spanish words.
_ENGLISH = frozenset(
    """i i'm i've i'd my the an and is are was were to of in on at for with you your what what's who where when
    how do does did have has it this that from am be been will would can not don't""".split()
)


# Words that open a reply without naming anything ("Based on the memory, …", "Según lo que me dijiste, …").
_OPENERS = frozenset(normalize(w) for w in
    """based according sorry unfortunately yes sure certainly actually currently now then also well hello hi
    note remember as from in on at by for with after before since during
    según claro perdón lamentablemente actualmente ahora entonces también bueno hola sí vale desde en con
    después antes durante""".split())


def _named(answer: str) -> set[str]:
    """Names and specific values the answer states; an opening word is a name only if it is not a common opener."""
    found = set()
    for sentence in split_sentences(answer):
        tokens = words(sentence)
        if tokens and normalize(tokens[0]) in _OPENERS or (tokens and normalize(tokens[0]).endswith(("ly", "ing"))):
            sentence = sentence[sentence.find(tokens[0]) + len(tokens[0]):]
        found |= proper_nouns(sentence)
    return {n for n in found if len(n) > 1}


@dataclass(frozen=True)
class Check:
    answer: str
    abstained: bool
    reason: str


def language(text: str) -> str:
    """'es' or 'en', from punctuation and frequent words; accents decide only a tie ("I'm Tomás" is English)."""
    if "¿" in text or "¡" in text:
        return "es"
    tokens = [w.lower().replace("’", "'") for w in words(text)]
    spanish, english = sum(t in _SPANISH for t in tokens), sum(t in _ENGLISH for t in tokens)
    if spanish != english:
        return "es" if spanish > english else "en"
    return "es" if any(c in text for c in "ñáéíóú") else "en"


def no_evidence(question: str) -> Check:
    return Check(UNKNOWN[language(question)], True, "no evidence line was found for the question (no model call)")


def check(answer: str, question: str, evidence_text: str) -> Check:
    """Keep the answer unless it names someone or something absent from both the evidence and the question."""
    named = _named(answer)
    asked = normalize(question)
    unsupported = sorted(n for n in named if not mentions(n, evidence_text) and not mentions(n, asked))
    if not unsupported:
        return Check(answer, False, "every name in the answer is in the evidence" if named else "the answer names nothing")
    return Check(UNKNOWN[language(question)], True,
                 f"the answer named {', '.join(unsupported)}, which no evidence line says; replaced by 'I don't know'")
