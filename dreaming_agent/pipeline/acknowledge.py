"""A statement's reply checked by code: a refusal, an "I don't know", the prompt's instruction said back, or the
person's own words spoken back as the assistant's become a plain acknowledgement in the person's language (the
model still writes every other reply)."""
from __future__ import annotations

import re
from collections import Counter

from ..text import normalize, words
from .abstain import Check, language

PLAIN = {"es": "Entendido, gracias por contármelo.", "en": "Got it, thanks for telling me."}

# What the 0.5B default model says to "I'm allergic to penicillin." and the like: nothing was asked of it.
_REFUSALS = tuple(normalize(p) for p in (
    "i'm sorry", "i am sorry", "can't assist", "cannot assist", "can't help with", "cannot help with",
    "i apologize", "i don't have any information", "i do not have any information", "i don't know", "i do not know",
    "lo siento", "no puedo ayudar", "no tengo información", "no lo sé", "no lo se"))
# The prompt's own instruction said back ("Acknowledge that Koldo is very strict.", "I acknowledge that you said…"):
# met as a new user with the 0.5B default model.
_ECHOES = ("acknowledg",)
# Who the person says they are ("soy Itziar", "I'm a nurse"): said back by the assistant, it claims to be them
# ("¡Hola! Estoy Itziar, una enfermera…": the 0.5B default model's Spanish, met as a new user).
_IDENTITY = re.compile(r"\b(?:soy|estoy|me llamo|mi nombre es|i'm|i am|my name is)\s+(?:una?\s+|an?\s+)?(\w+)")
_FIRST_PERSON = frozenset("i i'm i've my me mine myself yo mi mis me conmigo".split())
_SECOND_PERSON = frozenset("you you're your yours tu tus tú te ti contigo usted".split())


def check(reply: str, message: str) -> Check:
    """Keep the model's acknowledgement unless it refuses, knows nothing, echoes its instruction, or speaks the
    person's sentence as its own."""
    folded = normalize(reply).replace("’", "'")
    if any(phrase in folded for phrase in _REFUSALS):
        return Check(PLAIN[language(message)], True,
                     "the reply refused or said it knew nothing, where the person only told something; "
                     "replaced by a plain acknowledgement")
    if any(echo in folded for echo in _ECHOES):
        return Check(PLAIN[language(message)], True,
                     "the reply repeated its instruction ('acknowledge') instead of speaking to the person; "
                     "replaced by a plain acknowledgement")
    if _speaks_as_the_person(folded, normalize(message).replace("’", "'")):
        return Check(PLAIN[language(message)], True,
                     "the reply repeated the person's own words as its own; replaced by a plain acknowledgement")
    return Check(reply, False, "the reply acknowledges the message")


def _speaks_as_the_person(reply: str, message: str) -> bool:
    """The reply claims who the person said they are, opens with the message's first five words, or brings most of
    them back with its "I"/"my" and without a "you" ("Ya no tomo café…" / "I don't drink coffee anymore…" as the
    assistant's own); a quote or an echo as a question is fine."""
    said, answered = words(message), words(reply)
    quoting = bool(_SECOND_PERSON & set(answered))  # "You said: my name is Eve" speaks to the person
    if set(_IDENTITY.findall(message)) & set(_IDENTITY.findall(reply)) and not quoting:  # "¡Hola! Soy Itziar…"
        return True
    if len(said) < 5:
        return False
    if answered[:5] == said[:5]:
        return True
    common = Counter(said) & Counter(answered)
    return sum(common.values()) >= 0.8 * len(said) and bool(_FIRST_PERSON & set(common)) and not quoting
