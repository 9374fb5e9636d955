import json

import pytest

from dreaming_agent.pipeline.agent import Agent, AgentConfig
from dreaming_agent.pipeline.writer import WriterSettings
from dreaming_agent.testing import ScriptedLLM

# The hashing embedder has no semantics; these tests check the flow, and grounding has its own tests.
FLOW_CONFIG = AgentConfig(writer=WriterSettings(semantic_threshold=-1.0))


def facts_from(mapping: dict[str, list[str]]):
    """A scripted Writer: facts keyed by a word of the message."""
    def reply(messages, schema):
        text = messages[-1]["content"]
        return json.dumps({"facts": next((v for k, v in mapping.items() if k in text), [])})
    return reply


@pytest.fixture
def make_agent(store, index, embedder):
    agents = []

    def make(llm=None, config=FLOW_CONFIG):
        agent = Agent(store=store, index=index, llm=llm or ScriptedLLM(), embedder=embedder, config=config)
        agents.append(agent)
        return agent

    yield make
    for a in agents:
        a.close()
