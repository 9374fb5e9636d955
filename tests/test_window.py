import json

import pytest

from dreaming_agent.context.window import current_window, fold_if_needed
from dreaming_agent.prompts import PromptLibrary
from dreaming_agent.pipeline.agent import AgentConfig
from dreaming_agent.testing import ScriptedLLM
from conftest import FLOW_CONFIG


def _chat(store, turns):
    for i, text in enumerate(turns):
        store.add_message("s1", "user" if i % 2 == 0 else "assistant", text, f"2026-03-02T10:{i:02d}:00")


def test_tail_within_budget_is_left_alone(store):
    _chat(store, ["I live in Porto.", "Nice!"])
    assert fold_if_needed(store, ScriptedLLM(), PromptLibrary.bundled(), "s1", budget_tokens=1000, today="2026-03-02") is None
    view = current_window(store, "s1")
    assert view.summary == "" and [m.text for m in view.turns] == ["I live in Porto.", "Nice!"]


def test_overflow_folds_the_oldest_half_into_one_summary_call(store):
    _chat(store, [f"turn {i} " + "word " * 40 for i in range(8)])
    llm = ScriptedLLM({"Summary": [json.dumps({"summary": "The person talked about turns 0 to 3."})]})
    result = fold_if_needed(store, llm, PromptLibrary.bundled(), "s1", budget_tokens=200, today="2026-03-02")
    assert result is not None and llm.calls_for("Summary") == 1
    prompt = llm.calls[0][1][-1]["content"]
    assert "turn 0" in prompt and "turn 3" in prompt and "turn 4" not in prompt and "Previous summary: (none)" in prompt
    view = current_window(store, "s1")
    assert view.summary == "The person talked about turns 0 to 3."
    assert [m.text.split()[1] for m in view.turns] == ["4", "5", "6", "7"]  # the freshest half stays verbatim


def test_fold_sees_the_previous_summary_and_falls_back_to_the_persons_words(store):
    store.set_summary("s1", "Earlier: the person moved to Porto.", 0)
    _chat(store, [f"Mi gata se llama Luna {i}. " + "palabra " * 40 for i in range(4)])
    llm = ScriptedLLM({"Summary": ["not json", "still not json"]})
    result = fold_if_needed(store, llm, PromptLibrary.bundled(), "s1", budget_tokens=100, today="2026-03-02")
    assert result.fell_back and "Earlier: the person moved to Porto." in llm.calls[0][1][-1]["content"]
    summary = current_window(store, "s1").summary
    assert summary.startswith("Earlier: the person moved to Porto.") and "Mi gata se llama Luna 0" in summary


@pytest.mark.parametrize("fold_window", [True, False])
def test_an_agent_folds_its_window_only_where_a_later_turn_reads_it(make_agent, store, fold_window):
    # The bench asks each question in a fresh conversation, so it feeds without folding (a third of E's time).
    llm = ScriptedLLM({"Summary": [json.dumps({"summary": "The person talked about turns."})] * 8})
    agent = make_agent(llm, AgentConfig(writer=FLOW_CONFIG.writer, window_tokens=60, fold_window=fold_window))
    for i in range(6):
        agent.ingest(f"turn {i}: I walked " + "far and " * 12 + "home.", now=f"2026-03-02T10:0{i}:00")
    assert agent.learning.wait(timeout=30)
    assert llm.calls_for("ExtractedFacts") == 6  # the Writer ran on every message either way
    assert (llm.calls_for("Summary") > 0) == fold_window
    assert (current_window(store, agent.session).summary != "") == fold_window
