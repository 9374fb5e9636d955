"""The MCP stdio server over AgentMemory built with injected instances: the scripted model, the real embedder.

Run as `python -m tests.memory_api.mcp_child DB` from the repository root; test_mcp drives it through an MCP client."""
from __future__ import annotations

import sys

from dreaming_agent.api import AgentMemory
from dreaming_agent.api.mcp_server import run_mcp
from dreaming_agent.settings import Settings
from dreaming_agent.wiring import build_agent

from .scripts import scripted_llm

if __name__ == "__main__":
    settings = Settings.load({}, {"db": sys.argv[1]})
    sys.exit(run_mcp(settings, memory=AgentMemory(build_agent(settings, llm=scripted_llm()), owns_agent=True)))
