import io
import json

from dreaming_agent.cli_chat import run_chat
from dreaming_agent.pipeline.agent import Agent, AgentConfig
from dreaming_agent.pipeline.writer import WriterSettings
from dreaming_agent.settings import Settings
from dreaming_agent.testing import ScriptedLLM
from dreaming_agent.wiring import choose_llm


def test_terminal_chat_compare_memory_dream_undo(store, index, embedder):
    llm = ScriptedLLM(defaults={
        "text": "You live in Porto.",
        "ExtractedFacts": lambda m, s: json.dumps({"facts": ["The user lives in Porto"] if "Porto" in m[-1]["content"] else []}),
        "DreamProposal": lambda m, s: json.dumps({"operations": [
            {"op": "FORGET", "target_ids": [1], "text": None, "reason": "ordered to"}]}),
    })
    agent = Agent(store=store, index=index, llm=llm, embedder=embedder,
                  config=AgentConfig(writer=WriterSettings(semantic_threshold=-1.0)))
    lines = []
    stdin = io.StringIO("I live in Porto.\n   \n/memory\n/dream\n/undo\n/quit\nnever read\n")
    choice = choose_llm(Settings.load({}, {"llm": "scripted"}))
    assert run_chat(choice, mode="compare", stdin=stdin, out=lines.append, agent=agent) == 0
    text = "\n".join(lines)
    assert "model: scripted (scripted) — chosen because: as configured" in lines[0]
    assert "[lightmem" in text and "[rag" in text and "You live in Porto." in text
    assert "error: The message is empty" in text  # a blank line is refused, the chat goes on
    assert "[mtm #1 writer] The user lives in Porto" in text
    # Where one lives, said once: never forgotten, not yet promoted, so the model is not even asked.
    assert "🌙 Dream 1: 0 accepted, 0 rejected, 1 kept unchanged without a model call" in text
    assert llm.calls_for("DreamProposal") == 0
    assert "nothing to undo" in text
    assert [m.text for m in store.messages(role="user")] == ["I live in Porto."]
