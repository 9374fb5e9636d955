import json
import re

import pytest

from dreaming_agent.errors import BackendUnavailable, InvalidInput, ModelTimeout
from dreaming_agent.pipeline.agent import Agent, AgentConfig
from dreaming_agent.store import Store, VectorIndex
from dreaming_agent.testing import ScriptedLLM

from .conftest import FLOW_CONFIG, facts_from


def test_message_is_stored_before_any_model_call(make_agent, store):
    seen = []

    def responder(messages, schema):
        seen.append([m.text for m in store.messages()])
        return "Noted!"

    agent = make_agent(ScriptedLLM({"text": [responder]}))
    agent.turn("I adopted a cat called Miso.")
    assert seen == [["I adopted a cat called Miso."]]


def test_default_lightmem_turn_makes_one_model_call_and_traces_every_role(make_agent):
    llm = ScriptedLLM(defaults={"ExtractedFacts": facts_from({"Miso": ["The user has a cat named Miso"]}),
                                "text": "Your cat is called Miso."})
    agent = make_agent(llm)
    agent.turn("I adopted a cat called Miso.", now="2026-03-02")
    agent.learning.wait()
    before = len(llm.calls)
    result = agent.turn("What is my cat called?", now="2026-03-09")
    assert [key for key, _ in llm.calls[before:]] == ["text"]  # the Responder only; the Writer runs after
    assert result.blocking_llm_calls == 1
    assert [s.name for s in result.trace.steps] == ["Controller", "Retriever", "Selector", "Responder", "Abstention"]
    assert result.trace.step("Controller").llm_calls == 0  # decided in code
    assert "- 2026-03-02: I adopted a cat called Miso." in result.prompt_text
    assert result.answer == "Your cat is called Miso."
    assert result.timings["total_ms"] >= result.timings["Responder"]


def test_compound_question_searches_once_per_part(make_agent):
    agent = make_agent(ScriptedLLM(), AgentConfig(learn=False))
    agent.ingest("My sister Itziar lives in Bilbao.", now="2026-03-01", learn=False)
    result = agent.ask("What's my sister called, and where does she live?")
    assert result.trace.step("Controller").parsed["queries"][1:] == ["What's my sister called", "where does she live"]


def test_published_variant_shows_memory_texts_without_sources(make_agent):
    llm = ScriptedLLM(defaults={"ExtractedFacts": facts_from({"Miso": ["The user has a cat named Miso"]})})
    agent = make_agent(llm, AgentConfig(variant="published", writer=FLOW_CONFIG.writer))
    agent.turn("I adopted a cat called Miso.", now="2026-03-02")
    agent.learning.wait()
    prompt = agent.ask("What is my cat called?").prompt_text
    assert "- The user has a cat named Miso" in prompt
    assert "the person said: \"" not in prompt


def test_published_controller_and_selector_fall_back_on_bad_output(make_agent):
    llm = ScriptedLLM({"ControllerDecision": ["nonsense", "{bad"], "Selection": ["[]", "still bad"]})
    agent = make_agent(llm, AgentConfig(learn=False, variant="published", writer=FLOW_CONFIG.writer))
    for i in range(6):
        agent.memory.add(f"Fact number {i} about my garden and tomatoes.")
    result = agent.ask("Tell me about my garden")
    controller, selector = result.trace.step("Controller"), result.trace.step("Selector")
    assert controller.fell_back and controller.retried and controller.raw == ["nonsense", "{bad"]
    assert selector.fell_back and len(selector.parsed["keep"]) == 5
    assert result.trace.step("Retriever").parsed  # retrieval ran with the raw message
    assert result.blocking_llm_calls == 5  # two Controller tries, two Selector tries, the Responder


