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

from .abstain import asks_anothers_name, language, said_in
from .controller import plan

# A clause in which the assistant speaks of itself: left as it is.
_ASSISTANT = re.compile(
    r"\bi\s+(?:do not|don't|did not|didn't|cannot|can't|can|could|couldn't|would|will|won't|apologi[sz]e|think|"
    r"believe|know|remember|recall|found|find|see|understand|have no|hope|need|am (?:sorry|afraid|not sure|unable))\b"
    r"|\bi['’](?:m (?:sorry|afraid|not sure|unable|here)|d|ll)\b|\b(?:to my|my) (?:knowledge|records|memory|notes)\b"
    r"|\b(?:no lo sé|no sé|lo siento|lo lamento|no puedo|puedo|creo|no recuerdo|no encuentro|según mi)\b"
    r"|\bno tengo (?:la |esa |suficiente |ningún |ninguna )?(?:información|datos|acceso|registro|constancia)\b",
    re.IGNORECASE)

# A clause that already speaks to the person: it is the assistant's ("You told me you live in Bilbao").
_SECOND_PERSON = re.compile(r"\b(?:you|your|yours|yourself|you're|tú|tus|ti|contigo|eres|estás|tienes|vives|"
                            r"trabajas|vas|sabes|\w{2,}(?:aste|iste))\b", re.IGNORECASE)  # dijiste, contaste

_CLAUSE = re.compile(r"((?:[,;:]\s*|\s+)(?:that|but|pero|que|aunque|y|and)\s+|[,;:]\s*)", re.IGNORECASE)
_TOKEN = re.compile(r"([^\W\d_]+(?:['’][^\W\d_]+)?)")

_ENGLISH = {"i": "you", "i'm": "you're", "i've": "you've", "my": "your", "mine": "yours", "myself": "yourself"}
_AFTER_I = {"am": "are", "was": "were"}

_SPANISH = {"mi": "tu", "mis": "tus", "mío": "tuyo", "mía": "tuya", "míos": "tuyos", "mías": "tuyas", "yo": "tú",
            "mí": "ti", "conmigo": "contigo"}
# First person singular to second, the verbs a person tells about themselves with. Not "como" ("as"), and no
# imperfect ("vivía", "era"): its first and third person are the same word, so "Amparo me daba clases" stays.
_VERBS = {
    "soy": "eres", "estoy": "estás", "voy": "vas", "tengo": "tienes", "he": "has", "hago": "haces", "digo": "dices",
    "quiero": "quieres", "vengo": "vienes", "salgo": "sales", "pongo": "pones", "conozco": "conoces",
    "prefiero": "prefieres", "juego": "juegas", "duermo": "duermes", "pienso": "piensas", "empiezo": "empiezas",
    "sigo": "sigues", "veo": "ves", "doy": "das", "traigo": "traes", "vuelvo": "vuelves", "conduzco": "conduces",
    "almuerzo": "almuerzas", "fui": "fuiste", "estuve": "estuviste", "tuve": "tuviste", "hice": "hiciste",
    "pude": "pudiste", "puse": "pusiste", "dije": "dijiste", "vine": "viniste", "quise": "quisiste", "di": "diste",
    "vi": "viste", "conduje": "condujiste", "traje": "trajiste",
    **{f"{stem}o": f"{stem}as" for stem in (
        "trabaj", "estudi", "llam", "dedic", "us", "llev", "habl", "nad", "cocin", "tom", "pag", "necesit", "odi",
        "ayud", "busc", "compr", "cuid", "dibuj", "enseñ", "escuch", "gan", "lleg", "mir", "pint", "practic",
        "prepar", "qued", "alquil", "viaj", "toc", "cant", "bail", "mont", "manej", "cobr", "ahorr", "visit", "mud",
        "intent", "entren", "desayun", "cen", "coleccion", "cultiv", "escal", "camin")},
    **{f"{stem}o": f"{stem}es" for stem in (
        "beb", "aprend", "corr", "comprend", "vend", "deb", "viv", "escrib", "sub", "recib", "decid", "abr",
        "sufr", "compart", "asist")},
}
# Words that end like a first-person preterite and are not one.
_NOT_PRETERITE = frozenset("aquí allí ahí así josé café bebé puré comité chalé canapé esquí maní rubí".split())
# After these a word is a noun ("mi trabajo", "al trabajo"), not a verb ("trabajo en Basurto").
_BEFORE_NOUNS = frozenset("mi tu su el la los las un una al del de en a con por para sin este ese esta esa nuevo "
                          "nueva mismo misma".split())


