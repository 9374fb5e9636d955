import math
import re

import pytest
from hypothesis import given, settings, strategies as st

from dreaming_agent.context.budget import BudgetLimits, measure, pack
from dreaming_agent.errors import ConfigError


def estimate(text: str) -> int:
    return math.ceil(len(text) / 3.5)


def word_pieces(text: str) -> int:
    # Not additive over concatenation, like a real BPE: joining can change the count.
    return len(re.findall(r"\w{1,4}|[^\w\s]", text))


def render(sections: str) -> str:
    return "You are a helpful assistant. Today is 2026-03-02.\n\n" + sections


texts = st.text(alphabet=st.characters(codec="utf-8", categories=("L", "N", "P", "Zs")), max_size=400)


@settings(max_examples=300, deadline=None)
@given(
    window=st.integers(900, 4096),
    reply=st.integers(16, 512),
    current=st.lists(texts, max_size=10),
    facts=st.lists(texts, max_size=30),
    summary=texts,
    evidence=st.lists(texts, max_size=40),
    recent=st.lists(st.tuples(st.sampled_from(["user", "assistant"]), texts), max_size=30),
    question=st.text(max_size=20000),
    count=st.sampled_from([estimate, word_pieces]),
)
def test_never_exceeds_the_window(window, reply, current, facts, summary, evidence, recent, question, count):
    limits = BudgetLimits(window, reply, 300)
    packed = pack(count, limits, render_system=render, question=question or "?", current=current, facts=facts,
                  summary=summary,
                  evidence=evidence, recent=[{"role": r, "content": c} for r, c in recent])
    assert measure(count, packed.messages) + reply <= window
    assert packed.messages[-1]["role"] == "user"
    assert sum(packed.breakdown[k] for k in ("current", "facts", "summary", "evidence", "recent", "question")) <= window


def test_priority_order_and_breakdown():
    limits = BudgetLimits(800, 512, 100)
    recent = [{"role": "user", "content": f"turn {i} " + "x" * 200} for i in range(10)]
    packed = pack(estimate, limits, render_system=render, question="Where do I live?",
                  facts=["The user is vegetarian"], summary="S" * 300,
                  evidence=["- (2026-03-02) the person said: \"I live in Porto\""], recent=recent)
    system = packed.messages[0]["content"]
    assert "vegetarian" in system and "Porto" in system
    assert packed.breakdown["summary"] == 0  # not more than 200 tokens were left for it
    kept = [m["content"] for m in packed.messages[1:-1]]
    assert kept and kept[-1].startswith("turn 9")  # newest turns first
    assert packed.included["recent"] < 10


def test_summary_goes_in_when_room_remains():
    packed = pack(estimate, BudgetLimits(), render_system=render, question="hi", summary="We talked about Porto.")
    assert "We talked about Porto." in packed.messages[0]["content"] and packed.breakdown["summary"] > 0


def test_a_huge_question_is_cut_only_inside_the_prompt():
    question = "palabra " * 20000
    packed = pack(estimate, BudgetLimits(), render_system=render, question=question)
    assert 0 < len(packed.messages[-1]["content"]) < len(question)
    assert measure(estimate, packed.messages) <= 4096 - 512


def test_window_too_small_is_a_config_error():
    with pytest.raises(ConfigError, match="DREAMING_CONTEXT_WINDOW"):
        pack(estimate, BudgetLimits(600, 500, 300), render_system=render, question="hi")


def test_current_values_come_first_and_go_last():
    limits = BudgetLimits(4096, 512, 100)
    packed = pack(estimate, limits, render_system=render, question="Where do I live now?",
                  current=["The user has moved to Bristol (since 2026-11-27)"], facts=["The user is vegetarian"],
                  evidence=["- 2026-11-27: I moved to Bristol."])
    system = packed.messages[0]["content"]
    assert system.index("Current values:\n- The user has moved to Bristol") < system.index("Facts about") < system.index("Evidence")
    assert packed.included["current"] == 1 and packed.breakdown["current"] > 0
    tight = pack(estimate, BudgetLimits(700, 512, 100), render_system=render, question="Where do I live now?",
                 current=["The user has moved to Bristol (since 2026-11-27)"], facts=["x" * 300],
                 evidence=["y" * 300])
    assert tight.included == {"current": 1, "facts": 0, "summary": 0, "evidence": 0, "recent": 0}