def test_published_selector_keeps_at_least_three(make_agent):
    llm = ScriptedLLM({"Selection": [lambda m, s: json.dumps({"keep": ["m1"]})]})
    agent = make_agent(llm, AgentConfig(learn=False, variant="published"))
    for i in range(5):
        agent.memory.add(f"My garden has {i} tomato plants.")
    result = agent.ask("How many tomato plants?")
    assert result.trace.step("Selector").parsed == {"keep": ["m1"]}  # the model kept one: two more by score
    assert len(result.evidence) == 3


def test_no_selector_call_when_there_is_nothing_to_choose(make_agent):
    llm = ScriptedLLM()
    agent = make_agent(llm, AgentConfig(learn=False))
    agent.ingest("I live in Porto.", learn=False)
    agent.ask("Where do I live?")
    assert llm.calls_for("Selection") == 0


def test_rag_mode_is_one_model_call_over_top_8_sentences(make_agent):
    llm = ScriptedLLM()
    agent = make_agent(llm, AgentConfig(learn=False))
    for i in range(12):
        agent.ingest(f"Sentence {i} about my bicycle trips.", now=f"2026-03-{i + 1:02d}", learn=False)
    result = agent.ask("bicycle trips", mode="rag")
    assert result.blocking_llm_calls == 1 and [s.name for s in result.trace.steps] == ["Retriever", "Responder"]
    assert len(re.findall(r"^- 2026-03-\d\d: Sentence", result.prompt_text, flags=re.M)) == 8
    assert len(llm.calls) == 1


def test_compare_answers_both_ways_from_one_stored_message(make_agent, store):
    agent = make_agent(ScriptedLLM())
    results = agent.compare("I moved to Vigo last week.")
    assert set(results) == {"lightmem", "rag"}
    assert results["lightmem"].message_id == results["rag"].message_id
    assert [m.text for m in store.messages(role="user")] == ["I moved to Vigo last week."]


def test_writer_runs_after_the_reply_and_can_be_awaited(make_agent, store):
    llm = ScriptedLLM(defaults={"ExtractedFacts": facts_from({"Vigo": ["The user lives in Vigo"]})}, delay_s=0.05)
    agent = make_agent(llm)
    result = agent.turn("I live in Vigo now.")
    assert store.memories() == [] or agent.learning.running  # the reply did not wait for it
    assert agent.learning.wait(timeout=10)
    memory = store.memories()[0]
    assert memory.text == "The user lives in Vigo" and memory.source_message_ids == (result.message_id,)
    assert memory.prompt_version.startswith("writer@")
    assert agent.learning.outcomes[result.message_id].step.name == "Writer"


def test_writer_grounding_drops_an_invented_city_and_skips_duplicates(make_agent, store):
    llm = ScriptedLLM(defaults={"ExtractedFacts": facts_from({
        "Lisboa": ["The user moved to Lisbon", "The user moved to Berlin", "The user moved to Lisbon in 2025"]})})
    agent = make_agent(llm)
    agent.turn("Me mudé a Lisboa en marzo.")
    agent.turn("Sí, Lisboa es mi casa ahora.")
    agent.learning.wait()
    assert [m.text for m in store.memories()] == ["The user moved to Lisbon"]
    dropped = [f for o in agent.learning.outcomes.values() for f, _ in o.dropped]
    assert "The user moved to Berlin" in dropped and "The user moved to Lisbon in 2025" in dropped
    assert any(o.duplicates for o in agent.learning.outcomes.values())


def test_failed_writer_is_recorded_and_retried(make_agent, store):
    llm = ScriptedLLM({"ExtractedFacts": [BackendUnavailable("down", backend="ollama")]},
                      defaults={"ExtractedFacts": facts_from({"Vigo": ["The user lives in Vigo"]})})
    agent = make_agent(llm)
    first = agent.turn("I live in Vigo now.")
    agent.learning.wait()
    assert store.writer_jobs("failed") == [first.message_id]
    agent.turn("The weather is nice.")
    agent.learning.wait()
    assert store.writer_jobs("failed") == [] and [m.text for m in store.memories()] == ["The user lives in Vigo"]


