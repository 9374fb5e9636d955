"""What memory knows that naive RAG does not, decided in code: names never said of a relation, the newest value of
something asked about now, and the dates that relative words stand for. What memory holds as current, by the kinds
of its entries, is in test_memory_current.py."""
import pytest

from dreaming_agent.pipeline.agent import AgentConfig
from dreaming_agent.testing import ScriptedLLM


def test_a_name_for_a_relation_never_mentioned_is_not_known(make_agent):
    llm = ScriptedLLM(defaults={"text": "Tu madre se llama Itziar."})
    agent = make_agent(llm, AgentConfig(learn=False))
    agent.ingest("Mi hermana Itziar vive en Bilbao.", now="2026-03-01", learn=False)
    result = agent.turn("¿Cómo se llama mi madre?", now="2026-03-02")
    assert result.answer == "No lo sé." and result.blocking_llm_calls == 1
    assert result.trace.step("Abstention").parsed["unsupported"] == ["itziar"]  # never said with the mother
    assert result.trace.step("Selector").parsed["unsaid"] == ["madre"]
    told_now = agent.turn("My mother is called Amaia. What's my mother's name?", now="2026-03-03")
    # Said in the same message: the model's "Itziar" is refused as never said with the mother.
    assert told_now.blocking_llm_calls == 1 and told_now.trace.step("Abstention").parsed["unsupported"] == ["itziar"]
    assert agent.ask("¿Cómo se llama mi madre?", mode="rag").answer == "Tu madre se llama Itziar."  # RAG stays naive


def test_a_relation_word_that_is_not_theirs_is_no_relation_asked_after(make_agent):
    """"A local children's hospital" names a hospital: the question goes to the model, it is not "never mentioned"."""
    from dreaming_agent.pipeline.abstain import relations

    said = lambda: ["I ran a charity 5K in May."]  # noqa: E731
    assert relations("Which came first, the volleyball league or the charity 5K for a local children's hospital?",
                     said) is None
    assert relations("What did I spend on gifts for my coworker and brother?", said).unsaid == ("brother",)
    assert relations("What is my sister's job?", said).unsaid == ("sister",)
    assert relations("¿Cómo se llama mi hermana mayor?", said).unsaid == ("hermana",)
    llm = ScriptedLLM(defaults={"text": "The volleyball league."})
    agent = make_agent(llm, AgentConfig(learn=False))
    agent.ingest("I joined a volleyball league in March.", now="2026-05-01", learn=False)
    result = agent.turn("Which came first, the volleyball league or the charity run for a children's hospital?",
                        now="2026-05-02")
    assert result.blocking_llm_calls == 1 and result.answer == "The volleyball league."


def test_a_name_given_for_a_relation_must_have_been_said_with_it(make_agent):
    agent = make_agent(ScriptedLLM(defaults={"text": "Your mother is Itziar."}), AgentConfig(learn=False))
    agent.ingest("Mi hermana Itziar vive en Bilbao.", now="2026-03-01", learn=False)
    agent.ingest("My mother lives in Valencia and calls every Sunday.", now="2026-03-02", learn=False)
    result = agent.ask("What's my mother's name?")
    assert result.answer == "I don't know." and result.trace.step("Abstention").parsed["unsupported"] == ["itziar"]
    sister = make_agent(ScriptedLLM(defaults={"text": "Your sister is Itziar."}), AgentConfig(learn=False))
    sister.ingest("Mi hermana Itziar vive en Bilbao.", now="2026-03-01", learn=False)
    assert sister.ask("What's my sister's name?").answer == "Your sister is Itziar."


