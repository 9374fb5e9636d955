"""What a mode gathered for one question: the dated lines the Responder reads, the entries behind them, the trace."""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import numpy as np

from .. import lang
from ..lang import language
from ..store import Store, attributes, kinds
from ..store.records import Memory, Sentence
from ..text import content_words, entities, related, split_sentences
from . import dates
from .abstain import Relations
from .elapsed import Counted
from .retriever import Candidate, never_evidence
from .trace import Step


@dataclass
class Evidence:
    """One mode's answer to `gather(question)`; `lines[i]` shows `shown[i]`."""

    lines: list[str] = field(default_factory=list)
    shown: list[Candidate] = field(default_factory=list)
    facts: list[Candidate] = field(default_factory=list)  # durable facts (long-term tier) that bear on the question
    current: list[str] = field(default_factory=list)  # "home: Bristol (since …; before: Leeds)": values that changed
    steps: list[Step] = field(default_factory=list)
    question: bool = True  # False: a statement, answered with an acknowledgement and never abstained on
    may_abstain: bool = False  # the Controller saw a question about the person: code may answer "I don't know"
    relations: Relations | None = None  # the people the question asks after, as the person's own words know them
    prompt: str = "responder"  # which prompt file the Responder renders
    follow_up: bool = True  # False: a question that stands alone, answered without the recent questions
    replaced: list[str] = field(default_factory=list)  # sentences left out as old values: no recent turn says them
    # what is no longer current (left out, or shown marked), each with the entries saying its newer values, if any
    superseded: list[tuple[Candidate, tuple[int, ...]]] = field(default_factory=list)
    own_names: tuple[str, ...] = ()  # in a language no module knows: the names the person gave themselves
    learned: list[Candidate] = field(default_factory=list)  # ...and the entries drawn from the sentences shown
    # for a question about now, the names and numbers of the values asked after: held now, and held only before
    values_now: tuple[str, ...] = ()
    values_before: tuple[str, ...] = ()
    values_said: str = ""  # when the values held now were first told: a line said earlier may hold an older one
    told: dict[str, dates.Happened] = field(default_factory=dict)  # asked when: what entries tell, by sentence key
    counted: Counted | None = None  # asked how many days between things or since one: the count code made
    # in a language no module knows: the newest sentences shown that state the kind of thing the question asks after,
    # and the older ones that do
    stating_asked: tuple[str, ...] = ()
    stated_before: tuple[str, ...] = ()

    def for_a_statement(self) -> "Evidence":
        """What a statement's reply reads: nothing of memory, the acknowledgement's prompt (shown its own earlier
        sentences, a small model repeats them back or speaks as the person)."""
        return replace(self, lines=[], shown=[], facts=[], current=[], prompt="acknowledge")

    def in_memory_words(self) -> "Evidence":
        """The same evidence without the person's sentences: the entries shown and those drawn from the sentences,
        each in the Writer's words alone (no quote of what the person said), oldest first."""
        entries = in_date_order(list({c.key: c for c in self.shown + self.learned if c.kind == "memory"}.values()))
        return replace(self, lines=[f"- {c.date[:10]}: {c.text}" for c in entries], shown=entries, learned=[])

    def without(self, index: int) -> "Evidence":
        """The same evidence less its line `index` (and the entry that line shows)."""
        return replace(self, lines=self.lines[:index] + self.lines[index + 1:],
                       shown=self.shown[:index] + self.shown[index + 1:])


