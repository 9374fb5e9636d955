"""Memory usable from other agents: a Python API (`AgentMemory`) and an MCP server over it."""
from .memory import AgentMemory
from .records import (
    Added, DreamChange, DreamOutcome, Entry, Forgotten, HeldValue, HistoryEvent, ProfileRow, Recollection, Source,
    TimelineEvent,
)

__all__ = ["AgentMemory", "Added", "DreamChange", "DreamOutcome", "Entry", "Forgotten", "HeldValue", "HistoryEvent",
           "ProfileRow", "Recollection", "Source", "TimelineEvent"]
