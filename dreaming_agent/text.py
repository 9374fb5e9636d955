"""Pure text helpers shared by grounding, the Dream validator, clustering and scoring."""
from __future__ import annotations

import difflib
import re
import unicodedata

_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*", re.UNICODE)
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
_SENTENCE_END = re.compile(r"(?<=[.!?¡¿…])\s+")
_LINE_BREAK = re.compile(r"\n+")
# A full stop that ends a title or an initial ends no sentence: "Dr. Patel", "la Dra. Okafor", "J.K. Rowling",
# "George R. R. Martin" (the third scenario's "…mi nueva doctora aquí, la Dra." was stored without her name).
# "I." stays a sentence's end ("…shouldn't I.").
_ABBREVIATION_END = re.compile(
    r"(?:^|[\s(¡¿\"'])(?:(?i:dr|dra|drs|dres|mr|mrs|ms|mx|sr|sra|srta|sres|prof|profa|st|sto|sta|jr|dña|"
    r"e\.g|i\.e|vs|approx|aprox|p\.ej)|[A-HJ-Z](?:\.[A-Z])*)\.$")

# Capitalised words that are not names: sentence openers, pronouns, titles (English and Spanish).
_NOT_NAMES = frozenset(
    """the a an i i'm i've i'd i'll my me we our you your he she his her they their it its this that these those
    there here user person assistant yes no hi hello hey ok okay oh well so and but or also then when what who
    where why how which is was are were do does did have has had can could will would should may might
    today yesterday tomorrow tonight now
    el la los las un una unos unas yo mi mis me nosotros nuestro tu tus usted el ella ellos ellas su sus
    este esta estos estas ese esa eso esto hay aqui alli si no hola vale pues y pero o tambien entonces cuando
    que quien donde por porque como cual es era son fue soy estoy tengo tiene hoy ayer manana ahora
    del al de en con para sin sobre desde hasta muy mas menos ya usuario usuaria""".split()
)

_NUMBER_WORDS = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
    "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "twenty": "20", "thirty": "30", "forty": "40",
    "fifty": "50", "hundred": "100",
    "uno": "1", "una": "1", "dos": "2", "tres": "3", "cuatro": "4", "cinco": "5", "seis": "6", "siete": "7",
    "ocho": "8", "nueve": "9", "diez": "10", "once": "11", "doce": "12", "veinte": "20", "treinta": "30",
    "cuarenta": "40", "cincuenta": "50", "cien": "100",
}

# Names whose English and Spanish forms share too little spelling to be matched by similarity.
_ALIASES = {
    "spain": "espana", "germany": "alemania", "england": "inglaterra", "london": "londres",
    "new york": "nueva york", "japan": "japon", "mexico city": "ciudad de mexico", "netherlands": "paises bajos",
    "switzerland": "suiza", "seville": "sevilla", "saragossa": "zaragoza", "majorca": "mallorca",
}


# Who someone is to the person, in English and Spanish, one group per relation (accents folded).
_RELATIONS = [frozenset(group.split()) for group in (
    "sister sisters sis hermana hermanas", "brother brothers hermano hermanos", "mother mom mum mama madre",
    "father dad papa padre", "grandmother grandma abuela", "grandfather grandpa abuelo", "wife esposa mujer",
    "husband esposo marido", "son sons child children kids hijo hijos", "daughter daughters child children kids hija "
    "hijas hijos", "boyfriend partner novio pareja", "girlfriend partner novia pareja", "friend friends amigo amiga "
    "amigos amigas", "aunt tia", "uncle tio", "cousin primo prima", "niece sobrina", "nephew sobrino",
    "grandson nieto", "granddaughter nieta", "neighbour neighbor vecino vecina",
    "boss manager supervisor jefe jefa encargado encargada", "son-in-law yerno", "daughter-in-law nuera",
    "mother-in-law suegra", "father-in-law suegro", "brother-in-law cunado", "sister-in-law cunada",
)]
# Animals are often named by breed ("my greyhound"), so a lexicon cannot tell that one was never mentioned.
ANIMALS = [frozenset(group.split()) for group in (
    "dog dogs puppy perro perra perrito perrita", "cat cats kitten gato gata gatito gatita",
)]
PEOPLE = frozenset().union(*_RELATIONS)
# Family: one person is one of these to the person (a sister is no daughter); a friend may also be a neighbour.
KIN = PEOPLE - frozenset(
    """boyfriend girlfriend partner novio novia pareja friend friends amigo amiga amigos amigas neighbour neighbor
    vecino vecina boss manager supervisor jefe jefa encargado encargada""".split())
_RELATIONS += ANIMALS
_POSSESSIVE = re.compile(r"['’]s?$")  # "sister's", "parents'"
# "son" is also Spanish for "they are": in a Spanish question it asks after nobody.
_NOT_RELATIONS_IN = {"es": frozenset({"son"}), "en": frozenset()}


