"""Memory for other agents: add / search / get_all / get / update / delete / history, plus Dream, undo, export, load."""
from __future__ import annotations

from dataclasses import asdict
from datetime import date, datetime

from ..errors import InvalidInput
from ..pipeline.agent import Agent
from ..settings import Settings
from ..store import Memory, now_iso
from ..store.memory_file import MemoryFile
from .records import (
    Added, DreamChange, DreamOutcome, Entry, Forgotten, HeldValue, HistoryEvent, ProfileRow, Recollection, Source,
    TimelineEvent,
)

When = str | datetime | date | None


class AgentMemory:
    """One person's memory behind plain calls; every answer carries ids and dated sources."""

    def __init__(self, agent: Agent, *, owns_agent: bool = False):
        self.agent = agent
        self._owns_agent = owns_agent

    @classmethod
    def from_settings(cls, settings: Settings, *, llm=None, embedder=None) -> "AgentMemory":
        """Wired like the app (DREAMING_DB, DREAMING_LLM, ...), with the model the app would choose; a model or
        embedder handed in is used as it is."""
        from ..wiring import build_agent, choose_llm

        if llm is None:
            settings = choose_llm(settings).settings
        return cls(build_agent(settings, llm=llm, embedder=embedder), owns_agent=True)

    # -- remember and recall ----------------------------------------------------------------------------
    def add(self, text: str, *, at: When = None, infer: bool = True) -> Added:
        """Store what the person said, verbatim and dated, and learn entries from it (waits for the Writer).

        With `infer=False` the text itself becomes a durable entry typed by the person, with no message."""
        stamp = _checked_date(at)
        if not infer:
            entry = self.get(self.agent.memory.add(text))
            return Added(message_id=None, date=entry.created_at, memories=[entry])
        message = self.agent.ingest(text, now=stamp)
        self.agent.learning.wait()
        learned = [m for m in self.agent.store.memories() if message.id in m.source_message_ids]
        withheld = self.agent.store.message(message.id).withheld  # at ingest, or by the Writer after
        return Added(message_id=message.id, date=message.created_at, memories=self._entries(learned),
                     withheld=withheld)

    def search(self, query: str, *, limit: int = 8) -> list[Recollection]:
        """What a chat turn reads for `query` (LightMem's gathering): the durable facts and verbatim sentences it
        shows, best first, each with its dated sources. An entry the search finds is read, as in the chat, as the
        sentences it quotes; small talk and the person's own questions are left out, and what the person changed
        later comes last, marked replaced, with the entries that say the newer values."""
        if not query.strip():
            raise InvalidInput("The search query is empty: say what to look for.")
        if limit < 1:
            raise InvalidInput(f"limit must be at least 1, not {limit}.")
        self.agent.learning.index_new_sentences()
        evidence = self.agent.gather(query, "lightmem", today=now_iso()[:10])
        replaced = sorted(evidence.superseded, key=lambda pair: -pair[0].score)
        old = {c.key for c, _ in replaced}
        current = sorted([c for c in [*evidence.facts, *evidence.shown] if c.key not in old], key=lambda c: -c.score)
        found = [(c, "current", ()) for c in current] + [(c, "replaced", by) for c, by in replaced]
        return [
            Recollection(kind=c.kind, id=c.id, text=c.text, score=round(c.score, 4), date=c.date,
                         sources=[Source(message_id=s.message_id, date=s.date, text=s.text) for s in c.sources],
                         status=status, replaced_by=list(by))
            for c, status, by in found[:limit]
        ]

    def timeline(self) -> list[TimelineEvent]:
        """The entries that say when something happened ("yesterday", "last Saturday"), at the day each stands for,
        oldest first; an expression no known language reads leaves its entry out."""
        return [TimelineEvent(**asdict(event)) for event in self.agent.memory.timeline()]

    def profile(self) -> list[ProfileRow]:
        """What holds one value at a time about the person (home, workplace, occupation), as it stands: each value
        with the day it was first said and its entry, and the values it replaced, newest first."""
        held = lambda h: HeldValue(value=h.value, since=h.since, memory_id=h.memory_id)  # noqa: E731
        return [ProfileRow(attribute=row.attribute, current=[held(h) for h in row.now],
                           before=[held(h) for h in row.before]) for row in self.agent.memory.profile()]

    # -- the entries ------------------------------------------------------------------------------------
    def get_all(self, *, tier: str | None = None, include_inactive: bool = False) -> list[Entry]:
        """Active entries (all statuses with `include_inactive`), oldest first; tier 'ltm' or 'mtm' narrows."""
        if tier not in (None, "ltm", "mtm"):
            raise InvalidInput(f"tier must be 'ltm' (long-term) or 'mtm' (short-term), not {tier!r}.")
        status = None if include_inactive else "active"
        return [_entry(m) for m in self.agent.store.memories(status=status, tier=tier, with_sources=True)]

    def get(self, memory_id: int) -> Entry:
        return self._entries([self.agent.store.memory(memory_id)])[0]

    def update(self, memory_id: int, text: str) -> Entry:
        """The person rewrites an active entry: it becomes theirs (origin 'manual')."""
        self.agent.memory.edit(memory_id, text)
        return self.get(memory_id)

    def delete(self, memory_id: int) -> Forgotten:
        """Delete one entry (and the older entries it replaced); the messages it came from stay."""
        self.agent.store.memory(memory_id)  # NotFound, with the id, before anything changes
        return Forgotten(memory_ids=self.agent.memory.delete(memory_id), message_ids=[])

    def delete_message(self, message_id: int) -> Forgotten:
        """Delete a message, its sentences and every entry learned from it."""
        deletion = self.agent.memory.delete_message(message_id)
        return Forgotten(memory_ids=deletion.memories, message_ids=[message_id], sentence_ids=deletion.sentences)

    def forget(self, memory_id: int) -> Forgotten:
        """Forget a fact everywhere: the entry and the messages it came from, so no search finds it again."""
        entry = self.agent.store.memory(memory_id)
        forgotten = Forgotten(memory_ids=[], message_ids=[])
        for message_id in entry.source_message_ids:
            deletion = self.agent.memory.delete_message(message_id)
            forgotten.memory_ids += deletion.memories
            forgotten.sentence_ids += deletion.sentences
            forgotten.message_ids.append(message_id)
        if self.agent.store.memories(status=None, ids=[memory_id]):  # typed by the person: no message took it
            forgotten.memory_ids += self.agent.memory.delete(memory_id)
        return forgotten

    def history(self, memory_id: int) -> list[HistoryEvent]:
        """How an entry came to be: what was said, the entries it replaced, edits, and its own end if it ended."""
        entry = self.agent.store.memory(memory_id)
        everything = {m.id: m for m in self.agent.store.memories(status=None)}
        lineage = [entry, *_replaced(everything, memory_id)]
        said = sorted({m for e in lineage for m in e.source_message_ids})
        messages = self.agent.store.messages_by_id(said)
        events = [HistoryEvent(at=messages[m].created_at, event="said", message_id=m, text=messages[m].text)
                  for m in said if m in messages]
        for e in lineage:
            events.append(HistoryEvent(at=e.created_at, event="created", memory_id=e.id, text=e.text))
            if e.origin == "manual" and e.updated_at != e.created_at:
                events.append(HistoryEvent(at=e.updated_at, event="edited", memory_id=e.id, text=e.text))
            if e.status == "superseded":
                events.append(HistoryEvent(at=e.updated_at, event="superseded", memory_id=e.id,
                                           text=f"replaced by entry {e.superseded_by}"))
            elif e.status == "forgotten":
                events.append(HistoryEvent(at=e.updated_at, event="forgotten", memory_id=e.id, text=e.text))
        return sorted(events, key=lambda event: event.at)

    # -- the Dream --------------------------------------------------------------------------------------
    def dream(self, *, at: When = None) -> DreamOutcome:
        """Consolidate now: the model proposes, the validator decides, every change can be undone."""
        return _outcome(self.agent.memory.dream(now=_checked_date(at)))

    def undo(self) -> DreamOutcome:
        """Undo the newest Dream that still has effects."""
        report = self.agent.memory.undo_last_dream()
        return _outcome(report) if report else DreamOutcome(dream_id=None, status="nothing to undo")

    # -- moving memory ----------------------------------------------------------------------------------
    def export(self) -> MemoryFile:
        """Messages, entries with sources and dates, and the Dream history; `.model_dump_json()` writes the file."""
        return self.agent.export_memory()

    def load(self, raw: bytes | str) -> MemoryFile:
        """Load an exported file into this memory, which must be empty; the index is rebuilt from it."""
        return self.agent.load_memory(raw)

    def repair_index(self) -> dict[str, int]:
        """Bring the vector index back in step with SQLite (after a Chroma server came back); repairs made."""
        return self.agent.index.sync(self.agent.store)

    def close(self) -> None:
        self.agent.close()
        if self._owns_agent:
            self.agent.llm.close()
            self.agent.store.close()

    def _entries(self, memories: list[Memory]) -> list[Entry]:
        return [_entry(memory) for memory in self.agent.store.with_sources(memories)]


