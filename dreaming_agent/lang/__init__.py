"""Every language the code reads, one module each, and which of them a text is in.

A module (`en.py`, `es.py`) defines the same names: word lists as whitespace-separated strings, phrase tuples, maps and
regular-expression fragments. Code reads a name across every language (`words`, `phrases`, `pattern`, `merged`) or
one language's (`of`). Adding a language is adding a module with those names and listing it in `LANGUAGES`.
"""
from __future__ import annotations

import re
from functools import cache
from types import ModuleType

from py3langid.langid import MODEL_FILE, LanguageIdentifier

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
    if marked := _marked(text):
        return marked
    tokens = [w.lower().replace("’", "'") for w in _WORD.findall(text)]
    counts = {code: sum(t in _DISTINCT[code] for t in tokens) for code in LANGUAGES}
    best = max(counts.values())
    leaders = [code for code, n in counts.items() if n == best]
    return leaders[0] if len(leaders) == 1 else None


def _marked(text: str) -> str | None:
    """The language whose own punctuation the text has ("¿", "¡"), else None."""
    return next((code for code, module in LANGUAGES.items()
                 if module.MARKS and any(mark in text for mark in module.MARKS)), None)


def language(text: str) -> str | None:
    """The known language `text` is in, by its punctuation and by scoring its words against each known language's
    function words; None for a language none of the modules knows (French, German…) or a text that tells none."""
    if marked := _marked(text):
        return marked
    said = _unnamed_words(text)
    if _foreign(said) or _elsewhere(text, said):
        return None
    if known := said_in(text):
        return known
    counts = {code: sum(w in _COMMON[code] for w in said) for code in LANGUAGES}
    leaders = [code for code, n in counts.items() if n == max(counts.values()) and n]
    # as many words of two known languages ("I'm Tomás"): the one whose accented letters it has, else the first
    return next((code for code in leaders if any(c in text for c in of(code).ACCENTS)), leaders[0] if leaders else None)


def elsewhere(text: str) -> bool:
    """Whether `text` is in a language no module knows, by its words or the identifier ("Am Samstag bin ich nach
    Leipzig umgezogen!"): not merely a text that tells none ("Pepper!", "Ok")."""
    if _marked(text):
        return False
    said = _unnamed_words(text)
    return _foreign(said) or _elsewhere(text, said)


def surely_elsewhere(text: str) -> bool:
    """Whether `text` is in a language no module knows by every sign: `elsewhere`, and the identifier reads it, with
    confidence (`ELSEWHERE_FROM`), as another. Short English with rare words ("I quit smoking.", "I love sushi.") has
    too few common words for the word lists, but the identifier reads it as English; one it is unsure of is not."""
    if _marked(text):
        return False
    said = _unnamed_words(text)
    code, probability = _identifier().classify(text)
    # `elsewhere` with the identifier's reading asked once: confident, it holds from three words, or with few common
    return code not in LANGUAGES and probability >= ELSEWHERE_FROM and (len(said) >= 3 or _foreign(said))


def ordinal_stop(text: str) -> bool:
    """Whether `text`'s language writes a day's number with a full stop ("2. Dezember"): its module says, or, for one
    no module knows, the identifier reads it, with confidence, as one that does (`ORDINAL_STOP_ELSEWHERE`)."""
    if code := language(text):
        return of(code).ORDINAL_STOP
    code, probability = _identifier().classify(text)
    return code in ORDINAL_STOP_ELSEWHERE and probability >= ELSEWHERE_FROM


def _unnamed_words(text: str) -> list[str]:
    """Its words, lower-cased, without the capitalised ones inside a sentence (names say nothing of a language)."""
    said = []
    for sentence in re.split(r"(?<=[.!?:;])\s+", text):
        for i, word in enumerate(_LETTERS.findall(sentence)):
            if i == 0 or not word[:1].isupper() or word == "I":
                said.append(word.lower().replace("’", "'"))
    return said


