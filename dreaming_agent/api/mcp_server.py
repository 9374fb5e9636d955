"""`python -m dreaming_agent mcp`: the memory API as MCP tools over stdio, for any agent that speaks MCP."""
from __future__ import annotations

import functools
import sys
from typing import Callable, Literal, TypeVar

from ..errors import DreamingAgentError
from ..settings import Settings
from .memory import AgentMemory
from .records import Added, DreamOutcome, Entry, Forgotten, HistoryEvent, ProfileRow, Recollection, TimelineEvent

INSTRUCTIONS = (
    "Long-term memory of one person. `remember` what they tell you (with the date it was said), `recall` before "
    "answering about them: every result carries the dated messages it comes from, so quote the date, and a value "
    "they changed later is marked replaced. `profile` says where they live and work now, `timeline` when things happened. Use `forget` when they ask "
    "you to forget something; `dream` consolidates memory and `undo_dream` takes the last Dream back."
)
Tool = TypeVar("Tool", bound=Callable)


def build_server(memory: AgentMemory):
    """An MCPServer whose tools call `memory`; our errors reach the client as tool errors that say how to fix them."""
    from mcp.server import MCPServer

    server = MCPServer("dreaming-agent", instructions=INSTRUCTIONS)
    tool = lambda fn: server.tool()(_clear_errors(fn))  # noqa: E731

    @tool
    def remember(text: str, date: str | None = None) -> Added:
        """Store what the person said, verbatim, and learn facts from it; `date`: when it was said, YYYY-MM-DD."""
        return memory.add(text, at=date)

    @tool
    def remember_fact(text: str) -> Added:
        """Store a fact the person typed or confirmed, as it is, in long-term memory."""
        return memory.add(text, infer=False)

    @tool
    def recall(query: str, limit: int = 5) -> list[Recollection]:
        """Memories and verbatim sentences most like `query`, best first, each with its dated source messages; what
        the person changed later comes last, status 'replaced', `replaced_by` the entries saying the newer values."""
        return memory.search(query, limit=limit)

    @tool
    def profile() -> list[ProfileRow]:
        """Where the person lives, works and what they work as now, each since the day they said it, with the values
        it replaced (newest first)."""
        return memory.profile()

    @tool
    def timeline() -> list[TimelineEvent]:
        """What the person said happened when ("yesterday", "last Saturday"), each at the day it stands for, oldest
        first."""
        return memory.timeline()

    @tool
    def list_memories(tier: Literal["all", "ltm", "mtm"] = "all") -> list[Entry]:
        """Active entries with their sources; ltm: long-term, mtm: short-term until a Dream decides."""
        return memory.get_all(tier=None if tier == "all" else tier)

    @tool
    def update_memory(memory_id: int, text: str) -> Entry:
        """Rewrite an entry in the person's own words."""
        return memory.update(memory_id, text)

    @tool
    def forget(memory_id: int) -> Forgotten:
        """Forget a fact everywhere: the entry and the messages it was learned from."""
        return memory.forget(memory_id)

    @tool
    def delete_memory(memory_id: int) -> Forgotten:
        """Delete one entry only; the messages it came from stay searchable."""
        return memory.delete(memory_id)

    @tool
    def delete_message(message_id: int) -> Forgotten:
        """Delete one message and everything learned from it."""
        return memory.delete_message(message_id)

    @tool
    def memory_history(memory_id: int) -> list[HistoryEvent]:
        """How an entry came to be: what was said and when, entries it replaced, edits."""
        return memory.history(memory_id)

    @tool
    def dream() -> DreamOutcome:
        """Consolidate memory now: merge, update, promote or forget entries; refused proposals come with reasons."""
        return memory.dream()

    @tool
    def undo_dream() -> DreamOutcome:
        """Take back the last Dream that still has effects."""
        return memory.undo()

    return server


def run_mcp(settings: Settings, *, memory: AgentMemory | None = None) -> int:
    """Serve over stdio until the client closes it; stdout carries the protocol, so notes go to stderr."""
    if settings.db is None:
        print("dreaming-agent mcp: no DREAMING_DB (or --db) set, so this memory lasts only while the server runs.",
              file=sys.stderr)
    try:
        memory = memory or AgentMemory.from_settings(settings)
    except DreamingAgentError as e:  # a missing model or a bad setting: its message says how to fix it
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        build_server(memory).run("stdio")
    finally:
        memory.close()
    return 0


def _clear_errors(fn: Tool) -> Tool:
    """Our errors become tool errors with their own message (the SDK hides an unexpected exception's text)."""
    from mcp.server.mcpserver.exceptions import ToolError

    @functools.wraps(fn)
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except DreamingAgentError as e:
            raise ToolError(str(e)) from e

    return call  # type: ignore[return-value]