def _entry(memory: Memory) -> Entry:
    sources = [Source(message_id=s.message_id, date=s.date, text=s.text) for s in memory.sources]
    return Entry(id=memory.id, text=memory.text, tier=memory.tier, status=memory.status, origin=memory.origin,
                 created_at=memory.created_at, updated_at=memory.updated_at, superseded_by=memory.superseded_by,
                 sources=sources)


def _replaced(everything: dict[int, Memory], memory_id: int) -> list[Memory]:
    """Every older entry whose chain of replacements leads to `memory_id`."""
    found, frontier = [], [memory_id]
    while frontier:
        newer = frontier.pop()
        older = [m for m in everything.values() if m.superseded_by == newer and m not in found]
        found += older
        frontier += [m.id for m in older]
    return found


def _outcome(report) -> DreamOutcome:
    def change(op) -> DreamChange:
        return DreamChange(op=op.op, target_ids=op.target_ids, text=op.text, reason=op.reason, verdict=op.verdict,
                           new_memory_id=op.new_memory_id)

    return DreamOutcome(dream_id=report.dream_id, status=report.status, started_at=report.started_at,
                        accepted=[change(op) for op in report.accepted],
                        rejected=[change(op) for op in report.rejected])


def _checked_date(at: When) -> str | None:
    """An ISO date or date-time as the store keeps it; anything else is refused with the expected form."""
    if at is None:
        return None
    if isinstance(at, datetime):
        return at.replace(microsecond=0, tzinfo=None).isoformat()
    if isinstance(at, date):
        return at.isoformat()
    try:
        parsed = datetime.fromisoformat(at)
    except ValueError as e:
        raise InvalidInput(f"{at!r} is not a date: use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS.") from e
    return parsed.replace(microsecond=0, tzinfo=None).isoformat() if len(at) > 10 else parsed.date().isoformat()
