"""Typed facts: the Writer's decoded output, dates resolved in code, supersession as a key, secrets never kept."""
from __future__ import annotations

import json

import pytest

from dreaming_agent.pipeline.fact_schema import ExtractedFacts, When, decoding_schema, resolve
from dreaming_agent.pipeline.secrets import secret_like
from dreaming_agent.pipeline.writer import WriterSettings, notice, write
from dreaming_agent.prompts import PromptLibrary
from dreaming_agent.store.vocabulary import ATTRIBUTES, NEVER_STORED, single_valued
from dreaming_agent.testing import ScriptedLLM

SETTINGS = WriterSettings(semantic_threshold=-1.0)  # the hashing embedder has no semantics; grounding has its tests
USER = {"kind": "user", "relation": "", "name": ""}
NOW = {"kind": "now", "n": None, "weekday": None, "date": None}


def fact(attribute, value, subject=USER, when=NOW):
    return {"subject": subject, "attribute": attribute, "value": value, "when": when}


def writer_says(*facts):
    return ScriptedLLM({"ExtractedFacts": [json.dumps({"facts": list(facts)})]})


@pytest.fixture
def learn(store, index, embedder):
    """Store a message as the person said it on `day`, then run the Writer with the scripted facts."""
    def run(text, day, *facts, llm=None):
        message = store.add_message("s1", "user", text, f"{day}T10:00:00")
        sentences = store.sentences(message_ids=[message.id])
        index.add("sentences", [s.id for s in sentences], embedder.embed_batch([s.text for s in sentences]))
        return write(store, index, embedder, llm or writer_says(*facts), PromptLibrary.bundled(), message,
                     settings=SETTINGS)
    return run


# -- when: code turns the model's relative description into a date ---------------------------------------
@pytest.mark.parametrize("when, expected", [
    ({"kind": "now"}, "2026-11-25"),
    ({"kind": "days_ago", "n": 1}, "2026-11-24"),
    ({"kind": "days_ago"}, "2026-11-24"),  # "a day ago" with no count
    ({"kind": "weeks_ago", "n": 1}, "2026-11-18"),
    ({"kind": "months_ago", "n": 1}, "2026-10-25"),
    ({"kind": "years_ago", "n": 2}, "2024-11-25"),
    ({"kind": "in_days", "n": 3}, "2026-11-28"),
    ({"kind": "last_weekday", "weekday": "sunday"}, "2026-11-22"),  # the message is a Wednesday
    ({"kind": "last_weekday", "weekday": "wednesday"}, "2026-11-18"),  # never the day itself
    ({"kind": "next_weekday", "weekday": "friday"}, "2026-11-27"),
    ({"kind": "date", "date": "2026-02-03"}, "2026-02-03"),
    ({"kind": "date", "date": "2026-02-30"}, None),
    ({"kind": "unknown"}, None),
    ({"kind": "last_weekday"}, None),  # no weekday said
])
def test_when_resolves_to_a_date_from_the_messages_day(when, expected):
    assert resolve(When(**when), "2026-11-25T18:00:00") == expected


def test_a_month_back_from_the_31st_is_the_months_last_day():
    assert resolve(When(kind="months_ago", n=1), "2026-03-31") == "2026-02-28"


def test_the_decoding_schema_makes_the_model_choose_whose_and_when():
    defs = decoding_schema()["$defs"]
    assert defs["StatedFact"]["required"] == ["subject", "attribute", "value", "when"]
    assert set(defs["StatedFact"]["properties"]["attribute"]["enum"]) == set(ATTRIBUTES)
    assert defs["Subject"]["properties"]["kind"]["enum"] == ["user", "person", "pet", "thing"]


def test_every_attribute_is_declared_once_with_its_cardinality():
    assert {a for a in ATTRIBUTES if single_valued(a)} == {
        "name", "nickname", "home", "employer", "occupation", "partner", "vehicle", "diet", "birthday", "age"}
    assert NEVER_STORED <= set(ATTRIBUTES)


def test_a_plain_sentence_is_an_untyped_fact_of_the_person():
    parsed = ExtractedFacts.model_validate_json('{"facts": ["The user likes jazz"]}')
    assert (parsed.facts[0].attribute, parsed.facts[0].value, parsed.facts[0].subject.kind) == (
        "other", "The user likes jazz", "user")


