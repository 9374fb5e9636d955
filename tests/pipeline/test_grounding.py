"""Grounding checks on Spanish/English cases; the semantic check with the real embedder at the shipped threshold."""
from __future__ import annotations

import numpy as np
import pytest

from dreaming_agent.embed.offline import default_offline_embedder
from dreaming_agent.pipeline.grounding import lexical, person, relation, role, semantic
from dreaming_agent.pipeline.writer import WriterSettings
from dreaming_agent.text import split_sentences

THRESHOLD = WriterSettings().semantic_threshold


@pytest.mark.parametrize("fact, source, grounded", [
    ("The user moved to Lisbon", "Me mudé a Lisboa en marzo.", True),
    ("The user se mudó a Lisboa", "I moved to Lisbon in March.", True),
    ("The user moved to Berlin", "Me mudé a Lisboa en marzo.", False),
    ("The user lives in Oporto", "Vivo en Valencia, en el barrio de Ruzafa.", False),
    ("The user's sister Itziar lives in Bilbao", "Mi hermana Itziar vive en Bilbao.", True),
    ("The user's sister Lucía lives in Bilbao", "Mi hermana Itziar vive en Bilbao.", False),
])
def test_lexical_accepts_translated_names_and_rejects_invented_ones(fact, source, grounded):
    assert lexical(fact, source).ok is grounded


@pytest.mark.parametrize("fact, source, grounded", [
    ("The user has 3 cats", "Tengo tres gatos.", True),
    ("The user has two cats", "I have 2 cats.", True),
    ("The user has 4 cats", "Tengo tres gatos.", False),
    ("The user ran a half marathon in 2 hours and 4 minutes", "Corrí la media maratón en 2 horas y 4 minutos.", True),
    ("The user's cat weighs 6.4 kilos", "El veterinario dice que está gordito: 6,4 kilos.", True),
    ("The user's cat weighs 6.8 kilos", "El veterinario dice que está gordito: 6,4 kilos.", False),
    ("The user married in 2019", "Me casé en 2018.", False),
])
def test_lexical_numbers_must_match_digits_or_words(fact, source, grounded):
    verdict = lexical(fact, source)
    assert verdict.ok is grounded
    if not grounded:
        assert verdict.reason.startswith("not in the message:")


@pytest.fixture(scope="module")
def embedder():
    return default_offline_embedder()


def similarity_verdict(embedder, fact: str, message: str):
    """The semantic check exactly as the Writer runs it: the fact against each sentence of its message."""
    sentences = split_sentences(message)
    vectors = embedder.embed_batch([fact, *sentences], role="passage")
    return semantic(vectors[0], vectors[1:], THRESHOLD)


@pytest.mark.parametrize("fact, message", [
    ("The user is a chef", "I had paella for lunch."),
    ("The user is a chef", "Comí paella al mediodía."),
    ("The user works as an accountant", "Soy alérgica a los anacardos. Nothing else, just cashews."),
    ("The user plays the guitar", "Also I started cello lessons last week, con una profesora que se llama Amparo."),
    ("The user ...", "I had paella for lunch."),  # an answer-shape placeholder, copied by a small model
])
def test_semantic_rejects_common_words_the_message_does_not_support(embedder, fact, message):
    # Lexically these pass: no name or number to check. Only the meaning gives them away.
    assert lexical(fact, message).ok
    verdict = similarity_verdict(embedder, fact, message)
    assert not verdict.ok and verdict.similarity < THRESHOLD


@pytest.mark.parametrize("fact, message", [
    ("The user had paella for lunch", "I had paella for lunch."),
    ("The user ate paella at lunchtime", "I had paella for lunch."),
    ("The user had paella for lunch", "Comí paella al mediodía."),
    ("The user is allergic to cashews", "Oh, y algo importante por si algún día me sugieres recetas: soy alérgica a los anacardos."),
    ("The user lives in Valencia", "Un poco de contexto: vivo en Valencia, en el barrio de Ruzafa, y trabajo como farmacéutica en el hospital."),
    ("The user is learning the cello", "Also I started cello lessons last week, con una profesora que se llama Amparo."),
])
def test_semantic_accepts_faithful_paraphrases_and_translations(embedder, fact, message):
    verdict = similarity_verdict(embedder, fact, message)
    assert verdict.ok, verdict.reason