def said_line(c: Candidate, mark: str = "", *, compact: bool = False, words_in: str | None = None,
              resolve_dates: bool = False, told: dates.Happened | None = None) -> str:
    """A verbatim sentence with its date; `words_in` a language ("en", "es"): the date written as people write it,
    in the language of the reply that may copy it ("- 8 May 2023: …"). With `resolve_dates`, the date after
    "yesterday", "last Monday"… too, and a sentence that says when it happened is dated at that day, the day it
    was told after it ("- 21 March 2026 (said 22 March 2026): … born yesterday (21 March 2026)"): asked when, a
    small model gives the date a line opens with. `told`: when it happened as memory read it, for a sentence whose
    own words code cannot read (`told_when`)."""
    text = dates.resolve(c.text, c.date, words_in) if resolve_dates else c.text
    day = dates.spoken(c.date, words_in) if words_in else c.date[:10]
    happened = (dates.when(c.text, c.date, words_in) or told) if resolve_dates else None
    if happened and happened.day.isoformat() != c.date[:10]:
        told_on = lang.of(words_in or language(c.text) or "en").SAID_ON.format(day=day)
        day = f"{happened.label} ({told_on})"
    if compact:
        return f"- {day}: {text}{mark}"
    return f'- ({day}) the person said: "{text}"{mark}'


def memory_line(c: Candidate, *, with_sources: bool, words_in: str | None = None) -> str:
    """A memory entry with its date and the verbatim sentences it was drawn from (their own date when it differs);
    the published variant shows the text only."""
    if not with_sources:
        return f"- {c.text}"
    day = (lambda stamp: dates.spoken(stamp, words_in)) if words_in else (lambda stamp: stamp[:10])
    said = "; ".join(f'"{stating(c.text, s.text)}"' + ("" if s.date[:10] == c.date[:10] else f" ({day(s.date)})")
                     for s in c.sources[:2])
    return f"- {day(c.date)}: {c.text}" + (f" (said: {said})" if said else "")


def stating(entry: str, message: str) -> str:
    """The sentences of `message` that share a word with `entry`, verbatim (the whole message when none do): an
    entry stands for one remark, so the rest of a long message would only lengthen the prompt."""
    sentences = split_sentences(message)
    quoted = related(entry, sentences)
    return " ".join(quoted) if quoted and len(quoted) < len(sentences) else message


def quotes(entry: Memory, sentence: Sentence) -> bool:
    """`sentence` is one of those of its message that state `entry` (what `memory_line` would quote)."""
    return any(s.message_id == sentence.message_id and sentence.text in stating(entry.text, s.text)
               for s in entry.sources)


def happened(memory: Memory) -> tuple[dates.Happened, str] | None:
    """When what `memory` tells happened, with the day it was said: read in its own words first, then in the
    sentences it was drawn from; None when neither says a time a known language reads."""
    told = [(memory.text, source.date) for source in memory.sources[:1]] or [(memory.text, memory.created_at)]
    told += [(stating(memory.text, source.text), source.date) for source in memory.sources]
    for text, said_on in told:
        if found := dates.when(text, said_on):
            return found, said_on
    return None


def happened_on(c: Candidate, code: str | None, told: dict[str, dates.Happened]) -> dates.Happened | None:
    """When a shown line says what it tells happened: in its own words, else as its entry tells (`told_when`)."""
    return dates.when(c.text, c.date, code) or told.get(c.key)


def told_when(store: Store, shown: list[Candidate], words_in: str | None) -> dict[str, dates.Happened]:
    """When what each sentence in a language no module knows tells happened, as an entry drawn from it says in the
    Writer's English ("Ik ben zaterdag verhuisd." stated "The user moved on Saturday"), by sentence key: code reads
    no date in that language, but the Writer translates its words. An entry stands for a sentence it shares a word
    with, or for the only sentence of its message; dates written in `words_in` (English when None)."""
    unread = [c for c in shown if c.kind == "sentence" and language(c.text) is None]
    if not unread:
        return {}
    entries = [e for e in store.with_sources(store.memories_from_messages({c.record.message_id for c in unread}))
               if e.status != "forgotten"]
    found: dict[str, dates.Happened] = {}
    for c in unread:
        for entry in entries:
            message = next((s.text for s in entry.sources if s.message_id == c.record.message_id), None)
            if message is None:
                continue
            sentences = split_sentences(message)
            if c.text not in (related(entry.text, sentences) or (sentences if len(sentences) == 1 else [])):
                continue
            if happened := dates.when(entry.text, c.date, words_in or "en"):
                found[c.key] = happened
                break
    return found


