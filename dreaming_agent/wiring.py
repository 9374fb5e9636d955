"""The one place that turns Settings into ready instances."""
from __future__ import annotations

import functools
from pathlib import Path

import httpx

from .embed.base import Embedder
from .errors import VectorServerLost
from .llm.base import LLM, available_cpus
from .llm.choose import Choice, EvalModel, choose_model
from .settings import Settings
from .store import Store, VectorIndex, make_client


def choose_llm(settings: Settings, *, local_only: bool = False) -> Choice:
    """The model every entry point uses: the one named in the settings, else the best this machine has.

    `local_only` skips Ollama, for measures of the in-process model (perf)."""
    from .llm import eval_model

    model_file = EvalModel(models_dir(settings) / eval_model.FILE_NAME)
    return choose_model(settings, model_file, assemble=eval_model.fetch if settings.fetch_model else None,
                        probe_ollama=not local_only)


def models_dir(settings: Settings) -> Path:
    """The checkout's models/ folder (where `make eval-model` writes), else a per-user cache for an installed copy."""
    if settings.models_dir:
        return Path(settings.models_dir)
    checkout = Path(__file__).resolve().parents[1]
    if (checkout / "app.py").is_file():
        return checkout / "models"
    return Path.home() / ".cache" / "dreaming-agent" / "models"


def threads(settings: Settings) -> int:
    return settings.threads or available_cpus()


def build_llm(settings: Settings) -> LLM:
    if settings.llm == "ollama":
        from .llm.ollama import OllamaLLM

        return OllamaLLM(
            model=settings.ollama_model,
            host=settings.ollama_host,
            num_ctx=settings.context_window,
            threads=threads(settings),
            timeout_s=settings.llm_timeout_s,
        )
    if settings.llm == "scripted":
        from .testing import ScriptedLLM

        return ScriptedLLM()
    if settings.llm == "openai":
        from .llm.openai_compat import OpenAICompatibleLLM

        return OpenAICompatibleLLM(
            base_url=settings.openai_base_url,
            api_key=settings.openai_api_key,
            model=settings.openai_model,
            context_window=settings.context_window,
            timeout_s=settings.llm_timeout_s,
        )
    from .llm.llamacpp import LlamaCppLLM, default_gguf_path

    return LlamaCppLLM(
        gguf_path=settings.gguf or default_gguf_path(),
        n_ctx=settings.context_window,
        threads=threads(settings),
    )


def build_embedder(settings: Settings) -> Embedder:
    if settings.embedder == "embedded":
        from .embed.offline import default_offline_embedder

        return default_offline_embedder()
    from .embed.sentence_transformers import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(settings.embedder)


def build_vector_client(settings: Settings):
    client = make_client(path=settings.chroma_path, host=settings.chroma_host, port=settings.chroma_port)
    if settings.chroma_host:
        return ChromaServerGuard(client, f"{settings.chroma_host}:{settings.chroma_port}")
    return client


class ChromaServerGuard:
    """Chroma's HTTP client, or a collection of it, whose calls raise VectorServerLost when the server is gone."""

    def __init__(self, target, where: str):
        self._target = target
        self._where = where

    def __getattr__(self, name: str):
        attribute = getattr(self._target, name)
        if not callable(attribute):
            return attribute

        @functools.wraps(attribute)
        def guarded(*args, **kwargs):
            from chromadb.api.models.Collection import Collection  # chromadb is slow to import: only once used

            try:
                result = attribute(*args, **kwargs)
            except httpx.TransportError as e:  # chromadb lets httpx's connection errors through as they are
                raise VectorServerLost(self._where, f"{type(e).__name__}: {e}") from e
            # Most calls go through the collections the client hands out, so those are guarded too.
            return ChromaServerGuard(result, self._where) if isinstance(result, Collection) else result

        return guarded


def build_store(settings: Settings) -> Store:
    return Store(settings.db)


def describe(settings: Settings) -> dict[str, str]:
    """What the status line and `doctor` show."""
    from .llm.llamacpp import DEFAULT_MODEL, DEFAULT_PACKAGE

    model = {
        "ollama": settings.ollama_model,
        "openai": f"{settings.openai_model or '(the first the server lists)'} at {settings.openai_base_url}",
    }.get(settings.llm, settings.gguf or f"{DEFAULT_MODEL} ({DEFAULT_PACKAGE})")
    return {
        "backend": settings.llm,
        "model": model,
        "embedder": settings.embedder,
        "threads": str(threads(settings)) if settings.llm != "openai" else "the server's own",
        "chroma": settings.chroma_mode,
    }


def build_agent(settings: Settings, *, llm: LLM | None = None, embedder: Embedder | None = None,
                client=None, store: Store | None = None, session: str | None = None,
                index_namespace: str | None = None, config=None):
    """An agent wired from settings; shared instances (model, embedder, Chroma client) may be passed in.

    `index_namespace` keeps agents sharing one Chroma client apart; `config` replaces the settings-derived one."""
    from .context.budget import BudgetLimits
    from .pipeline.agent import Agent, AgentConfig
    from .pipeline.writer import WriterSettings
    from .store import VectorIndex

    config = config or AgentConfig(
        variant=settings.variant,
        limits=BudgetLimits(settings.context_window, settings.reply_reserve, settings.instruction_reserve),
        dream_every_n_turns=settings.dream_every_n_turns,
        writer=WriterSettings(any_language=settings.writer_any_language),
    )
    return Agent(
        store=store or build_store(settings),
        index=VectorIndex(client or build_vector_client(settings),
                          namespace=index_namespace or ("main" if settings.chroma_path or settings.chroma_host else None)),
        llm=llm or build_llm(settings),
        embedder=embedder or build_embedder(settings),
        config=config,
        session=session,
    )
