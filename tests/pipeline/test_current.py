"""A newer value of a single-valued attribute (home, employer, occupation) replaces the older one, by its typed key
(subject and attribute) as the Writer stored it; what is someone else's, or holds several values, is left alone."""
import re
from dataclasses import replace

import pytest

from dreaming_agent.pipeline import controller
from dreaming_agent.pipeline.gather_config import GatherConfig
from dreaming_agent.store.records import Typed
from dreaming_agent.testing import ScriptedLLM

from .conftest import FLOW_CONFIG, facts_from


def typed(attribute, value, subject=None):
    return {"subject": subject or {"kind": "user", "relation": "", "name": ""}, "attribute": attribute, "value": value,
            "when": {"kind": "now", "n": None, "weekday": None, "date": None}}


WALK = {  # a new user's walk: the Writer's typed facts for each message (a scripted Writer)
    "Vitoria": [typed("home", "Vitoria"), typed("employer", "the hospital of Txagorritxu")],
    "Donostia": [typed("home", "Donostia", {"kind": "person", "relation": "sister", "name": "Ane"})],
    "Bilbao": [typed("home", "Bilbao"), typed("employer", "Basurto")],
}


def _walk(make_agent, answer: str):
    llm = ScriptedLLM(defaults={"ExtractedFacts": facts_from(WALK), "text": answer})
    agent = make_agent(llm, FLOW_CONFIG)
    agent.turn("Vivo en Vitoria y trabajo en el hospital de Txagorritxu.", now="2026-03-01T10:00:00")
    agent.turn("Mi hermana Ane vive en Donostia.", now="2026-03-01T10:01:00")
    agent.turn("Me he mudado a Bilbao este mes, por un trabajo nuevo en Basurto.", now="2026-03-01T10:02:00")
    agent.learning.wait()
    agent.new_conversation()  # asked later: the three messages are memory, not the recent turns
    return agent


def test_a_move_replaces_the_old_home_and_a_question_about_now_reads_only_the_new_one(make_agent):
    agent = _walk(make_agent, "You live in Bilbao.")
    now = agent.ask("Where do I live now?", now="2026-03-02")
    assert "Bilbao" in now.prompt_text and "Vitoria" not in now.prompt_text
    assert "left out 1 older value" in now.trace.step("Selector").decision
    assert "Donostia. (replaced later)" not in now.prompt_text  # a sister's home is hers, not the person's
    # Asked in the present tense, without "now": the current value too (in the app, the 0.5B model read the old line
    # marked "(replaced later)" and answered "Where do I work?" with the old hospital)
    work = agent.ask("Where do I work?", now="2026-03-02")
    assert "Txagorritxu" not in work.prompt_text and "Basurto" in work.prompt_text
    assert "left out 1 older value" in work.trace.step("Selector").decision
    for past in ("Where did I work before the move?", "Which cities have I lived in?", "¿Dónde viví antes?"):
        before = agent.ask(past, now="2026-03-02")  # the past, the history: both, the old one marked
        assert "Txagorritxu. (replaced later)" in before.prompt_text and "Basurto" in before.prompt_text, past
    rag = agent.ask("Where do I live now?", mode="rag", now="2026-03-02")  # naive RAG stays naive
    assert "Vitoria" in rag.prompt_text and "replaced" not in rag.prompt_text


def test_a_question_about_the_person_reads_no_line_about_a_relative_and_one_about_them_reads_it(make_agent):
    agent = _walk(make_agent, "You live in Bilbao.")
    agent.ingest("My brother Gonzalo lives in Montevideo, we talk on Sundays.", now="2026-03-01T10:03:00", learn=False)
    now = agent.ask("Where do I live now?", now="2026-03-02")
    assert "Bilbao" in now.prompt_text and "Donostia" not in now.prompt_text  # the sister's town is hers
    assert "left out 1 line about a relative or pet" in now.trace.step("Selector").decision
    assert "Montevideo" in now.prompt_text  # "we talk": the person is in it
    assert "Donostia" in agent.ask("Where does my sister live?", now="2026-03-02").prompt_text
    assert "Donostia" in agent.ask("Where do I live now?", mode="rag", now="2026-03-02").prompt_text  # RAG: naive


@pytest.mark.parametrize("sentence, about_them", [
    ("Mi hermana Ane vive en Donostia.", True), ("Caroline: My mom is a nurse.", True),
    ("My wife Rosario works at HEB.", True), ("My sister and I went to Paris.", False),
    ("Mi hermana vive conmigo.", False), ("My friend Memo offered me the job.", False),
    ("Mi madre es irlandesa, por eso en casa siempre hemos hablado inglés.", False),
    ("My dog Pimentón weighs 6 kg.", True), ("My cat and I moved to Leith.", False), ("I live in Bilbao.", False),
])
def test_a_sentence_about_a_relative_or_pet_and_not_the_person(sentence, about_them):
    assert controller.about_a_relative(sentence) is about_them