def test_a_question_about_time_reads_dates_in_words_and_rag_stays_verbatim(make_agent):
    agent = make_agent(ScriptedLLM(defaults={"text": "On 21 March."}), AgentConfig(learn=False))
    agent.ingest("My granddaughter was born yesterday, 3.2 kilos.", now="2026-03-22", learn=False)
    lightmem = agent.ask("When was my granddaughter born?", mode="lightmem")
    # dated at the day it happened, which a small model copies, and the day it was told
    assert ("- 21 March 2026 (said 22 March 2026): My granddaughter was born yesterday (21 March 2026), 3.2 kilos."
            in lightmem.prompt_text)
    assert lightmem.answer == "On 21 March."
    rag = agent.ask("When was my granddaughter born?", mode="rag")
    assert "- 2026-03-22: My granddaughter was born yesterday, 3.2 kilos." in rag.prompt_text
    spanish = agent.ask("¿Cuándo nació mi nieta?", mode="lightmem")  # in the language of the reply that copies them
    assert ("- 21 de marzo de 2026 (dicho el 22 de marzo de 2026): My granddaughter was born yesterday "
            "(21 de marzo de 2026), 3.2 kilos." in spanish.prompt_text)
    weight = agent.ask("How much did my granddaughter weigh?", mode="lightmem")  # not about time: as stored
    assert "- 2026-03-22: My granddaughter was born yesterday, 3.2 kilos." in weight.prompt_text


def test_asked_when_an_answer_restating_a_line_gets_the_day_code_counted_for_it(make_agent):
    """The 0.5B model restates a line and leaves its date out: the day that line tells of, counted in code, is added
    (no second call). An answer with a day, a span or "I don't know", one restating a line that tells no day, or one
    in a language no module knows, stays as it is."""
    agent = make_agent(ScriptedLLM(defaults={"text": "You drove up to Caraquet to tune your mom's piano."}),
                       AgentConfig(learn=False))
    agent.ingest("Last Saturday I drove up to Caraquet to tune my mom's piano.", now="2026-04-07", learn=False)
    agent.ingest("I started climbing at a gym called Crux.", now="2026-05-03", learn=False)
    result = agent.ask("When did I drive up to Caraquet?", now="2026-06-01T10:00:00")
    assert result.answer == "You drove up to Caraquet to tune your mom's piano. (4 April 2026)"
    assert result.blocking_llm_calls == 1 and result.trace.step("No day").parsed["day"] == "4 April 2026"
    for answer in ("On 4 April 2026.", "Two months ago.", "I don't know.", "You started climbing at Crux."):
        kept = make_agent(ScriptedLLM(defaults={"text": answer}), AgentConfig(learn=False))
        kept.ingest("Last Saturday I drove up to Caraquet to tune my mom's piano.", now="2026-04-07", learn=False)
        kept.ingest("I started climbing at a gym called Crux.", now="2026-05-03", learn=False)
        assert "No day" not in [step.name for step in kept.ask("When did I drive up to Caraquet?").trace.steps]
    rag = agent.ask("When did I drive up to Caraquet?", mode="rag")  # its lines show the day it was said: none added
    assert rag.answer == "You drove up to Caraquet to tune your mom's piano." and "No day" not in [
        step.name for step in rag.trace.steps]
    unknown = make_agent(ScriptedLLM(defaults={"text": "Você foi a Caraquet afinar o piano."}), AgentConfig(learn=False))
    unknown.ingest("No sábado passado fui a Caraquet afinar o piano da minha mãe.", now="2026-04-07", learn=False)
    asked = unknown.ask("Quando foi que eu fui a Caraquet?")
    assert asked.answer == "Você foi a Caraquet afinar o piano." and "No day" not in [s.name for s in asked.trace.steps]


def test_an_answer_writing_a_lines_date_in_words_is_not_abstained_on(make_agent):
    agent = make_agent(ScriptedLLM(defaults={"text": "Yes, on 29 March."}), AgentConfig(learn=False))
    agent.ingest("Today I ran my first half marathon!!", now="2026-03-29", learn=False)
    result = agent.ask("Did I run a half marathon?", mode="lightmem")  # not about time: its line reads 2026-03-29
    assert "- 2026-03-29: Today I ran my first half marathon!!" in result.prompt_text
    assert result.answer == "Yes, on 29 March."
    assert not result.trace.step("Abstention").parsed["abstained"]
    invented = make_agent(ScriptedLLM(defaults={"text": "Yes, on 12 April."}), AgentConfig(learn=False))
    invented.ingest("Today I ran my first half marathon!!", now="2026-03-29", learn=False)
    assert invented.ask("Did I run a half marathon?", mode="lightmem").answer == "I don't know."


