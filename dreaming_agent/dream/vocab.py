"""The word lists the Dream reasons with, across the languages: durable topics, function words, common openers."""
from __future__ import annotations

from .. import lang
from ..text import entities, normalize, words

# Sentence openers in memory texts are capitalised but are not names ("Moved to ...", "Likes ...").
COMMON_WORDS = lang.words("COMMON_WORDS")
STOPWORDS = COMMON_WORDS | lang.words("STOPWORDS")

DURABLE_TOPICS: dict[str, frozenset[str]] = {
    topic: frozenset(w for said in lang.each("DURABLE_TOPICS").values() for w in said[topic].split())
    for topic in lang.en.DURABLE_TOPICS}

# Words a rewrite may add to join or date facts without adding one ("previously an architect").
CONNECTIVES = lang.words("CONNECTIVES")

# Words that make an event a habit rather than a one-off.
HABIT_WORDS = lang.words("HABIT_WORDS")

# Words that say when, not what: two facts said the same week share them and nothing else.
WHEN_WORDS = (HABIT_WORDS | CONNECTIVES | frozenset(normalize(w) for key in lang.merged("RELATIVE_DATES")
                                                    for w in key.split())
              | frozenset(lang.merged("UNITS")) | frozenset(lang.merged("WEEKDAYS"))
              | frozenset(normalize(m) for m in lang.phrases("MONTHS")))


def durable_topics(text: str) -> dict[str, list[str]]:
    """Durable topics (health, work, family, pets, plans, identity) the text touches, with the words that say so."""
    found: dict[str, list[str]] = {}
    for word in words(normalize(text)):
        for topic, keywords in DURABLE_TOPICS.items():
            if word in keywords or (word.endswith("s") and word[:-1] in keywords):
                found.setdefault(topic, []).append(word)
    return found


def names(text: str) -> set[str]:
    """Proper nouns and numbers, minus capitalised common words that open memory sentences."""
    return {e for e in entities(text) if e not in COMMON_WORDS}


def content_words(text: str) -> set[str]:
    """Normalised words that carry meaning: no function words, no generic "user"/"person", no bare digits."""
    return {w for w in words(normalize(text)) if len(w) >= 3 and w not in STOPWORDS and not w.isdigit()}
