"""The `doctor` command: show what the settings resolve to, then prove the model and embedder really work."""
from __future__ import annotations

import os
import time
from typing import Callable, Literal

from pydantic import BaseModel

from . import wiring
from .errors import DreamingAgentError
from .llm.choose import Choice
from .llm.structured import structured_call
from .settings import Settings


class DoctorAnswer(BaseModel):
    """The smallest structured output worth checking: one constrained field."""

    answer: Literal["yes", "no"]


_QUESTION = [
    {"role": "system", "content": "Answer with JSON only."},
    {"role": "user", "content": "Is Paris in France? Reply as {\"answer\": \"yes\"} or {\"answer\": \"no\"}."},
]


def run_doctor(choice: Choice, out: Callable[[str], None] = print) -> int:
    """Print the configuration, which model and why (`wiring.choose_llm`), then one timed structured call and
    embedding; 0 if all worked, else 1."""
    settings = choice.settings
    try:
        _configuration(choice, out)
        failure = _check_llm(settings, out)
        if failure:
            out(f"FAILED: the structured test call fell back: {failure}")
            return 1
        _check_embedder(settings, out)
        started = time.perf_counter()
        wiring.build_vector_client(settings)
        out(f"chroma open: {_ms(started):.0f} ms")
    except DreamingAgentError as e:  # each of our errors says how to fix it; that is the doctor's advice
        out(f"FAILED: {e}")
        return 1
    out("doctor: all checks passed")
    return 0


def _configuration(choice: Choice, out: Callable[[str], None]) -> None:
    shown = wiring.describe(choice.settings)
    shown["model"] = choice.line()
    if choice.settings.llm != "openai":  # a served model's threads are the server's business
        # os.cpu_count() sits beside it because containers often report the host's CPUs, not ours.
        shown["threads"] += f" (os.cpu_count(): {os.cpu_count()})"
    for key, value in shown.items():
        out(f"{key}: {value}")


def _check_llm(settings: Settings, out: Callable[[str], None]) -> str | None:
    """Time the model load and one structured call; return why it fell back, if it did."""
    started = time.perf_counter()
    llm = wiring.build_llm(settings)
    out(f"model load: {_ms(started):.0f} ms")
    try:
        result = structured_call(llm, list(_QUESTION), DoctorAnswer, lambda: DoctorAnswer(answer="no"), max_tokens=16)
        out(f"structured output: {llm.structured_output}")
        out(f"answered by: {llm.name}")
    finally:
        llm.close()
    if result.fell_back:
        return result.error or "no valid output"
    seconds = result.duration_ms / 1000
    rate = result.completion_tokens / seconds if seconds else 0.0
    out(
        f"structured call: {result.duration_ms:.0f} ms ({result.prompt_tokens} prompt + "
        f"{result.completion_tokens} completion tokens, {rate:.1f} tokens/s, answer {result.value.answer!r})"
    )
    return None


def _check_embedder(settings: Settings, out: Callable[[str], None]) -> None:
    started = time.perf_counter()
    embedder = wiring.build_embedder(settings)
    out(f"embedder load: {_ms(started):.0f} ms")
    started = time.perf_counter()
    vector = embedder.embed("Where did I park the car?", role="query")
    out(f"embedding: {_ms(started):.0f} ms ({embedder.name}, {vector.shape[0]} dimensions)")


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000