def adds_to(entry: Memory, shown: list[Candidate]) -> bool:
    """Whether `entry` quotes a sentence that could be evidence and `shown` lacks: one sentence of a message shown
    says nothing of the rest ("We renamed the dog!" shown, "She's called Motte now." not)."""
    said = {(c.sources[0].message_id, c.text) for c in shown if c.kind == "sentence" and c.sources}
    for source in entry.sources:
        sentences = split_sentences(source.text)
        quoted = related(entry.text, sentences) or sentences  # what `stating` quotes, sentence by sentence
        if any((source.message_id, s) not in said and not never_evidence(s, small_talk=False) for s in quoted):
            return True
    return False


def learned_from(store: Store, entries: list[Memory], sentences: list[Candidate]) -> list[Candidate]:
    """Those of `entries` (current ones) drawn from the messages of these sentences, with their sources."""
    messages = {source.message_id for c in sentences if c.kind == "sentence" for source in c.sources}
    drawn = [m.id for m in entries if messages & set(m.source_message_ids)]
    return [Candidate(m, 0.0) for m in store.memories(ids=drawn, with_sources=True)] if drawn else []


def in_date_order(candidates: list[Candidate]) -> list[Candidate]:
    """Oldest first, so that the last line about a thing is its current value; ties keep their score order."""
    return sorted(candidates, key=lambda c: c.date)


@dataclass
class Replacements:
    """What memory knows about shown sentences: which were replaced later, and by which entry when code found it."""

    marks: dict[str, str] = field(default_factory=dict)  # sentence key -> " (replaced later)"
    successors: dict[str, list[Memory]] = field(default_factory=dict)  # sentence key -> entries with newer values
    stale: dict[int, Memory] = field(default_factory=dict)  # durable fact id -> the entry with its newer value


@dataclass(frozen=True)
class Asked:
    """Memory's answer to a question about now: the current values of the kind asked after, each since when in words
    (`lines`), the names and numbers (a diet's words) those values hold (`now`) and the values they replaced hold
    and they do not (`before`), and when the earliest of them was last told (`said`)."""

    lines: list[str] = field(default_factory=list)
    now: tuple[str, ...] = ()
    before: tuple[str, ...] = ()
    said: str = ""


