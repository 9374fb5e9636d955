"""A name asked of someone or something is never the person's own: code finds the slip, asks once more without the
lines where they give it, then abstains. And a question about the person does not read what they just told of a
relative or pet."""
import pytest

from dreaming_agent.pipeline import abstain
from dreaming_agent.pipeline.agent import AgentConfig
from dreaming_agent.testing import ScriptedLLM

_SHOWN = ["Hi! Me llamo Bruno. My therapist said journaling helps.", "I have a greyhound called Canela.",
          "The offer is an apprenticeship at a carpentry workshop called Madeira Viva."]


@pytest.mark.parametrize("answer, question, lines", [
    ("Bruno.", "¿Cómo se llama mi gato?", [0]),  # the held-out scenario's own slips
    ("El taller donde trabajas es Bruno.", "¿Cómo se llama el taller donde trabajo?", [0]),
    ("Your dog is a greyhound. Her name is Bruno.", "What breed is my dog, and what's her name?", [0]),
    ("Bruno.", "¿Cómo me llamo?", None),  # asked their own name, their name is the answer
    ("Your name is Bruno.", "What's my name?", None),
    ("Your dog is Canela.", "What's my dog called?", None),  # another name: not the person's
    ("Bruno and Canela.", "Who lives with me?", None),  # not every name the answer gives is theirs
    ("Bruno.", "Where do I work?", None),  # no name asked
])
def test_the_persons_own_name_for_someone_elses(answer, question, lines):
    assert abstain.own_name_given(answer, question, _SHOWN) == lines


def test_a_full_name_counts_as_the_persons_in_any_of_its_parts():
    shown = ["Hi there! Me llamo Héctor Alcaraz y tengo 56 años.", "Mi médico es el Dr. Patel."]
    assert abstain.own_name_given("Tu médico ahora es Héctor Alcaraz.", "¿Quién es mi médico ahora?", shown) == [0]
    assert abstain.own_name_given("Tu loro es Héctor.", "¿Cómo se llama mi loro?", shown) == [0]
    assert abstain.own_name_given("Tu médico es el Dr. Patel.", "¿Quién es mi médico ahora?", shown) is None


def _told(make_agent, reply, *said: tuple[str, str], **config):
    """An agent answering with `reply` (a text, or a function of the messages) that was told `said` ((text, day)…),
    in a new conversation."""
    agent = make_agent(ScriptedLLM(defaults={"text": reply}), AgentConfig(learn=False, **config))
    for text, day in said:
        agent.ingest(text, now=day, learn=False)
    agent.new_conversation()
    return agent


def test_the_persons_own_name_for_a_pets_is_asked_again_without_their_introduction(make_agent):
    def model(messages, schema):
        return "Bruno." if "Me llamo Bruno" in messages[0]["content"] else "Tu perra se llama Canela."
    agent = _told(make_agent, model, ("Hola. Me llamo Bruno.", "2026-03-01"),
                  ("Tengo una galga que se llama Canela.", "2026-03-01"))
    result = agent.ask("¿Cómo se llama mi perra?")
    assert result.answer == "Tu perra se llama Canela." and result.blocking_llm_calls == 2
    assert "Me llamo Bruno" not in result.prompt_text and "Canela" in result.prompt_text
    assert result.trace.step("Own name").parsed == {"left_out": ["- 2026-03-01: Me llamo Bruno."]}
    # Asked their own name, the introduction is the answer; naive RAG stays naive; the checks can be switched off.
    assert agent.ask("¿Cómo me llamo?").blocking_llm_calls == 1
    assert agent.ask("¿Cómo se llama mi perra?", mode="rag").answer == "Bruno."
    off = _told(make_agent, model, ("Hola. Me llamo Bruno.", "2026-03-01"), name_checks=False)
    assert off.ask("¿Cómo se llama mi perra?").answer == "Bruno."


def test_a_question_about_the_person_does_not_read_what_they_just_told_of_a_relative_or_pet(make_agent):
    # In the app (0.5B model): with these just said, "¿A qué soy alérgica?" was answered about the sister.
    agent = make_agent(ScriptedLLM(defaults={"text": "Anotado."}), AgentConfig(learn=False))
    for told in ["Soy alérgica a la penicilina.", "Mi hermana Ane vive en Donostia.", "My cat is called Pimentón."]:
        agent.turn(told, now="2026-03-01")
    result = agent.turn("¿A qué soy alérgica?", now="2026-03-01")
    assert "penicilina" in result.prompt_text
    assert "Donostia" not in result.prompt_text and "Pimentón" not in result.prompt_text
    # asked about the sister, what was told of her stays in the window
    assert "[user]\nMi hermana Ane vive en Donostia." in agent.turn("¿Dónde vive mi hermana?", now="2026-03-01").prompt_text
