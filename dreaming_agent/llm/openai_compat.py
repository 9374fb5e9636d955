"""OpenAI-compatible backend: any server speaking /v1/chat/completions (vLLM, llama.cpp's server, Ollama's /v1)."""
from __future__ import annotations

import json
import time
from typing import Generator, Literal

import openai

from ..errors import (
    BackendUnavailable, ConfigError, CredentialsRefused, DreamingAgentError, ModelNotServed, ModelTimeout,
)
from .base import ChatMessage, Completion
from .served import ServedLLM

# How a schema reaches the server, best first. Servers that refuse one are asked the next way from then on.
SchemaMode = Literal["json_schema", "json_object", "prompt"]
SCHEMA_MODES: tuple[SchemaMode, ...] = ("json_schema", "json_object", "prompt")
_START_HINT = (
    "Start the server (for example `python -m llama_cpp.server --model FILE.gguf`, `llama-server -m FILE.gguf`, "
    "`vllm serve MODEL` or `ollama serve`) and point OPENAI_BASE_URL (or --openai-base-url) at its /v1 address."
)


class OpenAICompatibleLLM(ServedLLM):
    """A model behind an OpenAI-compatible server; every failure is turned into one of our typed errors."""

    def __init__(self, base_url: str, api_key: str, model: str | None = None, *, context_window: int = 4096,
                 timeout_s: float = 120, schema_mode: SchemaMode = "json_schema"):
        super().__init__(context_window)
        self.base_url = base_url
        self.timeout_s = timeout_s
        self.schema_mode: SchemaMode = schema_mode
        self.schema_fallback_reason: str | None = None  # why the server was asked a weaker way, shown by doctor
        self._model = model
        # No client retries: a server that is down must say so within the timeout, not after backing off.
        self._client = openai.OpenAI(base_url=base_url, api_key=api_key, timeout=timeout_s, max_retries=0)

    @property
    def model(self) -> str:
        """The configured model, or the first the server lists (a single-model server needs no name)."""
        if self._model is None:
            try:
                served = [m.id for m in self._client.models.list()]
            except openai.OpenAIError as e:
                raise self._translate(e) from e
            if not served:
                raise ModelNotServed("(none configured)", self.base_url, "the server lists no models")
            self._model = served[0]
        return self._model

    @property
    def name(self) -> str:  # type: ignore[override]
        return self._model or "openai"

    @property
    def structured_output(self) -> str:  # type: ignore[override]
        how = {"json_schema": "response_format json_schema", "json_object": "JSON mode plus the schema in the prompt",
               "prompt": "the schema in the prompt only"}[self.schema_mode]
        return how + (f" ({self.schema_fallback_reason})" if self.schema_fallback_reason else "")

    def complete(
        self,
        messages: list[ChatMessage],
        *,
        schema: dict | None = None,
        max_tokens: int = 256,
        seed: int = 0,
    ) -> Completion:
        """One chat completion at temperature 0; `schema` is sent the strongest way the server accepts."""
        started = time.perf_counter()
        while True:
            mode = self.schema_mode
            request = _schema_request(messages, schema, mode) if schema else {"messages": list(messages)}
            try:
                response = self._client.chat.completions.create(
                    model=self.model, temperature=0, seed=seed,
                    max_tokens=self._reply_budget(request["messages"], max_tokens), **request,
                )
                break
            except openai.APIStatusError as e:
                if not (schema and mode != "prompt" and _refuses_schema(e)):
                    raise self._translate(e) from e
                self._downgrade(mode, e)
            except openai.OpenAIError as e:
                raise self._translate(e) from e
        duration_ms = (time.perf_counter() - started) * 1000
        text = (response.choices[0].message.content or "") if response.choices else ""
        usage = response.usage
        return Completion(
            text=text,
            prompt_tokens=self._prompt_tokens(request["messages"], usage.prompt_tokens if usage else None),
            completion_tokens=(usage.completion_tokens if usage else 0) or self.count_tokens(text),
            duration_ms=duration_ms,
        )

    def stream(self, messages: list[ChatMessage], *, max_tokens: int = 256,
               seed: int = 0) -> Generator[str, None, Completion]:
        """The free-text reply in pieces as the server sends them; a server lost midway raises, typed."""
        started = time.perf_counter()
        pieces, usage = [], None
        try:
            chunks = self._client.chat.completions.create(
                model=self.model, messages=list(messages), temperature=0, seed=seed,
                max_tokens=self._reply_budget(messages, max_tokens), stream=True,
                stream_options={"include_usage": True},  # in the standard; servers that do not know it ignore it
            )
            with chunks:
                for chunk in chunks:
                    usage = chunk.usage or usage
                    if chunk.choices and chunk.choices[0].delta.content:
                        pieces.append(chunk.choices[0].delta.content)
                        yield pieces[-1]
        except openai.OpenAIError as e:  # the client wraps transport failures, mid-stream ones too
            raise self._translate(e) from e
        text = "".join(pieces)
        return Completion(
            text=text,
            prompt_tokens=self._prompt_tokens(messages, usage.prompt_tokens if usage else None),
            # Without usage (llama-cpp-python's server sends none) a piece is about a token: servers send them so.
            completion_tokens=(usage.completion_tokens if usage else 0) or len(pieces),
            duration_ms=(time.perf_counter() - started) * 1000,
        )

    def close(self) -> None:
        self._client.close()

    def _downgrade(self, refused: SchemaMode, error: openai.APIStatusError) -> None:
        weaker = SCHEMA_MODES[SCHEMA_MODES.index(refused) + 1]
        # Another thread may have downgraded already; never climb back up.
        if SCHEMA_MODES.index(self.schema_mode) < SCHEMA_MODES.index(weaker):
            self.schema_mode = weaker
            self.schema_fallback_reason = f"the server refused {refused} ({error.status_code}: {_reason(error)})"

    def _translate(self, error: Exception) -> DreamingAgentError:
        """Our typed error for a client or transport failure, with what to do about it."""
        if isinstance(error, openai.APITimeoutError):
            return ModelTimeout(self.timeout_s, "openai")
        if isinstance(error, openai.APIConnectionError):
            cause = error.__cause__ or error
            return BackendUnavailable(
                f"Cannot reach the OpenAI-compatible server at {self.base_url} ({type(cause).__name__}). {_START_HINT}",
                backend="openai",
            )
        if isinstance(error, (openai.AuthenticationError, openai.PermissionDeniedError)):
            return CredentialsRefused(self.base_url, _reason(error))
        if isinstance(error, openai.NotFoundError):
            return ModelNotServed(self._model or "(first listed)", self.base_url, _reason(error))
        if isinstance(error, openai.BadRequestError) and "context" in _reason(error).lower():
            return ConfigError(
                f"The server at {self.base_url} says the prompt does not fit: {_reason(error)}. Shorten the input, or "
                "raise the server's context size and set DREAMING_CONTEXT_WINDOW (or --context-window) to match it."
            )
        status = getattr(error, "status_code", "?")
        return BackendUnavailable(
            f"The server at {self.base_url} refused the request ({status}: {_reason(error)}).", backend="openai"
        )


