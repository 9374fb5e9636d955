"""SQLite system of record and the Chroma vector index derived from it."""
from .records import Memory, Message, Sentence
from .sqlite import Store, now_iso
from .vectors import Hit, VectorIndex, make_client
from . import memory_file

__all__ = ["Store", "VectorIndex", "Hit", "make_client", "Memory", "Message", "Sentence", "now_iso", "memory_file"]
