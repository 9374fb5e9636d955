"""What memory can know about a person, as data: the attributes a typed fact may have, which hold one value at a time,
and how each reads in English (the stored entry, the panel). Subjects are the person or someone/something of theirs.

A single-valued attribute of one subject has one current value: a newer value supersedes the older one in code
(`store.facts`). A many-valued one (pets, hobbies, allergies) collects values. Two attributes are never stored:
a secret (credentials, codes) and an instruction to the assistant ("don't tell anyone"), which is not a fact about
the person.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Attribute:
    many: bool  # many values at once (hobbies); False: a newer value replaces the older one (home)
    entry: str  # the stored English entry; {who} is the subject ("The user", "The user's sister Ruth")
    label: str  # the panel's line about the person, value included
    meaning: str  # what the Writer's prompt says it is for


ATTRIBUTES: dict[str, Attribute] = {
    "name": Attribute(False, "{who} is called {value}", "Called {value}", "the subject's name (a renamed pet too)"),
    "nickname": Attribute(False, "{who} goes by {value}", "Goes by {value}", "what the subject is called for short"),
    "home": Attribute(False, "{who} lives in {value}", "Lives in {value}", "the town or place the subject lives in now"),
    "employer": Attribute(False, "{who} works at {value}", "Works at {value}", "the company or place the subject works for"),
    "occupation": Attribute(False, "{who} works as {value}", "Works as {value}", "the subject's job or trade"),
    "partner": Attribute(False, "{who} has the partner {value}", "Partner: {value}", "the subject's partner, or none"),
    "pet": Attribute(True, "{who} has the pet {value}", "Pet: {value}", "an animal the subject keeps"),
    "vehicle": Attribute(False, "{who} drives {value}", "Drives {value}", "the car, bike or vehicle the subject uses"),
    "diet": Attribute(False, "{who} eats a {value} diet", "Diet: {value}", "what the subject eats or avoids"),
    "health": Attribute(True, "{who} has the health condition {value}", "Health: {value}",
                        "an allergy, illness or condition"),
    "birthday": Attribute(False, "{who} has a birthday on {value}", "Birthday: {value}", "the day the subject was born"),
    "age": Attribute(False, "{who} is aged {value}", "Aged {value}", "how old the subject is"),
    "language": Attribute(True, "{who} speaks {value}", "Speaks {value}", "a language the subject speaks"),
    "hobby": Attribute(True, "{who} enjoys {value}", "Enjoys {value}", "a pastime"),
    "preference": Attribute(True, "{who} prefers {value}", "Prefers {value}", "a like or dislike"),
    "plan": Attribute(True, "{who} plans {value}", "Plans {value}", "something the subject intends to do"),
    "event": Attribute(True, "{who}: {value}", "{value}", "something that happened, on a day"),
    "other": Attribute(True, "{who}: {value}", "{value}", "anything else worth remembering"),
    "secret": Attribute(True, "", "", "a PIN, password, number or code: never stored"),
    "instruction": Attribute(True, "", "", "what the person asks the assistant to do: never stored"),
}
NEVER_STORED = frozenset({"secret", "instruction"})

AttributeName = Literal[
    "name", "nickname", "home", "employer", "occupation", "partner", "pet", "vehicle", "diet", "health", "birthday",
    "age", "language", "hobby", "preference", "plan", "event", "other", "secret", "instruction",
]
SubjectKind = Literal["user", "person", "pet", "thing"]
USER = "user"  # the subject key of the person themself


def single_valued(attribute: str | None) -> bool:
    found = ATTRIBUTES.get(attribute or "")
    return found is not None and not found.many


def subject_key(kind: str, relation: str = "", name: str = "") -> str:
    """One key per subject: "user", or kind, relation and name folded ("pet:dog:pepper")."""
    if kind == USER:
        return USER
    return ":".join([kind, _fold(relation), _fold(name)])


def spoken_by(key: str, speaker: str | None) -> str:
    """In a conversation of two named people each is "the user" of their own lines: the key carries whose lines."""
    return f"{_fold(speaker)}/{key}" if speaker else key


def who(key: str | None) -> str:
    """The subject as the stored entry names it: "The user", "The user's sister Ruth"."""
    key = (key or "").rpartition("/")[2]
    if not key or key == USER:
        return "The user"
    _, relation, name = (key.split(":") + ["", ""])[:3]
    return " ".join(["The user's", relation or "", name.title() if name else ""]).replace("  ", " ").strip()


def entry_text(key: str, attribute: str, value: str) -> str:
    return ATTRIBUTES[attribute].entry.format(who=who(key), value=value.strip())


def same_value(a: str | None, b: str | None) -> bool:
    """One value said twice: equal once case, spacing and a leading article are set aside."""
    return _fold(a or "", articles=True) == _fold(b or "", articles=True)


def _fold(text: str, *, articles: bool = False) -> str:
    folded = " ".join(text.lower().replace(":", " ").split())
    if articles:
        for article in ("a ", "an ", "the "):  # the values are English (the Writer writes them so)
            if folded.startswith(article):
                return folded[len(article):]
    return folded
