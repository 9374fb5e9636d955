"""When things happened, counted in code from the day each was said: the entry's English first (the Writer writes
English whatever the person wrote), then its sentence in a language a module knows; no guess in one it does not."""
from __future__ import annotations

from dreaming_agent.pipeline.timeline import timeline


def _told(store, text: str, day: str, entries: list[str]) -> list[int]:
    message = store.add_message("s", "user", text, day)
    return [store.add_memory(entry, source_message_ids=[message.id], created_at=day) for entry in entries]


def test_each_entry_that_says_a_time_is_at_the_day_it_stands_for_oldest_first(store):
    (adopted,) = _told(store, "Big news: yesterday I adopted a cat from the shelter!", "2026-02-17T10:00:00",
                       ["The user adopted a cat from the shelter"])
    (running,) = _told(store, "Hace tres semanas empecé a correr por el parque.", "2026-03-10T10:00:00",
                       ["The user started running in the park"])
    (moved,) = _told(store, "I finally moved to Bristol!", "2026-03-12T10:00:00",
                     ["The user moved to Bristol last week"])  # the time in the Writer's words, not the person's
    _told(store, "Gestern habe ich meinen Bruder besucht.", "2026-03-13T10:00:00", ["The user visited her brother"])
    _told(store, "I work as a nurse.", "2026-03-14T10:00:00", ["The user works as a nurse"])
    events = timeline(store)
    assert [(e.memory_id, e.day, e.said_on) for e in events] == [
        (adopted, "2026-02-16", "2026-02-17"), (running, "2026-02-17", "2026-03-10"),
        (moved, "2026-03-05", "2026-03-12")]
    assert events[0].when == "16 February 2026" and events[0].said == "yesterday"
    assert events[1].when == "17 de febrero de 2026"  # written in the language it was said in
    assert events[2].when == "the week before 12 March 2026"
    # German is no language a module knows: "Gestern" is not guessed at, and a nurse's job is no event


def test_a_forgotten_entry_leaves_the_timeline(store):
    (adopted,) = _told(store, "Yesterday I adopted a cat.", "2026-02-17T10:00:00", ["The user adopted a cat"])
    assert [e.memory_id for e in timeline(store)] == [adopted]
    store.delete_memory(adopted)
    assert timeline(store) == []


def test_asked_when_a_sentence_code_cannot_read_is_dated_at_the_day_its_entry_tells(make_agent, store):
    """Dutch is no language a module knows: "zaterdag" is read through the Writer's English entry, which only memory
    has. Without the entry the line keeps the day it was said (no guess); an entry sharing no word with a sentence
    of its message dates nothing."""
    from dreaming_agent.pipeline.agent import AgentConfig
    from dreaming_agent.testing import ScriptedLLM

    agent = make_agent(ScriptedLLM(defaults={"text": "You moved to Utrecht."}), AgentConfig(learn=False))
    said = "Ik ben zaterdag eindelijk naar Utrecht verhuisd. De buren zijn heel aardig."
    message = agent.ingest(said, now="2026-03-24T10:00:00", learn=False)  # a Tuesday
    question = "When did I move to Utrecht?"
    before = agent.ask(question)
    assert "- 24 March 2026: Ik ben zaterdag" in before.prompt_text and before.answer == "You moved to Utrecht."
    store.add_memory("The user's neighbours are very kind", source_message_ids=[message.id],
                     created_at=message.created_at)
    store.add_memory("The user moved to Utrecht on Saturday", source_message_ids=[message.id],
                     created_at=message.created_at)
    after = agent.ask(question)
    assert "- 21 March 2026 (said 24 March 2026): Ik ben zaterdag" in after.prompt_text
    assert "- 24 March 2026: De buren" in after.prompt_text  # the other sentence is not the move's
    assert after.answer == "You moved to Utrecht. (21 March 2026)"  # the answer restating the line gets its day
