"""A newer value of something that holds one value at a time (home, workplace, occupation) replaces the older one,
read in code from the Writer's entries; what is not the person's own, or holds several values, is left alone."""
import re
from dataclasses import replace

import pytest

from dreaming_agent.pipeline import controller
from dreaming_agent.pipeline.gather_config import GatherConfig
from dreaming_agent.store import attributes
from dreaming_agent.store.records import Memory
from dreaming_agent.testing import ScriptedLLM

from .conftest import FLOW_CONFIG, facts_from


def _entry(text: str) -> Memory:
    return Memory(1, "mtm", text, "writer", "active", None, "2026-03-01", "2026-03-01", None, 0)


@pytest.mark.parametrize("text, expected", [
    ("The user lives in Vitoria", {"home": "Vitoria"}),
    ("The user has moved to Bilbao this month", {"home": "Bilbao"}),
    ("The user recently moved to a new apartment in Getxo", {"home": "Getxo"}),
    ("The user has lived in Madrid since 2019", {"home": "Madrid"}),
    ("The user works as a nurse at the hospital of Txagorritxu",
     {"workplace": "the hospital of Txagorritxu", "occupation": "a nurse"}),
    ("The user has a new job in Basurto", {"workplace": "Basurto"}),
    ("The user moved to Bilbao for a new job in Basurto", {"home": "Bilbao", "workplace": "Basurto"}),
    ("User lives in Vitoria and works at Txagorritxu", {"home": "Vitoria", "workplace": "Txagorritxu"}),
    ("The user's sister lives in Donostia", {}),  # someone else's home
    ("The user's boyfriend works at Google", {}),
    ("The user visited her sister, who lives in Donostia", {}),
    ("The user and her husband moved to Paris", {}),  # not the user's clause alone: left alone
    ("The user has a cat named Miso", {}),  # a person may have several: never single-valued
    ("The user's house is in Beacon Hill", {"home": "Beacon Hill"}),
    ("The user's home is now Bilbao", {"home": "Bilbao"}),
    ("The user's house is rented to Beto", {}),  # what became of the house, not where the person lives
    ("The user started a new job as a teacher", {"occupation": "a teacher"}),  # a job as X: the occupation X
    ("The user has a position as head chef", {"occupation": "head chef"}),
    ("The user's sister got a job as a nurse", {}),  # someone else's job
    ("The user asked about a job as a pilot", {}),  # asked about one, not took it
    ("The user moved in on Sunday", {}),  # a day is a time, not a place
    ("El usuario se mudó el Domingo", {}),
    ("The user moved to Leeds in May", {"home": "Leeds"}),
])
def test_the_single_valued_things_an_entry_states_about_the_person(text, expected):
    assert {v.attribute: v.value for v in attributes.stated(_entry(text))} == expected


@pytest.mark.parametrize("value, before, new", [
    ("The user traded the Fiesta for a Toyota Yaris", ["The user drives an old Ford Fiesta"], "Toyota Yaris"),
    ("The user's dog is Lokum from now on", ["The user's dog is called Oliver"], "Lokum"),
    ("The user started at Kestrel Health on Monday", ["The user works at Halden"], "Kestrel Health"),  # a day: no name
    ("The user is vegan", ["The user is vegetarian"], None),  # names nothing: shown whole
    ("The user's Fiesta got new tyres", ["The user drives an old Ford Fiesta"], None),
    ("The user's Toyota Yaris got a scratch at Tesco", ["The user drives a Fiesta"], "Toyota Yaris"),  # the first
])
def test_a_whole_entrys_value_is_the_names_it_says_that_the_values_before_did_not(value, before, new):
    assert attributes.named(value, before) == new


@pytest.mark.parametrize("a, b, same", [
    ("Bilbao", "Bilbao", True), ("Bilbao", "Vitoria", False), ("the hospital of Basurto", "Basurto", True),
    ("a bakery", "the bakery", True), ("a bakery", "a school", False),
])
def test_one_value_said_two_ways_is_the_same_value(a, b, same):
    assert attributes.same(a, b) is same


