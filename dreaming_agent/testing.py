"""Test doubles shipped with the package: a scripted LLM (the model boundary only) and a hashing embedder."""
from __future__ import annotations

import hashlib
import json
import re
import time
from collections import deque
from typing import Callable, Iterable, Union

import numpy as np

from .embed.base import Embedder, Role, unit_rows
from .llm.base import LLM, ChatMessage, Completion
from .text import normalize, words

Reply = Union[str, BaseException, Callable[[list[ChatMessage], dict | None], str]]


class ScriptedLLM(LLM):
    """Answers from per-schema queues, then from per-schema defaults.

    Keys are the JSON schema's title (the pydantic model's name) or "text" for free-text calls.
    A queued exception is raised, a queued callable is called with (messages, schema). A call takes `delay_s`;
    a streamed reply comes word by word over that time.
    """

    __test__ = False
    name = "scripted"

    def __init__(self, script: dict[str, Iterable[Reply]] | None = None, defaults: dict[str, Reply] | None = None,
                 delay_s: float = 0.0):
        self.queues: dict[str, deque[Reply]] = {k: deque(v) for k, v in (script or {}).items()}
        self.defaults: dict[str, Reply] = {
            "text": "I don't know.",
            "ControllerDecision": json.dumps({"new_info": True, "needs_memory": True, "queries": []}),
            "Selection": _keep_everything,
            "ExtractedFacts": json.dumps({"facts": []}),
            "DreamProposal": json.dumps({"operations": []}),
            "Summary": json.dumps({"summary": "Earlier the person talked about several things."}),
            **(defaults or {}),
        }
        self.calls: list[tuple[str, list[ChatMessage]]] = []
        self.delay_s = delay_s

    def complete(self, messages, *, schema=None, max_tokens=256, seed=0) -> Completion:
        reply = self._next(messages, schema)
        if self.delay_s:
            time.sleep(self.delay_s)
        return self._completion(reply, messages, schema)

    def stream(self, messages, *, max_tokens=256, seed=0):
        """The scripted reply word by word, `delay_s` spread over the words: a slow model as the page sees it."""
        completion = self._completion(self._next(messages, None), messages, None)
        words = re.findall(r"\s*\S+\s*", completion.text) or [completion.text]
        for word in words:
            if self.delay_s:
                time.sleep(self.delay_s / len(words))
            yield word
        return completion

    def _next(self, messages: list[ChatMessage], schema: dict | None) -> Reply:
        key = (schema or {}).get("title", "text") if schema else "text"
        self.calls.append((key, messages))
        queue = self.queues.get(key)
        return queue.popleft() if queue else self.defaults.get(key, "{}")

    def _completion(self, reply: Reply, messages: list[ChatMessage], schema: dict | None) -> Completion:
        if isinstance(reply, BaseException):
            raise reply
        text = reply(messages, schema) if callable(reply) else reply
        prompt_tokens = sum(self.count_tokens(m["content"]) for m in messages)
        return Completion(text, prompt_tokens, self.count_tokens(text), self.delay_s * 1000)

    def calls_for(self, key: str) -> int:
        return sum(1 for k, _ in self.calls if k == key)


def _keep_everything(messages: list[ChatMessage], schema: dict | None) -> str:
    """Default Selector reply: keep every candidate id listed in the prompt as "[id]"."""
    ids = re.findall(r"^\[(\w+)\]", messages[-1]["content"], flags=re.M)
    return json.dumps({"keep": ids})


class HashEmbedder(Embedder):
    """Deterministic bag of words and character trigrams, hashed into 256 dimensions; shares no model."""

    __test__ = False
    name = "hash-256"
    dim = 256

    def embed_batch(self, texts: list[str], role: Role = "passage") -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature in _features(text):
                digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
                bucket = int.from_bytes(digest[:4], "little") % self.dim
                out[row, bucket] += 1.0 if digest[4] & 1 else -1.0
        return unit_rows(out)


def _features(text: str) -> list[str]:
    tokens = [w for w in words(normalize(text)) if len(w) > 2]
    grams = [t[i:i + 3] for t in tokens for i in range(max(1, len(t) - 2))]
    return ["w:" + t for t in tokens] * 2 + ["g:" + g for g in grams]
