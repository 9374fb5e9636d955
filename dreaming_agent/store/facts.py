"""Typed facts in the store: what is current is a key, not a guess.

For a single-valued attribute (`vocabulary`) of one subject, the newest value is current; an older one is kept,
marked superseded (`superseded_by` the entry that replaced it, `superseded_at` the day), and can be made current
again. The profile and the timeline are queries over these fields.
"""
from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Callable

from .records import Memory
from .vocabulary import same_value, single_valued

_TIMELINE = ("event", "plan")  # dated things that happen, shown in date order rather than as a current value
# A value said later replaces the one said before, even when it holds from a little earlier ("I live in Leeds", then
# minutes later "I moved to Bristol last week"); one that holds from this long before is history ("in 2019 I lived
# in York"), kept as superseded by the current value.
HISTORY = timedelta(days=365)


@dataclass(frozen=True)
class Prior:
    """A value the person had before, and from when it held."""

    value: str
    since: str
    memory_id: int


@dataclass(frozen=True)
class ProfileRow:
    """One current value of one subject: since when, and what it replaced (newest first)."""

    subject: str
    attribute: str
    value: str
    since: str
    memory_id: int
    before: tuple[Prior, ...] = field(default=())


@dataclass(frozen=True)
class Dated:
    """An event (or plan) with the day it happened or will happen."""

    date: str
    subject: str
    attribute: str
    value: str
    memory_id: int


