"""Which model answers when none was named: the best this machine can have, and why, for the status line.

An Ollama server that answers with the configured model pulled; else the 0.5B evaluation model (assembled on
first use); else the tiny SmolLM2 that ships with the install. A model named in the settings is always kept.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import httpx

from ..settings import Settings
from . import eval_model
from .llamacpp import DEFAULT_MODEL

PROBE_TIMEOUT_S = 1.5
EVAL_MODEL_LABEL = "Qwen2.5-Coder-0.5B-Instruct"
SMOLLM2_LABEL = DEFAULT_MODEL


@dataclass(frozen=True)
class Choice:
    settings: Settings  # the settings with the chosen backend and model filled in
    model: str  # a short name for the status line
    reason: str  # why this one, and what would be better
    weak: bool = False  # the tiny fallback: the page says how to get good answers


@dataclass(frozen=True)
class EvalModel:
    """Where the 0.5B model lives and what it must hash to (tests pass a small file of their own)."""

    path: Path
    size: int = eval_model.EXPECTED_SIZE
    sha256: str = eval_model.EXPECTED_SHA256

    def verifies(self) -> bool:
        return eval_model.verifies(self.path, self.size, self.sha256)


def choose_model(settings: Settings, model_file: EvalModel, *,
                 assemble: Callable[[Path], None] | None = None) -> Choice:
    """The first of Ollama, the 0.5B model, SmolLM2 that can run here; `assemble` fetches the 0.5B model."""
    if settings.model_fields_set & {"llm", "gguf"}:
        name = settings.gguf and Path(settings.gguf).name
        return Choice(settings, name or settings.llm, "as configured (DREAMING_LLM / DREAMING_GGUF or their flags)",
                      weak=settings.llm == "embedded" and not settings.gguf)
    served, why_not = ollama_serves(settings.ollama_host, settings.ollama_model)
    if served:
        return Choice(settings.model_copy(update={"llm": "ollama"}), f"{settings.ollama_model} (Ollama)",
                      f"Ollama at {settings.ollama_host} answers with {settings.ollama_model} pulled")
    if not model_file.verifies() and assemble is not None:
        try:
            assemble(model_file.path)
        except (eval_model.AssemblyError, OSError) as e:
            first_line = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            return _smollm2(settings, f"{why_not}; the 0.5B model could not be assembled ({first_line})")
    if model_file.verifies():
        return Choice(settings.model_copy(update={"gguf": str(model_file.path)}), f"{EVAL_MODEL_LABEL} (local)",
                      f"{why_not}; the 0.5B evaluation model is the best one on this machine "
                      f"(for better answers: ollama pull {settings.ollama_model})")
    return _smollm2(settings, f"{why_not}; no 0.5B model at {model_file.path} (make eval-model assembles it)")


def ollama_serves(host: str, model: str, timeout_s: float = PROBE_TIMEOUT_S) -> tuple[bool, str]:
    """Whether an Ollama server answers at `host` with `model` pulled; if not, why, in a few words."""
    url = (host if "://" in host else f"http://{host}").rstrip("/") + "/api/tags"
    try:
        response = httpx.get(url, timeout=timeout_s)
        response.raise_for_status()
        names = {m.get("name") or m.get("model") for m in response.json().get("models", [])}
    except httpx.HTTPStatusError as e:  # something answers there, but not as Ollama does
        return False, f"{host} answered HTTP {e.response.status_code}, not as Ollama"
    except (httpx.HTTPError, ValueError, AttributeError) as e:
        return False, f"no Ollama answers at {host} ({type(e).__name__})"
    wanted = {model, f"{model}:latest"} if ":" not in model else {model}
    if names & wanted:
        return True, ""
    return False, f"Ollama at {host} does not have {model} (ollama pull {model})"


def _smollm2(settings: Settings, reason: str) -> Choice:
    return Choice(settings, SMOLLM2_LABEL, reason, weak=True)
