"""Pure text helpers shared by grounding, the Dream validator, clustering and scoring."""
from __future__ import annotations

import difflib
import re
import unicodedata

from . import lang

_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*", re.UNICODE)
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
# Marks that end a question in any script: "？" in Chinese and Japanese, "؟" in Arabic.
QUESTION_MARKS = ("?", "？", "؟")
# A sentence ends at the spaces after . ! ? …; in a script written without spaces (Chinese, Japanese), right after
# 。！？ or the closing quote after them (a whole message had been one sentence, and a question in it made all of it a
# question).
_SENTENCE_END = re.compile(r"(?<=[.!?¡¿…؟])\s+|(?<=[。！？])\s*(?![」』）”’])|(?<=[。！？][」』）”’])\s*")
_LINE_BREAK = re.compile(r"\n+")
# A full stop that ends a title or an initial ends no sentence: "Dr. Patel", "la Dra. Okafor", "J.K. Rowling",
# "George R. R. Martin" (the third scenario's "…mi nueva doctora aquí, la Dra." was stored without her name).
# "I." stays a sentence's end ("…shouldn't I.").
_ABBREVIATION_END = re.compile(
    r"(?:^|[\s(¡¿\"'])(?:(?i:" + lang.pattern("TITLES") + r")|[A-HJ-Z](?:\.[A-Z])*)\.$")
# A day's number and its full stop ending a piece: "… am 2."
_DAY_NUMBER_END = re.compile(r"(?:^|[\s(])(?:0?[1-9]|[12]\d|3[01])\.$")

# Capitalised words that are not names: sentence openers, pronouns, titles.
_NOT_NAMES = lang.words("NOT_NAMES")

_NUMBER_WORDS = lang.merged("NUMBER_WORDS")

# Names whose forms in two languages share too little spelling to be matched by similarity: English -> another's.
_ALIASES = lang.merged("ALIASES")


# Who someone is to the person, one group per relation across the languages (accents folded).
_RELATIONS = lang.groups("RELATIONS")
# Animals are often named by breed ("my greyhound"), so a lexicon cannot tell that one was never mentioned.
ANIMALS = lang.groups("ANIMALS")
PEOPLE = frozenset().union(*_RELATIONS)
_RELATIONS += ANIMALS
_POSSESSIVE = re.compile(r"['’]s?$")  # "sister's", "parents'"
# Relation words that in a question of one language ask after nobody ("son" is Spanish for "they are").
_NOT_RELATIONS_IN = {code: frozenset(said.split()) for code, said in lang.each("NOT_RELATIONS").items()}


def relations_missing(text: str, other: str) -> list[str]:
    """Relation words of `text` (sister, dog, novio…) that `other` says in neither language, in order."""
    said = set(words(normalize(other)))
    return [word for word in relation_words(text) if not relation_group(word) & said]


def relation_words(text: str, *, language: str = "en", people: bool = False) -> list[str]:
    """The relation words `text` names (sister, perro, son-in-law…; only people's with `people`), normalised."""
    skip = _NOT_RELATIONS_IN.get(language, frozenset())
    found = (without_possessive(w) for w in words(normalize(text)))
    return [w for w in dict.fromkeys(found)
            if w not in skip and (w in PEOPLE if people else any(w in g for g in _RELATIONS))]


def without_possessive(word: str) -> str:
    """"sister's" and "parents'" as "sister" and "parents"."""
    return _POSSESSIVE.sub("", word)


def relation_group(word: str) -> frozenset[str]:
    """Every word that names the relation `word` names, in either language (sister: hermana, sis…)."""
    return frozenset().union(*(g for g in _RELATIONS if word in g))


def normalize(text: str) -> str:
    """NFKD, drop combining marks, case-fold, collapse whitespace; a typographic apostrophe is the plain one."""
    decomposed = unicodedata.normalize("NFKD", text.replace("\u2019", "'"))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def content_words(text: str) -> set[str]:
    """Its words of four letters or more, normalised: what a remark is about, without "the", "my", "is"."""
    return {w for w in words(normalize(text)) if len(w) > 3}


def related(entry: str, sentences: list[str]) -> list[str]:
    """Those of a message's `sentences` that share a content word with `entry`: the ones it was drawn from."""
    return [s for s in sentences if content_words(_SPEAKER.sub("", s, count=1)) & content_words(entry)]


# Who said a message, where it opens with the name (a conversation of two people): not a word the sentence shares
# with an entry, or every entry about that speaker would quote their every opening remark.
_SPEAKER = re.compile(r"^[A-Z][\w'’-]*: ")


