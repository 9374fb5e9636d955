"""The one interface every model backend implements, and the CPU rule they all share."""
from __future__ import annotations

import math
import os
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Generator, TypedDict


class ChatMessage(TypedDict):
    role: str  # "system" | "user" | "assistant"
    content: str


@dataclass(frozen=True)
class Completion:
    text: str
    prompt_tokens: int
    completion_tokens: int
    duration_ms: float


class LLM(ABC):
    """A chat model. Backends implement `complete`; `count_tokens` defaults to a documented estimate."""

    name: str = "llm"
    supports_schema: bool = True
    structured_output: str = "JSON schema"  # how a schema reaches the model, as `doctor` shows it

    @abstractmethod
    def complete(
        self,
        messages: list[ChatMessage],
        *,
        schema: dict | None = None,
        max_tokens: int = 256,
        seed: int = 0,
    ) -> Completion:
        """One chat completion at temperature 0; `schema` constrains the output to that JSON schema."""

    def stream(self, messages: list[ChatMessage], *, max_tokens: int = 256,
               seed: int = 0) -> Generator[str, None, Completion]:
        """The free-text reply in pieces as they are generated, returning the whole Completion at the end.

        Same settings as `complete`, so the pieces join to its text; a backend that cannot stream yields it whole."""
        completion = self.complete(messages, max_tokens=max_tokens, seed=seed)
        yield completion.text
        return completion

    def count_tokens(self, text: str) -> int:
        # Estimate for backends without a local tokenizer: ~3.5 characters per token for English and
        # Spanish BPE vocabularies, rounded up so the prompt budget errs on the safe side.
        return math.ceil(len(text) / 3.5)

    def close(self) -> None:
        """Release native resources; the default backend holds none."""


def streamed(pieces: Generator[str, None, Completion], on_text: Callable[[str], None]) -> Completion:
    """Hand each piece of `LLM.stream` to `on_text` as it comes; the Completion the stream ends with."""
    while True:
        try:
            on_text(next(pieces))
        except StopIteration as finished:
            return finished.value


def available_cpus() -> int:
    """CPUs this process may really use: affinity mask and cgroup quota, not os.cpu_count()."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    quota = _cgroup_cpu_limit()
    if quota is not None:
        cpus = min(cpus, max(1, math.floor(quota)))
    return max(1, cpus)


def _cgroup_cpu_limit() -> float | None:
    v2 = Path("/sys/fs/cgroup/cpu.max")
    try:
        if v2.exists():
            quota, period = v2.read_text().split()[:2]
            return None if quota == "max" else int(quota) / int(period)
        v1_quota = Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us")
        v1_period = Path("/sys/fs/cgroup/cpu/cpu.cfs_period_us")
        if v1_quota.exists() and v1_period.exists():
            quota_us = int(v1_quota.read_text())
            return None if quota_us <= 0 else quota_us / int(v1_period.read_text())
    except (OSError, ValueError):
        return None
    return None
