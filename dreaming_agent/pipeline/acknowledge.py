"""A statement's reply checked by code: a refusal, an "I don't know", the prompt's instruction said back, the
person's own words spoken back as the assistant's, or a reply in the other language become a plain acknowledgement
in the person's language (the model still writes every other reply)."""
from __future__ import annotations

import re
from collections import Counter
from typing import Callable

from .. import lang
from ..text import normalize, split_sentences, words
from ..lang import language, said_in
from .abstain import Check

PLAIN = lang.each("ACKNOWLEDGED")
# An acknowledgement in no language, for a message in one no module knows: the model's reply in English or Spanish to
# "Große Neuigkeit: am Samstag bin ich nach Leipzig umgezogen!" was "Thank you for sharing your message. I'm glad you
# found it interesting." (the default model, met as a new user); no acknowledgement in German is known here.
ANY_LANGUAGE = "✓"

# What the 0.5B default model says to "I'm allergic to penicillin." and the like: nothing was asked of it.
_REFUSALS = tuple(normalize(p) for p in lang.phrases("REFUSALS"))
# The prompt's own instruction said back ("Acknowledge that Koldo is very strict.", "I acknowledge that you said…").
_ECHOES = lang.phrases("ECHOES")
# Who the person says they are ("soy Itziar", "I'm a nurse"): said back by the assistant, it claims to be them.
_SAYING_WHO = lang.pattern("INTRODUCTION") + "|" + lang.pattern("BEING")
_IDENTITY = re.compile(r"\b(?:" + _SAYING_WHO + r")\s+(?:(?:" + lang.pattern("ARTICLE") + r")\s+)?(\w+)")
_FIRST_PERSON = lang.words("FIRST_PERSON")
_SECOND_PERSON = lang.words("SECOND_PERSON")


def check(reply: str, message: str) -> Check:
    """Keep the model's acknowledgement unless it refuses, knows nothing, echoes its instruction, or speaks the
    person's sentence as its own. In a language this does not know, keep it unless it is in one this does know (an
    acknowledgement in no language instead): what the model says in the person's own language stands."""
    folded, said = normalize(reply).replace("’", "'"), normalize(message).replace("’", "'")
    if language(message) is None:
        if lang.elsewhere(message):
            if said_in(reply):
                return Check(ANY_LANGUAGE, True, "the message is in a language this does not know and the reply in "
                             "another; replaced by an acknowledgement in no language")
            if _speaks_as_the_person(folded, said):
                return Check(ANY_LANGUAGE, True, "the reply repeated the person's own words as its own; replaced by "
                             "an acknowledgement in no language")
        return Check(reply, False, "the message is in a language this does not know: the model's reply stands")
    if any(phrase in folded for phrase in _REFUSALS):
        return Check(PLAIN[language(message)], True,
                     "the reply refused or said it knew nothing, where the person only told something; "
                     "replaced by a plain acknowledgement")
    if any(echo in folded for echo in _ECHOES):
        return Check(PLAIN[language(message)], True,
                     "the reply repeated its instruction ('acknowledge') instead of speaking to the person; "
                     "replaced by a plain acknowledgement")
    # Sentence by sentence too: a "you" in a thank-you before it does not make "On Fridays, I play the guitar in a band
    # called Los Lunes." a quote (the default model's reply to that sentence).
    if any(_speaks_as_the_person(part, said) for part in (folded, *split_sentences(folded))):
        return Check(PLAIN[language(message)], True,
                     "the reply repeated the person's own words as its own; replaced by a plain acknowledgement")
    # "Ahora trabajo en el hospital de Basurto." got "Thank you for your message…" (met as a new user).
    told, replied = said_in(message), said_in(reply)
    if told and replied and told != replied:
        return Check(PLAIN[told], True, "the reply was in another language than the message; "
                     "replaced by a plain acknowledgement in theirs")
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


class Held:
    """A statement's reply on its way to the person (`on_text`), held back until it is long enough to judge: its first
    words are the ones a refusal or a sentence said back starts with. Forwarded from then on while `check` keeps it;
    once `check` would replace it, what was shown is withdrawn and nothing more is shown (the turn ends with the plain
    acknowledgement). The 0.5B default model's "I'm sorry, but I can't assist with that." was seen for two seconds."""

    words_judged = 6  # the longest refusal phrase is five words, and a sentence said back shows in its first five

    def __init__(self, on_text: Callable[[str | None], None], message: str):
        self._on_text, self._message = on_text, message
        self._reply, self._shown, self._stopped = "", False, False

    def __call__(self, piece: str | None) -> None:
        if piece is None:  # the reply is asked for again: judge the new one from its start
            self._reply, self._stopped = "", False
            if self._shown:
                self._shown = False
                self._on_text(None)
            return
        self._reply += piece
        if self._stopped:
            return
        if check(self._reply, self._message).abstained:
            self._stopped = True
            if self._shown:
                self._on_text(None)
        elif self._shown:
            self._on_text(piece)
        elif len(self._reply.split()) >= self.words_judged:
            self._shown = True
            self._on_text(self._reply)


def without_copied(reply: str) -> str:
    """A question's reply without the code's own acknowledgement at its start: shown it after each statement in the
    window, the 0.5B default model opened "¿A qué soy alérgica?" with "Entendido, gracias por contármelo." (met as a
    new user). Empty when the reply was nothing else."""
    opened = reply.lstrip()
    for said in _COPIED:
        if opened.casefold().startswith(said):
            return opened[len(said):].lstrip(" .,;:!¡\n")
    return reply


# Each plain acknowledgement as the model copies it, with or without its full stop, longest first.
_COPIED = tuple(sorted({form.casefold() for plain in (*PLAIN.values(), ANY_LANGUAGE)
                        for form in (plain, plain.rstrip("."))},
                       key=len, reverse=True))


class Stripped:
    """A question's reply on its way to the person (`on_text`), held back while it is still the code's acknowledgement
    copied from the window; what follows that is forwarded as the reply (`without_copied`)."""

    def __init__(self, on_text: Callable[[str | None], None]):
        self._on_text = on_text
        self._reply, self._shown = "", False

    def __call__(self, piece: str | None) -> None:
        if piece is None:  # the reply is asked for again
            self._reply = ""
            if self._shown:
                self._shown = False
                self._on_text(None)
            return
        if self._shown:
            self._on_text(piece)
            return
        self._reply += piece
        opened = self._reply.lstrip().casefold()
        if any(said.startswith(opened) for said in _COPIED):
            return  # it may still become the acknowledgement
        rest = without_copied(self._reply)
        if rest:
            self._shown = True
            self._on_text(rest)