def test_semantic_without_source_sentences_rejects():
    verdict = semantic(np.ones(4, dtype=np.float32) / 2, np.zeros((0, 4), dtype=np.float32), THRESHOLD)
    assert not verdict.ok and verdict.similarity == 0.0


@pytest.mark.parametrize("fact, message", [
    ("The user came back for the weekend", "Dunya came back for the weekend y le hice arroz negro."),
    ("The user couldn't come this time", "Itziar me mandó un audio gritando de emoción, she couldn't come this time."),
    ("The user vive en Bilbao desde siempre", "Mi hermana lleva años en Bilbao; ella vive en Bilbao desde siempre."),
])
def test_role_rejects_what_the_message_says_of_someone_else(fact, message):
    verdict = role(fact, message)
    assert not verdict.ok and "not of the user" in verdict.reason


@pytest.mark.parametrize("fact, message", [
    ("The user got the job", "And the big news: I got the job!!"),
    ("The user took the ginger monster to the vet", "Buenos días! Took the ginger monster to the vet this morning."),
    ("The user I'm tired of the hospital shifts.", "Honestly I'm tired of the hospital shifts."),
    ("The user en el barrio de Ruzafa", "Vivo en Valencia, en el barrio de Ruzafa."),  # "Valencia" ends another clause
    ("The user's sister couldn't come this time", "Itziar couldn't come this time."),  # not said of the user
])
def test_role_accepts_what_the_person_says_of_themselves(fact, message):
    assert role(fact, message).ok


@pytest.mark.parametrize("fact, message", [
    ("The user works at a fintech startup now", "Marco did it: he moved to Tokyo and works at a fintech startup. Wow."),
    ("The user is vegan", "Her trip is confirmed. She's vegan, so I'm making a list of places to eat."),
    ("The user lives in Leeds", "I moved to Bristol, and she stayed in Leeds."),
    ("The user's department is deputy head", "Yiting called: she's just been made deputy head of her department."),
    ("The user trabaja en el hospital", "Mi hermana es enfermera, ella trabaja en el hospital."),
])
def test_person_rejects_a_fact_drawn_only_from_clauses_about_someone_else(fact, message):
    verdict = person(fact, message)
    assert not verdict.ok and "someone else" in verdict.reason


@pytest.mark.parametrize("fact, message", [
    ("The user moved to Bristol", "Moved to Bristol last week!"),  # names no one: the person's own, unsaid
    ("The user took the dog to the vet", "Took the dog to the vet; she was brave."),  # one clause names no one
    ("The user lives in Bristol", "He stayed in Leeds and I moved to Bristol."),  # the clause names the person too
    ("The user's boyfriend Kenji runs the kitchen", "My boyfriend Kenji is a chef, he runs the kitchen."),
    ("The user's cat is grey", "My cat Mochi knocked a mug off. She's a grey tabby."),  # "she" is the cat
    ("The user's pup is called Nube", "Update on the pup: he's called Nube now."),  # "he" is the pup
    ("The user has a cat called Goma", "Sie hat eine Katze namens Goma."),  # a language no module knows
    ("The user has a cat called Goma", "Tengo un gato llamado Goma y ella un perro."),  # "tengo" says "I"
])
def test_person_accepts_what_the_person_may_have_said_of_themselves(fact, message):
    assert person(fact, message).ok


@pytest.mark.parametrize("fact", ["The user lives in [city_name]", "The user <fact 1>", "The user has a {pet}"])
def test_copied_template_slots_are_not_facts(fact):
    verdict = lexical(fact, "Me mudé a Lisboa en marzo y tengo un gato.")
    assert not verdict.ok and "placeholder" in verdict.reason


@pytest.mark.parametrize("fact, source, grounded", [
    ("The user's grandmother Carmen lives in Sevilla", "Mi hermana Carmen vive en Sevilla.", False),  # seen, 0.5B model
    ("The user's sister Carmen lives in Sevilla", "Mi hermana Carmen vive en Sevilla.", True),
    ("The user's boyfriend Jordi is a music teacher", "Mi novio Jordi es profesor de música.", True),
    ("The user has a cat", "Tengo una gata.", True),
    ("The user has a dog", "Tengo una gata.", False),
    ("The user's mother turns 60", "My mum turns 60.", True),
    ("The user works as a nurse", "I work as a nurse.", True),  # no relation named: nothing to check
])
def test_relation_words_must_be_in_the_message_in_either_language(fact, source, grounded):
    assert relation(fact, source).ok is grounded
