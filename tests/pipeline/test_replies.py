"""The assistant's own earlier replies as evidence, only for a question about what it said."""
from __future__ import annotations

import pytest

from dreaming_agent.pipeline.replies import asks_about_replies, earlier_replies, if_asked, passages


@pytest.mark.parametrize("text, asked", [
    ("What was the name of the hotel you recommended in Lisbon?", True),
    ("I remember you told me to dilute tea tree oil. What ratio was it?", True),
    ("Looking back at our previous conversation, which app did you say was free?", True),
    ("What was the 7th job in the list you provided?", True),
    ("¿Qué restaurante me recomendaste en Roma?", True),
    ("Volviendo a nuestra conversación anterior, ¿cuál era el libro?", True),
    ("What do you recommend for dinner tonight?", False),  # asks for a new reply
    ("Can you suggest a recipe with tomatoes?", False),
    ("Where did I buy my bookshelf?", False),
    ("I mentioned my sister's birthday; when is it?", False),
    ("¿Dónde vivo ahora?", False),
])
def test_a_question_about_the_assistants_own_words_is_told_apart(text, asked):
    assert asks_about_replies(text) is asked


def _conversation(agent):
    agent.new_conversation("porto")
    agent.ingest("I'm visiting Porto next week. Any bakery I should not miss?", now="2023-05-20T18:12:00")
    agent.ingest("Try Padaria Ribeiro for its custard tarts. Also walk along the Ribeira at sunset.",
                 now="2023-05-20T18:12:00", role="assistant", external_id="porto:1")
    agent.ingest("My cat Miso turned three today.", now="2023-05-22T09:00:00")
    agent.ingest("Happy birthday to Miso! Three is a lovely age for a cat.", now="2023-05-22T09:00:00",
                 role="assistant", external_id="miso:1")


def test_earlier_replies_are_the_assistants_sentences_dated_and_marked_as_its_own(make_agent, store, embedder):
    agent = make_agent()
    _conversation(agent)
    # The reply is found through the message it answered, which the question echoes ("bakery", "Porto").
    found = earlier_replies(store, embedder, "Which bakery did you recommend in Porto?", k=2)
    assert [c.text for c in found] == ["Try Padaria Ribeiro for its custard tarts.",
                                       "Also walk along the Ribeira at sunset."]
    (source,) = found[0].sources
    assert (source.role, source.external_id, source.date) == ("assistant", "porto:1", "2023-05-20T18:12:00")
    assert found[0].id < 0 and found[0].kind == "sentence"  # never a stored sentence's id
    # The person's own sentences are never among them.
    everything = earlier_replies(store, embedder, "Which bakery did you recommend in Porto?", k=10)
    assert len(everything) == len(passages(store.messages())) == 4
    assert all(c.sources[0].role == "assistant" for c in everything)
    assert [c.date for c in everything] == sorted(c.date for c in everything)
    shown = if_asked(store, embedder, "Which bakery did you recommend in Porto?")
    assert shown.lines[0].startswith('- 2023-05-20: you replied: "') and shown.step.name == "Earlier replies"
    assert if_asked(store, embedder, "Which bakery should I try?").lines == []


def test_the_responder_reads_earlier_replies_only_when_asked_about_them(make_agent):
    agent = make_agent()
    _conversation(agent)
    agent.new_conversation("question")
    about_replies = agent.ask("Which bakery did you recommend in Porto?", "lightmem", now="2023-06-01T10:00:00")
    assert 'you replied: "Try Padaria Ribeiro for its custard tarts."' in about_replies.prompt_text
    assert "porto:1" in {s.external_id for c in about_replies.evidence for s in c.sources}
    assert "Earlier replies" in [s.name for s in about_replies.trace.steps]
    about_them = agent.ask("How old is my cat Miso?", "lightmem", now="2023-06-01T10:00:00")
    assert "you replied" not in about_them.prompt_text and "Happy birthday" not in about_them.prompt_text
    # Naive RAG stays naive: the person's sentences only, whatever the question.
    rag = agent.ask("Which bakery did you recommend in Porto?", "rag", now="2023-06-01T10:00:00")
    assert "Padaria Ribeiro" not in rag.prompt_text


def test_in_a_long_memory_the_word_index_narrows_what_the_embedder_ranks(store, embedder):
    store.add_message("trip", "user", "Which trail near Granada should I hike?", "2023-01-02T10:00:00")
    store.add_message("trip", "assistant", "Hike the Los Cahorros trail.", "2023-01-02T10:00:00", external_id="trail")
    for day in range(10, 30):  # later chats, each reply longer than what the embedder is shown at once
        store.add_message(f"s{day}", "user", f"Tell me about topic {day}.", f"2023-02-{day}T10:00:00")
        store.add_message(f"s{day}", "assistant", "First point. Second point. Third point.", f"2023-02-{day}T10:00:00")
    found = earlier_replies(store, embedder, "What trail near Granada did you recommend?", k=1)
    assert [c.sources[0].external_id for c in found] == ["trail"]
