"""Which model answers when none was named: the best this machine can have, and why.

An Ollama server that answers with the configured model pulled; else the 0.5B evaluation model (assembled on
first use); else the tiny SmolLM2 that ships with the install. A model named in the settings is always kept.
Every entry point (app, chat, doctor, bench, perf, the memory API) asks `wiring.choose_llm`, which calls this.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import httpx

from ..errors import ModelFileMissing
from ..settings import Settings
from . import eval_model
from .llamacpp import DEFAULT_MODEL, default_gguf_path

PROBE_TIMEOUT_S = 1.5
EVAL_MODEL_LABEL = "Qwen2.5-Coder-0.5B-Instruct"
SMOLLM2_LABEL = DEFAULT_MODEL
_SIZE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?[BbMm])(?![\w])")


@dataclass(frozen=True)
class Choice:
    """The model that answers and why, as fields for the status line and `doctor` to render."""

    settings: Settings  # the settings with the chosen backend and model filled in
    name: str  # the model's own name: "Qwen2.5-Coder-0.5B-Instruct", "qwen2.5:3b"
    size: str | None  # parameters as people say it ("0.5B", "135M"); None when the name does not tell
    backend: str  # "embedded", "ollama", "openai", "scripted"
    path: str | None  # the GGUF file the embedded backend loads
    server: str | None  # the address of the server that answers, for the served backends
    why: str  # why this one was chosen
    better: str | None  # what to run for better answers; None when nothing better is known here
    weak: bool = False  # the tiny fallback: the page says how to get good answers

    @property
    def model(self) -> str:
        """A short label: the name and where it runs."""
        where = {"ollama": " (Ollama)", "embedded": " (local)"}.get(self.backend, "")
        return self.name if self.weak else self.name + where

    @property
    def reason(self) -> str:
        return self.why + (f" (for better answers: {self.better})" if self.better else "")

    def line(self) -> str:
        """One line for a terminal: which model, where, why, and what would be better."""
        where = self.path or (f"{self.backend} at {self.server}" if self.server else self.backend)
        better = f"; better: {self.better}" if self.better else ""
        return f"{self.name} ({where}) — chosen because: {self.why}{better}"


@dataclass(frozen=True)
class EvalModel:
    """Where the 0.5B model lives and what it must hash to (tests pass a small file of their own)."""

    path: Path
    size: int = eval_model.EXPECTED_SIZE
    sha256: str = eval_model.EXPECTED_SHA256

    def verifies(self) -> bool:
        return eval_model.verifies(self.path, self.size, self.sha256)


def choose_model(settings: Settings, model_file: EvalModel, *, assemble: Callable[[Path], None] | None = None,
                 probe_ollama: bool = True) -> Choice:
    """The first of Ollama, the 0.5B model, SmolLM2 that can run here; `assemble` fetches the 0.5B model."""
    if settings.model_fields_set & {"llm", "gguf"}:
        return _as_configured(settings)
    pull = f"ollama pull {settings.ollama_model}, then start Ollama"
    why_not = "Ollama not asked (this command measures the in-process model)"
    if probe_ollama:
        served, why_not = ollama_serves(settings.ollama_host, settings.ollama_model)
        if served:
            return Choice(settings.model_copy(update={"llm": "ollama"}), settings.ollama_model,
                          _size(settings.ollama_model), "ollama", None, settings.ollama_host,
                          f"Ollama at {settings.ollama_host} answers with {settings.ollama_model} pulled", None)
    if not model_file.verifies() and assemble is not None:
        try:
            assemble(model_file.path)
        except (eval_model.AssemblyError, OSError) as e:
            first_line = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            return _smollm2(settings, f"{why_not}; the 0.5B model could not be assembled ({first_line})",
                            f"make eval-model, or {pull}")
    if model_file.verifies():
        return Choice(settings.model_copy(update={"gguf": str(model_file.path)}), EVAL_MODEL_LABEL, "0.5B",
                      "embedded", str(model_file.path), None,
                      f"{why_not}; the 0.5B evaluation model is assembled", pull)
    return _smollm2(settings, f"{why_not}; no 0.5B model at {model_file.path}", f"make eval-model, or {pull}")


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


def _as_configured(settings: Settings) -> Choice:
    why = "as configured (DREAMING_LLM / DREAMING_GGUF or their flags)"
    if settings.llm == "ollama":
        return Choice(settings, settings.ollama_model, _size(settings.ollama_model), "ollama", None,
                      settings.ollama_host, why, None)
    if settings.llm == "openai":
        name = settings.openai_model or "(the first model the server lists)"
        return Choice(settings, name, _size(name), "openai", None, settings.openai_base_url, why, None)
    if settings.llm == "scripted":
        return Choice(settings, "scripted", None, "scripted", None, None, why, None)
    if not settings.gguf:
        return _smollm2(settings, why, f"unset DREAMING_LLM so that a better model is chosen, or "
                                       f"ollama pull {settings.ollama_model} and set DREAMING_LLM=ollama")
    path = Path(settings.gguf)
    if path.name == eval_model.FILE_NAME:
        return Choice(settings, EVAL_MODEL_LABEL, "0.5B", "embedded", str(path), None, why, None)
    return Choice(settings, path.name, _size(path.name), "embedded", str(path), None, why, None)


def _smollm2(settings: Settings, why: str, better: str) -> Choice:
    try:
        path = default_gguf_path()
    except ModelFileMissing:  # loading it will fail with the fix in the message; the choice only reports
        path = None
    return Choice(settings, SMOLLM2_LABEL, "135M", "embedded", path, None, why, better, weak=True)


def _size(name: str) -> str | None:
    found = _SIZE.search(name.replace("-", " ").replace(":", " "))
    return found.group(1).upper() if found else None