def _schema_request(messages: list[ChatMessage], schema: dict, mode: SchemaMode) -> dict:
    """Messages and response_format that carry `schema` in `mode`."""
    if mode == "json_schema":
        return {"messages": list(messages), "response_format": {
            "type": "json_schema", "json_schema": {"name": schema.get("title", "output"), "schema": schema}}}
    # Weaker modes also state the schema in the prompt: JSON mode alone fixes the syntax, not the fields.
    # `schema` beside json_object is an extension (llama-cpp-python builds a grammar from it); others ignore it.
    instruction = "Reply with only a JSON object matching this JSON schema: " + json.dumps(schema)
    instructed = _with_instruction(messages, instruction)
    if mode == "json_object":
        return {"messages": instructed, "response_format": {"type": "json_object", "schema": schema}}
    return {"messages": instructed}


def _with_instruction(messages: list[ChatMessage], instruction: str) -> list[ChatMessage]:
    # Appended to the system message rather than sent as a second one: many chat templates allow only one, first.
    if messages and messages[0]["role"] == "system":
        return [{"role": "system", "content": messages[0]["content"] + "\n\n" + instruction}, *messages[1:]]
    return [{"role": "system", "content": instruction}, *messages]


def _refuses_schema(error: openai.APIStatusError) -> bool:
    # Servers report an unknown response_format as 400 or 422, and llama-cpp-python's as 500.
    if error.status_code not in (400, 422, 500):
        return False
    reason = _reason(error).lower()
    return "response_format" in reason or "json_schema" in reason or "json_object" in reason


def _reason(error: Exception) -> str:
    """The server's own words, on one line (some servers append a traceback) and without a final period."""
    body = getattr(error, "body", None)
    text = str(getattr(error, "message", error))
    if isinstance(body, dict):
        detail = body.get("message") or body.get("detail") or body.get("error") or body
        text = detail if isinstance(detail, str) else json.dumps(detail)
    return " ".join(text.split())[:300].rstrip(".")
