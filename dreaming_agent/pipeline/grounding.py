"""Grounding: a fact survives only if its source sentence supports it, lexically and semantically."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..text import mentions, normalize, numbers, proper_nouns, words

# Words that, right before a clause the fact gives to "The user", show that someone else did it.
_THIRD_PERSON = frozenset("he she they him her them el ella ellos ellas".split())
_USER_SUBJECT = "the user "
_MATCHED_WORDS = 3  # the fact's first words that must appear in this order in the message to compare subjects


@dataclass(frozen=True)
class GroundingVerdict:
    ok: bool
    reason: str
    similarity: float | None = None


def lexical(fact: str, source: str) -> GroundingVerdict:
    """Every proper noun and number of the fact must appear in the source (accents, case, Lisbon/Lisboa tolerated)."""
    missing = sorted(e for e in proper_nouns(fact) | numbers(fact) if not mentions(e, source))
    if missing:
        return GroundingVerdict(False, "not in the message: " + ", ".join(missing))
    return GroundingVerdict(True, "names and numbers found in the message")


def semantic(fact_vector: np.ndarray, source_vectors: np.ndarray, threshold: float) -> GroundingVerdict:
    """The closest source sentence must be at least `threshold` similar to the fact (cosine of unit vectors)."""
    if len(source_vectors) == 0:
        return GroundingVerdict(False, "no source sentence", 0.0)
    similarity = float(np.max(source_vectors @ fact_vector))
    if similarity < threshold:
        return GroundingVerdict(False, f"source supports it too weakly ({similarity:.2f} < {threshold:.2f})", similarity)
    return GroundingVerdict(True, f"supported by the message ({similarity:.2f})", similarity)


def role(fact: str, source: str) -> GroundingVerdict:
    """A fact that gives "The user" a clause the message gives to another person (she, Dunya, ...) is rejected."""
    if not normalize(fact).startswith(_USER_SUBJECT):
        return GroundingVerdict(True, "not about the user as subject")
    predicate = [normalize(w) for w in words(fact)][2: 2 + _MATCHED_WORDS]
    tokens = words(source)
    folded = [normalize(t) for t in tokens]
    if len(predicate) < _MATCHED_WORDS:
        return GroundingVerdict(True, "too short to compare subjects")
    for start in range(1, len(folded) - len(predicate) + 1):
        if folded[start: start + len(predicate)] != predicate:
            continue
        subject = tokens[start - 1]
        if normalize(subject) in _THIRD_PERSON or proper_nouns(subject):
            return GroundingVerdict(False, f"the message says {subject!r} did it, not the user")
    return GroundingVerdict(True, "no other subject for it in the message")