def split_sentences(text: str) -> list[str]:
    """Split a message into sentences; a message without punctuation is one sentence."""
    parts: list[str] = []
    for line in _LINE_BREAK.split(text):
        started = False  # a line break always ends a sentence
        for piece in _SENTENCE_END.split(line):
            piece = piece.strip()
            if not piece:
                continue
            if started and (_ABBREVIATION_END.search(parts[-1]) or _ordinal_stop(parts[-1], piece, line)):
                parts[-1] = f"{parts[-1]} {piece}"
            else:
                parts.append(piece)
            started = True
    return parts or ([text.strip()] if text.strip() else [])


def _ordinal_stop(before: str, after: str, line: str) -> bool:
    """Whether the full stop ending `before` makes a day's number an ordinal, the word `after` it going on the
    sentence ("am 2. Dezember"), in a line whose language writes such ordinals (`lang.ordinal_stop`)."""
    return bool(_DAY_NUMBER_END.search(before)) and after[:1].isalpha() and lang.ordinal_stop(line)


def numbers(text: str) -> set[str]:
    found = {n.replace(",", ".") for n in _NUMBER.findall(text)}
    for w in words(normalize(text)):
        if w in _NUMBER_WORDS:
            found.add(_NUMBER_WORDS[w])
    return found


def proper_nouns(text: str) -> set[str]:
    """Capitalised words that are not sentence openers or pronouns, normalised; consecutive ones joined."""
    names: list[str] = []
    for run in name_runs(text):
        folded = [normalize(token) for token in run]
        names.append(" ".join(folded))
        names.extend(folded if len(folded) > 1 else [])
    return set(names)


def name_runs(text: str) -> list[list[str]]:
    """The runs of consecutive capitalised words that are not sentence openers or pronouns, as written, in order."""
    runs: list[list[str]] = [[]]
    for token in words(text):
        if token[:1].isupper() and normalize(token) not in _NOT_NAMES:
            runs[-1].append(token)
        elif runs[-1]:
            runs.append([])
    return [run for run in runs if run]


def without_names(text: str) -> str:
    """The text with its runs of names left out ("The user is a junior data analyst at Haar Analytics" -> "The user is
    a junior data analyst at"): what it says of its names, for an embedder whose vector the names pull their way."""
    out = text
    for run in name_runs(text):
        out = re.sub(r"(?<!\w)" + r"\W+".join(map(re.escape, run)) + r"(?!\w)", "", out, count=1)
    return re.sub(r"\s+", " ", out).strip()


# Words of greeting, thanks, agreement, praise and exclamation (accents folded). A sentence made only of these and
# names ("Wow, Mel!", "¡Gracias, Ana!", "Phew!", "Nice job!", "That looks great!") tells nothing about anyone. "yes",
# "yep", "no" are not here: they answer something.
_SMALL_TALK = lang.words("SMALL_TALK")
# Of which at least one must be said: a sentence of "you", "so" and names is not small talk, just short.
_SMALL_TALK_FUNCTION = lang.words("SMALL_TALK_FUNCTION")


def says_nothing(text: str) -> bool:
    """Small talk: only greetings, thanks, agreement or exclamations, and names ("Caroline: Thanks, Mel!")."""
    names = {part for name in proper_nouns(text) for part in name.split()} - _SMALL_TALK  # "Wow" opens, not names
    said = [normalize(w) for w in words(text)]
    content = [w for w in said if w not in names]
    return (bool(content) and all(w in _SMALL_TALK for w in content)
            and any(w not in _SMALL_TALK_FUNCTION for w in content))


_ONE = lang.words("ONE")


def number_word(word: str) -> int | None:
    """A count said in words ("three", "tres", "a", "una"), or None."""
    word = normalize(word)
    if word in _ONE:
        return 1
    value = _NUMBER_WORDS.get(word)
    return int(value) if value is not None else None


def entities(text: str) -> set[str]:
    return proper_nouns(text) | numbers(text)


def _similar_word(a: str, b: str) -> bool:
    if a == b:
        return True
    shorter = min(len(a), len(b))
    prefix = len(_common_prefix(a, b))
    if shorter >= 4 and prefix >= 4 and prefix >= 0.6 * shorter:
        return True
    return shorter >= 5 and difflib.SequenceMatcher(None, a, b).ratio() >= 0.8


def _common_prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def mentions(entity: str, text: str) -> bool:
    """Whether text mentions entity (normalised), tolerating accents, case and close translations."""
    entity = normalize(entity)
    haystack = normalize(text)
    if not entity:
        return True
    if entity.replace(".", "").isdigit() or _NUMBER.fullmatch(entity):
        return entity in numbers(text)
    alias = _ALIASES.get(entity) or next((en for en, es in _ALIASES.items() if es == entity), None)
    if alias and alias in haystack:
        return True
    if re.search(r"(?<!\w)" + re.escape(entity) + r"(?!\w)", haystack):
        return True
    parts = entity.split()
    tokens = words(haystack)
    return all(any(_similar_word(p, t) for t in tokens) for p in parts)
