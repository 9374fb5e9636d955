"""One llama-cpp-python server and one Chroma server for this folder's tests, stopped at the end of the session."""
from __future__ import annotations

import pytest

from dreaming_agent.llm.openai_compat import OpenAICompatibleLLM

from . import SMOLLM_ALIAS, chroma_server, llama_server


@pytest.fixture(scope="session")
def openai_server(tmp_path_factory):
    server = llama_server(tmp_path_factory.mktemp("llama-server")).start()
    yield server
    server.stop()


@pytest.fixture
def openai_llm(openai_server):
    llm = OpenAICompatibleLLM(openai_server.url + "/v1", "no-key", SMOLLM_ALIAS, context_window=2048, timeout_s=60)
    yield llm
    llm.close()


@pytest.fixture(scope="session")
def chroma(tmp_path_factory):
    server = chroma_server(tmp_path_factory.mktemp("chroma-server")).start()
    yield server
    server.stop()
