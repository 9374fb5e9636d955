"""Small builders shared by the Dream tests: entries for the pure validator, stored memories for apply and undo."""
from __future__ import annotations

import json
import re

from dreaming_agent.dream import DreamOperation
from dreaming_agent.store import Memory, Source


def entry(memory_id: int, text: str, *said: tuple[str, str], tier: str = "mtm", status: str = "active",
          origin: str = "writer") -> Memory:
    """A memory whose sources are (message text, date) pairs, each its own message."""
    sources = tuple(Source(memory_id * 100 + n, d, t) for n, (t, d) in enumerate(said))
    date = said[0][1] if said else "2024-01-01"
    return Memory(memory_id, tier, text, origin, status, superseded_by=None, created_at=date, updated_at=date,
                  last_accessed=None, access_count=0, source_message_ids=tuple(s.message_id for s in sources),
                  sources=sources)


def op(kind: str, ids: list[int], text: str | None = None) -> DreamOperation:
    return DreamOperation(op=kind, target_ids=ids, text=text, reason="proposed in a test")


def remember(store, embedder, text: str, *said: tuple[str, str], tier: str = "mtm", origin: str = "writer") -> int:
    """Store the messages verbatim, then a memory derived from them, with its embedding."""
    message_ids = [store.add_message("s1", "user", t, d).id for t, d in said]
    return store.add_memory(text, tier=tier, origin=origin, source_message_ids=message_ids,
                            embedding=embedder.embed(text), created_at=said[0][1] if said else None)


def snapshot(store) -> tuple[list[tuple], list[tuple]]:
    """Every column of every memory (embedding included) and every provenance link."""
    memories = store.query("SELECT * FROM memories ORDER BY id")
    sources = store.query("SELECT memory_id, message_id FROM memory_sources ORDER BY memory_id, message_id")
    return memories, sources


def planner(*operations: dict):
    """A ScriptedLLM reply that proposes each planned operation in the call whose prompt lists all its targets."""
    pending = list(operations)

    def reply(messages, schema):
        shown = {int(i) for i in re.findall(r"^\[(\d+)\]", messages[-1]["content"], flags=re.M)}
        mine = [o for o in pending if set(o["target_ids"]) <= shown]
        for o in mine:
            pending.remove(o)
        return json.dumps({"operations": mine})

    return reply
