"""Schema → call → parse → one retry with the validation error → caller's deterministic fallback."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Callable, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from ..errors import BackendUnavailable, ModelTimeout
from .base import LLM, ChatMessage

T = TypeVar("T", bound=BaseModel)


@dataclass
class Structured(Generic[T]):
    """The parsed value plus everything the trace needs about how it was obtained."""

    value: T
    raw: list[str] = field(default_factory=list)
    retried: bool = False
    fell_back: bool = False
    error: str | None = None
    unavailable: bool = False  # the backend itself failed (down, timeout), as opposed to bad output
    prompt_tokens: int = 0
    completion_tokens: int = 0
    duration_ms: float = 0.0
    calls: int = 0


def structured_call(
    llm: LLM,
    messages: list[ChatMessage],
    output: type[T],
    fallback: Callable[[], T],
    *,
    max_tokens: int = 256,
    seed: int = 0,
    schema: dict | None = None,
) -> Structured[T]:
    """Ask for `output` as JSON; never raises for bad output, only the fallback's own errors escape.

    An unreachable backend or a timeout also falls back: the turn must still answer, and the
    error text is kept for the trace. `schema`, when given, is a stricter one than `output`'s to decode with
    (the ids of this very call): what a backend without grammars sends is still parsed as `output`.
    """
    schema = schema or output.model_json_schema()
    result: Structured[T] = Structured(value=None)  # type: ignore[arg-type]
    started = time.perf_counter()
    attempt_messages = list(messages)
    for attempt in range(2):
        try:
            completion = llm.complete(attempt_messages, schema=schema, max_tokens=max_tokens, seed=seed)
        except (BackendUnavailable, ModelTimeout) as e:
            result.error = str(e)
            result.unavailable = True
            break
        result.calls += 1
        result.raw.append(completion.text)
        result.prompt_tokens += completion.prompt_tokens
        result.completion_tokens += completion.completion_tokens
        try:
            result.value = output.model_validate_json(_strip_fences(completion.text))
            result.error = None
            break
        except ValidationError as e:
            result.error = _short_error(e)
            result.retried = True  # a second attempt follows, or has already been made
            attempt_messages = list(messages) + [
                {"role": "assistant", "content": completion.text},
                {
                    "role": "user",
                    "content": "That was not valid. Error: " + result.error
                    + "\nReply again with only JSON matching this schema: " + json.dumps(schema),
                },
            ]
    if result.value is None:
        result.value = fallback()
        result.fell_back = True
    result.duration_ms = (time.perf_counter() - started) * 1000
    return result


def _strip_fences(text: str) -> str:
    text = text.strip()
    if text.startswith("```"):
        text = text.strip("`")
        text = text[4:] if text.startswith("json") else text
    return text.strip()


def _short_error(error: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'root'}: {e['msg']}" for e in error.errors()[:5])
