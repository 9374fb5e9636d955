"""A conversation in a language no module knows: the model's own replies stand, and the trace says why."""
from dreaming_agent.pipeline.agent import AgentConfig
from dreaming_agent.testing import ScriptedLLM


def test_a_french_conversation_gets_the_models_own_answers(make_agent):
    replies = ["I'm sorry, but I can't assist with that.",  # replaced by "Got it…" for an English statement
               "Je m'appelle Claire.",  # the person's own introduction, given as the sister's name
               "No lo sé."]  # a refusal in another known language, rewritten for an English or Spanish question
    agent = make_agent(ScriptedLLM({"text": replies}), AgentConfig(learn=False))
    told = agent.turn("Je m'appelle Claire et j'habite à Lyon.", now="2026-03-02")
    agent.ingest("Ma sœur Sophie est médecin.", now="2026-03-02", learn=False)
    asked = agent.turn("Comment s'appelle ma sœur ?", now="2026-03-03")
    never_told = agent.turn("Où est-ce que je travaille ?", now="2026-03-03")

    assert [told.answer, asked.answer, never_told.answer] == replies
    assert told.trace.step("Acknowledgement").parsed == {"replaced": False}
    for result in (told, asked, never_told):
        assert result.trace.step("Controller").parsed["language"] is None
    for result in (asked, never_told):
        names = {s.name for s in result.trace.steps}
        assert not {"Abstention", "Voice", "Own name", "Another's name", "Acknowledgement copied"} & names


def test_an_english_statement_still_gets_its_refusal_replaced(make_agent):
    agent = make_agent(ScriptedLLM({"text": ["I'm sorry, but I can't assist with that."]}), AgentConfig(learn=False))
    told = agent.turn("My name is Claire and I live in Lyon.", now="2026-03-02")
    assert told.trace.step("Controller").parsed["language"] == "en"
    assert told.trace.step("Acknowledgement").parsed == {"replaced": True}
    assert told.answer == "Got it, thanks for telling me."
