"""A sentence a newer line replaced in part still says the rest: "I have a dog called Pepper, and I drive an old Ford
Fiesta." keeps the dog once the Fiesta was traded in, with the replaced clause elided."""
import numpy as np
import pytest

from dreaming_agent.pipeline.agent import Agent, AgentConfig
from dreaming_agent.pipeline.evidence import ELIDED, clauses, still_said
from dreaming_agent.testing import ScriptedLLM


def test_the_clauses_nearer_what_replaced_it_than_the_whole_sentence_are_elided_and_the_rest_kept():
    text = "I have a dog called Pepper, and I drive an old Ford Fiesta; I like it."
    assert clauses(text) == ["I have a dog called Pepper", "and I drive an old Ford Fiesta", "I like it."]
    rows, whole = np.eye(3, dtype=np.float32), np.full(3, 0.5, dtype=np.float32)
    assert still_said(text, rows, whole, rows[1:2]) == f"I have a dog called Pepper, {ELIDED}; I like it."
    assert still_said(text, rows, whole, rows[0:2]) == f"{ELIDED}; I like it."  # neighbours elided once


@pytest.mark.parametrize("whole, why", [
    (np.zeros(3, dtype=np.float32), "every clause is as near what replaced it as the sentence: it goes whole"),
    (np.full(3, 2.0, dtype=np.float32), "no clause is: the sentence as a whole was replaced, it goes whole"),
])
def test_a_sentence_goes_whole_when_no_one_clause_was_replaced(whole, why):
    rows = np.eye(3, dtype=np.float32)
    assert still_said("Pepper, Fiesta, Leeds.", rows, whole, rows[1:2]) is None, why


def _agent(store, index, facts: list[list[str]] | None = None) -> Agent:
    """The real multilingual embedder (the similarities are the point); the model scripted: its Writer draws `facts`
    from each message, or there is no Writer."""
    import json

    from dreaming_agent.embed.offline import UniversalSentenceEncoderEmbedder

    llm = ScriptedLLM({"ExtractedFacts": [json.dumps({"facts": f}) for f in facts or []]}, defaults={"text": "Pepper."})
    return Agent(store=store, index=index, llm=llm, embedder=UniversalSentenceEncoderEmbedder(),
                 config=AgentConfig(learn=facts is not None))


def test_what_memory_holds_replaced_leaves_the_rest_of_its_sentence_shown(store, index):
    agent = _agent(store, index, [["The user has a dog", "The user drives an old Ford Fiesta"],  # as the 0.5B Writer
                                  ["The user traded the Fiesta for a Toyota Yaris"]])
    try:
        agent.ingest("I have a dog called Pepper, and I drive an old Ford Fiesta.", now="2026-12-01T10:00:00")
        agent.ingest("Also, I traded the Fiesta in for a Toyota Yaris yesterday!", now="2026-12-06T10:00:00")
        assert agent.learning.wait(timeout=60)
        agent.new_conversation()
        dog = agent.ask("What's my dog called?")
        assert f"I have a dog called Pepper, {ELIDED}" in dog.prompt_text and "Ford" not in dog.prompt_text
        car = agent.ask("What car do I drive?")  # not about now, but the dog is not what it asks after
        assert "Pepper" not in car.prompt_text and "Ford" not in car.prompt_text
        now = agent.ask("What car do I drive now?")  # about now: the replaced sentence goes whole
        assert "Toyota Yaris" in now.prompt_text and "Pepper" not in now.prompt_text
        before = agent.ask("What car did I drive before?")  # the past reads it whole
        assert "I have a dog called Pepper, and I drive an old Ford Fiesta." in before.prompt_text
    finally:
        agent.close()


def test_a_sentence_that_said_what_held_now_keeps_what_the_newer_one_does_not_say(store, index):
    agent = _agent(store, index)
    try:
        agent.ingest("I've run 3 half marathons so far this year, my coach is Priya Raman.", now="2026-05-02",
                     learn=False)
        agent.ingest("That's 4 half marathons this year now!", now="2026-06-20", learn=False)
        agent.new_conversation()
        coach = agent.ask("Who is my running coach?")
        assert f"{ELIDED}, my coach is Priya Raman." in coach.prompt_text and "3 half" not in coach.prompt_text
        count = agent.ask("How many half marathons have I run this year?")  # what is left is not what it asks
        assert "Priya" not in count.prompt_text and "3 half" not in count.prompt_text
    finally:
        agent.close()