def test_model_down_gives_a_clear_message_and_keeps_the_text(make_agent, store):
    llm = ScriptedLLM({"text": [ModelTimeout(30, "ollama")]})
    agent = make_agent(llm, AgentConfig(learn=False))
    result = agent.turn("Remember that my sister is Inés.")
    assert result.error and "saved" in result.answer and "30 s" in result.answer
    assert [m.text for m in store.messages()] == ["Remember that my sister is Inés."]


def test_empty_message_refused_and_long_message_stored_whole(make_agent, store):
    agent = make_agent(ScriptedLLM(), AgentConfig(learn=False))
    for bad in ("", "   \n\t"):
        with pytest.raises(InvalidInput, match="empty"):
            agent.turn(bad)
    long_text = "Lorem ipsum dolor sit amet. " * 3700  # ~100 KB
    result = agent.turn(long_text)
    assert store.message(result.message_id).text == long_text
    assert result.prompt.prompt_tokens + 512 <= 4096


def test_deleted_message_is_absent_from_retrieval_and_prompt(make_agent, store):
    llm = ScriptedLLM(defaults={"ExtractedFacts": facts_from({"Zurbarán": ["The user's grandfather was Zurbarán"]})})
    agent = make_agent(llm)
    secret = agent.turn("My grandfather was Zurbarán, the painter.")
    agent.turn("I like painting too.")
    agent.learning.wait()
    assert "Zurbarán" in agent.ask("Who was my grandfather?").prompt_text
    agent.memory.delete_message(secret.message_id)
    for mode in ("lightmem", "rag"):
        result = agent.ask("Who was my grandfather? Zurbarán painter", mode=mode)
        assert all("Zurbar" not in m["content"] for m in result.prompt.messages[:-1])
        assert all("Zurbar" not in c["text"] for c in result.trace.step("Retriever").parsed)
    assert all("Zurbar" not in m.text for m in store.memories(status=None))


def test_manual_memory_edit_and_delete_follow_every_index(make_agent, store, index):
    agent = make_agent(ScriptedLLM(), AgentConfig(learn=False))
    memory_id = agent.memory.add("I am allergic to peanuts")
    assert store.memory(memory_id).tier == "ltm" and store.memory(memory_id).origin == "manual"
    assert "allergic to peanuts" in agent.ask("What am I allergic to?").prompt_text
    agent.memory.edit(memory_id, "I am allergic to shellfish")
    assert "shellfish" in agent.ask("What am I allergic to?").prompt_text
    agent.memory.delete(memory_id)
    assert index.ids("memories") == set()
    assert "shellfish" not in agent.ask("What am I allergic to?").prompt_text


def test_ask_is_read_only(make_agent, store):
    agent = make_agent(ScriptedLLM(), AgentConfig(learn=False))
    agent.ingest("I live in Porto.", learn=False)
    before = (store.messages(), store.memories(status=None))
    agent.ask("Where do I live?")
    assert (store.messages(), store.memories(status=None)) == before


def test_retrieval_updates_access_statistics(make_agent, store):
    agent = make_agent(ScriptedLLM(), AgentConfig(learn=False))
    memory_id = agent.memory.add("The user plays the cello")
    agent.turn("Do I play the cello?", now="2026-04-01")
    memory = store.memory(memory_id)
    assert memory.access_count == 1 and memory.last_accessed.startswith("2026-04-01")


def test_code_abstains_when_the_answer_names_what_no_line_says(make_agent):
    agent = make_agent(ScriptedLLM(defaults={"text": "Your dog is called Rex."}), AgentConfig(learn=False))
    agent.ingest("My cat Miso sleeps all day.", now="2026-03-01", learn=False)
    result = agent.ask("¿Cómo se llama mi perro?", mode="lightmem")
    assert result.answer == "No lo sé."
    assert result.trace.step("Abstention").parsed["unsupported"] == ["rex"]
    assert agent.ask("What is my dog called?", mode="rag").answer == "Your dog is called Rex."  # RAG stays naive
    supported = make_agent(ScriptedLLM(defaults={"text": "Your cat is Miso."}), AgentConfig(learn=False))
    assert supported.ask("What is my cat called?").answer == "Your cat is Miso."


