"""The Dream's judge: a pure function that accepts or rejects one proposed operation, with a reason."""
from __future__ import annotations

import re
from functools import partial
from itertools import combinations
from typing import Mapping

from .. import lang
from ..store import attributes
from ..store.records import Memory, Source
from ..text import mentions, normalize, numbers, relations_missing, split_sentences, words
from .model import DreamOperation, Verdict
from .roles import ROLE_WORDS, roles_of
from .vocab import CONNECTIVES, DURABLE_TOPICS, HABIT_WORDS, WHEN_WORDS, content_words, durable_topics, names

MAX_TEXT_CHARS = 500
# An entry is a fact about the person; in their voice ("I work as…") it reads as the assistant's own.
_FIRST_PERSON = lang.words("FIRST_PERSON")
# Whom the Writer's entries are about ("The user…", in English whatever the language told in).
_ABOUT = re.compile(lang.pattern("ENTRY_SUBJECT"), re.IGNORECASE)
_OWNER = lang.pattern("ENTRY_OWNER")


def validate_all(
    operations: list[DreamOperation], entries: Mapping[int, Memory], replaced: Mapping[int, Memory] | None = None,
    typed: Mapping[int, str] | None = None,
) -> list[Verdict]:
    """Judge operations in order; an entry changed by an accepted operation is off limits to later ones."""
    touched: set[int] = set()
    verdicts = []
    for op in operations:
        verdict = validate(op, entries, frozenset(touched), replaced, typed)
        if verdict.accepted:
            touched.update(op.target_ids)
        verdicts.append(verdict)
    return verdicts


def validate(
    op: DreamOperation, entries: Mapping[int, Memory], touched: frozenset[int] | set[int] = frozenset(),
    replaced: Mapping[int, Memory] | None = None, typed: Mapping[int, str] | None = None,
) -> Verdict:
    """Judge one operation against the entries it names; `touched` holds ids changed by earlier accepted ops,
    `replaced` maps an entry whose value the person changed later to the entry saying the newer value, and `typed`
    an entry to the kind of thing it says (`Store.kinds.typed`)."""
    problem = _check_targets(op, entries, touched)
    if problem is None and op.op == "PROMOTE":
        problem = _promotes_an_old_value(op.target_ids, replaced or {})
    if problem is None:
        targets = [entries[i] for i in op.target_ids]
        check = {"MERGE": partial(_check_merge, typed=typed or {}), "UPDATE": _check_update,
                 "PROMOTE": _check_promote, "FORGET": _check_forget}
        problem = check[op.op](op, targets)
    if problem:
        return Verdict(False, problem)
    return Verdict(True, _accepted_reason(op))


def _accepted_reason(op: DreamOperation) -> str:
    ids = _ids(op.target_ids)
    return {
        "MERGE": f"Accepted: {ids} merged into one entry that keeps every name and value.",
        "UPDATE": f"Accepted: {ids} rewritten with the current value and no new facts.",
        "PROMOTE": f"Accepted: {ids} promoted to long-term memory on enough evidence.",
        "FORGET": f"Accepted: {ids} forgotten as a one-off event (still undoable).",
    }[op.op]


def _ids(ids: list[int]) -> str:
    label = "entries" if len(ids) > 1 else "entry"
    return f"{label} {', '.join(str(i) for i in ids)}"


def _check_targets(
    op: DreamOperation, entries: Mapping[int, Memory], touched: frozenset[int] | set[int]
) -> str | None:
    if not op.target_ids:
        return "The operation names no entries."
    seen: set[int] = set()
    for memory_id in op.target_ids:
        if memory_id in seen:
            return f"The operation lists entry {memory_id} more than once."
        seen.add(memory_id)
        entry = entries.get(memory_id)
        if entry is None:
            return f"Entry {memory_id} does not exist (it may have been deleted)."
        if entry.status != "active":
            return f"Entry {memory_id} is {entry.status}, so the Dream can no longer change it."
        if memory_id in touched:
            return f"Entry {memory_id} is already changed by another accepted operation in this Dream."
    if op.op == "MERGE" and len(op.target_ids) < 2:
        return "A MERGE needs at least two entries; rewriting a single entry is an UPDATE."
    if op.op in ("MERGE", "UPDATE"):
        text = (op.text or "").strip()
        if not text:
            return f"The {op.op} gives no new text."
        if len(text) > MAX_TEXT_CHARS:
            return f"The new text is {len(text)} characters long; an entry may hold at most {MAX_TEXT_CHARS}."
        if op.op == "UPDATE" and all(_same_text(text, entries[i].text) for i in op.target_ids):
            return "The new text is what the entry already says: the UPDATE would change nothing."
    return None