def test_a_question_about_now_leaves_out_the_value_a_newer_line_replaced(make_agent):
    agent = make_agent(ScriptedLLM(defaults={"text": "5,8 kilos."}), AgentConfig(learn=False))
    agent.ingest("El veterinario dice que Pimentón pesa 6,4 kilos.", now="2026-03-14", learn=False)
    agent.ingest("El veterinario dice que Pimentón pesa 5,8 kilos.", now="2026-05-24", learn=False)
    agent.new_conversation()  # asked another day: the two lines are memory, not the recent turns
    now = agent.ask("¿Cuánto pesa Pimentón ahora?")
    assert "5,8 kilos" in now.prompt_text and "6,4 kilos" not in now.prompt_text
    assert len(now.trace.step("Selector").parsed["older"]) == 1
    assert now.trace.step("Controller").parsed["current"]  # about now
    history = agent.ask("¿Cuánto pesaba Pimentón en marzo y cuánto en mayo?")  # not about now: both values
    assert "5,8 kilos" in history.prompt_text and "6,4 kilos" in history.prompt_text
    assert "6,4 kilos" in agent.ask("¿Cuánto pesa Pimentón ahora?", mode="rag").prompt_text  # RAG stays naive


def test_a_question_about_before_and_now_keeps_both_values(make_agent):
    agent = make_agent(ScriptedLLM(defaults={"text": "Joana, y ahora Rita."}), AgentConfig(learn=False))
    agent.ingest("Mi profesora de portugués es Joana.", now="2026-09-13", learn=False)
    agent.ingest("Mi profesora de portugués ahora es Rita.", now="2026-11-08", learn=False)
    agent.new_conversation()
    for question in ("¿Quién fue mi primera profesora de portugués y quién es la de ahora?",
                     "¿Quién me daba clases de portugués antes y quién me las da ahora?"):
        result = agent.ask(question)
        assert "Joana" in result.prompt_text and "Rita" in result.prompt_text, question
        assert not result.trace.step("Controller").parsed["current"]


def test_a_question_that_stands_alone_is_answered_without_the_recent_questions(make_agent):
    agent = make_agent(ScriptedLLM(defaults={"text": "En Donostia."}), AgentConfig(learn=False))
    agent.turn("Mi hermana Ane vive en Donostia.", now="2026-03-01T09:00:00")
    agent.turn("What's my blood type?", now="2026-03-01T09:01:00")
    alone = agent.turn("¿Dónde vive mi hermana?", now="2026-03-01T09:02:00")
    assert "[user]\nWhat's my blood type?" not in alone.prompt_text  # an earlier question and its answer: left out
    assert alone.prompt_text.count("[assistant]\nEn Donostia.") == 1  # the statement's reply only
    assert "[user]\nMi hermana Ane vive en Donostia." in alone.prompt_text  # what she just told stays
    assert "- 2026-03-01: Mi hermana Ane vive en Donostia." in alone.prompt_text  # and is evidence too
    assert not alone.trace.step("Controller").parsed["follow_up"]  # stands alone
    leaning = agent.turn("¿Y su marido?", now="2026-03-01T09:03:00")
    assert "[user]\n¿Dónde vive mi hermana?" in leaning.prompt_text and "[assistant]\nEn Donostia." in leaning.prompt_text
    assert "[user]\n¿Y su marido?" in agent.ask("¿Dónde vive mi hermana?", mode="rag").prompt_text  # RAG: as naive


