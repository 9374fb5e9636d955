"""Whose a message's entries are: a Writer that names the person as someone else gives them that someone's facts."""
import pytest

from dreaming_agent.pipeline.whose import claimed, restate
from dreaming_agent.store import attributes
from dreaming_agent.testing import ScriptedLLM

from .conftest import facts_from

WRITER = facts_from({  # the first key the message holds
    "both": ["The user is Nora", "The user is Rafael", "The user likes ramen"],
    "Nora again": ["The user is Nora", "The user is a product design lead"],
    "Kobe": ["The user is Kenji", "The user's restaurant is opening in Kobe"],
    "I'm Nora": ["The user is Nora", "The user works as a UI designer at Kitemaru Games"],
    "Kenji": ["The user's boyfriend Kenji is a chef"],
    "Rafael": ["The user is Rafael", "The user's from Porto", "The user works as a civil engineer"],
})


def _learn(agent, *messages, speaker=None):
    for i, text in enumerate(messages):
        agent.ingest(text, now=f"2026-03-0{i + 1}T10:00:00", speaker=speaker)
        assert agent.learning.wait(timeout=30)


def _texts(store):
    return [m.text for m in store.memories()]


def test_a_message_naming_the_person_as_someone_new_is_that_someones(make_agent, store):
    agent = make_agent(ScriptedLLM({"ExtractedFacts": [WRITER] * 3}))
    _learn(agent, "Hi, I'm Nora, a UI designer at Kitemaru Games.",
           "Met Rafael at the climbing gym: he's from Porto and works as a civil engineer.")
    assert _texts(store) == ["The user is Nora", "The user works as a UI designer at Kitemaru Games",
                             "Rafael's from Porto", "Rafael works as a civil engineer"]
    occupation = [r for r in attributes.profile(store) if r.attribute == "occupation"]
    assert [h.value for r in occupation for h in r.now] == ["a UI designer"]  # not the friend's job, said later
    assert not any("civil engineer" in h.value for r in attributes.profile(store) for h in r.now)


def test_a_name_memory_holds_as_someone_of_theirs_is_not_the_person_even_before_they_said_their_own(make_agent, store):
    agent = make_agent(ScriptedLLM({"ExtractedFacts": [WRITER] * 2}))
    _learn(agent, "My boyfriend Kenji is a chef.", "Big news from Kenji: his restaurant is opening in Kobe!")
    assert _texts(store) == ["The user's boyfriend Kenji is a chef", "Kenji's restaurant is opening in Kobe"]


def test_the_persons_own_name_again_and_an_unclear_message_keep_their_entries(make_agent, store):
    agent = make_agent(ScriptedLLM({"ExtractedFacts": [WRITER] * 3}))
    _learn(agent, "Hi, I'm Nora, a UI designer at Kitemaru Games.", "Nora again here: I'm a product design lead now.",
           "Rafael and I both love ramen.")
    assert _texts(store)[2:] == ["The user is a product design lead", "The user likes ramen"]  # "Nora" again: a duplicate
    assert "The user is Rafael" not in _texts(store)


def test_the_trace_says_whom_the_entries_were_restated_of(make_agent, store):
    agent = make_agent(ScriptedLLM({"ExtractedFacts": [WRITER] * 2}))
    _learn(agent, "Hi, I'm Nora, a UI designer at Kitemaru Games.")
    message = agent.ingest("Met Rafael: he's from Porto and works as a civil engineer.", now="2026-03-05T10:00:00")
    assert agent.learning.wait(timeout=30)
    outcome = agent.learning.outcomes[message.id]
    assert outcome.about == "Rafael" and outcome.step.parsed["about"] == "Rafael"
    assert outcome.step.parsed["extracted"][0] == "The user is Rafael"  # what the model said, as it said it
    assert {"fact": "The user is Rafael", "why": "names the person as Rafael; they gave their name as Nora"} \
        in outcome.step.parsed["dropped"]
    assert "restated of Rafael" in outcome.step.decision


def test_a_recorded_conversations_speaker_is_who_the_user_is(make_agent, store):
    agent = make_agent(ScriptedLLM({"ExtractedFacts": [WRITER]}))
    _learn(agent, "Met Rafael: he's from Porto and works as a civil engineer.", speaker="Caroline")
    assert _texts(store) == ["Rafael's from Porto", "Rafael works as a civil engineer"]


@pytest.mark.parametrize("entry, name", [
    ("The user is Nora", "Nora"), ("The user's name is Dana Smith.", "Dana Smith"), ("The user is called Ro", "Ro"),
    ("The user is a nurse", None), ("The user is Happy to help", None), ("The user's sister is Ruth", None),
])
def test_a_claim_is_a_name_and_nothing_after_it(entry, name):
    assert claimed(entry) == name


def test_two_names_or_the_persons_own_beside_another_restate_nothing():
    nobody = lambda name: False  # noqa: E731
    two = restate(["The user is Rafael", "The user is Kenji", "The user likes ramen"], ["Nora"], nobody)
    assert two.facts == ["The user likes ramen"] and two.about is None and len(two.dropped) == 2
    own = restate(["The user is Nora", "The user is Rafael", "The user likes ramen"], ["Nora"], nobody)
    assert own.facts == ["The user is Nora", "The user likes ramen"] and own.about is None
    first = restate(["The user is Nora", "The user lives in Osaka"], [], nobody)  # who they are, said for the first time
    assert first.facts == ["The user is Nora", "The user lives in Osaka"] and not first.dropped
    kept = restate(["The user is Rafael", "The user's sister Ruth is a nurse", "The user's older brother is Tom",
                    "The user's cat is called Miso"], ["Nora"], nobody)  # someone of theirs stays theirs
    assert kept.facts == ["The user's sister Ruth is a nurse", "The user's older brother is Tom", "Rafael's cat is called Miso"]