def _same_text(a: str, b: str) -> bool:
    return normalize(a).rstrip(" .!") == normalize(b).rstrip(" .!")


# -- MERGE and UPDATE ---------------------------------------------------------------------------------------

def _check_merge(op: DreamOperation, targets: list[Memory], typed: Mapping[int, str]) -> str | None:
    problem = _one_thing(targets, typed) or _check_rewrite(op.text or "", targets)
    if problem:
        return problem
    for target in targets:
        for name in sorted(names(target.text)):
            if not mentions(name, op.text or ""):
                return f"The merged text drops '{_shown(name, target.text)}' from entry {target.id}."
        content = content_words(target.text)
        kept = [w for w in content if mentions(w, op.text or "")]
        if 2 * len(kept) < len(content):
            return f"The merged text loses most of entry {target.id} (\"{target.text}\")."
    return _lost_current_value(op.text or "", targets)


def _one_thing(targets: list[Memory], typed: Mapping[int, str]) -> str | None:
    """A MERGE joins entries that say one thing more than once. Refused: entries stating different things that hold
    one value at a time (a home and a job, a diet and a car: `store.attributes`), and an entry sharing no name or word, besides words of
    time, with any other (a move and a new job told in one message are two facts, each replaced on its own later)."""
    stated = {t.id: {v.attribute for v in attributes.stated(t, typed.get(t.id))} for t in targets}
    for a, b in combinations(targets, 2):
        if stated[a.id] and stated[b.id] and stated[a.id] != stated[b.id]:
            return (f"Entries {a.id} ({', '.join(sorted(stated[a.id]))}) and {b.id} "
                    f"({', '.join(sorted(stated[b.id]))}) say different things; a MERGE joins one thing said twice.")
    said = {t.id: (names(t.text) | content_words(t.text)) - WHEN_WORDS for t in targets}
    for t in targets:
        if not any(_share_a_word(said[t.id], said[other.id]) for other in targets if other is not t):
            return (f"Entry {t.id} (\"{t.text}\") shares no name or word with the others: a MERGE joins one thing "
                    "said twice, not different facts.")
    return None


def _share_a_word(a: set[str], b: set[str]) -> bool:
    """A word of `a` is one of `b`, or one is the other with an ending ("peanut", "peanuts")."""
    return any(x == y or (min(len(x), len(y)) >= 4 and (x.startswith(y) or y.startswith(x))) for x in a for y in b)


def _check_update(op: DreamOperation, targets: list[Memory]) -> str | None:
    problem = _check_rewrite(op.text or "", targets) or _lost_current_value(op.text or "", targets)
    if problem:
        return problem
    newest_source = max((s for t in targets for s in t.sources), key=lambda s: s.date, default=None)
    for target in targets:
        for name in sorted(names(target.text)):
            if mentions(name, op.text or "") or _replaced(name, targets, newest_source):
                continue
            return (
                f"The new text drops '{_shown(name, target.text)}' (entry {target.id}) "
                "although no newer message replaces it."
            )
    return None


