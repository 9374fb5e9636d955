"""Ollama backend: a model served over HTTP, structured output through Ollama's `format` JSON schema."""
from __future__ import annotations

import math
import threading
import time

import httpx
import ollama

from ..errors import BackendUnavailable, ModelNotPulled, ModelTimeout
from .base import LLM, ChatMessage, Completion, available_cpus

# Prior for the chars-per-token ratio, worth this many tokens of evidence; it matches the base-class
# estimate (3.5) so the first prompts are budgeted exactly as before any call was made.
_PRIOR_CHARS_PER_TOKEN = 3.5
_PRIOR_TOKENS = 200
# Ratios outside this range come from cached prompts (Ollama then counts only the uncached tail) or
# empty messages, and would skew the estimate.
_PLAUSIBLE_RATIO = (1.0, 8.0)
_PER_MESSAGE_OVERHEAD = 8
_PROMPT_OVERHEAD = 32


class OllamaLLM(LLM):
    """A model behind an Ollama server; every failure is turned into one of our typed errors."""

    def __init__(self, model: str, host: str, num_ctx: int = 4096, threads: int | None = None,
                 timeout_s: float = 120):
        self.model = model
        self.host = host
        self.name = model
        self.num_ctx = num_ctx
        self.threads = threads or available_cpus()
        self.timeout_s = timeout_s
        self._client = ollama.Client(host=host, timeout=timeout_s)
        self._ratio_lock = threading.Lock()
        self._seen_chars = _PRIOR_CHARS_PER_TOKEN * _PRIOR_TOKENS
        self._seen_tokens = float(_PRIOR_TOKENS)

    def complete(
        self,
        messages: list[ChatMessage],
        *,
        schema: dict | None = None,
        max_tokens: int = 256,
        seed: int = 0,
    ) -> Completion:
        """One chat completion at temperature 0; `schema` is sent as Ollama's `format`."""
        options = {
            "temperature": 0,
            "seed": seed,
            "num_ctx": self.num_ctx,
            "num_thread": self.threads,
            "num_predict": self._reply_budget(messages, max_tokens),
        }
        started = time.perf_counter()
        try:
            response = self._client.chat(
                model=self.model, messages=list(messages), format=schema, options=options, stream=False
            )
        except ollama.ResponseError as e:
            if e.status_code == 404:
                raise ModelNotPulled(self.model, self.host) from e
            raise BackendUnavailable(
                f"Ollama at {self.host} refused the request: {e.error}", backend="ollama"
            ) from e
        except httpx.ConnectTimeout as e:
            raise self._unreachable(e) from e
        except httpx.TimeoutException as e:
            raise ModelTimeout(self.timeout_s, "ollama") from e
        except (ConnectionError, httpx.TransportError) as e:
            # The client turns httpx.ConnectError into the builtin ConnectionError; a dropped
            # connection mid-answer arrives as another httpx.TransportError.
            raise self._unreachable(e) from e
        duration_ms = (time.perf_counter() - started) * 1000
        text = response.message.content or ""
        prompt_chars = sum(len(m["content"]) for m in messages)
        prompt_tokens = response.prompt_eval_count or self._estimate(prompt_chars)
        if response.prompt_eval_count:
            self._calibrate(prompt_chars, response.prompt_eval_count)
        return Completion(
            text=text,
            prompt_tokens=prompt_tokens,
            completion_tokens=response.eval_count or self.count_tokens(text),
            duration_ms=duration_ms,
        )

    def count_tokens(self, text: str) -> int:
        """Estimate: characters / chars-per-token, the ratio learnt from Ollama's prompt_eval_count."""
        # Template tokens count in prompt_eval_count but not in the characters, so the learnt ratio
        # slightly overstates tokens, which keeps prompt budgets on the safe side.
        return self._estimate(len(text))

    @property
    def chars_per_token(self) -> float:
        with self._ratio_lock:
            return self._seen_chars / self._seen_tokens

    def close(self) -> None:
        self._client.close()

    def _estimate(self, chars: int) -> int:
        return math.ceil(chars / self.chars_per_token)

    def _calibrate(self, chars: int, tokens: int) -> None:
        low, high = _PLAUSIBLE_RATIO
        if low <= chars / tokens <= high:
            with self._ratio_lock:
                self._seen_chars += chars
                self._seen_tokens += tokens

    def _reply_budget(self, messages: list[ChatMessage], max_tokens: int) -> int:
        prompt_tokens = _PROMPT_OVERHEAD + sum(
            self.count_tokens(m["content"]) + _PER_MESSAGE_OVERHEAD for m in messages
        )
        return max(1, min(max_tokens, self.num_ctx - prompt_tokens))

    def _unreachable(self, error: Exception) -> BackendUnavailable:
        return BackendUnavailable(
            f"Cannot reach Ollama at {self.host} ({type(error).__name__}). Start Ollama (`ollama serve`), run "
            f"`ollama pull {self.model}`, and point OLLAMA_HOST (or --ollama-host) at it.",
            backend="ollama",
        )