WALK = {  # the new-user walk of round 7: the Writer's entries for each message (a scripted Writer)
    "Vitoria": ["The user lives in Vitoria", "The user works at the hospital of Txagorritxu"],
    "Donostia": ["The user's sister Ane lives in Donostia"],
    "Bilbao": ["The user has moved to Bilbao", "The user has a new job in Basurto"],
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
    assert len(now.trace.step("Selector").parsed["older"]) == 1
    assert "Donostia. (replaced later)" not in now.prompt_text  # a sister's home is hers, not the person's
    # Asked in the present tense, without "now": the current value too (in the app, the 0.5B model read the old line
    # marked "(replaced later)" and answered "Where do I work?" with the old hospital)
    work = agent.ask("Where do I work?", now="2026-03-02")
    assert "Txagorritxu" not in work.prompt_text and "Basurto" in work.prompt_text
    assert len(work.trace.step("Selector").parsed["older"]) == 1
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
    assert len(now.trace.step("Selector").parsed["relatives"]) == 1
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
    assert len(work.trace.step("Selector").parsed["newer"]) == 1  # as said, not as an entry
    assert "(said:" not in work.prompt_text


def test_deleting_the_message_that_told_the_move_makes_the_old_home_current_again(make_agent, store):
    agent = _walk(make_agent, "You live in Vitoria.")
    move = next(m for m in store.messages(role="user") if "Bilbao" in m.text)
    store.delete_message(move.id)  # its entries go with it: nothing replaces the old home any more
    again = agent.ask("Where do I live now?", now="2026-03-02")
    assert "Vitoria" in again.prompt_text and "(replaced later)" not in again.prompt_text
    assert again.trace.step("Selector").parsed["older"] == []  # nothing replaced it


def test_in_a_conversation_between_two_people_one_speakers_move_replaces_only_their_own_home(store):
    said = {}
    for speaker, text, day, entry in (("Melanie", "I live in Paris.", "2026-03-01", "The user lives in Paris"),
                                      ("Caroline", "I live in Lyon.", "2026-03-02", "The user lives in Lyon"),
                                      ("Caroline", "I moved to Boston!", "2026-04-01", "The user moved to Boston")):
        message = store.add_message("s", "user", f"{speaker}: {text}", day, speaker=speaker)
        said[entry] = store.add_memory(entry, source_message_ids=[message.id], created_at=day)
    found = attributes.replaced(store, store.memories())
    assert {m: e.id for m, e in found.items()} == {said["The user lives in Lyon"]: said["The user moved to Boston"]}


@pytest.mark.parametrize("then, replaced", [
    ("We found a house to rent in San Antonio, in Beacon Hill.", False),  # the house is in the town moved to
    ("Encontramos casa en San Antonio, en Beacon Hill.", False),
    ("We moved from San Antonio to Beacon Hill.", True),  # the town is the one left
    ("Nos mudamos de San Antonio a Beacon Hill.", True),
    ("We found a house in Beacon Hill.", True),
])
def test_a_place_named_within_the_town_moved_to_does_not_replace_it(store, then, replaced):
    ids = [store.add_memory(entry, source_message_ids=[store.add_message("s", "user", text, day).id], created_at=day)
           for text, day, entry in (("We are moving to San Antonio.", "2026-02-08", "The user is moving to San Antonio"),
                                    (then, "2026-02-22", "The user's house is in Beacon Hill"))]
    assert (ids[0] in attributes.replaced(store, store.memories())) is replaced


def test_the_memory_panel_shows_the_old_home_replaced_by_the_move(make_agent):
    from dreaming_agent.ui import handlers

    agent = _walk(make_agent, "You live in Bilbao.")
    ids = {m.text: m.id for m in agent.memory.mid_term()}
    mid_term = handlers.panels(agent).mid_term
    home, move = ids["The user lives in Vitoria"], ids["The user has moved to Bilbao"]
    assert f'#{home}</span>The user lives in Vitoria' in mid_term
    assert re.search(rf"#{home}</span>The user lives in Vitoria.*?replaced by #{move}</span>", mid_term)
    assert f"replaced by #{ids['The user has a new job in Basurto']}" in mid_term  # the old hospital's entry
    assert mid_term.count("replaced by") == 2  # the sister's home is hers
    profile = handlers.panels(agent).facts  # "memory about you" opens with what holds one value at a time
    home_row = re.search(r'<li class="da-profile-row" data-attribute="home">(.*?)</li>', profile)[1]
    assert re.search(rf"Lives in</b> Bilbao <span class=\"da-id\">#{move}</span> — since 2026-03-01; before: "
                     rf'<span class="da-replaced">Vitoria <span class="da-id">#{home}</span>', home_row), home_row
    assert 'data-attribute="workplace"' in profile and "Donostia" not in profile


def test_a_durable_fact_whose_value_changed_is_left_out_and_the_newer_value_shown(make_agent, store):
    agent = _walk(make_agent, "You work in Basurto.")
    # Typed into "memory about you" before the walk (no message behind it, so never shown verbatim instead).
    typed = "The user works at the hospital of Cruces"
    vector = agent.embedder.embed(typed, role="passage")
    fact = store.add_memory(typed, tier="ltm", origin="manual", embedding=vector, created_at="2026-02-01")
    agent.index.add("memories", [fact], vector[None, :])
    kept = agent.ask("Do I still work at the hospital of Cruces?", now="2026-03-02")
    assert typed not in kept.prompt_text
    assert "Me he mudado a Bilbao este mes, por un trabajo nuevo en Basurto." in kept.prompt_text
    for message in store.messages(role="user"):  # nothing said any more: the typed fact is all memory holds
        store.delete_message(message.id)
    assert typed in agent.ask("Do I still work at the hospital of Cruces?", now="2026-03-02").prompt_text


def _told(store, said: list[tuple[str, str, list[str]]]) -> dict[str, int]:
    """Each (message, day, entries drawn from it) stored as the app's person said it; the entries' ids by text."""
    ids = {}
    for text, day, entries in said:
        message = store.add_message("s", "user", text, day)
        for entry in entries:
            ids[entry] = store.add_memory(entry, source_message_ids=[message.id], created_at=day)
    return ids


MOVED = [("Hi! I'm Dana, I live in Leeds and I work as a pharmacist.", "2026-11-01T09:00:00",
          ["The user is Dana", "The user lives in Leeds", "The user works as a pharmacist"]),
         ("Big news: I moved to Bristol last week and started a new job as a teacher.", "2026-11-27T09:00:00",
          ["The user has moved to Bristol", "The user works as a teacher"])]


def test_the_profile_holds_each_value_now_since_the_day_it_was_said_and_what_it_replaced(store):
    ids = _told(store, MOVED)
    rows = {row.attribute: row for row in attributes.profile(store)}
    assert set(rows) == {"home", "occupation"}
    home, job = rows["home"], rows["occupation"]
    assert [(h.value, h.since, h.memory_id) for h in home.now] == [("Bristol", "2026-11-27",
                                                                    ids["The user has moved to Bristol"])]
    assert [(h.value, h.since, h.memory_id) for h in home.before] == [("Leeds", "2026-11-01",
                                                                       ids["The user lives in Leeds"])]
    assert [h.value for h in job.now] == ["a teacher"] and [h.value for h in job.before] == ["a pharmacist"]


def test_a_value_said_again_after_another_is_current_since_its_return_and_said_once_before(store):
    ids = _told(store, [*MOVED, ("I'm back in Leeds, it was too expensive there.", "2026-12-03T09:00:00",
                                 ["The user lives in Leeds again"])])
    home = next(row for row in attributes.profile(store) if row.attribute == "home")
    assert [(h.value, h.since, h.memory_id) for h in home.now] == [("Leeds", "2026-12-03",
                                                                    ids["The user lives in Leeds again"])]
    assert [h.value for h in home.before] == ["Bristol"]  # Leeds is the current value, not a past one too


def test_the_profile_is_the_persons_own_and_follows_deletes(store):
    ids = _told(store, MOVED)
    sister = store.add_message("s", "user", "My sister lives in Paris.", "2026-11-28T09:00:00")
    store.add_memory("The user's sister lives in Paris", source_message_ids=[sister.id], created_at="2026-11-28")
    speaker = store.add_message("s", "user", "Melanie: I live in Lyon.", "2026-11-29T09:00:00", speaker="Melanie")
    store.add_memory("The user lives in Lyon", source_message_ids=[speaker.id], created_at="2026-11-29")
    home = next(row for row in attributes.profile(store) if row.attribute == "home")
    assert [h.value for h in home.now] == ["Bristol"]  # neither the sister's town nor a speaker's of a recording
    store.delete_message(store.memory(ids["The user has moved to Bristol"]).source_message_ids[0])
    home = next(row for row in attributes.profile(store) if row.attribute == "home")
    assert [h.value for h in home.now] == ["Leeds"] and home.before == ()
