import re

import pytest

from dreaming_agent.pipeline.agent import AgentConfig
from dreaming_agent.pipeline.voice import Addressed, asks_about_themselves, to_the_person
from dreaming_agent.testing import ScriptedLLM

from .conftest import streamed


# Answers the 0.5B evaluation model gave on the bench scenarios (round 19), turned to the person.
@pytest.mark.parametrize("question, answer, turned", [
    ("What's my cat called?", "My cat is Pimentón.", "Your cat is Pimentón."),
    ("What did I give my nephew for his birthday?", "I gave my nephew a chubasquero amarillo.",
     "You gave your nephew a chubasquero amarillo."),
    ("Which neighbourhood did I live in before the move?",
     "Based on the evidence provided, I lived in Valencia before the move, and now I live in Escocia.",
     "Based on the evidence provided, you lived in Valencia before the move, and now you live in Escocia."),
    ("What was my job before the bootcamp?", "I was a pharmacist before the bootcamp.",
     "You were a pharmacist before the bootcamp."),
    ("What do I do?", "I'm a nurse and I am happy.", "You're a nurse and you are happy."),
    ("¿Soy alérgico a algo?", "Sí, soy alérgico a la penicilina.", "Sí, eres alérgico a la penicilina."),
    ("¿A qué me dedico ahora?", "Me dedico a la farmacia.", "Te dedicas a la farmacia."),
    ("¿Cómo voy al trabajo?", "Me voy en bici.", "Te vas en bici."),
    ("¿Cómo se llama la empresa en la que trabajo?", "La empresa en la que trabajo es Farmacia.",
     "La empresa en la que trabajas es Farmacia."),
    ("¿En qué mes me mudé a Edimburgo?", "En mayo me mudé a Edimburgo.", "En mayo te mudaste a Edimburgo."),
    ("¿Cuándo llegué?", "Llegué en mayo, empecé en junio y viví allí un año.",
     "Llegaste en mayo, empezaste en junio y viviste allí un año."),
    ("¿Quién me ayudó con la mudanza?", "Rita me ayudó con la mudanza.", "Rita te ayudó con la mudanza."),
    ("¿Cómo se llama mi hermana?", "Mi hermana vive en Bilbao. Se llama Ane.", "Tu hermana vive en Bilbao. Se llama Ane."),
    ("¿Dónde trabajo?", "Trabajo en el hospital, mi trabajo es duro.", "Trabajas en el hospital, tu trabajo es duro."),
    ("¿Cómo se llama mi madre?", "Mi madre vive en Bilbao, pero she's happy for me.",
     "Tu madre vive en Bilbao, pero she's happy for you."),
    # "me" is English too: LongMemEval (0.5B model) got "Dr. Smith sees te every two weeks."
    ("How often do I see my therapist, Dr. Smith?", "Dr. Smith sees me every two weeks.",
     "Dr. Smith sees you every two weeks."),
    # The assistant speaking of itself stays; the rest of the sentence is turned.
    ("¿A qué soy alérgica?", "Aunque no tengo la información exacta, puedo decir que soy alérgica a la penicilina.",
     "Aunque no tengo la información exacta, puedo decir que eres alérgica a la penicilina."),
    ("What am I allergic to?", "I'm not sure, but my notes say peanuts.", "I'm not sure, but my notes say peanuts."),
    ("What am I allergic to?", "I don't know, but my sister is allergic to cats.",
     "I don't know, but your sister is allergic to cats."),
])
def test_an_answer_in_the_persons_voice_is_turned_to_them(question, answer, turned):
    assert to_the_person(answer, question) == turned


@pytest.mark.parametrize("question, answer", [
    ("What's my blood type?", "I don't know."),
    ("¿Cuál es mi grupo sanguíneo?", "No lo sé."),
    ("What's my blood type?", "I'm sorry, I don't have that information."),
    ("Where do I live?", "You told me you live in Bilbao."),  # already speaking to them
    ("¿Dónde vivo?", "Vives en Bilbao, me dijiste."),
    ("¿Qué hago por la mañana?", "Me ducho y desayuno."),  # "ducho": a verb not known here, so nothing half-turned
    ("What did Caroline research?", "My guess is adoption agencies."),  # not about the person asking
    ("I live in Bilbao.", "My pleasure."),  # a statement, not a question
])
def test_an_answer_not_in_the_persons_voice_is_left_as_it_is(question, answer):
    assert to_the_person(answer, question) == answer


def test_questions_about_the_person_are_told_from_others():
    assert asks_about_themselves("What's my cat called?") and asks_about_themselves("¿Dónde trabajo?")
    assert asks_about_themselves("¿Cuándo llegué a Edimburgo?")
    assert not asks_about_themselves("What did Caroline research?") and not asks_about_themselves("My cat is Nube.")