# -- the Writer stores typed facts -------------------------------------------------------------------------
def test_a_move_supersedes_the_old_home_and_the_panel_can_say_since_when(store, learn):
    learn("Hi! I'm Dana, I live in Leeds and I work as a pharmacist.", "2026-11-20",
          fact("name", "Dana"), fact("home", "Leeds"), fact("occupation", "pharmacist"))
    outcome = learn("Big news: I moved to Bristol last week and started a new job as a teacher.", "2026-11-25",
                    fact("home", "Bristol", when={"kind": "weeks_ago", "n": 1, "weekday": None, "date": None}),
                    fact("occupation", "teacher"))
    current = {(m.subject, m.attribute): m for m in store.memories()}
    assert {k: m.value for k, m in current.items()} == {
        ("user", "name"): "Dana", ("user", "home"): "Bristol", ("user", "occupation"): "teacher"}
    assert current[("user", "home")].valid_from == "2026-11-18"
    leeds = store.memories(status="superseded", attribute="home")[0]
    assert (leeds.value, leeds.superseded_by, leeds.superseded_at, leeds.replaced) == (
        "Leeds", current[("user", "home")].id, "2026-11-18", True)
    assert len(outcome.superseded) == 2 and outcome.step.parsed["superseded"] == outcome.superseded
    home = next(r for r in store.facts.profile() if r.attribute == "home")
    assert (home.value, home.since, [p.value for p in home.before]) == ("Bristol", "2026-11-18", ["Leeds"])


def test_a_relatives_home_is_their_own_key(store, learn):
    learn("I live in Leeds.", "2026-11-20", fact("home", "Leeds"))
    learn("My sister Ruth lives in Paris.", "2026-11-21",
          fact("home", "Paris", subject={"kind": "person", "relation": "sister", "name": "Ruth"}))
    assert sorted((m.subject, m.value) for m in store.memories()) == [("person:sister:ruth", "Paris"), ("user", "Leeds")]
    assert [m.text for m in store.memories()] == ["The user lives in Leeds", "The user's sister Ruth lives in Paris"]


def test_a_renamed_pet_is_an_update_of_that_pet(store, learn):
    dog = {"kind": "pet", "relation": "dog", "name": "Pepper"}
    learn("I have a dog called Pepper.", "2026-11-20", fact("pet", "dog Pepper"), fact("name", "Pepper", dog))
    learn("We renamed Pepper to Max.", "2026-11-22", fact("name", "Max", dog))
    assert [(m.subject, m.attribute, m.value) for m in store.memories()] == [
        ("user", "pet", "dog Pepper"), ("pet:dog:pepper", "name", "Max")]


def test_many_valued_attributes_collect_values(store, learn):
    learn("I love climbing and chess.", "2026-11-20", fact("hobby", "climbing"), fact("hobby", "chess"))
    learn("I took up pottery.", "2026-11-21", fact("hobby", "pottery"))
    assert [m.value for m in store.memories(attribute="hobby")] == ["climbing", "chess", "pottery"]


def test_an_older_value_said_later_does_not_replace_the_current_one(store, learn):
    learn("I live in Bristol.", "2026-11-25", fact("home", "Bristol"))
    learn("Back in 2019 I lived in York.", "2026-11-26",
          fact("home", "York", when={"kind": "date", "n": None, "weekday": None, "date": "2019-06-01"}))
    assert [m.value for m in store.memories(attribute="home")] == ["Bristol"]
    york = store.memories(status="superseded", attribute="home")[0]
    assert (york.value, york.valid_from, york.replaced) == ("York", "2019-06-01", True)


def test_repeats_are_folded_within_a_message_and_across_messages(store, learn):
    first = learn("I live in Leeds, yes, Leeds.", "2026-11-20", fact("home", "Leeds"), fact("home", "leeds"))
    again = learn("Still in Leeds!", "2026-11-21", fact("home", "Leeds"))
    assert len(first.stored) == 1 and first.duplicates == []
    assert again.stored == [] and [i for _, i in again.duplicates] == [first.stored[0][0]]


def test_undo_makes_the_older_value_current_again(store, learn):
    learn("I live in Leeds.", "2026-11-20", fact("home", "Leeds"))
    learn("I moved to Bristol.", "2026-11-25", fact("home", "Bristol"))
    leeds = store.memories(status="superseded")[0]
    bristol = store.memories(attribute="home")[0]
    assert store.facts.make_current(leeds.id, "2026-11-26T09:00:00") == [bristol.id]
    assert [m.value for m in store.memories(attribute="home")] == ["Leeds"]
    assert store.memory(bristol.id).superseded_by == leeds.id


def test_deleting_the_new_value_makes_the_old_one_current_not_gone(store, learn):
    learn("I live in Leeds.", "2026-11-20", fact("home", "Leeds"))
    learn("I moved to Bristol.", "2026-11-25", fact("home", "Bristol"))
    bristol = store.memories(attribute="home")[0]
    assert store.delete_memory(bristol.id) == [bristol.id]
    assert [(m.value, m.status) for m in store.memories(attribute="home")] == [("Leeds", "active")]


def test_an_instruction_to_the_assistant_is_no_fact(store, learn):
    outcome = learn("I love tea, but don't tell anyone.", "2026-11-20",
                    fact("preference", "tea"), fact("instruction", "don't tell anyone"))
    assert [m.value for m in store.memories()] == ["tea"]
    assert [why for _, why in outcome.dropped] == ["an instruction to the assistant is no fact about the person"]