def relations_missing(text: str, other: str) -> list[str]:
    """Relation words of `text` (sister, dog, novio…) that `other` says in neither language, in order."""
    said = set(words(normalize(other)))
    return [word for word in relation_words(text) if not relation_group(word) & said]


def relation_words(text: str, *, language: str = "en", people: bool = False) -> list[str]:
    """The relation words `text` names (sister, perro, son-in-law…; only people's with `people`), normalised."""
    skip = _NOT_RELATIONS_IN.get(language, frozenset())
    found = (_POSSESSIVE.sub("", w) for w in words(normalize(text)))
    return [w for w in dict.fromkeys(found)
            if w not in skip and (w in PEOPLE if people else any(w in g for g in _RELATIONS))]


def relation_group(word: str) -> frozenset[str]:
    """Every word that names the relation `word` names, in either language (sister: hermana, sis…)."""
    return frozenset().union(*(g for g in _RELATIONS if word in g))


def normalize(text: str) -> str:
    """NFKD, drop combining marks, case-fold, collapse whitespace."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def content_words(text: str) -> set[str]:
    """Its words of four letters or more, normalised: what a remark is about, without "the", "my", "is"."""
    return {w for w in words(normalize(text)) if len(w) > 3}


def split_sentences(text: str) -> list[str]:
    """Split a message into sentences; a message without punctuation is one sentence."""
    parts: list[str] = []
    for line in _LINE_BREAK.split(text):
        started = False  # a line break always ends a sentence
        for piece in _SENTENCE_END.split(line):
            piece = piece.strip()
            if not piece:
                continue
            if started and _ABBREVIATION_END.search(parts[-1]):
                parts[-1] = f"{parts[-1]} {piece}"
            else:
                parts.append(piece)
            started = True
    return parts or ([text.strip()] if text.strip() else [])


def numbers(text: str) -> set[str]:
    found = {n.replace(",", ".") for n in _NUMBER.findall(text)}
    for w in words(normalize(text)):
        if w in _NUMBER_WORDS:
            found.add(_NUMBER_WORDS[w])
    return found


def proper_nouns(text: str) -> set[str]:
    """Capitalised words that are not sentence openers or pronouns, normalised; consecutive ones joined."""
    names: list[str] = []
    current: list[str] = []
    for token in words(text) + [""]:
        if token[:1].isupper() and normalize(token) not in _NOT_NAMES:
            current.append(normalize(token))
            continue
        if current:
            names.append(" ".join(current))
            names.extend(current if len(current) > 1 else [])
            current = []
    return set(names)


# Words of greeting, thanks, agreement, praise and exclamation (English and Spanish, accents folded). A sentence made
# only of these and names ("Wow, Mel!", "¡Gracias, Ana!", "Phew!", "Nice job!", "That looks great!") tells nothing
# about anyone. "yes", "yep", "no" are not here: they answer something.
_SMALL_TALK = frozenset(
    """hi hello hey hiya howdy morning evening night good great nice cool awesome amazing wonderful lovely sweet
    fantastic sounds wow whoa oh ah aw aww haha hahaha lol thanks thank thx you so much very really totally definitely
    absolutely agreed agree exactly indeed sure bye goodbye later soon see talk to take care congrats
    congratulations cheers welcome glad hear same here too me that that's it's is what a
    yay woohoo hooray yippee phew ooh omg hmm job funny looks look true yes yep yeah yup nope no for
    hola buenas buenos dias tardes noches gracias muchas muchisimas guau vaya uau ay jaja jajaja genial estupendo
    perfecto claro vale bien muy super que chulo adios hasta luego pronto nos vemos hablamos felicidades
    enhorabuena bienvenido bienvenida igualmente cuidate besos abrazo saludos de acuerdo uf uff bravo guay ole mola
    si""".split()
)
# Of which at least one must be said: a sentence of "you", "so" and names is not small talk, just short.
_SMALL_TALK_FUNCTION = frozenset("you so much very really to take here too me that that's it's is what a for muy que "
                                 "de nos hasta".split())


def says_nothing(text: str) -> bool:
    """Small talk: only greetings, thanks, agreement or exclamations, and names ("Caroline: Thanks, Mel!")."""
    names = {part for name in proper_nouns(text) for part in name.split()} - _SMALL_TALK  # "Wow" opens, not names
    said = [normalize(w) for w in words(text)]
    content = [w for w in said if w not in names]
    return (bool(content) and all(w in _SMALL_TALK for w in content)
            and any(w not in _SMALL_TALK_FUNCTION for w in content))


def number_word(word: str) -> int | None:
    """A count said in words ("three", "tres", "a", "una"), or None."""
    word = normalize(word)
    if word in ("a", "an", "un"):
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
