"""Embedders behind one interface: `Embedder.embed_batch`."""
from .base import Embedder, Role

__all__ = ["Embedder", "Role"]
