"""A word index over the verbatim sentences (BM25), derived from SQLite like the vector index and kept in memory.

Cosine search misses a sentence that shares a rare word with the question but little of its meaning as a whole
("Haar Analytics", a place, a pet's name); scoring the words the question and the sentence share finds it.
"""
from __future__ import annotations

import math
import re
from collections import Counter

from .. import lang
from ..text import normalize, words
from .sqlite import Store

# Words that say nothing of what a sentence is about, in every language known
_FUNCTION_WORDS = frozenset(normalize(word) for word in lang.words("FUNCTION_WORDS"))
_POSSESSIVE = re.compile(r"['’]s$")


def terms(text: str) -> list[str]:
    """The words a sentence is about: normalised, possessives as their owner, function words and letters left out."""
    out = []
    for word in words(normalize(text)):
        word = _POSSESSIVE.sub("", word)
        if len(word) > 1 and word not in _FUNCTION_WORDS:
            out.append(word)
    return out


class TermIndex:
    """BM25 (k1 1.2, b 0.75) over every stored sentence. Sentence ids are never reused, so the index reads only
    the sentences added since it last looked; a deleted sentence may still be found here, and whoever reads the
    hits from SQLite drops it."""

    K1, B = 1.2, 0.75

    def __init__(self) -> None:
        self._length: dict[int, int] = {}
        self._postings: dict[str, dict[int, int]] = {}  # word -> sentence id -> times it occurs there
        self._last = 0

    def __len__(self) -> int:
        return len(self._length)

    def search(self, store: Store | None, text: str, k: int) -> list[tuple[int, float]]:
        """The k sentences that score highest for the words of `text` (at least one word shared), best first;
        `store`'s sentences added since the last search are read first."""
        self._catch_up(store)
        n = len(self._length)
        if not n or k <= 0:
            return []
        mean_length = sum(self._length.values()) / n
        scores: Counter[int] = Counter()
        for word in set(terms(text)):
            postings = self._postings.get(word, {})
            idf = math.log(1 + (n - len(postings) + 0.5) / (len(postings) + 0.5))
            for sentence_id, times in postings.items():
                norm = self.K1 * (1 - self.B + self.B * self._length[sentence_id] / mean_length)
                scores[sentence_id] += idf * times * (self.K1 + 1) / (times + norm)
        return sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:k]

    def add(self, sentence_id: int, text: str) -> None:
        """Index one sentence (ids in increasing order)."""
        counted = Counter(terms(text))
        self._length[sentence_id] = sum(counted.values())
        for word, times in counted.items():
            self._postings.setdefault(word, {})[sentence_id] = times
        self._last = max(self._last, sentence_id)

    def _catch_up(self, store: Store | None) -> None:
        if store is not None:
            for sentence_id, text in store.query("SELECT id, text FROM sentences WHERE id > ? ORDER BY id",
                                                 (self._last,)):
                self.add(sentence_id, text)