def stating_asked(store: Store, question: np.ndarray | None,
                  shown: list[Candidate]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Of `shown`'s sentences that state a value of the kind the question asks after, by the embedder's reading of both
    (`Kinds.asked`, `Kinds.states`), the newest and the older ones: a question code cannot read still has a line known
    to bear on it. The kind holds one value: "Mieszkam w Poznaniu…" no longer answers where the person lives once they
    said they moved to Gdańsk."""
    examples = store.kinds.examples
    kind = examples.asked(question) if examples is not None else None
    if kind is None:
        return (), ()
    vectors = store.sentence_vectors([c.id for c in shown if c.kind == "sentence"])
    stating = [c for c in shown if c.kind == "sentence" and c.id in vectors and examples.states(kind, vectors[c.id])]
    newest = max((c.date for c in stating), default="")
    return (tuple(c.text for c in stating if c.date == newest), tuple(c.text for c in stating if c.date != newest))


def asked_now(store: Store, question: np.ndarray | None, people: tuple[str, ...] = ()) -> Asked:
    """The current values of the kind a question asks after (`kinds`: "What car do I drive?" asks a vehicle), as the
    profile holds them, each since when in words: memory's answer to a question about now, read first. A value that
    is a whole entry and replaced another is shown by the names it says that the one before did not ("Vehicle:
    Toyota Yaris", not "The user traded the Fiesta for a Toyota Yaris"). A question naming people of theirs
    (`people`: "Which city does my sister live in?") asks after theirs, not the person's, unless the kind's value is
    such a person (`kinds.OF_PEOPLE`: "Who is my girlfriend?")."""
    examples = store.kinds.examples
    kind = examples.asked(question) if examples is not None else None
    if kind is None or (people and kind not in kinds.OF_PEOPLE):
        return Asked()
    rows = [row for row in attributes.profile(store) if row.attribute.split(":")[0] == kind]
    asked = set(examples.asks_after(question, [row.attribute for row in rows]))  # the cat's name, not the dog's
    held = [(row, h) for row in rows if row.attribute in asked for h in row.now]
    entries = {e.id: e for e in store.with_sources(store.memories(status=None, ids=[h.memory_id for _, h in held]))}
    lines: dict[str, str] = {}  # each value shown once, since it was first said
    for row, h in held:
        new = attributes.named(h.value, [b.value for b in row.before]) if h.whole and row.before else None
        shown = (f"{attributes.label(row.attribute, whole=True)}: {new}" if new
                 else attributes.row(attributes.Value(row.attribute, h.value, h.since, h.whole)))
        lines.setdefault(shown, f"{shown} (since {_since(entries[h.memory_id])})")
    now = set().union(*(_named(kind, h.value) for _, h in held))
    before = set().union(*(_named(kind, b.value) for row in rows if row.attribute in asked for b in row.before)) - now
    said = min((entries[h.memory_id].newest for _, h in held), default="")
    return Asked(list(lines.values()), tuple(sorted(now)), tuple(sorted(before)), said)


def _named(kind: str, value: str) -> set[str]:
    """What tells a value of `kind` from another: its names and numbers, and for a kind said in a few words (a diet),
    those words ("vegetarian", "pescatarian")."""
    return entities(value) | kinds.value_words(kind, value)


def _since(entry: Memory) -> str:
    """The day a value holds from, in words: the day the move or the new job happened where its entry says ("the
    week before 6 December 2026", as the profile shows it), else the day it was said."""
    found = happened(entry)
    return found[0].label if found else dates.spoken(entry.newest)


def replacements(store: Store, sentences: list[Candidate], facts: list[Candidate] = (),
                 question: np.ndarray | None = None) -> Replacements:
    """A sentence is replaced when a Dream's UPDATE replaced an entry drawn from it, or when the entries drawn from
    it that the question bears on state something that holds one value at a time and was said again later with
    another value (`attributes`: a move replaces the old home, a new job the old one).

    A sentence is matched to the entries drawn from its message that share a content word with it. One sentence may
    say several things ("I'm Dana, I live in Leeds and work as a pharmacist"): when only some of them changed, it is
    replaced for a question nearer (by the embedder) to an entry that changed than to every one still current, and
    stays evidence for the others. Without a question, only a sentence all of whose entries changed is.
    """
    message_ids = {s.sources[0].message_id for s in sentences if s.sources}
    derived = store.memories_from_messages(message_ids)
    updated = store.dreams.updated_away() if derived else set()
    changed = attributes.replaced(store, derived + [c.record for c in facts])  # one read of the store per turn
    found = Replacements(stale={c.id: changed[c.id] for c in facts if c.id in changed})
    for s in sentences:
        said = content_words(s.text)
        mine = [m for m in derived if s.sources and s.sources[0].message_id in m.source_message_ids
                and said & content_words(m.text)]
        stale = [m for m in mine if m.id in changed]
        replaced = bool(stale) and (len(stale) == len(mine) or _asks_after(store, question, stale, mine))
        # A MERGE leaves its entries `superseded` too, but it keeps every name and value: nothing was replaced.
        if replaced or any(m.id in updated for m in mine):
            found.marks[s.key] = " (replaced later)"
        if replaced:
            found.successors[s.key] = list({changed[m.id].id: changed[m.id] for m in stale}.values())
    return found


def _asks_after(store: Store, question: np.ndarray | None, stale: list[Memory], mine: list[Memory]) -> bool:
    """Whether the question is nearer to one of the entries whose value changed than to every entry still current."""
    if question is None:
        return False
    vectors = store.memory_vectors(status=None, ids=[m.id for m in mine])
    current = [m for m in mine if m not in stale]
    nearest = lambda entries: max((float(question @ vectors[m.id]) for m in entries if m.id in vectors),  # noqa: E731
                                  default=-1.0)
    return nearest(stale) > nearest(current)


_AS_OF_SAYING = re.compile(lang.pattern("AS_OF_SAYING"), re.IGNORECASE)


def as_of_saying(text: str) -> bool:
    """Whether a sentence says it tells what held when it was said ("I've seen 27 species so far"): true until a
    newer sentence says otherwise."""
    return _AS_OF_SAYING.search(text) is not None


def newer_values(store: Store, sentences: list[Candidate], *, min_similarity: float,
                 said_as_of_saying: bool = False) -> dict[str, Candidate]:
    """Conflicts found in code, each older sentence's key to the newer sentence that replaced it: an older sentence on
    the same subject as a newer one, each with a value the other lacks.

    Same subject: their embeddings are at least `min_similarity` apart; values: names and numbers (`entities`).
    Older: said before, or earlier in the same conversation. `said_as_of_saying`: only an older sentence that said
    it told what held then (`as_of_saying`), and a newer one that shares two of its words: the embedder alone puts
    "six times now that I've worn them" as near "a new pair of Vans sneakers" as two counts of bird species."""
    vectors = store.sentence_vectors(c.id for c in sentences if c.kind == "sentence")
    dated = sorted((c for c in sentences if c.kind == "sentence" and c.id in vectors),
                   key=lambda c: (c.date, c.record.message_id))
    marks: dict[str, Candidate] = {}
    for i, older in enumerate(dated):
        if said_as_of_saying and not as_of_saying(older.text):
            continue
        for newer in dated[i + 1:]:
            if newer.record.message_id == older.record.message_id:  # its sentences do not replace each other
                continue
            if said_as_of_saying and len(content_words(older.text) & content_words(newer.text)) < 2:
                continue
            a, b = entities(older.text), entities(newer.text)
            if a - b and b - a and float(vectors[older.id] @ vectors[newer.id]) >= min_similarity:
                marks[older.key] = newer
                break
    return marks


_CLAUSE_BREAK = re.compile(r"(\s*[,;:，；：、]\s*)")  # punctuation only: a language's "and" is not read here
ELIDED = "…"


def still_said(text: str, vectors: np.ndarray, whole: np.ndarray, replaced_by: np.ndarray) -> str | None:
    """The part of an older sentence that no newer line replaced, the rest elided: "I have a dog called Pepper, …"
    once "I traded the Fiesta in for a Toyota Yaris" replaced "…, and I drive an old Ford Fiesta." `vectors`: one row
    per clause of `text` (`clauses`), `whole`: the sentence's, `replaced_by`: the lines that replaced it, one a row.
    A clause at least as near one of them as the whole sentence is, is what was replaced (the sentence's nearness is
    its clauses' mixed: the replaced one is nearer, the others dilute it). None when every clause is, or none: the
    sentence goes whole."""
    near = (vectors @ replaced_by.T).max(axis=1) >= float((replaced_by @ whole).max())
    if near.all() or not near.any():
        return None
    pieces = _CLAUSE_BREAK.split(text)
    kept = [ELIDED if near[i // 2] else piece for i, piece in enumerate(pieces) if i % 2 == 0]
    out = kept[0]
    for separator, clause in zip(pieces[1::2], kept[1:]):
        if not (clause == ELIDED and out.endswith(ELIDED)):
            out += separator + clause
    return out.strip()


def clauses(text: str) -> list[str]:
    """A sentence's clauses as its punctuation marks them (commas, semicolons, colons)."""
    return _CLAUSE_BREAK.split(text)[0::2]
