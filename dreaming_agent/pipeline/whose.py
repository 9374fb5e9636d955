"""Whose a message's entries are. The Writer states each fact about "the user", and a small model gives the person what
someone they wrote about is or did: told of a friend from Porto who works as a civil engineer, the 0.5B model kept
"The user is Rafael", "The user's from Porto", "The user works as a civil engineer", and the profile then said the
person worked as one. Its own words give it away: it named the person as someone they are not, a name memory holds
as someone of theirs ("The user's boyfriend Kenji …") or another name than the one the person gave themselves. That
claim is dropped, and the message's other entries about "the user" are restated of the one it named ("Rafael works
as a civil engineer"): still memory, no longer the person's.

Read from the Writer's entries, which are English whatever the message's language (`lang.en`, ENTRY_*). Who the
person is: a recorded conversation's speaker name, else the first name memory holds they gave themselves.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterable

from .. import lang
from ..store import Message, Store, kinds
from ..text import normalize

_NAME = r"[^\W\d_][\w'’-]*"  # a word of a name, in any script
_CLAIM = re.compile(r"^\W*(?i:" + "|".join(f for f in (lang.pattern("ENTRY_OWN_NAME"), lang.pattern("ENTRY_IS_NAMED")) if f)
                    + rf")\s+(?P<name>{_NAME}(?:\s+{_NAME}){{0,3}})\W*$")
# The person's own name as an entry gives it ("The user's name is Claire", "The user is called Ana"), then anything
_GIVEN = re.compile(r"^\W*(?i:" + lang.pattern("ENTRY_OWN_NAME") + rf")\s+(?P<name>{_NAME}(?:\s+{_NAME})*)")
_EN = lang.of("en")  # the Writer's entries are English
_SOMEONE = re.compile(kinds.SOMEONE_OF_THEIRS + r"(?=[^\W\d_])")  # and a name: "The user's boyfriend Kenji"
_OF_THE_USER = re.compile(_EN.ENTRY_OF_THE_USER + r"(?P<own>['’]s\b)?", re.IGNORECASE)
_CLAIMS_LIKE = ("%user is %", "%user's %name%", "%user’s %name%")  # a first cut in SQL; `claimed` decides


def claimed(entry: str) -> str | None:
    """The name an entry gives as who the person is ("The user is Nora", "The user's name is Nora"), as written;
    None when it gives none ("The user is a nurse", "The user is Happy to help" is no name: every word must be one)."""
    match = _CLAIM.match(entry)
    if match is None or not all(w[:1].isupper() for w in match["name"].split()):
        return None
    return match["name"]


def given_name(entry: str) -> str | None:
    """The name an entry says the person goes by, its capitalised words after the naming ones ("The user's name is
    Łukasz Nowak and he …" -> "Łukasz Nowak"); None when it says none. Looser than `claimed`: the entry may go on."""
    match = _GIVEN.match(entry)
    if match is None:
        return None
    name = []
    for word in match["name"].split():
        if not word[:1].isupper():
            break
        name.append(word)
    return " ".join(name) or None


def same_person(a: str, b: str) -> bool:
    """Two names of one person: a word in common ("Dana", "Dana Smith")."""
    return bool(set(normalize(a).split()) & set(normalize(b).split()))


def someone_named(entry: str, name: str) -> bool:
    """Whether an entry names `name` as someone of the person's: "The user's work friend Marco wants to try Tokyo"."""
    match = _SOMEONE.match(entry)
    return match is not None and re.match(re.escape(name) + r"(?!\w)", entry[match.end():]) is not None


@dataclass
class Restated:
    facts: list[str]
    dropped: list[tuple[str, str]] = field(default_factory=list)  # (claim, why)
    about: str | None = None  # whom the message's entries about "the user" were restated of


def restate(facts: list[str], own: Iterable[str], of_theirs: Callable[[str], bool]) -> Restated:
    """`facts` of one message, given the person's own names (`own`) and whether memory holds a name as someone of
    theirs (`of_theirs`). A claim naming the person as someone else is dropped; when the message names one such
    someone and not the person as well, its entries about "the user" become theirs. Two names, or the person's own
    beside another, leave the rest as they are: whose they are is not told."""
    own = list(own)
    claims = [(fact, name) for fact in facts if (name := claimed(fact))]
    wrong = [(fact, name, why) for fact, name in claims if (why := _not_them(name, facts, own, of_theirs))]
    if not wrong:
        return Restated(list(facts))
    dropped = [(fact, why) for fact, _, why in wrong]
    rest = [f for f in facts if f not in {fact for fact, _, _ in wrong}]
    if len({normalize(name) for _, name, _ in wrong}) > 1 or len(wrong) < len(claims):
        return Restated(rest, dropped)
    name = wrong[0][1]
    return Restated([_restated(f, name) for f in rest], dropped, about=name)


def _not_them(name: str, facts: list[str], own: list[str], of_theirs: Callable[[str], bool]) -> str | None:
    """Why `name` is not the person's, or None when it may be."""
    if any(same_person(name, o) for o in own):
        return None
    if of_theirs(name) or any(someone_named(f, name) for f in facts):
        return f"names the person as {name}, whom memory holds as someone of theirs"
    if own:
        return f"names the person as {name}; they gave their name as {own[0]}"
    return None


def _restated(fact: str, name: str) -> str:
    """An entry about "the user" said of `name` ("The user's bakery is in Sapporo" -> "Yumi's bakery is in Sapporo");
    one about someone of theirs ("The user's sister is Ruth"), or not about the person, as it is."""
    match = _OF_THE_USER.match(fact)
    if match is None or kinds.about_someone_of_theirs(fact):
        return fact
    return name + ("'s" if match["own"] else "") + fact[match.end():]


def own_names(store: Store, message: Message) -> set[str]:
    """Who the person is, by name: the speaker of a recorded conversation's message, else the first name memory
    holds that the person gave themselves (none when they never said it)."""
    if message.speaker:
        return {message.speaker}
    claims = [m for m in store.memories(status=None, text_like=_CLAIMS_LIKE)
              if m.status != "forgotten" and claimed(m.text)]
    messages = store.messages_by_id({i for m in claims for i in m.source_message_ids})
    for entry in claims:
        if all(i in messages and messages[i].speaker is None for i in entry.source_message_ids):
            return {claimed(entry.text)}
    return set()


def held_as_someone(store: Store, name: str) -> bool:
    """Whether memory holds `name` as someone of the person's ("The user's sister Harriet …")."""
    return any(m.status != "forgotten" and someone_named(m.text, name)
               for m in store.memories(status=None, text_like=[f"%{name}%"]))
