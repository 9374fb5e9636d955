"""Grounding: a fact survives only if its source sentence supports it, lexically and semantically."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..text import numbers, proper_nouns, mentions


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