def test_a_durable_fact_is_shown_only_for_a_question_it_bears_on(make_agent, store, index, embedder):
    agent = make_agent(ScriptedLLM(defaults={"text": "Peanuts."}), AgentConfig(learn=False))
    agent.memory.add("I am allergic to peanuts")  # typed into "memory about you": no source message
    said = agent.ingest("My sister Ane lives in Donostia.", now="2026-03-01", learn=False)
    vector = embedder.embed_batch(["The user's sister Ane lives in Donostia"], role="passage")
    fact = store.add_memory("The user's sister Ane lives in Donostia", tier="ltm", source_message_ids=[said.id],
                            embedding=vector[0], created_at="2026-03-01T12:00:00")
    index.add("memories", [fact], vector)
    allergy = agent.ask("What am I allergic to?")
    assert "I am allergic to peanuts" in allergy.prompt_text
    sister = agent.gather("Where does my sister Ane live?", "lightmem", today="2026-03-02")
    assert "My sister Ane lives in Donostia." in "\n".join(sister.lines)  # her own words, once
    assert sister.facts == []  # not the allergy (unrelated), not the fact drawn from the sentence already shown


def test_a_reply_that_does_not_know_is_in_the_questions_language_in_every_mode(make_agent):
    # The prompt names the Spanish words, and the 0.5B model wrote "No lo sé." for English questions.
    spanish = make_agent(ScriptedLLM(defaults={"text": "No lo sé."}), AgentConfig(learn=False))
    spanish.ingest("I went hiking in the Pyrenees last summer.", now="2026-03-01", learn=False)
    for mode in ("lightmem", "rag", "none"):
        assert spanish.ask("What is the name of my first teacher?", mode=mode).answer == "I don't know.", mode
        assert spanish.ask("¿Cómo se llamaba mi primer profesor?", mode=mode).answer == "No lo sé.", mode
    english = make_agent(ScriptedLLM(defaults={"text": "I don't know"}), AgentConfig(learn=False))
    assert english.ask("¿Dónde fui de excursión?", mode="rag").answer == "No lo sé."
    longer = make_agent(ScriptedLLM(defaults={"text": "No lo sé, pero fuiste a los Pirineos."}), AgentConfig(learn=False))
    assert longer.ask("Where did I go hiking?", mode="rag").answer == "No lo sé, pero fuiste a los Pirineos."


def test_a_number_asked_of_a_relation_must_be_said_where_they_spoke_of_it(make_agent):
    # Held-out scenario (0.5B model): "¿Cuántos años tiene mi hermano?" answered "2 años" from the dog's adoption.
    llm = ScriptedLLM(defaults={"text": "Tu hermano tiene 2 años."})
    agent = make_agent(llm, AgentConfig(learn=False))
    agent.ingest("My brother Gonzalo lives in Montevideo.", now="2026-03-01", learn=False)
    agent.ingest("La adopté hace dos años en una protectora.", now="2026-03-01", learn=False)
    result = agent.ask("¿Cuántos años tiene mi hermano?")
    assert result.answer == "No lo sé." and result.blocking_llm_calls == 1
    assert result.trace.step("Abstention").parsed["unsupported"] == ["2"]  # no message about the hermano says 2
    # Said with the relation, a number stands; a date counted from the lines stands; a number not asked for stands.
    agent.ingest("Mi hermano tiene 2 hijos.", now="2026-03-02", learn=False)
    assert agent.ask("¿Cuántos hijos tiene mi hermano?").answer == "Tu hermano tiene 2 años."
    dated = make_agent(ScriptedLLM(defaults={"text": "On 21 March 2026, 3 days ago."}), AgentConfig(learn=False))
    dated.ingest("My granddaughter was born yesterday.", now="2026-03-22", learn=False)
    # asked on 24 March: the count code makes agrees with the answer's
    assert dated.ask("How many days ago was my granddaughter born?",
                     now="2026-03-24T10:00:00").answer == "On 21 March 2026, 3 days ago."
    built = make_agent(ScriptedLLM(defaults={"text": "A bookshelf with four shelves."}), AgentConfig(learn=False))
    built.ingest("My neighbour Fátima needed shelves.", now="2026-03-01", learn=False)
    built.ingest("I built a bookshelf for Dona Fátima with four shelves.", now="2026-03-02", learn=False)
    assert built.ask("What did I build for my neighbour?").answer == "A bookshelf with four shelves."
