"""Grounding: a fact survives only if its source sentence supports it, lexically and semantically."""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .. import lang
from ..lang import elsewhere, language, surely_elsewhere
from ..store.kinds import thing_of
from ..text import mentions, normalize, numbers, proper_nouns, related, relation_words, relations_missing, words

# Words that, right before the words a fact gives to "The user", show that someone else did that.
_THIRD_PERSON = lang.words("THIRD_PERSON")
# A fact that copies the person's own words ("The user I'm tired ...") carries its own subject.
_FIRST_PERSON = lang.words("FIRST_PERSON") | lang.words("FIRST_PERSON_PLURAL")
# A word that says the person speaks of themselves in a clause, in any known language ("I", "my", "we", "tengo")
_SELF = _FIRST_PERSON | lang.words("FIRST_PERSON_VERBS")
_CLAUSE_BREAK = re.compile(r"[,.;:!?¡¿…()\"“”]+")  # a subject is looked for only inside the predicate's clause
_USER_SUBJECT = "the user "
_PLACEHOLDER = re.compile(r"\[[^\]]{1,40}\]|<[^>]{1,40}>|\{[^}]{1,40}\}")
_MATCHED_WORDS = 3  # the fact's first words that must appear in this order in the message to compare subjects


@dataclass(frozen=True)
class GroundingVerdict:
    ok: bool
    reason: str
    similarity: float | None = None


def lexical(fact: str, source: str) -> GroundingVerdict:
    """Every proper noun and number of the fact must appear in the source (accents, case, Lisbon/Lisboa tolerated)."""
    placeholder = _PLACEHOLDER.search(fact)
    if placeholder and not _PLACEHOLDER.search(source):
        # Small models copy the prompt's slots ("The user lives in [city_name]"): a slot is not a fact.
        return GroundingVerdict(False, f"a template placeholder, not a fact: {placeholder.group(0)}")
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


def relation(fact: str, source: str) -> GroundingVerdict:
    """Every relation word of the fact (sister, dog, novio…) must be in the message, itself or translated."""
    # The 0.5B model translated "mi hermana Carmen" as "the user's grandmother Carmen".
    if language(source) is None:
        return GroundingVerdict(True, "the message is in a language this does not know: no relation words to compare")
    missing = relations_missing(fact, source)
    if missing:
        return GroundingVerdict(False, f"the message does not say '{missing[0]}'")
    return GroundingVerdict(True, "every relation it names is in the message")


def role(fact: str, source: str) -> GroundingVerdict:
    """Reject "The user <words>" when the message says those same words of someone else ("she <words>", "Dunya <words>")."""
    if not normalize(fact).startswith(_USER_SUBJECT):
        return GroundingVerdict(True, "the user is not its subject")
    predicate = [normalize(w) for w in words(fact)[2: 2 + _MATCHED_WORDS]]
    if len(predicate) < _MATCHED_WORDS or predicate[0] in _FIRST_PERSON:
        return GroundingVerdict(True, "nothing to compare subjects on")
    for clause in _CLAUSE_BREAK.split(source):
        tokens = words(clause)
        folded = [normalize(t) for t in tokens]
        for i in range(1, len(folded) - len(predicate) + 1):
            subject = tokens[i - 1]
            if folded[i: i + len(predicate)] == predicate and (folded[i - 1] in _THIRD_PERSON or proper_nouns(subject)):
                return GroundingVerdict(False, f"the message says this of {subject!r}, not of the user")
    return GroundingVerdict(True, "no one else is its subject in the message")


def person(fact: str, source: str) -> GroundingVerdict:
    """Reject "The user …" when every clause of the message it shares a word with is about someone else: it names
    "he", "she", "they" and never the person ("I", "my", "we", a verb of "I"). "Marco did it: he moved to Tokyo and
    works at a fintech startup" gives Marco's job, not the person's. Passes: a clause in a language no module knows;
    one that names no one ("Moved to Bristol!"); a fact naming someone or an animal of theirs, or a thing of theirs
    another clause names, whom the pronoun may be ("The user's pup is called Nube" from "Update on the pup: he's
    called Nube now")."""
    if not normalize(fact).startswith("the user"):
        return GroundingVerdict(True, "the user is not its subject")
    if relation_words(fact):
        return GroundingVerdict(True, "it names someone or an animal of theirs, whom the clause's pronoun may be")
    clauses = [c for c in _CLAUSE_BREAK.split(source) if c.strip()]
    drawn = related(fact, clauses)
    if not drawn:
        return GroundingVerdict(True, "it shares no word with a clause of the message")
    if any(elsewhere(clause) for clause in drawn):
        return GroundingVerdict(True, "the message is in a language this does not know: no pronouns to read")
    thing = thing_of(fact)
    if thing and any(normalize(thing) in _said(clause) for clause in clauses if clause not in drawn):
        return GroundingVerdict(True, f"the pronoun may be their {thing}, which another clause names")
    if any(_said(clause) & _SELF or not _said(clause) & _THIRD_PERSON for clause in drawn):
        return GroundingVerdict(True, "a clause it was drawn from speaks of the person")
    return GroundingVerdict(False, "every clause it was drawn from speaks of someone else, none of the user")


def _said(clause: str) -> set[str]:
    """A clause's words, folded, each also without what follows an apostrophe ("she's": "she")."""
    said = {normalize(w) for w in words(clause)}
    return said | {w.split("'")[0] for w in said}


def known(sentence: str) -> GroundingVerdict:
    """Reject a fact whose nearest sentence of the message is in a language no module knows, by every sign
    (`lang.surely_elsewhere`): nothing but the embedder checks the model's English there, and the 0.5B model's was
    mostly wrong (`WriterSettings.any_language`). A short or mixed sentence the identifier is unsure of passes."""
    if surely_elsewhere(sentence):
        return GroundingVerdict(False, "drawn from a sentence in a language no module knows: nothing could check it")
    return GroundingVerdict(True, "drawn from a sentence in a language a module knows")
