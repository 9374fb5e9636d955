"""Model backends behind one interface: `LLM.complete`."""
from .base import LLM, ChatMessage, Completion, available_cpus
from .structured import Structured, structured_call

__all__ = ["LLM", "ChatMessage", "Completion", "Structured", "structured_call", "available_cpus"]
