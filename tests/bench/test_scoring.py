"""The bench scorers: phrase matching, abstention, rejected values, evidence recall and LoCoMo token F1."""
from __future__ import annotations

import pytest

from dreaming_agent.bench.locomo import LocomoQuestion
from dreaming_agent.bench.scenario import Question
from dreaming_agent.bench.scoring import (
    evidence_recall, locomo_f1, occurs, reject_hits, says_unknown, score_answer, score_locomo, token_f1,
)


def question(type_: str = "single", **expectations) -> Question:
    return Question(id="q", type=type_, question="?", **expectations)


@pytest.mark.parametrize("phrase, text, expected", [
    ("Lisboa", "Vives en LISBOA desde marzo.", True),
    ("Pimentón", "Tu gato se llama pimenton.", True),
    ("pimenton", "Se llama  PIMENTÓN", True),
    ("anacardos", "Eres alérgica a los anacardos", True),
    ("café con leche", "Un CAFE   con\nleche", True),
    ("3", "You have 13 cats", False),
    ("Ana", "She bought a banana", False),
    ("don't", "I don\u2019t", True),
    ("", "anything", False),
    ("成都", "你现在住在成都。", True),  # a script written without spaces: whole wherever it stands
    ("3", "是3月14日", True),
    ("3", "是13月", False),
    ("成都", "Chengdu", False),
])
def test_occurs_ignores_accents_case_and_spacing_but_needs_whole_words(phrase, text, expected):
    assert occurs(phrase, text) is expected


@pytest.mark.parametrize("answer", [
    "I don't know.", "I do not know what your blood type is.", "I\u2019m not sure.",
    "I have no information about that.",
    "You haven't told me your mother's name.", "You never mentioned a dog.", "No information available.",
    "I don't have that information.", "I can't recall you saying that.",
    "No sé.", "No lo sé, la verdad.", "No sé qué coche tienes.", "No tengo información sobre eso.",
    "No me has dicho cómo se llama tu madre.", "Nunca me lo has contado.", "No me dijiste nada de un perro.",
    "NO TENGO ESA INFORMACIÓN", "Ni idea.", "Desconozco ese dato.", "No estoy segura.",
    "No recuerdo que lo mencionaras.",
])
def test_says_unknown_in_both_languages(answer):
    assert says_unknown(answer)


@pytest.mark.parametrize("answer", [
    "Your cat is called Pimentón.", "No se mudó a Lisboa, se mudó a Oporto.", "Vives en Edimburgo.",
    "You know a lot about cellos.", "Noted!",
])
def test_says_unknown_is_false_for_real_answers(answer):
    assert not says_unknown(answer)


def test_expect_any_needs_one_of_its_phrases():
    q = question(expect_any=["Lisbon", "Lisboa"])
    assert score_answer(q, "Te mudaste a Lisboa.", "").correct
    assert score_answer(q, "You moved to Lisbon.", "").correct
    assert not score_answer(q, "You moved to Porto.", "").correct


def test_expect_all_needs_every_phrase():
    q = question("cross_session", expect_all=["Amparo", "Fiona"])
    assert score_answer(q, "Antes Amparo, ahora Fiona.", "").correct
    assert not score_answer(q, "Tu profesora es Fiona.", "").correct


def test_expect_any_and_expect_all_combine():
    q = question("cross_session", expect_all=["Pimentón"], expect_any=["ginger", "naranja"])
    assert score_answer(q, "Pimentón es naranja.", "").correct
    assert not score_answer(q, "Pimentón is black.", "").correct
    assert not score_answer(q, "Your cat is ginger.", "").correct


