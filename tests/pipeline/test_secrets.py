"""Credentials never become memory: the message stays in the log, nothing searches it, no model reads it, and the
person is told it was not remembered and how to delete it."""
import json

import pytest

from dreaming_agent import lang, secrets
from dreaming_agent.errors import SecretRefused
from dreaming_agent.store import memory_file
from dreaming_agent.testing import ScriptedLLM


@pytest.mark.parametrize("text", [
    "My bank PIN is 4471, don't tell anyone.",
    "Mi PIN del banco es 4471, no se lo digas a nadie.",
    "Il mio PIN è 4471, non dirlo a nessuno.",  # a language no module knows: the borrowed word still counts
    "Mój PIN to 4471.",
    "My password is hunter2",
    "La clave de la wifi es gato99.",
    "My CVV is 123.",
    "Card: 4111 1111 1111 1111",  # its Luhn check digit holds
    "My IBAN is GB82 WEST 1234 5698 7654 32.",  # its check digits hold
    "Here's my key sk-abcDEF1234567890xyz",
])
def test_a_credential_is_withheld(text):
    assert secrets.withheld(text)


@pytest.mark.parametrize("text", [
    "I have 2 cats and a dog.",
    "Call me on 0161 496 0000.",  # a phone number is no card: its check digit does not hold
    "My order number is 1234567890123.",
    "I changed my password on 3 May.",  # a day is no code
    "I moved to Bristol in 2026 and work as a teacher.",
    "See https://example.com/abcdef1234567890abc for the recipe.",
    "I was born on 1990-04-12.",
])
def test_what_is_no_credential_is_kept(text):
    assert secrets.withheld(text) is None


def test_a_message_holding_a_pin_is_logged_unsearched_and_answered_with_a_notice(make_agent, store):
    llm = ScriptedLLM()
    agent = make_agent(llm)
    result = agent.turn("My bank PIN is 4471, don't tell anyone.", "lightmem", now="2026-05-01T10:00:00")
    assert agent.learning.wait(timeout=30)

    message = store.message(result.message_id)
    assert message.text == "My bank PIN is 4471, don't tell anyone."  # the person's words stay in their log
    assert message.withheld
    assert store.sentences(message_ids=[message.id]) == []
    assert store.memories(status=None) == []
    assert llm.calls == []  # no model read it: not the Controller, not the Responder, not the Writer
    assert result.answer == lang.of("en").NOT_REMEMBERED.format(id=message.id)
    step = result.trace.step("Not remembered")
    assert step.parsed == {"withheld": message.withheld, "language": "en"}
    assert store.messages(role="assistant")[-1].text == result.answer


def test_a_withheld_message_is_no_evidence_and_not_in_the_recent_turns(make_agent):
    llm = ScriptedLLM(defaults={"text": "I don't know."})
    agent = make_agent(llm)
    agent.turn("Mi PIN del banco es 4471.", "rag", now="2026-05-01T10:00:00")
    agent.turn("I live in Bristol.", "rag", now="2026-05-01T10:01:00")
    assert agent.learning.wait(timeout=30)
    for mode in ("rag", "lightmem"):
        asked = agent.turn("What is my bank PIN?", mode, now="2026-05-01T10:02:00")
        assert "4471" not in asked.prompt_text
        assert all("4471" not in str(message) for _, messages in llm.calls for message in messages)


def test_the_notice_is_in_the_persons_language_when_known_else_the_apps(make_agent, store):
    agent = make_agent(ScriptedLLM())
    spanish = agent.turn("Mi contraseña es gato99.", "rag", now="2026-05-01T10:00:00")
    italian = agent.turn("La mia password è gatto99.", "rag", now="2026-05-01T10:01:00")
    assert spanish.answer == lang.of("es").NOT_REMEMBERED.format(id=spanish.message_id)
    assert italian.answer == lang.of("en").NOT_REMEMBERED.format(id=italian.message_id)


def test_compare_answers_a_withheld_message_once_per_mode(make_agent, store):
    agent = make_agent(ScriptedLLM())
    results = agent.compare("My PIN is 9921.", now="2026-05-01T10:00:00")
    assert set(results) == {"lightmem", "rag"}
    assert all(r.trace.step("Not remembered") for r in results.values())
    assert [m.speaker for m in store.messages(role="assistant")] == ["lightmem", "rag"]


def test_a_credential_only_the_writer_names_withholds_the_message(make_agent, store):
    """No digit shows it ("my password is swordfish"); the Writer's fact names it: nothing is kept, and the
    message's sentences leave the evidence."""
    llm = ScriptedLLM({"ExtractedFacts": [json.dumps({"facts": ["The user's password is swordfish",
                                                                 "The user lives in Bristol"]})]})
    agent = make_agent(llm)
    message = agent.ingest("My password is swordfish and I live in Bristol.", now="2026-05-01T10:00:00")
    assert agent.learning.wait(timeout=30)
    assert store.message(message.id).withheld.startswith("the Writer read a credential")
    assert store.sentences(message_ids=[message.id]) == []
    assert store.memories(status=None) == []
    assert agent.learning.outcomes[message.id].step.parsed["withheld"]


def test_an_entry_typed_by_the_person_holding_a_credential_is_refused(make_agent, store):
    agent = make_agent(ScriptedLLM())
    with pytest.raises(SecretRefused, match="credentials never become memory"):
        agent.memory.add("My bank PIN is 4471")
    kept = agent.memory.add("My cat is called Nube")
    with pytest.raises(SecretRefused):
        agent.memory.edit(kept, "My PIN is 4471")
    assert [m.text for m in store.memories()] == ["My cat is called Nube"]


def test_the_memory_file_carries_withheld_and_an_older_file_is_checked_on_load(make_agent, store, tmp_path, index,
                                                                            embedder):
    agent = make_agent(ScriptedLLM())
    agent.turn("My PIN is 9921.", "rag", now="2026-05-01T10:00:00")
    agent.turn("I live in Bristol.", "rag", now="2026-05-01T10:01:00")
    exported = agent.export_memory()
    assert [m.withheld is not None for m in exported.messages if m.role == "user"] == [True, False]

    from dreaming_agent.store import Store
    older = json.loads(exported.model_dump_json())
    for message in older["messages"]:
        message.pop("withheld")  # a file written before messages could be withheld
    fresh = Store(tmp_path / "loaded.sqlite3")
    try:
        memory_file.load(fresh, memory_file.parse(json.dumps(older)), "s2", embedder)
        user = fresh.messages(role="user")
        assert [m.withheld is not None for m in user] == [True, False]
        assert [s.text for s in fresh.sentences()] == ["I live in Bristol."]
    finally:
        fresh.close()