def test_a_statement_gets_an_acknowledgement_never_an_abstention(make_agent):
    llm = ScriptedLLM(defaults={"text": "Great news, Vigo is lovely! When did you move?"})
    agent = make_agent(llm, AgentConfig(learn=False))
    result = agent.turn("I moved to Vigo last week.")
    assert result.answer.startswith("Great news") and result.trace.step("Abstention") is None
    assert "acknowledge what they said" in result.prompt.messages[0]["content"]
    assert result.trace.step("Acknowledgement").parsed == {"replaced": False}


def test_a_question_answered_with_a_copied_acknowledgement_is_asked_again_without_the_window(make_agent, store):
    """Shown "Entendido, gracias por contármelo." after each statement, the 0.5B default model answered "¿A qué soy
    alérgica?" with it (met as a new user): it is never shown, and the question is asked once more without the turns."""
    plain = "Entendido, gracias por contármelo."
    llm = ScriptedLLM({"text": ["Lo siento, no puedo ayudarte.", plain, "Eres alérgica a la penicilina."]})
    agent = make_agent(llm, AgentConfig(learn=False))
    agent.turn("Soy alérgica a la penicilina.", now="2026-03-01")
    streamed: list[str | None] = []
    result = agent.turn("¿A qué soy alérgica?", now="2026-03-02", on_text=lambda mode, piece: streamed.append(piece))
    first, again = [messages for key, messages in llm.calls if key == "text"][1:]
    assert [m["content"] for m in first[1:]] == ["Soy alérgica a la penicilina.", plain, "¿A qué soy alérgica?"]
    assert [m["role"] for m in again] == ["system", "user"]  # the same evidence, no recent turns
    assert again[0]["content"] == first[0]["content"] and "penicilina" in again[0]["content"]
    assert result.answer == "Eres alérgica a la penicilina." == "".join(streamed)  # the copy never showed
    assert [s.name for s in result.trace.steps][-3:] == ["Acknowledgement copied", "Responder, again", "Abstention"]
    assert store.messages()[-1].text == result.answer and result.blocking_llm_calls == 2


def test_a_question_answered_only_with_copied_acknowledgements_gets_i_dont_know(make_agent):
    llm = ScriptedLLM({"text": ["Got it, thanks for telling me.", "Got it, thanks for telling me."]})
    agent = make_agent(llm, AgentConfig(learn=False))
    agent.ingest("I'm allergic to peanuts.", now="2026-03-01", learn=False)
    result = agent.turn("What am I allergic to?", now="2026-03-02")
    assert result.answer == "I don't know." and llm.calls_for("text") == 2


def test_a_statement_in_rag_mode_keeps_a_reply_that_sounds_like_the_acknowledgement(make_agent):
    agent = make_agent(ScriptedLLM(defaults={"text": "Got it, thanks for telling me."}), AgentConfig(learn=False))
    assert agent.turn("I'm allergic to peanuts.", "rag").answer == "Got it, thanks for telling me."


@pytest.mark.parametrize("said, reply, plain", [
    ("I'm allergic to penicillin.", "I'm sorry, but I can't assist with that.", "Got it, thanks for telling me."),
    ("Ya no tomo café, solo té verde.", "Ya no tomo café, solo té verde.", "Entendido, gracias por contármelo."),
])
def test_a_statement_never_gets_a_refusal_or_its_own_words_back(make_agent, store, said, reply, plain):
    agent = make_agent(ScriptedLLM(defaults={"text": reply}), AgentConfig(learn=False))
    result = agent.turn(said)
    assert result.answer == plain
    assert result.trace.step("Acknowledgement").parsed == {"replaced": True}
    assert [m.text for m in store.messages()] == [said, plain]  # what the person sees is what is stored


