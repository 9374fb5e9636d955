"""What kind of thing an entry says — where the person lives, their employer, their diet, a pet's name — read from
the entry's own vector: the kind of the nearest labelled example (`lang.en.ENTRY_KINDS`), when it is near enough.

The Writer states every entry in English, whatever language the person wrote in, so labelled examples in English
cover every phrasing the embedder places near them ("The user is officially Denver residents" is nearest to "The
user is now a resident of Calgary"), where rules over the words cover only the phrasings they list. An entry nearest
to an example of "other" — a relative's home, a trip, a feeling — has no kind: it holds no single value.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Callable, Iterable

import numpy as np

from .. import lang
from ..embed.base import Embedder
from ..text import related, without_names

OTHER = "other"
# How near an entry must be to its kind's example, and how much nearer than to anything "other", counted in the
# spread of one embedder's similarities between examples of different kinds (`_spread`): embedders place unrelated
# sentences at 0.30 (USE) or at 0.83 (multilingual-e5), so no one number serves both. On USE multilingual, the
# default, these are 0.45 and 0.10, the thresholds measured in round 37: below the floor an entry is no nearer to an
# example than unrelated sentences of the Writer's shape ("The user …") are to each other; within the margin, it is
# about as near to something "other" ("The user's cat is a tiny orange tabby" is as near a pet's name as a pet's habit).
FLOOR_SPREADS = 1.77
MARGIN_SPREADS = 1.19
_THING = re.compile(lang.of("en").ENTRY_THING, re.IGNORECASE)
_OF_THE_USER = re.compile(lang.of("en").ENTRY_OF_THE_USER, re.IGNORECASE)
# "The user's boyfriend Kenji …", "The user's brother …": an entry about someone of theirs (a relation word of the
# Writer's English, `lang.en` RELATIONS and ENTRY_PEOPLE, after "The user's" and a word at most)
_PEOPLE = sorted({w for ws in lang.of("en").RELATIONS.values() for w in ws.split()} | set(lang.of("en").ENTRY_PEOPLE.split()),
                 key=len, reverse=True)
SOMEONE_OF_THEIRS = lang.of("en").ENTRY_SOMEONE_NAMED.format(people="|".join(map(re.escape, _PEOPLE)))
_SOMEONE_OF_THEIRS = re.compile(SOMEONE_OF_THEIRS)
_BY_THING = {"pet name"}  # kinds whose value belongs to a thing of the person's, keyed by it: their dog, their cat
# The things of the person's whose value each other kind is (`ENTRY_KIND_THINGS`), and words before a thing ("new")
_OWN_THINGS = {kind: frozenset(words.split()) for kind, words in lang.of("en").ENTRY_KIND_THINGS.items()}
_ANY_THING = frozenset(lang.of("en").ENTRY_ANY_THING.split())
# Kinds whose value is one of a few words (`ENTRY_KIND_WORDS`: a diet), each read as a word's beginning
_KIND_WORDS = {kind: re.compile(r"\b(?:" + "|".join(map(re.escape, words.split())) + r")[\w-]*", re.IGNORECASE)
               for kind, words in lang.of("en").ENTRY_KIND_WORDS.items()}
# Kinds whose value is a name (a town, a company, a person, a car's make, a pet): an entry of one that names nothing
# says something about it, not its value ("The user's car is dark green"). A diet or an occupation is said in words.
NAMED = {"home", "workplace", "partner", "vehicle", "pet name"}
# Kinds whose value is a person of theirs: a question naming that relation ("Who is my girlfriend?") asks after the
# person's own value; naming one asks after that one's for any other kind ("Where does my sister live?").
OF_PEOPLE = {"partner"}


@dataclass(frozen=True)
class Kinds:
    """The labelled examples as vectors of one embedder: entries (`ENTRY_KINDS`) and questions (`ASKS_KINDS`)."""

    labels: tuple[str, ...]
    vectors: np.ndarray  # (examples, dim), unit rows
    floor: float  # an entry at least this near its example (`FLOOR_SPREADS` for this embedder)
    margin: float  # and this much nearer than to any example of no kind (`MARGIN_SPREADS`)
    asks_labels: tuple[str, ...] = ()
    asks_vectors: np.ndarray | None = None
    embedder: Embedder | None = field(default=None, compare=False)  # for the question of a thing ("my dog's name")
    _things: dict[str, np.ndarray] = field(default_factory=dict, compare=False, repr=False)

    def asked(self, question: np.ndarray | None) -> str | None:
        """The kind a question asks after: that of the nearest example question, when it is clearly nearer than any
        of no kind ("What car do I drive?": vehicle; "When is the wedding?": none)."""
        if question is None or self.asks_vectors is None or question.shape[-1] != self.asks_vectors.shape[1]:
            return None
        return _nearest(self.asks_labels, self.asks_vectors @ question, minimum=-1.0, margin=self.margin)

    def asks_after(self, question: np.ndarray, keys: list[str]) -> list[str]:
        """Of `keys` (one kind's values), those a question asks after. For a kind keyed by a thing, the key of the
        thing whose question ("What is my dog's name?") is nearest to it, of the things memory holds and the ones
        often asked of (`ASKS_THING`): "Wie heißt meine Katze?" reads the cat's name, and with no cat's name held,
        none (a pet's name whose entry names no pet included: "¿Cómo se llama mi perro?" reads no cat); the question
        of the kind's generic thing ("pet") reads every one. A thing held under another word than the usual ones ("pup",
        "kitty", a breed) is read for the usual thing its question is nearest to, or that thing's counterpart. Any
        other kind: every key."""
        by_thing = {key_.partition(":")[2]: key_ for key_ in keys}
        kind = keys[0].partition(":")[0] if keys else ""
        asked = lang.of("en").ASKS_THING.get(kind)
        if not asked or self.embedder is None:
            return keys
        template, usual = asked
        generic = usual.split()[0]
        things = list(dict.fromkeys([*(t for t in by_thing if t), *usual.split()]))
        with _lock:
            missing = [t for t in things if t not in self._things]
            if missing:
                vectors = _rows(self.embedder, [template.format(thing=t) for t in missing], "query")
                self._things.update(zip(missing, vectors))
            scores = [float(self._things[t] @ question) for t in things]
            nearest = things[int(np.argmax(scores))]
            if nearest == generic:  # the question of the kind's generic thing reads every one
                return keys
            if nearest in by_thing:
                return [by_thing[nearest]]
            # A thing memory holds under another word ("The user's pup is called Poutine", asked "What's my dog's
            # name?"): the one it stands for is the usual thing nearest to it, and the question reads it when
            # that is the thing asked after or its one counterpart (dog and puppy, cat and kitten).
            others = [t for t in usual.split() if t != generic]
            asked_for = {nearest, _counterpart(nearest, others, self._things)}
            return [k for t, k in by_thing.items() if t and _nearest_of(t, others, self._things) in asked_for]

    def of(self, text: str, vector: np.ndarray | None) -> str | None:
        """The kind of the example nearest to an entry about the person; None when that is "other", no example is
        near enough, an "other" one is about as near, or the entry is about someone else ("Priya is…"), or someone of
        theirs ("The user's boyfriend Kenji is a chef" holds no job of the person's), unless the kind is who that
        someone is to them (`OF_PEOPLE`: "The user's boyfriend is Dan"), or the kind's value is one of a few words
        and the entry says none (`ENTRY_KIND_WORDS`)."""
        if vector is None or not _OF_THE_USER.search(text) or vector.shape[-1] != self.vectors.shape[1]:
            return None
        kind = _nearest(self.labels, self.vectors @ vector, minimum=self.floor, margin=self.margin)
        if kind is None or (kind not in OF_PEOPLE and about_someone_of_theirs(text)):
            return None
        if kind in _KIND_WORDS and not _KIND_WORDS[kind].search(text):
            return None  # says something about it, not its value: "The user's diet is poor"
        return kind if _its_own(kind, thing_of(text)) else None

    def borne_out(self, kind: str, said: np.ndarray) -> bool:
        """Whether the person's own sentences an entry was drawn from (`said`, their vectors, one a row) bear out
        the kind its English was read as: False when each of them is clearly nearer (by the margin) a question of
        no kind than every question of that kind. The Writer may give the person what was someone else's ("Moja
        siostra jest pielęgniarką.", my sister is a nurse, stated "The user is a nurse", nearest an occupation); the
        sentence itself answers "What's my mother's job?" sooner than "What is my job?", in any language the embedder
        reads (in one it reads poorly, neither is clearly nearer). No sentence, or a kind no question asks after:
        borne out."""
        labels = np.array(self.asks_labels)
        if self.asks_vectors is None or not len(said) or said.shape[-1] != self.asks_vectors.shape[1] \
                or kind not in self.asks_labels:
            return True
        scores = said @ self.asks_vectors.T
        of_kind, other = scores[:, labels == kind].max(axis=1), scores[:, labels == OTHER].max(axis=1)
        return bool((other - of_kind < self.margin).any())

    def states(self, kind: str, said: np.ndarray) -> bool:
        """Whether a sentence of the person's (its vector) states a value of `kind`: its nearest labelled entry is of
        that kind, in any language the embedder reads ("Ich bin am 2. Dezember nach Leipzig gezogen!": a home)."""
        if said.shape[-1] != self.vectors.shape[1]:
            return False
        return _nearest(self.labels, self.vectors @ said, minimum=-1.0, margin=0.0) == kind


def value_words(kind: str, text: str) -> set[str]:
    """The words of a kind whose value is one of a few words (`ENTRY_KIND_WORDS`) that an entry says, folded: what
    tells its value from another's, as names do for a home ("The user is pescatarian now": "pescatarian")."""
    found = _KIND_WORDS.get(kind.partition(":")[0])
    return {w.lower() for w in found.findall(text)} if found else set()


def _its_own(kind: str, thing: str | None) -> bool:
    """Whether an entry about a thing of the person's (`thing_of`) can say a value of `kind`: the thing is the kind's
    own ("The user's flat is in Hamburg": a home), or the kind is keyed by its thing (a pet's name). An entry about
    another thing says that thing's ("The user's office is in Glasgow", "The user's team is moving to Bergen")."""
    if thing is None or kind in _BY_THING or kind not in _OWN_THINGS:
        return True
    return thing.lower() in _OWN_THINGS[kind] | _ANY_THING


def about_someone_of_theirs(entry: str) -> bool:
    """Whether an entry of the Writer's is about someone of the person's: "The user's brother Owen has a cat"."""
    return _SOMEONE_OF_THEIRS.match(entry) is not None


def _nearest_of(thing: str, others: list[str], vectors: dict[str, np.ndarray]) -> str:
    """Of `others`, the thing whose question is nearest to `thing`'s (`vectors`: each thing's question, embedded)."""
    candidates = [t for t in others if t != thing]
    return max(candidates, key=lambda t: float(vectors[t] @ vectors[thing]))


def _counterpart(thing: str, others: list[str], vectors: dict[str, np.ndarray]) -> str:
    """The thing that is nearest to `thing` while `thing` is nearest to it (a dog and a puppy), else `thing`."""
    near = _nearest_of(thing, others, vectors)
    return near if _nearest_of(near, others, vectors) == thing else thing


def _nearest(labels: tuple[str, ...], scores: np.ndarray, *, minimum: float, margin: float) -> str | None:
    """The label of the best score, unless it is "other", below `minimum`, or within `margin` of an "other" one."""
    best = int(np.argmax(scores))
    other = max((float(s) for s, label in zip(scores, labels) if label == OTHER), default=-1.0)
    if labels[best] == OTHER or scores[best] < minimum or scores[best] - other < margin:
        return None
    return labels[best]


def thing_of(entry: str) -> str | None:
    """The thing of the person's an entry is about, as the Writer's English names it ("The user's pup is …": "pup")."""
    found = _THING.search(entry)
    return found[1] if found else None


def key(kind: str, text: str) -> str:
    """What a value of `kind` belongs to: the person, or the thing of theirs an entry names ("dog" for "The user's
    dog is called Rex", "cat" for "The user has a cat named Miso", of the things often asked of); two pets' names do
    not replace each other."""
    if kind not in _BY_THING:
        return kind
    if thing := thing_of(text):
        return f"{kind}:{thing.lower()}"
    usual = lang.of("en").ASKS_THING.get(kind, ("", ""))[1].split()
    named = next((w for w in re.findall(r"[a-z]+", text.lower()) if w in usual), None)
    return f"{kind}:{named}" if named else kind


_cache: dict[int, tuple[Embedder, Kinds]] = {}
_lock = threading.RLock()


def for_embedder(embedder: Embedder) -> Kinds:
    """The examples embedded once per embedder (a few dozen sentences, at the first agent's start)."""
    with _lock:
        cached = _cache.get(id(embedder))
        if cached is not None and cached[0] is embedder:
            return cached[1]
        english = lang.of("en")
        entries = [(label, text) for label, texts in english.ENTRY_KINDS.items() for text in texts]
        asks = [(label, text) for label, texts in english.ASKS_KINDS.items() for text in texts]
        labels, vectors = tuple(label for label, _ in entries), _rows(embedder, [text for _, text in entries], "passage")
        mean, spread = _spread(labels, vectors)
        kinds = Kinds(labels, vectors, mean + FLOOR_SPREADS * spread, MARGIN_SPREADS * spread,
                      tuple(label for label, _ in asks), _rows(embedder, [text for _, text in asks], "query"),
                      embedder)
        _cache[id(embedder)] = (embedder, kinds)
        return kinds


def _spread(labels: tuple[str, ...], vectors: np.ndarray) -> tuple[float, float]:
    """The mean and standard deviation of the similarities between examples of different kinds: where this embedder
    places sentences of the Writer's shape that say different things."""
    kind = np.array(labels)
    between = (vectors @ vectors.T)[kind[:, None] != kind[None, :]]
    return float(between.mean()), float(between.std())


def _rows(embedder: Embedder, texts: list[str], role: str) -> np.ndarray:
    return np.asarray(embedder.embed_batch(texts, role=role), dtype=np.float32)


class EntryKinds:
    """Each entry's kind, as `Store.kinds`: read from its vector by `examples` (set by the agent for its embedder),
    borne out by the sentences it was drawn from (`Kinds.borne_out`; an entry the person wrote has none), once per
    text, so an edited entry is typed again."""

    def __init__(self, query: Callable, vectors: Callable[[Iterable[int]], dict[int, np.ndarray]]):
        self._query, self._vectors = query, vectors
        self.examples: Kinds | None = None
        self._known: dict[int, tuple[str, str | None]] = {}  # entry id -> (its text, its kind)
        self._lock = threading.Lock()

    def use(self, examples: Kinds) -> None:
        """Type entries by these examples; another embedder's vectors mean every entry is typed again."""
        with self._lock:
            if examples is not self.examples:
                self.examples, self._known = examples, {}

    def typed(self) -> dict[int, str]:
        """The kind of each entry not forgotten that says a single-valued thing, by id; none before `use`."""
        if self.examples is None:
            return {}
        rows = self._query("SELECT id, text FROM memories WHERE status != 'forgotten' AND embedding IS NOT NULL")
        with self._lock:
            known = self._known
            fresh = [i for i, text in rows if known.get(i, ("",))[0] != text]
            vectors = self._vectors(fresh) if fresh else {}
            kinds = {i: self.examples.of(text, vectors[i]) for i, text in rows if i in vectors}
            kinds.update(self._unnamed({i: text for i, text in rows if i in vectors and not kinds[i]}))
            said = self._drawn_from({i: text for i, text in rows if kinds.get(i)})
            for i, text in rows:
                if i in kinds:
                    kind = kinds[i]
                    if kind and i in said and not self.examples.borne_out(kind, said[i]):
                        kind = None
                    known[i] = (text, kind)
            return {i: known[i][1] for i, _ in rows if i in known and known[i][1]}

    def _unnamed(self, entries: dict[int, str]) -> dict[int, str]:
        """A second reading of entries of no kind, by id: the kind of each read without its names, where that reads
        one. Names pull the vector their way ("The user is a junior data analyst at Haar Analytics" is nearest a
        partner, a workplace and then an occupation, none clearly); the kind is what the entry says of them. On round
        37's labels: one entry more typed, right, none wrong (docs/results/round51)."""
        shorter = {i: bare for i, text in entries.items() if (bare := without_names(text)) != text and bare}
        if not shorter or self.examples is None or self.examples.embedder is None:
            return {}
        vectors = _rows(self.examples.embedder, list(shorter.values()), "passage")
        found = {i: self.examples.of(entries[i], vector) for i, vector in zip(shorter, vectors)}
        return {i: kind for i, kind in found.items() if kind}

    def _drawn_from(self, entries: dict[int, str]) -> dict[int, np.ndarray]:
        """For entries (id -> text), the stored vectors of the sentences each was drawn from, one a row: those of its
        source messages sharing a word with it (`text.related`; every one when none does). One with none is absent."""
        found: dict[int, dict[int, list[tuple[str, bytes]]]] = {}  # entry -> message -> its sentences
        ids = list(entries)
        for start in range(0, len(ids), 900):
            chunk = ids[start:start + 900]
            for memory_id, message_id, text, blob in self._query(
                    "SELECT ms.memory_id, s.message_id, s.text, s.embedding FROM memory_sources ms "
                    "JOIN sentences s ON s.message_id = ms.message_id "
                    f"WHERE s.embedding IS NOT NULL AND ms.memory_id IN ({','.join('?' * len(chunk))}) "
                    "ORDER BY s.message_id, s.position", chunk):
                found.setdefault(memory_id, {}).setdefault(message_id, []).append((text, blob))
        out = {}
        for memory_id, messages in found.items():
            rows = []
            for sentences in messages.values():
                quoted = set(related(entries[memory_id], [text for text, _ in sentences]))
                rows += [np.frombuffer(blob, dtype=np.float32)
                         for text, blob in sentences if not quoted or text in quoted]
            out[memory_id] = np.stack(rows)
        return out
