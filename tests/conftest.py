"""Shared fixtures: all state in tmp_path, real SQLite and Chroma, fakes only at the model boundary."""
from __future__ import annotations

import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

import pytest

from dreaming_agent.store import Store, VectorIndex, make_client
from dreaming_agent.testing import HashEmbedder, ScriptedLLM


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


def pytest_addoption(parser):
    parser.addoption(
        "--full", action="store_true", default=False,
        help="run the long reliability checks at their full counts (see docs/RELIABILITY.md)",
    )


@pytest.fixture
def full(request) -> bool:
    """True under `pytest --full`: long checks use their documented full counts."""
    return request.config.getoption("--full")
