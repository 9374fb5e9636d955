"""SQLite system of record and the Chroma vector index derived from it."""
from .records import DreamRun, Memory, Message, RecordedOperation, Sentence, Source
from .sqlite import Store, now_iso
from .terms import TermIndex
from .vectors import Hit, VectorIndex, make_client
from . import memory_file

__all__ = ["Store", "VectorIndex", "Hit", "TermIndex", "make_client", "Memory", "Message", "Sentence", "Source", "DreamRun",
           "RecordedOperation", "now_iso", "memory_file"]
