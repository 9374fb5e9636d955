"""The answer checks: one loop runs them, owns the model calls and their budget, and traces every call."""
from dreaming_agent.context.budget import BudgetLimits
from dreaming_agent.pipeline import checks, controller, plan as planning, voice
from dreaming_agent.pipeline.agent import AgentConfig
from dreaming_agent.pipeline.evidence import Evidence
from dreaming_agent.pipeline.responder import Responder
from dreaming_agent.pipeline.trace import Trace
from dreaming_agent.prompts import PromptLibrary
from dreaming_agent.testing import ScriptedLLM


def test_a_turn_two_checks_ask_again_makes_three_blocking_calls_each_in_the_trace(make_agent):
    # The reply is the code's acknowledgement copied from the window (asked again without the turns), then the
    # person's own name for the cat's (asked again without the line giving it), then the answer.
    replies = ["Got it, thanks for telling me.", "Itziar.", "Your cat is Pimentón."]
    llm = ScriptedLLM({"text": replies})
    agent = make_agent(llm, AgentConfig(learn=False))
    agent.ingest("Hola, me llamo Itziar.", now="2026-03-01", learn=False)
    agent.ingest("My cat is called Pimentón.", now="2026-03-01", learn=False)
    agent.new_conversation()
    result = agent.ask("What's my cat called?")
    assert result.answer == "Your cat is Pimentón." and llm.calls_for("text") == 3
    calls = [(s.name, s.llm_calls) for s in result.trace.steps if s.llm_calls]
    assert calls == [("Responder", 1), ("Responder, again", 1), ("Responder, again", 1)]
    assert result.blocking_llm_calls == 3
    assert result.trace.step("Acknowledgement copied").parsed == {"asked_again": True}
    assert result.trace.step("Own name").parsed == {"left_out": ["- 2026-03-01: Hola, me llamo Itziar."]}
    assert result.trace.steps[-1].name == "Abstention"  # code's verdict comes last


class _AlwaysAgain(checks.Check):
    name = "Always again"

    def verdict(self, draft, context, *, again=False):
        return checks.asked_again(without_recent=True)


def test_a_check_asks_again_at_most_once():
    llm = ScriptedLLM({"text": ["First.", "Second.", "Third."]})
    question = "Where do I live?"
    responder = Responder(llm, PromptLibrary.bundled(), BudgetLimits(), "responder", question, "2026-03-01", [], "",
                          48)
    draft = checks.Draft("", Evidence(), [{"role": "user", "content": "I live in Porto."}],
                         responder.prompt([], [{"role": "user", "content": "I live in Porto."}]))
    context = checks.Context(planning.plan(question), False)
    trace = Trace()
    answered = checks.run([_AlwaysAgain()], draft, context, responder, trace, None)
    assert answered.text == "Second." and llm.calls_for("text") == 2 and answered.recent == []
    assert [s.name for s in trace.steps] == ["Responder", "Responder, again"]


def test_a_turn_plans_its_message_once_and_reads_what_was_told_once(make_agent, monkeypatch):
    planned, scans = [], []

    def counted_plan(text):
        planned.append(text)
        return original_plan(text)

    def counted_told(store):
        scans.append(store)
        return original_told(store)

    original_plan, original_told = controller.plan, planning.told
    monkeypatch.setattr(controller, "plan", counted_plan)
    monkeypatch.setattr(voice, "plan", counted_plan)
    monkeypatch.setattr(planning, "told", counted_told)

    # the relation asked after is checked against what was told: the Selector and Abstention read it, once
    agent = make_agent(ScriptedLLM(defaults={"text": "Se llama Ximena."}), AgentConfig(learn=False))
    agent.ingest("Mi hija Marisela está embarazada de una niña, mi primera nieta.", now="2026-01-11", learn=False)
    agent.ingest("¡Soy abuelo! Mi nieta se llama Ximena.", now="2026-03-22", learn=False)
    agent.new_conversation()
    planned.clear()
    result = agent.turn("¿Cómo se llama mi nieta?", now="2026-03-23", on_text=lambda mode, piece: None)
    assert result.answer == "Se llama Ximena." and result.trace.step("Abstention").parsed["abstained"] is False
    assert planned == ["¿Cómo se llama mi nieta?"] and len(scans) == 1