def test_a_merge_replaces_nothing(make_agent, store):
    agent = make_agent(ScriptedLLM(), AgentConfig(learn=False))
    old = agent.ingest("My cat weighs 6,4 kilos.", now="2026-03-01", learn=False)
    new = agent.ingest("My cat weighs 5,8 kilos now.", now="2026-05-01", learn=False)
    vector = agent.embedder.embed("cat weight", role="passage")
    older = store.add_memory("The cat weighs 6,4 kilos", source_message_ids=[old.id], embedding=vector)
    newer = store.add_memory("The cat weighs 5,8 kilos", source_message_ids=[new.id], embedding=vector)
    # Superseded as a Dream's MERGE leaves an entry (no UPDATE recorded): a merge keeps every value.
    store.query("UPDATE memories SET status = 'superseded', superseded_by = ? WHERE id = ?", (newer, older))
    prompt = agent.ask("How much does my cat weigh?").prompt_text
    assert "(replaced later)" not in prompt
    assert "- 2026-03-01: My cat weighs 6,4 kilos.\n" in prompt and "- 2026-05-01: My cat weighs 5,8 kilos now." in prompt


def test_published_variant_shows_no_verbatim_sentences(make_agent):
    llm = ScriptedLLM(defaults={"Selection": lambda m, s: json.dumps({"keep": []})})
    agent = make_agent(llm, AgentConfig(learn=False, variant="published"))
    for i in range(6):
        agent.ingest(f"Sentence {i} about my bicycle trips.", learn=False)
    assert agent.ask("bicycle trips", mode="lightmem").evidence == []


def test_a_value_a_dream_updated_is_left_out_for_now_and_marked_replaced_for_the_past(make_agent, store):
    def update(messages, schema):
        ids = [int(i) for i in re.findall(r"\[(\d+)\]", messages[-1]["content"])]
        return json.dumps({"operations": [{"op": "UPDATE", "target_ids": sorted(ids)[:2],
                                           "text": "The user lives in Porto (previously Lisbon)", "reason": "moved"}]})

    agent = make_agent(ScriptedLLM(defaults={"DreamProposal": update}), AgentConfig(learn=False))
    old = agent.ingest("I live in Lisbon.", now="2026-03-01", learn=False)
    new = agent.ingest("I moved to Porto.", now="2026-05-01", learn=False)
    vector = agent.embedder.embed("The user lives in", role="passage")  # one cluster for the Dream
    for text, message in (("The user lives in Lisbon", old), ("The user lives in Porto", new)):
        memory_id = store.add_memory(text, source_message_ids=[message.id], embedding=vector)
        agent.index.add("memories", [memory_id], vector[None, :])
    report = agent.memory.dream(now="2026-05-02T23:00:00")
    assert [op.op for op in report.accepted] == ["UPDATE"], report.rejected
    now = agent.ask("Where do I live?")
    assert "Lisbon" not in now.prompt_text and len(now.trace.step("Selector").parsed["older"]) == 1
    assert "- 2026-05-01: I moved to Porto.\n" in now.prompt_text + "\n"
    before = agent.ask("Where did I live before?").prompt_text
    assert "- 2026-03-01: I live in Lisbon. (replaced later)" in before
    assert "- 2026-05-01: I moved to Porto.\n" in before + "\n"


@pytest.mark.parametrize("said, invented, told, skipped", [
    # A small model asked for facts about a question invents one; about small talk, it keeps "The user is grateful".
    ("What's my blood type? ¿Lo sabes?", "The user's blood type is O+", "My blood type is A, I checked.", "question"),
    ("¡Gracias, genial! ¿Seguimos mañana?", "The user is grateful", "¡Gracias! My blood type is A.", "small talk"),
])
def test_a_message_that_tells_nothing_teaches_the_writer_nothing(make_agent, store, said, invented, told, skipped):
    first_word = said.split()[0]
    llm = ScriptedLLM(defaults={"ExtractedFacts": facts_from({"blood type is A": ["The user's blood type is A"],
                                                              first_word: [invented]}),
                                "text": "I don't know."})
    agent = make_agent(llm)
    nothing = agent.turn(said)
    something = agent.turn(told)
    agent.learning.wait()
    assert agent.learning.outcomes[nothing.message_id].step.parsed["skipped"] == skipped
    assert agent.learning.outcomes[something.message_id].step.parsed["skipped"] is None
    assert llm.calls_for("ExtractedFacts") == 1  # only the message that tells something went to the model
    assert [m.source_message_ids for m in store.memories()] == [(something.message_id,)]


