"""The embedder interface: one required method; vectors come back L2-normalised float32."""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Literal

import numpy as np

Role = Literal["query", "passage"]


class Embedder(ABC):
    name: str = "embedder"
    dim: int = 0

    @abstractmethod
    def embed_batch(self, texts: list[str], role: Role = "passage") -> np.ndarray:
        """Return an (n, dim) float32 array of unit vectors; `role` selects prefixes where the model needs them."""

    def embed(self, text: str, role: Role = "passage") -> np.ndarray:
        return self.embed_batch([text], role)[0]


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix[None, :]
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1.0, norms)