def _check_rewrite(text: str, targets: list[Memory]) -> str | None:
    """Rules shared by MERGE and UPDATE: nothing invented, no name moved to another role, no health fact lost."""
    evidence = [t.text for t in targets] + [s.text for t in targets for s in t.sources]
    voice = next((w for w in words(text) if normalize(w).replace("’", "'") in _FIRST_PERSON), None)
    if voice:
        return f"The new text speaks in the first person ('{voice}'); an entry is a third-person fact about the person."
    for name in sorted(names(text)):
        if not any(mentions(name, passage) for passage in evidence):
            kind = "the number" if name in numbers(name) else "the name"
            return (
                f"The new text introduces {kind} '{_shown(name, text)}', which appears in none of the entries "
                "it replaces or their source messages."
            )
    problem = _role_problem(text, targets, subject="The new text")
    if problem:
        return problem
    if all(_ABOUT.search(t.text) for t in targets) and not _ABOUT.search(text):
        return "The new text is no longer about the person: every entry it replaces is."
    for name in sorted(names(text)) if _OWNER else ():
        owner = re.compile(rf"(?<!\w){re.escape(name)}(?:{_OWNER})", re.IGNORECASE)  # "Pepper's dog": Pepper has one
        if owner.search(text) and not any(owner.search(passage) for passage in evidence):
            return (f"The new text says '{_shown(name, text)}'s', which neither the entries nor the person's "
                    "messages say.")
    # Lower-case facts can be invented too ("works as a nurse" -> "works as a teacher").
    for word in sorted(content_words(text) - CONNECTIVES):
        if not any(mentions(word, passage) for passage in evidence):
            return f"The new text says '{_shown(word, text)}', which neither the entries nor the person's messages say."
    for target in targets:
        # "The user's brother Pablo works as a pilot" must not become "The user Pablo works as a pilot".
        dropped = relations_missing(target.text, text)
        if dropped:
            return f"The new text drops '{dropped[0]}' from entry {target.id}: whose fact it is would be lost."
    for target in targets:
        health = durable_topics(target.text).get("health")
        if health and "health" not in durable_topics(text):
            return f"The new text drops the health fact of entry {target.id} (\"{target.text}\")."
    return None


def _lost_current_value(text: str, targets: list[Memory]) -> str | None:
    """When targets disagree, the newest one holds the current value and it must survive."""
    if len(targets) < 2:
        return None
    ordered = sorted(targets, key=lambda t: (t.newest, t.id))
    newest, older = ordered[-1], ordered[:-1]
    distinct = [
        w for w in sorted(content_words(newest.text) | names(newest.text))
        if not any(mentions(w, t.text) for t in older)
    ]
    if not distinct:
        return None
    kept = [w for w in distinct if mentions(w, text)]
    lost_name = any(w in names(newest.text) and w not in kept for w in distinct)
    if lost_name or 2 * len(kept) < len(distinct):
        when = f" ({newest.newest[:10]})" if newest.newest else ""
        return (
            f"Entry {newest.id} is the newest{when} and says \"{newest.text}\"; "
            "the new text loses that current value."
        )
    return None


def _replaced(name: str, targets: list[Memory], newest_source: Source | None) -> bool:
    """An UPDATE may drop a name only when a newer message gives another value in the same role."""
    sources = [s for t in targets for s in t.sources]
    mentioning = [s for s in sources if mentions(name, s.text)]
    if not mentioning:
        return True  # never said by the person: nothing to keep
    if newest_source is not None and mentions(name, newest_source.text):
        return False
    roles = set().union(*(roles_of(name, s.text) for s in mentioning))
    if not roles:
        return True
    last_said = max(s.date for s in mentioning)
    for source in sources:
        if source.date <= last_said:
            continue
        for other in names(source.text):
            if not mentions(name, other) and roles & roles_of(other, source.text):
                return True
    return False


def _role_problem(text: str, targets: list[Memory], *, subject: str) -> str | None:
    """A name must keep the role it has in the person's own words (a parrot's name is not the person's)."""
    for name in sorted(names(text) - numbers(text)):
        new_roles = roles_of(name, text)
        if not new_roles:
            continue
        old_roles = set().union(*(roles_of(name, s.text) for t in targets for s in t.sources))
        where = "the person's messages"
        if not old_roles:
            old_roles = set().union(*(roles_of(name, t.text) for t in targets))
            where = "the entries"
        moved = new_roles - old_roles
        if not old_roles or not moved:
            continue
        shown = _shown(name, text)
        if "self" in moved:
            return (
                f"{subject} says the person is called {shown}, but in {where} {shown} is only "
                f"{_role_list(old_roles)}."
            )
        return f"{subject} makes {shown} {_role_list(moved)}, but in {where} it is only {_role_list(old_roles)}."
    return None