# -- secrets ---------------------------------------------------------------------------------------------
def test_a_secret_the_model_marks_leaves_no_entry_and_no_evidence(store, index, embedder, learn):
    outcome = learn("My bank PIN is 4471, don't tell anyone.", "2026-11-20",
                    fact("secret", "withheld"), fact("other", "The user's bank PIN is 4471"),
                    fact("instruction", "don't tell anyone"))
    assert store.memories(status=None) == []
    assert store.sentences() == [] and index.held("sentences") == 0
    assert [m.text for m in store.messages()] == ["My bank PIN is 4471, don't tell anyone."]  # the log keeps it
    said = notice(outcome)
    assert outcome.step.parsed["notice"] == said and f"#{outcome.message_id}" in said
    assert outcome.withheld and outcome.step.parsed["withheld"] == outcome.withheld


def test_a_card_number_is_caught_in_code_before_any_model_call(store, learn):
    llm = writer_says(fact("other", "The user's card is 4111 1111 1111 1111"))
    outcome = learn("Mi tarjeta es 4111 1111 1111 1111.", "2026-11-20", llm=llm)
    assert llm.calls_for("ExtractedFacts") == 0 and store.memories(status=None) == [] and store.sentences() == []
    assert outcome.withheld == ["a card- or account-number-like run of digits"]


def test_a_secret_value_the_model_did_not_mark_is_caught_in_code(store, learn):
    outcome = learn("Here is the thing you asked for.", "2026-11-20", fact("other", "token sk9f8a7d6s5f4g3h2j1k"))
    assert store.memories(status=None) == [] and outcome.withheld == ["a key- or token-like string"]


@pytest.mark.parametrize("text, found", [
    ("My card is 4111 1111 1111 1111", True),
    ("IBAN ES91 2100 0418 4502 0005 1332", True),
    ("api key: sk-proj-abc123def456ghi789", True),
    ("ghp_16C7e42F292c6912E7710c838347Ae178B4a", True),
    ("My PIN is 4471", False),  # four digits are a year as often: the model marks these
    ("I was born on 1990-03-02 in Leeds", False),
    ("I have 3 dogs and 2 cats", False),
    ("see https://example.com/abcdefghij1234567890", False),
    ("Nací el 20260301", False),
])
def test_secret_like_text(text, found):
    assert (secret_like(text) is not None) is found


def test_a_secret_the_model_claims_for_a_message_with_nothing_code_like_withholds_nothing(store, learn):
    """A small model copies its prompt's example: a "secret" beside a move, in a message holding no digit."""
    outcome = learn("Big news: I moved to Bristol.", "2026-11-25", fact("home", "Bristol"), fact("secret", "withheld"))
    assert outcome.withheld == [] and [m.value for m in store.memories()] == ["Bristol"]
    assert len(store.sentences()) == 1


@pytest.mark.parametrize("subject, key", [
    ({"kind": "user", "relation": "sister", "name": "Ruth"}, "person:sister:ruth"),  # a relation: not the person
    ({"kind": "user", "relation": "", "name": "Pepper"}, "pet:dog:pepper"),  # renamed, as memory knows it
    ({"kind": "pet", "relation": "pet", "name": "Pepper"}, "pet:dog:pepper"),
    ({"kind": "user", "relation": "", "name": "Olive"}, "thing::olive"),  # renamed, unknown to memory
])
def test_whose_fact_is_mended_in_code(store, learn, subject, key):
    learn("I have a dog called Pepper.", "2026-11-20",
          fact("name", "Pepper", {"kind": "pet", "relation": "dog", "name": "Pepper"}))
    learn("We renamed Pepper to Max, and Olive is now Oli. Ruth is my sister.", "2026-11-22",
          fact("name", "Max" if "Olive" not in subject["name"] else "Oli", subject) if subject["relation"] != "sister"
          else fact("occupation", "nurse", subject))
    assert store.memories()[-1].subject == key


def test_the_index_holds_only_current_values_through_a_move_an_undo_and_a_delete(make_agent, store, index):
    said = {"Leeds": [fact("home", "Leeds")], "Bristol": [fact("home", "Bristol")]}
    agent = make_agent(ScriptedLLM(defaults={"ExtractedFacts": lambda m, s: json.dumps(
        {"facts": next((f for k, f in said.items() if k in m[-1]["content"]), [])})}))
    agent.ingest("I live in Leeds.", now="2026-11-20T10:00:00")
    agent.ingest("I moved to Bristol.", now="2026-11-25T10:00:00")
    agent.learning.wait()
    leeds, bristol = (store.memories(status=None, attribute="home")[i].id for i in (0, 1))
    assert index.ids("memories") == {bristol}
    agent.memory.make_current(leeds)
    assert index.ids("memories") == {leeds}
    agent.memory.make_current(bristol)
    agent.memory.delete(bristol)
    assert index.ids("memories") == {leeds} and store.memory(leeds).status == "active"