def test_the_newer_value_is_shown_as_said_when_its_message_was_not_found(make_agent):
    narrow = replace(FLOW_CONFIG, gather=GatherConfig(top_k=1, rag_top_k=1, memories_shown=0, min_keep=1))
    agent = _walk(lambda llm, _: make_agent(llm, narrow), "You work in Basurto.")
    work = agent.ask("Where did I work? At the hospital of Txagorritxu?", now="2026-03-02")
    assert "Txagorritxu. (replaced later)" in work.prompt_text
    assert "- 2026-03-01: Me he mudado a Bilbao este mes, por un trabajo nuevo en Basurto." in work.prompt_text
    assert "shown 1 newer value memory knows" in work.trace.step("Selector").decision  # as said, not as an entry
    assert "(said:" not in work.prompt_text


def test_deleting_the_message_that_told_the_move_makes_the_old_home_current_again(make_agent, store):
    agent = _walk(make_agent, "You live in Vitoria.")
    move = next(m for m in store.messages(role="user") if "Bilbao" in m.text)
    store.delete_message(move.id)  # its entries go with it: nothing replaces the old home any more
    again = agent.ask("Where do I live now?", now="2026-03-02")
    assert "Vitoria" in again.prompt_text and "(replaced later)" not in again.prompt_text
    assert "older value" not in again.trace.step("Selector").decision  # nothing replaced it


def test_in_a_conversation_between_two_people_one_speakers_move_replaces_only_their_own_home(make_agent, store):
    llm = ScriptedLLM(defaults={"ExtractedFacts": facts_from({
        "Paris": [typed("home", "Paris")], "Lyon": [typed("home", "Lyon")], "Boston": [typed("home", "Boston")]})})
    agent = make_agent(llm, FLOW_CONFIG)
    for speaker, text, day in (("Melanie", "I live in Paris.", "2026-03-01"), ("Caroline", "I live in Lyon.", "2026-03-02"),
                               ("Caroline", "I moved to Boston!", "2026-04-01")):
        agent.ingest(f"{speaker}: {text}", now=f"{day}T10:00:00", speaker=speaker)
    agent.learning.wait()
    homes = {m.value: m for m in store.memories(status=None, attribute="home")}
    assert {v: m.status for v, m in homes.items()} == {"Paris": "active", "Lyon": "superseded", "Boston": "active"}
    assert homes["Lyon"].superseded_by == homes["Boston"].id and homes["Paris"].subject == "melanie/user"


def test_the_memory_panel_shows_the_old_home_replaced_by_the_move(make_agent):
    from dreaming_agent.ui import handlers

    agent = _walk(make_agent, "You live in Bilbao.")
    ids = {m.text: m.id for m in agent.memory.mid_term()}
    mid_term = handlers.panels(agent).mid_term
    home, move = ids["The user lives in Vitoria"], ids["The user lives in Bilbao"]
    assert f'#{home}</span>The user lives in Vitoria' in mid_term
    assert re.search(rf"#{home}</span>The user lives in Vitoria.*?replaced by #{move}</span>", mid_term)
    assert f"replaced by #{ids['The user works at Basurto']}" in mid_term  # the old hospital's entry
    assert mid_term.count("replaced by") == 2  # the sister's home is hers


def test_a_durable_fact_whose_value_changed_is_left_out_and_the_newer_value_shown(make_agent, store):
    agent = _walk(make_agent, "You work in Basurto.")
    # A durable entry from before the walk (no message behind it, so never shown verbatim instead).
    text = "The user works at the hospital of Cruces"
    vector = agent.embedder.embed(text, role="passage")
    fact = store.add_memory(text, tier="ltm", origin="manual", embedding=vector, created_at="2026-02-01",
                            typed=Typed("user", "employer", "the hospital of Cruces", "2026-02-01"))
    agent.index.add("memories", [fact], vector[None, :])
    assert store.memory(fact).superseded_by is not None  # said before the walk's job: superseded at once
    kept = agent.ask("Do I still work at the hospital of Cruces?", now="2026-03-02")
    assert text not in kept.prompt_text
    assert "Me he mudado a Bilbao este mes, por un trabajo nuevo en Basurto." in kept.prompt_text
    for message in store.messages(role="user"):  # nothing said any more: the durable fact is all memory holds
        store.delete_message(message.id)
    assert text in agent.ask("Do I still work at the hospital of Cruces?", now="2026-03-02").prompt_text


def test_the_memory_panel_opens_with_the_profile_after_a_move(make_agent):
    from dreaming_agent.ui import handlers

    agent = _walk(make_agent, "You live in Bilbao.")
    facts = handlers.panels(agent).facts
    assert "Lives in Bilbao — since 1 Mar" in facts and "before: Vitoria" in facts
    assert "Your sister Ane" in facts and facts.index("<b>You</b>") < facts.index("Your sister Ane")
