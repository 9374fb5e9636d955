"""Things about the person that hold one value at a time — where they live, where they work, what they work as —
read in code from the Writer's English entries ("The user lives in Vitoria", "The user has moved to Bilbao"):
a value said later replaces the one said before.

Similarity cannot link these: in the app, "The user lives in Vitoria" and "The user has moved to Bilbao" are 0.32
apart while "The user's sister lives in Donostia" is 0.53. The entries' shape can: the Writer states them about
"the user", in English, in a few fixed ways. Only "the user" is read; a relative's home is someone else's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..text import entities, normalize, proper_nouns, words
from .records import Memory
from .sqlite import Store

# "The user …" or "The user's job …", not "The user's sister …"
_ABOUT_USER = re.compile(r"^\W*(?:the\s+)?user(?:'s\s+(?:new\s+|current\s+)?(?:job|work|workplace|home|house|flat|"
                         r"apartment|address)\b|\b(?!'s))", re.IGNORECASE)
_AUX = r"(?:(?:has|had|have|is|was|now|currently|recently|just|also|already)\s+)*"
_VERB_AT = r"(?:\b(?:the\s+)?user\s+|\band\s+)" + _AUX  # the verb of the user's own clause, or of one joined to it
_VALUE = (r"(?P<value>[^,.;:()\"]+?)"
          r"(?=\s+(?:and|but|for|with|since|because|after|before|from|as|at|in|this|last|next|on|y|por|where|"
          r"which|who|to\s+work|to\s+be|near|together|again|now|recently|already)\b|[,.;:()\"]|$)")
_SHAPES = {
    "home": re.compile(r"(?:" + _VERB_AT + r"(?:lives?|lived|living|moved|moving|relocated|settled)\s+(?:now\s+)?"
                       r"(?:back\s+)?(?:in|to|into)\s+(?:an?\s+(?:new\s+)?(?:home|house|flat|apartment)\s+in\s+)?"
                       r"|\buser's\s+(?:new\s+|current\s+)?(?:(?:home|address)\s+is\s+(?:now\s+)?(?:in\s+)?"
                       r"|(?:house|flat|apartment)\s+is\s+(?:now\s+)?in\s+))" + _VALUE, re.IGNORECASE),
    "workplace": re.compile(r"(?:" + _VERB_AT + r"(?:works?|worked|working|started\s+working|is\s+employed)"
                            r"(?:\s+as\s+an?\s+[\w\s-]+?)?|\ba\s+(?:new\s+)?job"
                            r"|\buser's\s+(?:new\s+|current\s+)?(?:job|work|workplace)\s+is)"
                            r"\s+(?:now\s+)?(?:at|in|for)\s+" + _VALUE, re.IGNORECASE),
    "occupation": re.compile(_VERB_AT + r"(?:works?|worked|working|started\s+working)\s+(?:now\s+)?as\s+" + _VALUE,
                             re.IGNORECASE),
}
# Every shape holds one of these words (SQL LIKE patterns, for a first cut in the store)
_MAY_STATE = ("%live%", "%living%", "%mov%", "%relocat%", "%settled%", "%work%", "%job%", "%employed%", "%home%",
              "%house%", "%flat%", "%apartment%", "%address%")
_ARTICLES = {"a", "an", "the", "el", "la", "los", "las", "un", "una"}
# "works in the mornings" says when, not where
_WHEN_WORDS = re.compile(r"\b(?:mornings?|afternoons?|evenings?|nights?|shifts?|weekends?|weekdays?|summers?|"
                         r"winters?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|"
                         r"home|remotely|pairs?|teams?|silence)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Value:
    attribute: str  # "home", "workplace", "occupation"
    value: str
    said: str  # when: the entry's newest source message, or its own date when it has none


def stated(memory: Memory) -> list[Value]:
    """The single-valued things an entry says about the person, each at most once."""
    return [Value(attribute, value, memory.newest) for attribute, value in _shapes(memory.text)]


def same(a: str, b: str) -> bool:
    """One value said two ways: the same names, or (with no names) one's words within the other's."""
    names_a, names_b = entities(a), entities(b)
    if names_a and names_b:
        return bool(names_a & names_b)
    wa, wb = _words(a), _words(b)
    return wa <= wb or wb <= wa


def replaced(store: Store, entries: list[Memory]) -> dict[int, Memory]:
    """Each of `entries` that states a value the person later changed, with the entry that says the newer value.

    Compared against every entry the person has not forgotten (a Dream's MERGE keeps its sources, superseded, so
    a merged move still replaces the old home), and only between entries drawn from one speaker's messages (in a
    conversation between two people, as LoCoMo's, each is "the user" of their own lines).
    """
    mine = [m for m in entries if _shapes(m.text)]
    if not mine:
        return {}
    # Read only what could be in a shape: on the reply path, a scan of every entry took 0.6 s at 20,000 entries.
    found = store.memories(status=None, text_like=_MAY_STATE)
    shaped = store.with_sources([m for m in found if m.status != "forgotten" and _shapes(m.text)])
    speakers = {m.id: m.speaker for m in store.messages_by_id({s.message_id for e in shaped for s in e.sources}).values()}
    # the person of the app has no speaker name, and an entry they typed has no message: both are theirs
    owner = lambda e: frozenset(speakers.get(s.message_id) for s in e.sources) - {None}  # noqa: E731
    later: dict[tuple[str, frozenset], list[tuple[Value, Memory]]] = {}
    for m in shaped:
        for v in stated(m):
            later.setdefault((v.attribute, owner(m)), []).append((v, m))
    out: dict[int, Memory] = {}
    for memory in (m for m in shaped if m.id in {e.id for e in mine}):
        for v in stated(memory):
            newer = [(w, m) for w, m in later.get((v.attribute, owner(memory)), [])
                     if w.said > v.said and not same(w.value, v.value) and not _placed_within(v.value, m)]
            if newer:
                out[memory.id] = max(newer, key=lambda pair: (pair[0].said, pair[1].id))[1]
                break
    return out


# "from Vitoria", "de Vitoria", "left Vitoria": the place named is the one left behind
_LEFT = re.compile(r"\b(?:from|left|leaving|leave|de|desde|dej[eé]|dejamos)\s+(?:the\s+|el\s+|la\s+)?$")


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
        if attribute == "home" and not proper_nouns(value):
            continue  # a town is a name: "moved to a bigger desk" is not a home
        if attribute == "workplace" and _WHEN_WORDS.search(value):
            continue
        found.append((attribute, value))
    return found


def _words(text: str) -> set[str]:
    return {w for w in words(normalize(text)) if w not in _ARTICLES}
