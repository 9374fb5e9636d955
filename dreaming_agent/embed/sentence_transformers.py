"""Any sentence-transformers model, by hub name or local folder, on the CPU."""
from __future__ import annotations

import re
import socket
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np

from ..errors import ConfigError
from .base import Embedder, Role, unit_rows

# e5 models were trained with these prefixes and retrieve noticeably worse without them.
_E5_PREFIXES = {"query": "query: ", "passage": "passage: "}
_E5_NAME = re.compile(r"(^|[/_-])e5([/_-]|$)")
_HUB_PROBE_TIMEOUT_S = 3.0


class SentenceTransformerEmbedder(Embedder):
    """Wraps a SentenceTransformer; the loaded model is shared by every instance with the same name."""

    def __init__(self, name_or_path: str, batch_size: int = 32):
        self.model = _load_model(name_or_path)
        self.name = name_or_path
        self.batch_size = batch_size
        self.prefixes = _role_prefixes(name_or_path, getattr(self.model, "prompts", None) or {})
        # Asking the model beats reading its config: the attribute's name changed across library versions.
        self.dim = int(self._encode(["dimension probe"]).shape[1])

    def embed_batch(self, texts: list[str], role: Role = "passage") -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        prefix = self.prefixes.get(role, "")
        return self._encode([prefix + text for text in texts])

    def _encode(self, texts: list[str]) -> np.ndarray:
        vectors = self.model.encode(
            texts, batch_size=self.batch_size, convert_to_numpy=True, normalize_embeddings=True,
            show_progress_bar=False,
        )
        return unit_rows(vectors)


def _role_prefixes(name_or_path: str, model_prompts: dict[str, str]) -> dict[str, str]:
    """Prompts the model declares for queries and documents, else the e5 convention when the name says e5."""
    # sentence-transformers 5+ fills in empty "query"/"document" prompts for every model, so empty means none.
    query = model_prompts.get("query") or ""
    passage = model_prompts.get("passage") or model_prompts.get("document") or ""
    if query or passage:
        return {"query": query, "passage": passage}
    if _E5_NAME.search(name_or_path.lower()):
        return dict(_E5_PREFIXES)
    return {}


@lru_cache(maxsize=4)
def _load_model(name_or_path: str):
    """Local folder or hub cache first; the network only when the hub answers at all."""
    # Imported here: torch takes seconds to import and most runs use the offline embedder.
    from sentence_transformers import SentenceTransformer

    try:
        return SentenceTransformer(name_or_path, device="cpu", local_files_only=True)
    except (OSError, ValueError) as e:
        local_error = e
    if Path(name_or_path).exists():
        raise ConfigError(
            f"'{name_or_path}' exists but is not a sentence-transformers model folder ({local_error}). "
            "Point DREAMING_EMBEDDER / --embedder at a folder with modules.json and the weights, "
            "or use the default 'embedded'."
        ) from local_error
    # Without this probe an unreachable hub costs over a minute of retries before the same failure.
    if not _hub_reachable():
        raise ConfigError(
            f"Cannot load the embedding model '{name_or_path}': it is not in the local cache and the model hub "
            "is unreachable (offline, or HF_HUB_OFFLINE is set). Pass a local model folder with "
            "DREAMING_EMBEDDER / --embedder, or use the default 'embedded' offline embedder."
        ) from local_error
    try:
        return SentenceTransformer(name_or_path, device="cpu")
    except (OSError, ValueError) as e:
        raise ConfigError(
            f"Cannot load the embedding model '{name_or_path}': {e}. Check the name on the model hub, "
            "pass a local model folder, or use the default 'embedded' offline embedder."
        ) from e


def _hub_reachable() -> bool:
    from huggingface_hub import constants

    if constants.HF_HUB_OFFLINE:
        return False
    endpoint = urlsplit(constants.ENDPOINT)
    port = endpoint.port or (443 if endpoint.scheme == "https" else 80)
    try:
        socket.create_connection((endpoint.hostname, port), timeout=_HUB_PROBE_TIMEOUT_S).close()
    except OSError:
        return False
    return True