def steps_without_timing(result) -> list[tuple]:
    return [(s.name, s.decision, s.raw, s.parsed, s.error, s.prompt_tokens, s.completion_tokens, s.llm_calls)
            for s in result.trace.steps]


def test_a_streamed_turn_answers_stores_and_traces_what_the_plain_turn_does(make_agent, store, tmp_path):
    reply = "Your cat is called Miso, and she sleeps all day."
    streamed: list[tuple[str, str]] = []
    agent = make_agent(ScriptedLLM(defaults={"text": reply}), AgentConfig(learn=False))
    agent.ingest("My cat Miso sleeps all day.", now="2026-03-01", learn=False)
    result = agent.turn("What is my cat called?", now="2026-03-02", on_text=lambda *piece: streamed.append(piece))

    other_store = Store(tmp_path / "plain.sqlite3")
    plain_agent = Agent(store=other_store, index=VectorIndex(agent.index.client),
                        llm=ScriptedLLM(defaults={"text": reply}), embedder=agent.embedder, config=AgentConfig(learn=False))
    try:
        plain_agent.ingest("My cat Miso sleeps all day.", now="2026-03-01", learn=False)
        plain = plain_agent.turn("What is my cat called?", now="2026-03-02")
    finally:
        plain_agent.close()
        plain_agent.index.drop()
        other_store.close()

    assert len(streamed) == 10 and {mode for mode, _ in streamed} == {"lightmem"}
    assert "".join(piece for _, piece in streamed) == result.answer == plain.answer == reply
    assert steps_without_timing(result) == steps_without_timing(plain)
    assert store.messages()[-1].text == reply and store.messages()[-1].speaker == "lightmem"


def test_a_code_abstention_replaces_what_streamed(make_agent, store):
    streamed: list[str] = []
    agent = make_agent(ScriptedLLM(defaults={"text": "Your dog is called Rex."}), AgentConfig(learn=False))
    agent.ingest("My cat Miso sleeps all day.", now="2026-03-01", learn=False)
    result = agent.turn("What is my dog called?", on_text=lambda mode, piece: streamed.append(piece))
    assert "".join(streamed) == "Your dog is called Rex."
    assert result.answer == "I don't know." and result.trace.step("Abstention").parsed["abstained"]
    assert store.messages()[-1].text == "I don't know."  # what is stored is the result, not the stream


def test_compare_streams_one_column_then_the_other(make_agent, store):
    def answer(messages, schema):
        return "From memory: Lisbon." if "Lisbon" in messages[0]["content"] else "I am not sure."

    streamed: list[tuple[str, str]] = []
    agent = make_agent(ScriptedLLM(defaults={"text": answer}), AgentConfig(learn=False))
    agent.ingest("I live in Lisbon.", now="2026-03-01", learn=False)
    results = agent.compare("Where do I live?", on_text=lambda *piece: streamed.append(piece))
    modes = [mode for mode, _ in streamed]
    assert modes == sorted(modes, key=["lightmem", "rag"].index) and set(modes) == {"lightmem", "rag"}
    for mode in ("lightmem", "rag"):
        assert "".join(piece for m, piece in streamed if m == mode) == results[mode].answer == "From memory: Lisbon."
    assert [m.text for m in store.messages()[-2:]] == [results["lightmem"].answer, results["rag"].answer]