def _foreign(said: list[str]) -> bool:
    """Few of its words are a known language's common words ("Je m'appelle Claire et j'habite à Lyon."; of three words
    or more, one is a coincidence: "Was ist mein …"), or some are written with letters no known language has and not
    many are common ("Où est-ce que j'habite ?", "Wie heißt meine Schwester?")."""
    common = sum(w in _ANY_COMMON for w in said)
    spelled_elsewhere = any(set(w) - _ALPHABET for w in said)
    few = common < FOREIGN_BELOW * len(said) or (len(said) >= 3 and common < 2)
    return (len(said) >= 2 and few) or (spelled_elsewhere and common < len(said) / 2)


def _elsewhere(text: str, said: list[str]) -> bool:
    """A text of three words or more that a language identifier trained on many languages reads, with confidence, as
    one no module knows: Italian or Portuguese share enough short words with Spanish ("mi", "e", "a", "como") for
    the word lists alone to call them Spanish ("Mi chiamo Giulia e abito a Torino.")."""
    if len(said) < 3:
        return False
    code, probability = _identifier().classify(text)
    return code not in LANGUAGES and probability >= ELSEWHERE_FROM


def load() -> None:
    """Load the language identifier now (about 1 s, once per process): at start-up, not on a person's first turn."""
    _identifier()


@cache
def _identifier() -> LanguageIdentifier:
    """py3langid's model (character n-grams), shipped inside the package: nothing is downloaded. It chooses among
    widely written languages only (`IDENTIFIED`): among all 97 it knows, "Vivo en Bilbao pero soy de Zaragoza." is
    Aragonese."""
    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(sorted(IDENTIFIED | set(LANGUAGES)))
    return identifier


# The languages the identifier chooses among: widely written ones, as small chat models are trained on.
IDENTIFIED = frozenset("ar bg cs da de el en es et fa fi fr he hi hr hu id it ja ko lt lv nl no pl pt ro ru sk sl "
                       "sr sv th tr uk vi zh".split())


# Of those, the ones that write a day's number as an ordinal with a full stop ("am 2. Dezember", "2. prosince",
# "2. joulukuuta"): a fact of their spelling, as `ORDINAL_STOP` is of each module's language.
ORDINAL_STOP_ELSEWHERE = frozenset("cs da de et fi hr hu lv no sk sl sr tr".split())
ELSEWHERE_FROM = 0.7  # the identifier's probability from which a text is in a language no module knows
FOREIGN_BELOW = 0.2  # the share of known languages' common words under which a text is in another language
_LETTERS = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


# Names whose words say nothing of which language a text is in: its letters, a notice, the rare words of credentials,
# the Writer's English
_NOT_VOCABULARY = frozenset({"ALPHABET", "MARKS", "ACCENTS", "NOT_REMEMBERED", "CREDENTIALS", "ENTRY_OWN_NAME"})


def _vocabulary(module: ModuleType) -> frozenset[str]:
    """Every word a language module names, in any of its lists, phrases, maps or patterns."""
    found: set[str] = set()

    def read(value: object) -> None:
        if isinstance(value, str) and any(c in value for c in "\\|(["):  # a pattern: its words, not its escapes
            found.update(w.lower() for w in _LETTERS.findall(value) if len(w) > 1)
        elif isinstance(value, str):
            found.update(value.lower().split())
        elif isinstance(value, dict):
            for key, item in value.items():
                read(key)
                read(item)
        elif isinstance(value, (tuple, list)):
            for item in value:
                read(item)

    for name, value in vars(module).items():
        if name.isupper() and name not in _NOT_VOCABULARY:
            read(value)
    return frozenset(found)


# The words each language's texts are mostly made of: what its modules name (function words, pronouns, question
# words, numbers, dates, greetings…).
_COMMON = {code: _vocabulary(module) for code, module in LANGUAGES.items()}
_ANY_COMMON = frozenset().union(*_COMMON.values())
_ALPHABET = frozenset("'’-").union(*(module.ALPHABET for module in LANGUAGES.values()))


_DISTINCT = {code: frozenset(module.DISTINCT.split()) for code, module in LANGUAGES.items()}