def test_reject_any_makes_an_answer_wrong_and_is_counted():
    q = question("update", expect_any=["Edinburgh", "Edimburgo"], reject_any=["Valencia", "Ruzafa"])
    stale = score_answer(q, "You live in Valencia (Ruzafa), moving to Edinburgh soon.", "")
    assert not stale.correct
    assert stale.reject_hits == 2
    fresh = score_answer(q, "You live in Edinburgh now.", "")
    assert fresh.correct and fresh.reject_hits == 0
    assert reject_hits("VALÈNCIA? no, valencia", ["Valencia"]) == 1


def test_abstention_is_correct_only_when_the_answer_declines():
    q = question("abstention", reject_any=["Itziar"])
    assert score_answer(q, "No me has dicho cómo se llama tu madre.", "").correct
    assert not score_answer(q, "Tu madre se llama Carmen.", "").correct
    # Declining while still naming a known trap value is wrong.
    assert not score_answer(q, "No estoy segura, ¿Itziar?", "").correct


def test_abstaining_on_an_answerable_question_is_wrong_but_recorded():
    q = question(expect_any=["Itziar"])
    score = score_answer(q, "I don't know your sister's name.", "")
    assert not score.correct and score.abstained


def test_evidence_recall_defaults_to_the_expected_phrases():
    q = question("cross_session", expect_any=["naranja", "ginger"], expect_all=["Pimentón"])
    assert evidence_recall(q, "2026-03-14 user: took the GINGER monster to the vet") == 1
    assert evidence_recall(q, "[memory] the cat is called Pimenton") == 1
    assert evidence_recall(q, "the cat weighs 6,4 kilos") == 0


def test_evidence_recall_uses_evidence_any_when_given_and_is_none_for_abstention():
    q = question("temporal", expect_any=["29 March"], evidence_any=["half marathon", "media maratón"])
    assert evidence_recall(q, "ran my first half marathon today") == 1
    assert evidence_recall(q, "29 March") == 0
    assert evidence_recall(question("abstention"), "anything at all") is None
    assert score_answer(question("abstention"), "No sé.", "prompt").evidence_recall is None


@pytest.mark.parametrize("prediction, reference, expected", [
    ("The Eiffel Tower", "eiffel tower", 1.0),
    ("Paris, France.", "paris france", 1.0),
    ("a cat and a dog", "dog cat", 1.0),
    ("7 May 2023", "7 May, 2023", 1.0),
    ("painting", "pottery", 0.0),
    ("", "anything", 0.0),
])
def test_token_f1_normalises_punctuation_articles_and_case(prediction, reference, expected):
    assert token_f1(prediction, reference) == pytest.approx(expected)


def test_token_f1_partial_overlap():
    # "went" and "hiking" are shared: 2 of the 3 predicted tokens, 2 of the 4 reference tokens.
    precision, recall = 2 / 3, 2 / 4
    assert token_f1("went hiking yesterday", "she went hiking twice") == pytest.approx(
        2 * precision * recall / (precision + recall)
    )


def test_locomo_f1_per_category():
    assert locomo_f1("painting, hiking", "hiking, painting", category=1) == pytest.approx(1.0)
    assert locomo_f1("hiking", "hiking, painting", category=1) == pytest.approx(0.5)
    assert locomo_f1("psychology", "psychology; counseling", category=3) == pytest.approx(1.0)
    assert locomo_f1("That was not mentioned in the conversation.", "", category=5) == 1.0
    assert locomo_f1("She realised self-care matters.", "", category=5) == 0.0


def test_score_locomo_recall_over_dialogue_ids():
    q = LocomoQuestion(id="c:q1", question="?", answer="7 May 2023", category=2, evidence=("D1:3", "D2:1"))
    score = score_locomo(q, "7 May, 2023.", prompt_dia_ids=["D1:3", "D5:5"])
    assert score.f1 == pytest.approx(1.0)
    assert score.evidence_recall == pytest.approx(0.5)
    adversarial = LocomoQuestion(id="c:q2", question="?", answer=None, category=5, evidence=("D2:3",))
    assert score_locomo(adversarial, "I don't know.", []).evidence_recall is None
