"""Which role a name plays in a sentence (employer, residence, pet, other person, the person's own name)."""
from __future__ import annotations

import re
from typing import Literal

from .. import lang
from ..text import PEOPLE, mentions, normalize

Role = Literal["work", "residence", "pet", "person", "self"]

ROLE_WORDS: dict[str, str] = {
    "work": "an employer",
    "residence": "a place of residence",
    "pet": "a pet's name",
    "person": "another person's name",
    "self": "the person's own name",
}

_CUES: dict[Role, frozenset[str]] = {
    "work": lang.words("WORK_CUES"),
    "residence": lang.words("RESIDENCE_CUES"),
    "pet": lang.words("PET_CUES"),
    # every relation `text` knows ("mi nieta Ximena", "my son-in-law Beto") and a few more people, but no job title:
    # in "works as a manager at Acme" Acme is the employer
    "person": PEOPLE - lang.words("JOB_TITLES") | lang.words("PERSON_CUES"),
}
# Whom a naming word may introduce besides the cues above: someone known by what they do for the person ("Found a
# cello teacher! Se llama Fiona"). Not cues elsewhere: in "works as a teacher at Colegio Sorolla" the school employs.
_NAMED_BY_TRADE = lang.words("NAMED_BY_TRADE")
# Words before a naming word that make it give the speaker's own name: "me llamo", "my name is", "I'm called", the
# Writer's "The user's name is" and "La usuaria se llama"
_OWN_NAMING = lang.words("OWN_NAMING")
_NAME_CUES = lang.words("NAME_CUES")
# Between a naming word and the name only a copula may stand: "name is X", "se llama X", not "llama a X".
_NAME_GAP = lang.words("NAME_GAP")
_SELF_RIGHT_BEFORE = lang.words("SELF_RIGHT_BEFORE")
# "I called Ana" is a phone call, not a naming.
_CALLERS = lang.words("CALLERS")
# What may stand between a name and a role word that follows it: "Kiwi is my parrot", "Acme, my employer".
_FORWARD_SKIP = lang.words("FORWARD_SKIP")
_FORWARD_LINK = lang.words("FORWARD_LINK")
_BOUNDARY = frozenset(". ; : ! ? ( )".split())
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|[.,;:!?()]")
_BACK_WINDOW = 6
_FORWARD_WINDOW = 4


def _tokens(text: str) -> list[tuple[str, bool]]:
    """(normalised token without possessive 's, whether it was capitalised) for words and clause marks."""
    out = []
    for raw in _TOKEN.findall(text):
        norm = normalize(raw).replace("’", "'")
        if norm.endswith("'s"):
            norm = norm[:-2]
        out.append((norm, raw[:1].isupper()))
    return out


def _role_of_cue(token: str) -> Role | None:
    for role, cues in _CUES.items():
        if token in cues:
            return role
    return None


# A role with the word that cued it ("person", "hermana"); "" for the person's own name
Cued = tuple[Role, str]


def _owner_before(tokens: list[tuple[str, bool]], end: int) -> Cued | None:
    """Whose name the naming word at `end` introduces: the nearest pet or person word before it, in its clause or the
    one before ("Found a cello teacher! Se llama Fiona"); the person's own when its clause says so first ("me llamo",
    "my name is"); None when nothing says whose ("a greyhound called Canela": a breed is no word this knows)."""
    boundaries = 0
    for pos in range(end - 1, max(-1, end - 1 - 2 * _BACK_WINDOW), -1):
        word = tokens[pos][0]
        boundaries += word in _BOUNDARY
        if boundaries > 1:
            break
        role = _role_of_cue(word)
        if role in ("pet", "person"):
            return role, word
        if word in _NAMED_BY_TRADE:
            return "person", word
        if word in _OWN_NAMING and not boundaries:
            return "self", ""
    return None


def _role_backward(tokens: list[tuple[str, bool]], start: int) -> Cued | None:
    if start >= 1 and tokens[start - 1][0] in _SELF_RIGHT_BEFORE:
        return "self", ""
    if start >= 2 and [t for t, _ in tokens[start - 2:start]] == ["i", "am"]:
        return "self", ""
    for pos in range(start - 1, max(-1, start - 1 - _BACK_WINDOW), -1):
        word, capitalised = tokens[pos]
        if word in _BOUNDARY:
            return None
        if word in _NAME_CUES:
            gap = [t for t, _ in tokens[pos + 1:start]]
            caller = pos >= 1 and tokens[pos - 1][0] in _CALLERS and word == "called"
            if all(g in _NAME_GAP for g in gap) and not caller:
                return _owner_before(tokens, pos)
            continue
        role = _role_of_cue(word)
        if role:
            return role, word
        if capitalised and pos < start - 1:
            # Another name stands between: "my dog Toby in Madrid" says nothing about Madrid.
            return None
        if word == "me" and pos >= 1 and tokens[pos - 1][0] == "call":
            return "self", ""
    return None


def _role_forward(tokens: list[tuple[str, bool]], end: int) -> Cued | None:
    linked = False
    for pos in range(end, min(len(tokens), end + _FORWARD_WINDOW)):
        word = tokens[pos][0]
        if word in _FORWARD_SKIP:
            linked = linked or word in _FORWARD_LINK
            continue
        if not linked:
            return None
        if word in _NAME_CUES:
            return "self", ""
        role = _role_of_cue(word)
        return (role, word) if role else None
    return None


def roles_of(entity: str, text: str) -> set[Role]:
    """Roles `entity` plays wherever `text` mentions it; empty when the words around it say nothing."""
    return {role for role, _ in cued_roles(entity, text)}


def cued_roles(entity: str, text: str) -> set[Cued]:
    """Each role `entity` plays where `text` mentions it, with the word that says it: ("person", "hija") for "Mi hija
    Marisela", ("pet", "cat") for "My cat is called Pimentón", ("self", "") for "Me llamo Bruno"."""
    parts = normalize(entity).split()
    if not parts or not mentions(entity, text):
        return set()
    tokens = _tokens(text)
    found: set[Cued] = set()
    width = len(parts)
    for start in range(len(tokens) - width + 1):
        window = [t for t, _ in tokens[start:start + width]]
        if any(t in _BOUNDARY for t in window) or not mentions(entity, " ".join(window)):
            continue
        cued = _role_backward(tokens, start) or _role_forward(tokens, start + width)
        if cued:
            found.add(cued)
    return found
