"""Things about the person that hold one value at a time — where they live, where they work, what they work as,
their diet, car, partner, a pet's name — read in code from the Writer's English entries: a value said later replaces
the one said before. Which kind of thing an entry says comes from its vector (`kinds`: the nearest labelled example),
and, for a home, a workplace and an occupation, also from the entry's shape ("The user lives in Vitoria", "The user
has moved to Bilbao"), which reads the value itself ("Bilbao"); an entry typed by its vector alone is its own value.

Similarity cannot link these: in the app, "The user lives in Vitoria" and "The user has moved to Bilbao" are 0.32
apart while "The user's sister lives in Donostia" is 0.53. The entries' shape can: the Writer states them about
"the user", in English, in a few fixed ways. Only "the user" is read; a relative's home is someone else's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import takewhile

from .. import lang
from ..text import entities, name_runs, normalize, proper_nouns, words
from . import kinds as _kinds
from .records import Memory
from .sqlite import Store

_ABOUT_USER = re.compile(lang.pattern("ENTRY_ABOUT_USER"), re.IGNORECASE)
_VALUE = (r"(?P<value>[^,.;:()\"]+?)"
          r"(?=\s+(?:" + lang.pattern("VALUE_ENDS") + r")\b|[,.;:()\"]|$)")
_SHAPES = {attribute: re.compile(shape.format(value=_VALUE), re.IGNORECASE)
           for attribute, shape in lang.merged("ENTRY_SHAPES").items()}
_MAY_STATE = lang.phrases("ENTRY_MAY_STATE")
_ARTICLES = lang.words("ARTICLES")
_WHEN_WORDS = re.compile(lang.pattern("ENTRY_WHEN"), re.IGNORECASE)
# Names of days and months: capitalised, but a time, never a place ("The user moved in on Sunday")
_CALENDAR = frozenset(normalize(w) for w in [*lang.merged("WEEKDAYS"), *lang.phrases("MONTHS")])


@dataclass(frozen=True)
class Value:
    attribute: str  # "home", "workplace", "occupation", "diet", …; "pet name:dog" for a value of a thing of theirs
    value: str
    said: str  # when: the entry's newest source message, or its own date when it has none
    whole: bool = False  # the value is the whole entry (typed by its vector; no shape read a value out of it)


def stated(memory: Memory, kind: str | None = None) -> list[Value]:
    """The single-valued things an entry says about the person, each at most once: those its shape reads, and the
    `kind` its vector has (`Store.kinds.typed`), the entry itself its value, when no shape read that one (and, for a kind
    whose value is a name, when it names one)."""
    found = [Value(attribute, value, memory.newest) for attribute, value in _shapes(memory.text)]
    if kind is not None and (kind not in _kinds.NAMED or proper_nouns(memory.text)):
        keyed = _kinds.key(kind, memory.text)
        if all(v.attribute != keyed for v in found):
            found.append(Value(keyed, memory.text, memory.newest, whole=True))
    return found


def same(a: str, b: str) -> bool:
    """One value said two ways: the same names, or (with no names) one's words within the other's."""
    names_a, names_b = entities(a), entities(b)
    if names_a and names_b:
        return bool(names_a & names_b)
    wa, wb = _words(a), _words(b)
    return wa <= wb or wb <= wa


def _same_value(a: Value, b: Value) -> bool:
    """`same`, where one value is a whole entry: one's names within the other's ("The user traded the Fiesta for a
    Toyota Yaris" is a new car though it names the old one; "The user's Yaris got a scratch at Tesco" is not); an entry
    naming nothing replaces only another naming nothing ("The user is vegan", "The user is vegetarian"), and none that
    names ("The user's car is dark green" says nothing against "The user drives a Subaru")."""
    if not (a.whole or b.whole):
        return same(a.value, b.value)
    names_a, names_b = proper_nouns(a.value), proper_nouns(b.value)
    if names_a and names_b:
        return names_a <= names_b or names_b <= names_a
    if names_a or names_b:
        return True  # not comparable: kept as it is
    wa, wb = _words(a.value), _words(b.value)
    return wa <= wb or wb <= wa


def replaced(store: Store, entries: list[Memory]) -> dict[int, Memory]:
    """Each of `entries` that states a value the person later changed, with the entry that says the newer value.

    Compared against every entry the person has not forgotten (a Dream's MERGE keeps its sources, superseded, so
    a merged move still replaces the old home), and only between entries drawn from one speaker's messages (in a
    conversation between two people, as LoCoMo's, each is "the user" of their own lines).
    """
    typed = store.kinds.typed()
    mine = {m.id for m in entries if m.id in typed or _shapes(m.text)}
    if not mine:
        return {}
    shaped, owner = _shaped(store, typed)
    return _replaced(shaped, owner, mine, typed)


def _replaced(shaped: list[Memory], owner, ids: set[int], typed: dict[int, str]) -> dict[int, Memory]:
    """`replaced` over entries already read: each value is compared with the same owner's later ones, newest first,
    so the first that differs is the newest (at 5,000 entries the panel waited 18 s for comparing every pair)."""
    values = {m.id: stated(m, typed.get(m.id)) for m in shaped}
    later: dict[tuple[str, frozenset], list[tuple[Value, Memory]]] = {}
    for m in shaped:
        for v in values[m.id]:
            later.setdefault((v.attribute, owner(m)), []).append((v, m))
    for said in later.values():
        said.sort(key=lambda pair: (pair[0].said, pair[1].id), reverse=True)
    out: dict[int, Memory] = {}
    for memory in (m for m in shaped if m.id in ids):
        for v in values[memory.id]:
            newer = next((m for w, m in takewhile(lambda pair: pair[0].said > v.said,
                                                  later.get((v.attribute, owner(memory)), []))
                          if not _same_value(w, v) and not _placed_within(v.value, m)), None)
            if newer is not None:
                out[memory.id] = newer
                break
    return out


@dataclass(frozen=True)
class Held:
    value: str
    since: str  # the day it was first said (of the run of entries saying it, after the value before)
    memory_id: int  # the entry saying it: the newest active one, else the newest
    whole: bool = False  # the value is its whole entry (`Value.whole`)


@dataclass(frozen=True)
class Current:
    """One thing about the person as it stands: its value now and the values it replaced, newest first."""

    attribute: str  # "home", "workplace", "occupation"
    now: tuple[Held, ...]  # usually one; two when a newer value is placed within the older ("Beacon Hill, Austin")
    before: tuple[Held, ...]


def profile(store: Store) -> list[Current]:
    """The person's own single-valued things (not a speaker's of a recorded conversation), each with what it
    replaced: the same reading `replaced` gives the reply path, so the panel, the API and the answer agree."""
    typed = store.kinds.typed()
    shaped, owner = _shaped(store, typed)
    mine = [m for m in shaped if not owner(m)]
    stale = _replaced(shaped, owner, {m.id for m in mine}, typed)
    said: dict[str, list[tuple[Value, Memory]]] = {}
    for m in mine:
        for v in stated(m, typed.get(m.id)):
            said.setdefault(v.attribute, []).append((v, m))
    rows = []
    order = {a: i for i, a in enumerate(ATTRIBUTES)}
    for attribute in sorted(said, key=lambda key: (order.get(key.split(":")[0], len(order)), key)):
        values = sorted(said.get(attribute, []), key=lambda pair: (pair[0].said, pair[1].id))
        if not values:
            continue
        old = _held([(v, m) for v, m in values if m.id in stale])
        old_days = [h.since for h in old]
        now = _held([(v, m) for v, m in values if m.id not in stale], after=max(old_days, default=""))
        before = [o for o in old if not any(_same_value(_as_value(o), _as_value(h)) for h in now)]
        if now:
            rows.append(Current(attribute, tuple(now), tuple(reversed(before))))
    return rows


# The order the profile shows them in: those a shape reads, then the other kinds (`lang.en.ENTRY_KINDS`)
ATTRIBUTES = tuple(dict.fromkeys([*_SHAPES, *(k for k in lang.of("en").ENTRY_KINDS if k != _kinds.OTHER)]))
# How a value reads, in English like the entries it is read from ("Lives in Bristol"); a whole entry reads as itself
LABELS = {"home": "Lives in", "workplace": "Works at", "occupation": "Works as"}


def label(attribute: str, whole: bool = False) -> str:
    """How the profile names a row: "Lives in", "Vehicle", "Pet name (dog)"; a row whose values are whole entries by
    its kind ("Home: The user's place is Kraków"), not as the start of a sentence they do not continue."""
    if attribute in LABELS and not whole:
        return LABELS[attribute]
    kind, _, thing = attribute.partition(":")
    return kind.capitalize() + (f" ({thing})" if thing else "")


def named(value: str, before: list[str]) -> str | None:
    """The first name a whole-entry value says that the values before it did not, as written: "Toyota Yaris" of "The
    user traded the Fiesta for a Toyota Yaris" after "The user drives an old Ford Fiesta". None when it names nothing
    new. Shown the whole entry, a small model reads both cars and answers "I don't know."; shown the new name, it
    answers with it (the walk of round 38)."""
    old = set().union(*(proper_nouns(b) for b in before)) | _CALENDAR
    new = [" ".join(t for t in run if normalize(t) not in old) for run in name_runs(value)]
    return next((n for n in new if n), None)  # the first: "The user's Toyota Yaris got a scratch at Tesco"


def row(value: Value) -> str:
    """One value as the profile states it: "Lives in Bristol"; a whole entry as it is."""
    if value.whole:
        return value.value
    return f"{LABELS.get(value.attribute, value.attribute.capitalize() + ':')} {value.value}"


def _held(values: list[tuple[Value, Memory]], after: str = "") -> list[Held]:
    """Each value once, oldest first: since the first day it was said after `after` (else its first day), named by
    its newest active entry (else its newest)."""
    out: list[list] = []  # [value, since, entry]
    for v, m in values:
        known = next((h for h in out if _same_value(h[0], v)), None)
        if known is None:
            out.append([v, v.said, m])
            continue
        if known[1] <= after < v.said:
            known[1] = v.said
        if m.status == "active" or known[2].status != "active":
            known[0], known[2] = v, m
    return [Held(value.value, since[:10], m.id, value.whole) for value, since, m in out]


def _as_value(held: Held) -> Value:
    return Value("", held.value, held.since, held.whole)


def _shaped(store: Store, typed: dict[int, str]):
    """Every entry not forgotten that states a single-valued thing (by its kind or its shape), with its sources, and
    who it is about: the speaker names of its messages (none for the app's person, who has no speaker name, or for an
    entry they typed)."""
    # Read only what could be in a shape: on the reply path, a scan of every entry took 0.6 s at 20,000 entries.
    found = store.memories(status=None, text_like=_MAY_STATE)
    found += store.memories(status=None, ids=set(typed) - {m.id for m in found})
    shaped = store.with_sources(sorted((m for m in found if m.status != "forgotten"
                                        and (m.id in typed or _shapes(m.text))), key=lambda m: m.id))
    speakers = {m.id: m.speaker for m in store.messages_by_id({s.message_id for e in shaped for s in e.sources}).values()}
    return shaped, lambda e: frozenset(speakers.get(s.message_id) for s in e.sources) - {None}


# "from Vitoria", "de Vitoria", "left Vitoria": the place named is the one left behind
_LEFT = re.compile(r"\b(?:" + lang.pattern("LEFT") + r")\s+(?:(?:" + lang.pattern("LEFT_ARTICLES") + r")\s+)?$")


def _placed_within(older: str, newer: Memory) -> bool:
    """The newer value's own message names the older one too, not as the place left: "a house to rent in San Antonio,
    en Beacon Hill" places the house within the town the person moved to; a move reads "from Vitoria to Bilbao"."""
    first = proper_nouns(older.split(",")[0])
    if not first:
        return False
    name = max(first, key=len)
    for source in newer.sources:
        said = normalize(source.text)
        for found in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", said):
            if not _LEFT.search(said[: found.start()]):
                return True
    return False


def _shapes(text: str) -> list[tuple[str, str]]:
    if not _ABOUT_USER.search(text):
        return []
    found = []
    for attribute, shape in _SHAPES.items():
        match = shape.search(text)
        value = match["value"].strip() if match else ""
        if not _words(value):
            continue
        if attribute == "home" and not _places(value):
            continue  # a town is a name: "moved to a bigger desk" is not a home, nor "moved in on Sunday"
        if attribute == "workplace" and _WHEN_WORDS.search(value):
            continue
        found.append((attribute, value))
    return found


def _places(value: str) -> set[str]:
    """The names in a value that could be a place: not a day's or a month's."""
    return {name for name in proper_nouns(value) if not set(name.split()) <= _CALENDAR}


def _words(text: str) -> set[str]:
    return {w for w in words(normalize(text)) if w not in _ARTICLES}