# The model speaking as the one asked about: "Who is my cello teacher?" -> "I'm Fiona, from Aberdeen." (in the app,
# 0.5B model), which turned to the person would say they are Fiona. Asked another's name (`asks_anothers_name`), the
# name is the answer and the opening goes.
_INTRODUCES = re.compile(r"^(\s*)(?i:i['’]m|i am|my name is|my name's|soy|me llamo|mi nombre es)\s+(?=[A-ZÁÉÍÓÚÑ])")


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


def _turned(answer: str, lang: str) -> str:
    return "".join(_sentence(part, said_in(part) or lang) for part in re.split(r"((?<=[.!?…])\s+)", answer))


def _sentence(sentence: str, lang: str) -> str:
    if not sentence.strip() or _SECOND_PERSON.search(sentence):
        return sentence
    parts = _CLAUSE.split(sentence)
    return "".join(part if i % 2 else _clause(part, lang, first=i == 0) for i, part in enumerate(parts))


def _clause(clause: str, lang: str, *, first: bool) -> str:
    """The clause in the second person, or as it is when the assistant speaks in it or a verb is not known."""
    if _ASSISTANT.search(clause):
        return clause
    # "…, pero she's happy for me": the clause's own language, told by its words other than "me"
    lang = said_in(re.sub(r"\bme\b", " ", clause, flags=re.IGNORECASE)) or lang
    tokens = _TOKEN.split(clause)
    out, previous, opened = [], "", False
    for i, token in enumerate(tokens):
        if not i % 2 or (opened and token[:1].isupper() and token != "I"):  # between words, or a name
            out.append(token)
            continue
        turned = _word(token.lower().replace("’", "'"), previous, lang)
        if turned is None:
            return clause
        if turned != token.lower().replace("’", "'") or token == "I":
            at_start = first and not opened
            token = _cased(turned, token, at_start)
        out.append(token)
        previous, opened = token.lower(), True
    return "".join(out)


def _word(word: str, previous: str, lang: str) -> str | None:
    """The word turned to the second person (itself when it has no person); None when it is a first-person Spanish
    verb this module cannot turn."""
    if previous in ("you", "you're") and word in _AFTER_I:
        return _AFTER_I[word]
    if word == "me":
        return "te" if lang == "es" else "you"
    if word in _ENGLISH:
        return _ENGLISH[word]
    if word in _SPANISH:
        return _SPANISH[word]
    if previous in _BEFORE_NOUNS:
        return word
    if word in _VERBS and (word != "he" or lang == "es"):
        return _VERBS[word]
    if len(word) > 3 and word[-1] in "éí" and word not in _NOT_PRETERITE:  # llegué, viví: the preterite
        if word.endswith(("aré", "eré", "iré")) and len(word) > 5:  # trabajaré: the future
            return word[:-1] + "ás"
        if word[-1] == "í":
            return word[:-1] + "iste"
        stem = word[:-1]  # llegué -> llegaste, busqué -> buscaste, empecé -> empezaste
        for written, said in (("gu", "g"), ("qu", "c"), ("c", "z")):
            if stem.endswith(written):
                return stem[:-len(written)] + said + "aste"
        return stem + "aste"
    if previous in ("te", "tú") and word.endswith(("o", "mos")) and len(word) > 2:
        return None  # "me dedico", "yo vivimos": a first-person verb not known here
    return word


def _cased(turned: str, original: str, at_start: bool) -> str:
    if original == "I":
        return turned[:1].upper() + turned[1:] if at_start else turned
    if original[:1].isupper():
        return turned[:1].upper() + turned[1:]
    return turned