class Facts:
    """Reads and writes of the typed fields; every write joins the caller's transaction."""

    def __init__(self, transaction: Callable[[], AbstractContextManager[sqlite3.Connection]],
                 memories: Callable[..., list[Memory]]):
        self._transaction, self._memories = transaction, memories

    # -- writes ---------------------------------------------------------------------------------------
    def settle(self, db: sqlite3.Connection, memory_id: int) -> list[int]:
        """After a typed entry is stored: for a single-valued attribute, the older value of its key is superseded
        by it (or, when it states a value older than the current one, it is itself). Returns the ids superseded."""
        subject, attribute, value, since, said = _key_row(db, memory_id)
        if subject is None or not single_valued(attribute):
            return []
        superseded = []
        for other, other_value, other_since, other_said in db.execute(
                "SELECT id, value, COALESCE(valid_from, substr(created_at, 1, 10)), created_at FROM memories "
                "WHERE subject = ? AND attribute = ? AND status = 'active' AND id != ? ORDER BY id",
                (subject, attribute, memory_id)).fetchall():
            if same_value(other_value, value):
                continue  # said again: the Writer folds those; a Dream's merge may keep both
            mine_later = (said, memory_id) >= (other_said, other)
            if mine_later and not _history(since, other_since):
                _supersede(db, other, memory_id, since)
                superseded.append(other)
            elif not mine_later and not _history(other_since, since):
                _supersede(db, memory_id, other, other_since)
                superseded.append(memory_id)
                break
            else:  # the later statement is about the past: the earlier one is still current
                _supersede(db, *((memory_id, other, other_since) if mine_later else (other, memory_id, since)))
                superseded.append(memory_id if mine_later else other)
                if mine_later:
                    break
        return superseded

    def make_current(self, memory_id: int, today: str) -> list[int]:
        """Undo a supersession: this value is the current one again, and the value that replaced it is superseded
        by it. Returns the ids it superseded."""
        with self._transaction() as db:
            db.execute("UPDATE memories SET status = 'active', superseded_by = NULL, superseded_at = NULL, "
                       "updated_at = ? WHERE id = ? AND status = 'superseded'", (today, memory_id))
            subject, attribute, *_ = _key_row(db, memory_id)
            if subject is None or not single_valued(attribute):
                return []
            others = [r[0] for r in db.execute(
                "SELECT id FROM memories WHERE subject = ? AND attribute = ? AND status = 'active' AND id != ?",
                (subject, attribute, memory_id))]
            for other in others:
                _supersede(db, other, memory_id, today[:10])
            return others

    def mark_replaced(self, memory_ids: list[int], on: str) -> None:
        """Superseded entries (a Dream's UPDATE) whose value was replaced by a newer one, not merged into it."""
        with self._transaction() as db:
            db.executemany("UPDATE memories SET superseded_at = ? WHERE id = ? AND status = 'superseded'",
                           [(on, i) for i in memory_ids])

    def release(self, db: sqlite3.Connection, memory_id: int) -> list[int]:
        """Before `memory_id` is deleted: the values it replaced are not copies of it (a merge's are), so they are
        kept — pointed at what replaced it, or current again. Returns the ids made current."""
        successor = db.execute("SELECT superseded_by FROM memories WHERE id = ? AND superseded_at IS NOT NULL",
                               (memory_id,)).fetchone()
        older = [r[0] for r in db.execute(
            "SELECT id FROM memories WHERE superseded_by = ? AND superseded_at IS NOT NULL", (memory_id,))]
        if successor and successor[0] is not None:
            db.executemany("UPDATE memories SET superseded_by = ? WHERE id = ?", [(successor[0], i) for i in older])
            return []
        db.executemany("UPDATE memories SET status = 'active', superseded_by = NULL, superseded_at = NULL "
                       "WHERE id = ?", [(i,) for i in older])
        return older

    # -- reads ----------------------------------------------------------------------------------------
    def knows(self, subject: str) -> bool:
        """Memory holds an entry about this subject (a forgotten one aside)."""
        return any(m.status != "forgotten" for m in self._memories(status=None, subject=subject))

    def subject_named(self, name: str) -> str | None:
        """The newest subject key whose name is `name` (folded), as memory knows it; None when none is."""
        keys = [m.subject for m in self._memories(status=None, attribute_set=True)
                if m.status != "forgotten" and m.subject and m.subject.split(":")[-1] == name]
        return keys[-1] if keys else None

    def replaced_on_write(self, memory_id: int) -> list[int]:
        """What storing `memory_id` superseded as older values (or itself, when it stated an older value)."""
        return [m.id for m in self._memories(status="superseded", attribute_set=True)
                if m.superseded_at is not None and (m.superseded_by == memory_id or m.id == memory_id)]

    def holding(self, subject: str, attribute: str, value: str) -> int | None:
        """An entry not forgotten that already says this value of this key (current or not): a restatement."""
        for memory in self._memories(status=None, subject=subject, attribute=attribute):
            if memory.status != "forgotten" and same_value(memory.value, value) and not memory.replaced:
                return memory.id
        return None

    def replaced(self, entries: list[Memory]) -> dict[int, Memory]:
        """Each of `entries` a newer value replaced -> the entry holding its key's value now (the chain's end), with
        its sources."""
        old = [m for m in entries if m.replaced]
        if not old:
            return {}
        known = {m.id: m for m in self._memories(status=None, attribute_set=True)}
        out = {}
        for memory in old:
            newer, seen = memory, {memory.id}
            while newer.replaced and newer.superseded_by in known and newer.superseded_by not in seen:
                newer = known[newer.superseded_by]
                seen.add(newer.id)
            if newer.id != memory.id:
                out[memory.id] = newer
        # with the messages they came from: the evidence shows a successor as its sentences said it
        sourced = {m.id: m for m in self._memories(status=None, ids={m.id for m in out.values()}, with_sources=True)}
        return {old: sourced[newer.id] for old, newer in out.items()}

    def profile(self) -> list[ProfileRow]:
        """Current values by subject (the person first), each with its since-date and the values it replaced."""
        typed = [m for m in self._memories(status=None, attribute_set=True) if m.status != "forgotten"]
        by_successor: dict[int, list[Memory]] = {}
        for m in typed:
            if m.replaced and m.superseded_by is not None:
                by_successor.setdefault(m.superseded_by, []).append(m)
        rows = []
        for m in typed:
            if m.status != "active" or m.attribute in _TIMELINE:
                continue
            before, pending = [], list(by_successor.get(m.id, []))
            while pending:
                older = pending.pop()
                before.append(Prior(older.value or "", _since(older), older.id))
                pending.extend(by_successor.get(older.id, []))
            before.sort(key=lambda p: (p.since, p.memory_id), reverse=True)
            rows.append(ProfileRow(m.subject or "user", m.attribute or "other", m.value or "", _since(m), m.id,
                                   tuple(before)))
        return sorted(rows, key=lambda r: (r.subject != "user", r.subject, r.attribute, r.since, r.memory_id))

    def timeline(self) -> list[Dated]:
        """Events and plans with a known day, oldest first."""
        found = [m for m in self._memories(status="active", attribute_set=True)
                 if m.attribute in _TIMELINE and m.valid_from]
        return [Dated(m.valid_from or "", m.subject or "user", m.attribute or "event", m.value or "", m.id)
                for m in sorted(found, key=lambda m: (m.valid_from, m.id))]


def _since(memory: Memory) -> str:
    return memory.valid_from or memory.created_at[:10]


def _history(later_since: str, earlier_since: str) -> bool:
    """The later statement's value held from long before the earlier one's: it tells the past."""
    try:
        return date.fromisoformat(later_since[:10]) < date.fromisoformat(earlier_since[:10]) - HISTORY
    except ValueError:
        return False


def _key_row(db: sqlite3.Connection, memory_id: int) -> tuple:
    row = db.execute("SELECT subject, attribute, value, COALESCE(valid_from, substr(created_at, 1, 10)), created_at "
                     "FROM memories WHERE id = ?", (memory_id,)).fetchone()
    return row if row else (None,) * 5


def _supersede(db: sqlite3.Connection, old: int, new: int, on: str) -> None:
    db.execute("UPDATE memories SET status = 'superseded', superseded_by = ?, superseded_at = ?, updated_at = "
               "max(updated_at, ?) WHERE id = ?", (new, on, on, old))