def _passed(reply: str, question: str, asked_again: str | None = None) -> list[str | None]:
    return streamed(lambda on_text: Addressed(on_text, question), reply, asked_again)


def test_a_streamed_sentence_is_held_from_its_first_person_word_and_shown_turned():
    passed = _passed("Based on the evidence, my cat is Pimentón. He is three years old.", "What's my cat called?")
    assert passed[:3] == ["Based", " on", " the"]  # each word once the next one begins
    assert not any(re.search(r"\bmy\b", piece, re.IGNORECASE) for piece in passed)  # never shown, not even a moment
    assert " your cat is Pimentón. " in passed
    assert "".join(passed) == "Based on the evidence, your cat is Pimentón. He is three years"  # "old.": at the end


def test_a_streamed_reply_the_assistant_speaks_shows_before_its_sentence_ends():
    passed = _passed("I don't know. Sorry about that.", "What's my blood type?")
    assert passed[0] == "I don't" and "".join(passed) == "I don't know. Sorry about"


def test_a_reply_asked_again_starts_over_in_the_stream():
    passed = _passed("My cat. ", "What's my cat called?", asked_again="Your cat is Nube. ")
    assert passed[:2] == ["Your cat. ", None] and "".join(passed[2:]) == "Your cat is Nube. "


def test_what_is_held_when_the_reply_ends_is_shown_turned():
    passed: list[str | None] = []
    addressed = Addressed(passed.append, "¿Dónde vivo?")
    for piece in ("Vivo ", "en ", "Bilbao."):
        addressed(piece)
    addressed.finish()
    assert "".join(passed) == "Vives en Bilbao."


def test_an_answer_speaking_as_the_one_asked_about_gives_the_name_not_the_person_a_new_one():
    # in the app (0.5B model): "Who is my cello teacher?" -> "I'm Fiona, from Aberdeen.", shown as "You're Fiona…"
    assert to_the_person("I'm Fiona, from Aberdeen.", "Who is my cello teacher?") == "Fiona, from Aberdeen."
    assert to_the_person("Soy Fiona. Me da clases los martes.", "¿Quién es mi profesora de chelo?") == (
        "Fiona. Te da clases los martes.")
    assert to_the_person("I'm Noemí.", "What's my name?") == "You're Noemí."  # their own name: them
    assert to_the_person("I'm allergic to cashews.", "What am I allergic to?") == "You're allergic to cashews."
    passed = _passed("I'm Fiona, from Aberdeen. I teach you the cello.", "Who is my cello teacher?")
    assert "".join(passed).startswith("Fiona, from Aberdeen. ")  # only the first sentence loses its opening
    assert not any("Fiona" in piece and "You" in piece for piece in passed)  # never "You're Fiona", not a moment
    held: list[str | None] = []
    addressed = Addressed(held.append, "Who is my cello teacher?")
    for piece in ("I'm ", "Fiona."):
        addressed(piece)
    addressed.finish()
    assert "".join(held) == "Fiona." == to_the_person("I'm Fiona.", "Who is my cello teacher?")


@pytest.mark.parametrize("mode", ["lightmem", "rag"])
def test_an_answer_in_the_persons_voice_reaches_them_turned_to_them(make_agent, store, mode):
    """The 0.5B model mirrors the question's first person ("My cat is Pimentón."): the person reads, and the log
    keeps, the answer spoken to them, and the trace shows what the model wrote."""
    agent = make_agent(ScriptedLLM(defaults={"text": "My cat is Pimentón, he is three."}), AgentConfig(learn=False))
    agent.ingest("My cat is Pimentón, he is three.", now="2026-03-01", learn=False)
    streamed: list[str | None] = []
    result = agent.turn("What's my cat called?", mode, now="2026-03-02", on_text=lambda m, piece: streamed.append(piece))
    assert result.answer == "Your cat is Pimentón, he is three." == "".join(streamed)
    assert not any("My" in piece for piece in streamed)
    assert result.trace.step("Voice").parsed == {"model": "My cat is Pimentón, he is three.",
                                                 "shown": result.answer}
    assert store.messages()[-1].text == result.answer


def test_the_published_pipeline_keeps_the_models_own_words(make_agent):
    agent = make_agent(ScriptedLLM(defaults={"text": "My cat is Pimentón."}), AgentConfig(learn=False, variant="published"))
    agent.ingest("My cat is Pimentón.", now="2026-03-01", learn=False)
    assert agent.ask("What's my cat called?").answer == "My cat is Pimentón."
