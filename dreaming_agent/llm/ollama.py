"""Ollama backend: a model served over HTTP, structured output through Ollama's `format` JSON schema."""
from __future__ import annotations

import time
from typing import Generator

import httpx
import ollama

from ..errors import BackendUnavailable, DreamingAgentError, ModelNotPulled, ModelTimeout
from .base import ChatMessage, Completion, available_cpus
from .served import ServedLLM


class OllamaLLM(ServedLLM):
    """A model behind an Ollama server; every failure is turned into one of our typed errors."""

    structured_output = "JSON schema as Ollama's format"

    def __init__(self, model: str, host: str, num_ctx: int = 4096, threads: int | None = None,
                 timeout_s: float = 120):
        super().__init__(context_window=num_ctx)
        self.model = model
        self.host = host
        self.name = model
        self.num_ctx = num_ctx
        self.threads = threads or available_cpus()
        self.timeout_s = timeout_s
        self._client = ollama.Client(host=host, timeout=timeout_s)

    def complete(
        self,
        messages: list[ChatMessage],
        *,
        schema: dict | None = None,
        max_tokens: int = 256,
        seed: int = 0,
    ) -> Completion:
        """One chat completion at temperature 0; `schema` is sent as Ollama's `format`."""
        started = time.perf_counter()
        try:
            response = self._client.chat(model=self.model, messages=list(messages), format=schema,
                                         options=self._options(messages, max_tokens, seed), stream=False)
        except (ollama.ResponseError, ConnectionError, httpx.TransportError) as e:
            raise self._translate(e) from e
        duration_ms = (time.perf_counter() - started) * 1000
        text = response.message.content or ""
        return Completion(
            text=text,
            prompt_tokens=self._prompt_tokens(messages, response.prompt_eval_count),
            completion_tokens=response.eval_count or self.count_tokens(text),
            duration_ms=duration_ms,
        )

    def stream(self, messages: list[ChatMessage], *, max_tokens: int = 256,
               seed: int = 0) -> Generator[str, None, Completion]:
        """The reply in pieces as Ollama sends them; its last message carries the usage."""
        started = time.perf_counter()
        pieces, last = [], None
        try:
            for last in self._client.chat(model=self.model, messages=list(messages),
                                          options=self._options(messages, max_tokens, seed), stream=True):
                if piece := last.message.content:
                    pieces.append(piece)
                    yield piece
        except (ollama.ResponseError, ConnectionError, httpx.TransportError) as e:
            raise self._translate(e) from e
        text = "".join(pieces)
        return Completion(
            text=text,
            prompt_tokens=self._prompt_tokens(messages, last.prompt_eval_count if last else None),
            completion_tokens=(last.eval_count if last else 0) or self.count_tokens(text),
            duration_ms=(time.perf_counter() - started) * 1000,
        )

    def close(self) -> None:
        self._client.close()

    def _options(self, messages: list[ChatMessage], max_tokens: int, seed: int) -> dict:
        return {
            "temperature": 0,
            "seed": seed,
            "num_ctx": self.num_ctx,
            "num_thread": self.threads,
            "num_predict": self._reply_budget(messages, max_tokens),
        }

    def _translate(self, error: Exception) -> DreamingAgentError:
        """Our typed error for what the client raised, with what to do about it."""
        if isinstance(error, ollama.ResponseError):
            if error.status_code == 404:
                return ModelNotPulled(self.model, self.host)
            return BackendUnavailable(f"Ollama at {self.host} refused the request: {error.error}", backend="ollama")
        if isinstance(error, httpx.TimeoutException) and not isinstance(error, httpx.ConnectTimeout):
            return ModelTimeout(self.timeout_s, "ollama")
        # The client turns httpx.ConnectError into the builtin ConnectionError; a dropped connection mid-answer
        # arrives as another httpx.TransportError.
        return self._unreachable(error)

    def _unreachable(self, error: Exception) -> BackendUnavailable:
        return BackendUnavailable(
            f"Cannot reach Ollama at {self.host} ({type(error).__name__}). Start Ollama (`ollama serve`), run "
            f"`ollama pull {self.model}`, and point OLLAMA_HOST (or --ollama-host) at it.",
            backend="ollama",
        )