def _role_list(roles: set[str]) -> str:
    return " or ".join(ROLE_WORDS[r] for r in sorted(roles))


# -- PROMOTE and FORGET ------------------------------------------------------------------------------------

def _check_promote(op: DreamOperation, targets: list[Memory]) -> str | None:
    for target in targets:
        if target.tier == "ltm":
            return f"Entry {target.id} is already long-term memory."
        said = [s for s in target.sources if s.role == "user"]
        for name in sorted(names(target.text)):
            if target.sources and not any(mentions(name, s.text) for s in target.sources):
                return (
                    f"Entry {target.id} names '{_shown(name, target.text)}', which none of its source messages "
                    "contain; promoting it would make that mistake permanent."
                )
        problem = _role_problem(target.text, [target], subject=f"Entry {target.id}")
        if problem:
            return problem + " Promoting it would make that mistake permanent."
        distinct_messages = {s.message_id if s.message_id is not None else (s.text, s.date) for s in said}
        if len(distinct_messages) >= 2 or target.origin == "manual":
            continue
        if _durable_personal_fact(target.text) and any(_durable_personal_fact(s.text) for s in said):
            continue
        return (
            f"Entry {target.id} rests on {len(distinct_messages) or 'no'} message"
            f"{'' if len(distinct_messages) == 1 else 's'} and is not an identity or health fact the person "
            "stated; it must be said at least twice to become long-term."
        )
    return None


def _promotes_an_old_value(target_ids: list[int], replaced: Mapping[int, Memory]) -> str | None:
    """In the app, a Dream promoted "The user works in the hospital of Txagorritxu" after the person had told of a
    new job: long-term memory would have kept the old workplace as a durable fact."""
    for memory_id in target_ids:
        newer = replaced.get(memory_id)
        if newer is not None:
            return (f"Entry {memory_id} states a value the person changed later (entry {newer.id}: "
                    f"'{newer.text}'); an old value is not made long-term.")
    return None


def _durable_personal_fact(text: str) -> bool:
    """Health or identity: said once is enough, a name the person gives for themselves included."""
    if {"health", "identity"} & durable_topics(text).keys():
        return True
    return any("self" in roles_of(name, text) for name in names(text) - numbers(text))


def _check_forget(op: DreamOperation, targets: list[Memory]) -> str | None:
    for target in targets:
        if target.tier == "ltm":
            return f"Entry {target.id} is long-term memory; the Dream never forgets long-term entries."
        habit = sorted(HABIT_WORDS & set(words(normalize(target.text))))
        if habit:
            return f"Entry {target.id} describes a habit ('{habit[0]}'), not a one-off event."
        messages = {s.message_id if s.message_id is not None else (s.text, s.date) for s in target.sources}
        if len(messages) >= 2:
            return f"Entry {target.id} was said in {len(messages)} messages; what recurs is not a one-off event."
        passages = [target.text] + _related_sentences(target)
        topics: dict[str, list[str]] = {}
        for passage in passages:
            for topic, found in durable_topics(passage).items():
                topics.setdefault(topic, []).extend(found)
        if topics:
            topic = next(t for t in DURABLE_TOPICS if t in topics)
            return (
                f"Entry {target.id} is about {topic} ('{topics[topic][0]}'); facts about health, work, family, "
                "pets, plans, home or identity are never forgotten, only one-off events."
            )
    return None


def _related_sentences(entry: Memory) -> list[str]:
    """Sentences of the entry's sources that share a content word with it (the rest of a message is unrelated)."""
    content = content_words(entry.text)
    return [
        sentence
        for source in entry.sources
        for sentence in split_sentences(source.text)
        if any(mentions(w, sentence) for w in content)
    ]


def _shown(name: str, text: str) -> str:
    """A normalised name as the text writes it ("lisbon" -> "Lisbon"), for reasons people read."""
    tokens = words(text)
    size = len(name.split())
    for start in range(len(tokens) - size + 1):
        candidate = " ".join(tokens[start:start + size])
        if normalize(candidate) == name:
            return candidate
    return name
