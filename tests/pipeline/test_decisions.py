"""The decisions the default variant takes in code: routing, compound queries, language, abstention."""
import pytest

from dreaming_agent.pipeline import abstain
from dreaming_agent.pipeline.controller import plan
from dreaming_agent.pipeline.retriever import is_question


@pytest.mark.parametrize("text, question, personal, parts", [
    ("What colour is my cat, and what's his name?", True, True, ["What colour is my cat", "what's his name"]),
    ("¿Cómo se llama mi hermana y en qué ciudad vive?", True, True, ["Cómo se llama mi hermana", "en qué ciudad vive"]),
    ("¿Cuántas semanas hace que llegué a Edimburgo?", True, True, []),
    ("Did I run the half marathon before or after the vet?", True, True, []),
    ("Tengo un gato que se llama Miso.", False, False, []),
    ("What is the capital of France?", True, False, []),
    ("I have a cat called Pimentón, he's three.", False, False, []),
    ("Me gusta el té y como pasta", False, False, []),
    ("Remember that my sister is Inés.", False, False, []),
])
def test_plan_routes_and_splits_in_code(text, question, personal, parts):
    decided = plan(text)
    assert (decided.question, decided.personal) == (question, personal)
    assert decided.queries[0] == text and decided.queries[1:] == parts


@pytest.mark.parametrize("text, expected", [
    ("¿Tengo alguna alergia?", "es"), ("What's my blood type?", "en"), ("Qué coche tengo", "es"),
    ("Which city do I live in now?", "en"), ("¿Quién me ayudó?", "es"), ("Where did I move to in May?", "en"),
    ("I'm Tomás, I'm 34 and I teach history.", "en"), ("Me he mudado a Bilbao con mi pareja.", "es"),
    ("Vivo en Bilbao pero soy de Zaragoza.", "es"), ("Tengo un gato que se llama Miso.", "es"),
])
def test_language_of_the_question(text, expected):
    assert abstain.language(text) == expected


@pytest.mark.parametrize("answer, evidence, abstained", [
    ("Your blood type is AB.", '- (2026-03-02) the person said: "I live in Valencia."', True),
    ("Tu perro se llama Rex.", '- (2026-03-02) the person said: "Mi gato Pimentón duerme."', True),
    ("Your cat is called Pimentón.", '- (2026-03-02) the person said: "I have a cat called Pimentón."', False),
    ("You live in Edinburgh.", '- (2026-05-20) the person said: "Landed in Edinburgh today!"', False),
    ("You work at Haar Analytics.", '- (2026-04-12) the person said: "I got the job at Haar Analytics."', False),
    ("It was after.", '- (2026-03-29) the person said: "Today I ran my first half marathon!!"', False),
])
def test_an_answer_naming_what_no_line_says_becomes_i_dont_know(answer, evidence, abstained):
    verdict = abstain.check(answer, "What is it?", evidence)
    assert verdict.abstained is abstained
    assert verdict.answer == ("I don't know." if abstained else answer)


def test_a_name_taken_from_the_question_is_supported():
    assert not abstain.check("Itziar is your sister.", "Is Itziar my sister?", "- (2026-03-02) sister").abstained
    assert abstain.check("Itziar lives in Bilbao.", "Where does Itziar live?", "- nothing about it").abstained


@pytest.mark.parametrize("sentence, asked", [
    ("What am I allergic to?", True), ("¿Dónde vivo", True), ("I moved to Bilbao.", False), ("Hola!", False),
])
def test_the_persons_questions_are_recognised(sentence, asked):
    assert is_question(sentence) is asked


def test_an_opening_word_is_not_a_name():
    evidence = '- (2026-03-02) the person said: "I live in Valencia."'
    assert not abstain.check("Based on the memory, you live in Valencia.", "Where do I live?", evidence).abstained
    assert not abstain.check("Según lo que dijiste, vives en Valencia.", "¿Dónde vivo?", evidence).abstained
    assert abstain.check("Rex is your dog.", "What's my dog called?", evidence).abstained
