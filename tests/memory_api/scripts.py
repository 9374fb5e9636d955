"""The scripted model the API and MCP tests share: a Writer keyed by a word of the message, and a Dream."""
from __future__ import annotations

import json
import re

from dreaming_agent.pipeline.agent import AgentConfig
from dreaming_agent.pipeline.writer import WriterSettings
from dreaming_agent.testing import ScriptedLLM

FACTS = {
    "Porto": ["The user's sister Ana lives in Porto"],
    "peanuts": ["The user is allergic to peanuts"],
    "Leeds": ["The user lives in Leeds", "The user works as a pharmacist"],
    "Bristol": ["The user has moved to Bristol", "The user works as a teacher"],
}
SISTER = "My sister Ana moved to Porto in May."
LEEDS = "I live in Leeds and I work as a pharmacist."
BRISTOL = "Big news: I moved to Bristol last week and I work as a teacher now."
ALLERGY = "I'm allergic to peanuts, so no satay for me."
# The hashing embedder has no semantics: keep every lexically grounded fact (grounding has its own tests).
HASH_CONFIG = AgentConfig(writer=WriterSettings(semantic_threshold=-1.0))


def writer(messages, schema) -> str:
    said = messages[-1]["content"]
    return json.dumps({"facts": next((facts for word, facts in FACTS.items() if word in said), [])})


def dream(messages, schema) -> str:
    """Promote the allergy (a health fact: the validator accepts it said once)."""
    entries = re.findall(r"^\[(\d+)\].*\n\s+entry: (.*)$", messages[-1]["content"], re.M)
    allergy = [int(i) for i, text in entries if "allergic" in text]
    operations = [{"op": "PROMOTE", "target_ids": allergy, "reason": "A health fact stays true."}] if allergy else []
    return json.dumps({"operations": operations})


def scripted_llm() -> ScriptedLLM:
    return ScriptedLLM(defaults={"ExtractedFacts": writer, "DreamProposal": dream})
