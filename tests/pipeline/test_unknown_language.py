"""A conversation in a language no module knows: the model's own replies stand, and the trace says why."""
import json
from contextlib import contextmanager

from dreaming_agent.pipeline.agent import AgentConfig
from dreaming_agent.pipeline.writer import WriterSettings
from dreaming_agent.testing import ScriptedLLM

from .conftest import facts_from


@contextmanager
def _told(store, index, said: list[tuple[str, str]], facts: list[list[str]], replies: list[str]):
    """An agent with the real multilingual embedder, its model scripted (the Writer's `facts` for each message, then
    `replies`), told each (message, when) as a turn, the Writer waited for."""
    from dreaming_agent.embed.offline import UniversalSentenceEncoderEmbedder
    from dreaming_agent.pipeline.agent import Agent, AgentConfig
    from dreaming_agent.pipeline.writer import WriterSettings

    llm = ScriptedLLM({"ExtractedFacts": [json.dumps({"facts": f}) for f in facts], "text": replies})
    # The Writer as a model that writes any language well would be (`WriterSettings.any_language`): its facts are
    # scripted here, in every language these tests tell.
    agent = Agent(store=store, index=index, llm=llm, embedder=UniversalSentenceEncoderEmbedder(),
                  config=AgentConfig(writer=WriterSettings(any_language=True)))
    try:
        for text, when in said:
            agent.turn(text, now=when)
        assert agent.learning.wait(timeout=60)
        yield agent
    finally:
        agent.close()


def _asked(store, index, told: list[tuple[str, str]], replies: list[str], questions: list[tuple[str, str]]):
    """The turns of an agent with the real multilingual embedder that learns nothing, its replies scripted: told each
    (text, when) as stored messages, then asked each (question, when)."""
    from dreaming_agent.embed.offline import UniversalSentenceEncoderEmbedder
    from dreaming_agent.pipeline.agent import Agent

    agent = Agent(store=store, index=index, llm=ScriptedLLM({"text": replies}),
                  embedder=UniversalSentenceEncoderEmbedder(), config=AgentConfig(learn=False))
    try:
        for text, when in told:
            agent.ingest(text, now=when, learn=False)
        return [agent.turn(question, now=when) for question, when in questions]
    finally:
        agent.close()


def test_a_french_conversation_gets_the_models_own_answers(make_agent):
    replies = ["Merci Claire, c'est noté !",  # the model's acknowledgement in the person's language
               "Je m'appelle Claire.",  # the person's own introduction, given as the sister's name
               "No lo sé."]  # a refusal in another known language, rewritten for an English or Spanish question
    agent = make_agent(ScriptedLLM({"text": replies}), AgentConfig(learn=False))
    told = agent.turn("Je m'appelle Claire et j'habite à Lyon.", now="2026-03-02")
    agent.ingest("Ma sœur Sophie est médecin.", now="2026-03-02", learn=False)
    asked = agent.turn("Comment s'appelle ma sœur ?", now="2026-03-03")
    never_told = agent.turn("Où est-ce que je travaille ?", now="2026-03-03")

    assert [told.answer, asked.answer, never_told.answer] == replies
    assert told.trace.step("Acknowledgement").parsed == {"replaced": False}
    for result in (told, asked, never_told):
        assert result.trace.step("Controller").parsed["language"] is None
    for result in (asked, never_told):
        names = {s.name for s in result.trace.steps}
        assert not {"Abstention", "Voice", "Own name", "Another's name", "Acknowledgement copied"} & names


def test_a_statement_answered_in_a_language_this_knows_gets_an_acknowledgement_in_none(make_agent):
    """The default model answered "Große Neuigkeit: am Samstag bin ich nach Leipzig umgezogen!" with "Thank you for
    sharing your message. I'm glad you found it interesting." (met as a new user): a reply in English to a message in
    a language no module knows becomes an acknowledgement in no language, streamed or not; copied from the window as
    the next question's answer, that question is asked again without it. A message that tells no language ("Pepper!")
    keeps the model's reply."""
    from dreaming_agent.pipeline import acknowledge

    replies = ["Thank you for sharing your message. I'm glad you found it interesting.",
               "✓", "In Leipzig.",  # the window's acknowledgement copied as an answer, then asked again without it
               "What a lovely name!"]
    agent = make_agent(ScriptedLLM({"text": replies}), AgentConfig(learn=False))
    shown: list[str | None] = []
    told = agent.turn("Große Neuigkeit: am Samstag bin ich nach Leipzig umgezogen!", now="2026-03-02",
                      on_text=lambda mode, piece: shown.append(piece))
    assert told.answer == acknowledge.ANY_LANGUAGE
    assert told.trace.step("Acknowledgement").parsed == {"replaced": True}
    assert not any(piece and "glad" in piece for piece in shown)  # never shown, not even for a moment
    asked = agent.turn("Wo wohne ich jetzt?", now="2026-03-02")
    assert asked.answer == "In Leipzig."
    assert asked.trace.step("Acknowledgement copied").parsed == {"asked_again": True}
    named = agent.turn("Pepper!", now="2026-03-02")
    assert named.answer == "What a lovely name!"


def test_an_english_statement_still_gets_its_refusal_replaced(make_agent):
    agent = make_agent(ScriptedLLM({"text": ["I'm sorry, but I can't assist with that."]}), AgentConfig(learn=False))
    told = agent.turn("My name is Claire and I live in Lyon.", now="2026-03-02")
    assert told.trace.step("Controller").parsed["language"] == "en"
    assert told.trace.step("Acknowledgement").parsed == {"replaced": True}
    assert told.answer == "Got it, thanks for telling me."


def test_the_persons_own_name_for_their_sisters_is_asked_again_without_their_introduction(store, index):
    """French, which no module knows: the Writer's English entry says whose name Claire is, the real multilingual
    embedder which line the question is nearest to; the answer "Je m'appelle Claire." read the introduction instead,
    so the model is asked again without it (and without the turns before, which say it too), and its answer stands."""
    facts = [["The user's name is Claire", "The user lives in Lyon"], ["The user's sister is Sophie"]]
    replies = ["Bonjour Claire !", "D'accord.", "Je m'appelle Claire.", "Ma sœur s'appelle Sophie."]
    said = [("Je m'appelle Claire et j'habite à Lyon.", "2026-03-02T10:00:00"),
            ("Ma sœur s'appelle Sophie, elle est médecin.", "2026-03-02T10:01:00")]
    with _told(store, index, said, facts, replies) as agent:
        asked = agent.turn("Comment s'appelle ma sœur ?", now="2026-03-02T10:02:00")
    assert asked.answer == "Ma sœur s'appelle Sophie."
    assert asked.trace.step("Controller").parsed["language"] is None
    assert asked.trace.step("Own name").parsed == {"left_out": ["- 2026-03-02: Je m'appelle Claire et j'habite à Lyon."]}
    assert [s.name for s in asked.trace.steps if s.llm_calls] == ["Responder", "Responder, again"]
    assert "Je m'appelle Claire" not in asked.prompt_text  # neither the line nor the turn that said it
    assert "Ma sœur s'appelle Sophie, elle est médecin." in asked.prompt_text


def test_a_second_slip_in_a_language_no_module_knows_stands_as_the_models_answer(make_agent):
    """Code has no words of the person's language to say "I don't know" with: asked again once, the answer stands."""
    agent = make_agent(ScriptedLLM({"text": ["Bonjour !", "Claire.", "Claire."]}), AgentConfig(learn=False))
    agent.turn("Je m'appelle Claire et j'habite à Lyon.", now="2026-03-02")
    agent.memory.add("The user's name is Claire")
    agent.ingest("Ma sœur s'appelle Sophie, elle est médecin.", now="2026-03-02", learn=False)
    asked = agent.turn("Comment s'appelle ma sœur ?", now="2026-03-03")
    assert asked.answer == "Claire."
    assert asked.trace.step("Own name").parsed["left_out"] == ["- 2026-03-02: Je m'appelle Claire et j'habite à Lyon."]
    assert not {"Abstention", "In their language"} & {s.name for s in asked.trace.steps if s.name != "Responder"}


def test_the_persons_own_name_asked_for_is_no_slip(make_agent):
    agent = make_agent(ScriptedLLM({"text": ["Bonjour !", "Vous vous appelez Claire."]}), AgentConfig(learn=False))
    agent.turn("Je m'appelle Claire et j'habite à Lyon.", now="2026-03-02")
    agent.memory.add("The user's name is Claire")
    asked = agent.turn("Comment je m'appelle ?", now="2026-03-03")
    assert asked.answer == "Vous vous appelez Claire." and "Own name" not in {s.name for s in asked.trace.steps}


def test_own_names_are_read_from_the_writers_english_whatever_the_language_told_in():
    from dreaming_agent.pipeline.abstain import own_names

    entries = ["The user's name is Claire", "The user is called Łukasz Nowak", "The user's name is Ana and she lives",
               "The user's sister's name is Sophie", "The user is a doctor", "The user's name is unknown"]
    assert own_names(entries) == {"Claire", "Łukasz Nowak", "Ana"}


def test_a_reply_that_only_repeated_the_message_before_it_leaves_the_window():
    from dreaming_agent.pipeline.responder import quiet_replies

    turns = [{"role": "user", "content": "Je m'appelle Claire et j'habite à Lyon."},
             {"role": "assistant", "content": "Je m'appelle Claire et j'habite à Lyon."},
             {"role": "user", "content": "Ma sœur s'appelle Sophie."},
             {"role": "assistant", "content": "Enchantée ! Sophie est un joli prénom."}]
    assert quiet_replies(turns) == [turns[0], turns[2], {"role": "assistant", "content": "Enchantée !"}]


def test_the_persons_own_sentence_handed_back_is_asked_again_from_memory_in_the_writers_words(store, index):
    """German, which no module knows: for a question never answered, the model hands back the last thing told, whole.
    Asked again from the Writer's English entries alone, without the person's sentences and the turns before; the
    model's second answer stands."""
    moved = "Ich bin letzte Woche nach München umgezogen."
    facts = [["The user's name is Jonas", "The user lives in Hamburg"], ["The user moved to München last week"]]
    replies = ["Hallo Jonas!", "Schön!", moved, "Das weiß ich nicht."]
    said = [("Ich heiße Jonas und wohne in Hamburg.", "2026-11-20T10:00:00"), (moved, "2026-11-27T10:00:00")]
    with _told(store, index, said, facts, replies) as agent:
        asked = agent.turn("Welche Blutgruppe habe ich?", now="2026-11-27T10:01:00")
    assert asked.answer == "Das weiß ich nicht."
    assert asked.trace.step("Handed back").parsed == {"handed_back": moved, "whose": "person"}
    assert [s.name for s in asked.trace.steps if s.llm_calls] == ["Responder", "Responder, again"]
    assert "umgezogen" not in asked.prompt_text and "wohne in Hamburg" not in asked.prompt_text
    assert "The user moved to München last week" in asked.prompt_text
    assert {c.kind for c in asked.evidence} == {"memory"}


def test_the_question_given_back_as_its_answer_is_asked_again_from_memory_in_the_writers_words(store, index):
    """Polish, which no module knows: the 0.5B model gave "Gdzie teraz pracuję?" back as its own answer (fourteenth,
    round 38). Asked again from the Writer's English entries, without the person's sentences and the turns before;
    the second answer stands."""
    question = "Gdzie teraz pracuję?"
    facts = [["The user works at Pixelmint"], ["The user started working at Nordkap"]]
    replies = ["Super!", "Gratulacje!", question, "Nordkap."]
    said = [("Pracuję w Pixelmint jako tester.", "2026-03-02T10:00:00"),
            ("Od poniedziałku pracuję w Nordkap!", "2026-04-07T10:00:00")]
    with _told(store, index, said, facts, replies) as agent:
        asked = agent.turn(question, now="2026-04-08T10:00:00")
    assert asked.trace.step("Controller").parsed["language"] is None
    assert asked.answer == "Nordkap."
    assert asked.trace.step("Handed back").parsed == {"handed_back": question, "whose": "question"}
    assert [s.name for s in asked.trace.steps if s.llm_calls] == ["Responder", "Responder, again"]
    assert "Pixelmint jako tester" not in asked.prompt_text and "The user started working at Nordkap" in asked.prompt_text
    assert {c.kind for c in asked.evidence} == {"memory"}


def test_an_earlier_reply_handed_back_is_asked_again_without_the_turns_before(make_agent):
    earlier = "Schön, dass du mir von deiner Schwester erzählst!"
    agent = make_agent(ScriptedLLM({"text": [earlier, earlier, "Lena."]}), AgentConfig(learn=False))
    agent.turn("Meine Schwester heißt Lena.", now="2026-11-27")
    asked = agent.turn("Wie heißt meine Schwester?", now="2026-11-27")
    assert asked.answer == "Lena."
    assert asked.trace.step("Handed back").parsed == {"handed_back": earlier, "whose": "assistant"}
    assert "Meine Schwester heißt Lena." in asked.prompt_text and earlier not in asked.prompt_text


def test_part_of_a_sentence_or_a_known_language_is_not_handed_back(make_agent):
    """Not the whole of what was said ("Je vis à Nantes." from a longer message) keeps; in English, the Voice check
    turns the person's words to them instead."""
    agent = make_agent(ScriptedLLM({"text": ["Bonjour Hugo !", "Je vis à Nantes.", "Got it.",
                                             "I moved to Bristol last week."]}), AgentConfig(learn=False))
    agent.turn("Bonjour, je suis Hugo et je vis à Nantes.", now="2026-11-20")
    french = agent.turn("Dans quelle ville est-ce que je vis ?", now="2026-11-20")
    agent.turn("I moved to Bristol last week.", now="2026-11-27")
    english = agent.turn("Where do I live now?", now="2026-11-27")
    assert french.answer == "Je vis à Nantes." and english.answer == "You moved to Bristol last week."
    assert "Handed back" not in {s.name for s in (*french.trace.steps, *english.trace.steps)}


def test_the_sentence_nearest_the_question_handed_back_is_kept_any_other_asked_again(store, index):
    """Code cannot read French: the line the real multilingual embedder finds nearest the question is taken to answer
    it ("Quel est mon métier ?" - the sentence about work, kept as the model gave it); another sentence handed back
    whole, for a question never answered, is asked again."""
    told = ["Bonjour, je suis Hugo et je vis à Nantes.", "Je travaille comme boulanger depuis dix ans.",
            "Mon frère Julien habite au Canada."]
    job, colour = _asked(store, index, [(text, "2026-11-20") for text in told], [told[1], told[2], "Je ne sais pas."],
                         [("Quel est mon métier ?", "2026-11-21"), ("Quelle est ma couleur préférée ?", "2026-11-21")])
    assert job.answer == told[1] and "Handed back" not in {s.name for s in job.trace.steps}
    assert colour.answer == "Je ne sais pas."
    assert colour.trace.step("Handed back").parsed == {"handed_back": told[2], "whose": "person"}


def test_a_sentence_stating_what_the_question_asks_after_is_kept_when_handed_back(store, index):
    """German (round 49's walk): "Wo wohne ich jetzt?" asks after a home and "Große Neuigkeit: Ich bin am 2. Dezember
    nach Leipzig gezogen!" states one, by the real multilingual embedder's reading of both, though "Hallo!" scores
    nearer the question. Handed back, that sentence is the answer (it had been asked again from memory's English,
    which held only the person's name, and answered "Ich bin Jonas."); a sentence the embedder reads as stating
    another thing (the first message: a cat's name) is still asked again."""
    told = ["Hallo!", "Ich heiße Jonas, wohne in Kassel, habe eine Katze namens Flocke und fahre einen Opel Corsa.",
            "Große Neuigkeit: Ich bin am 2. Dezember nach Leipzig gezogen!"]
    home, again = _asked(store, index, [(text, "2026-12-07") for text in told],
                         [told[2], told[1], "Das weiß ich nicht."], [("Wo wohne ich jetzt?", "2026-12-07")] * 2)
    retrieved = home.trace.step("Retriever").parsed
    assert max(retrieved, key=lambda c: c["score"])["text"] != told[2]  # not the line nearest the question
    assert home.answer == told[2] and "Handed back" not in {s.name for s in home.trace.steps}
    assert again.answer == "Das weiß ich nicht."
    assert again.trace.step("Handed back").parsed == {"handed_back": told[1], "whose": "person"}


def test_the_writer_keeps_no_fact_drawn_from_a_language_no_module_knows_and_keeps_its_sentences(make_agent, store):
    """Portuguese, which no module knows: the 0.5B model's English there was mostly wrong ("The user's mother is
    Callum" for Callum's mother), and nothing but the embedder could check it. By default the Writer keeps no fact
    whose nearest sentence is in such a language, and says why; the model is still read for a credential its English
    names, and the person's own name it gives, written in the message, is kept (the answer checks of such a language
    read it); the sentences stay the person's words, found for a question. English beside it, in the same message or
    another, and short English the word lists alone misread ("I quit smoking."), give their facts. A model that
    writes every language well may be let (`any_language`)."""
    portuguese = "No domingo levámo-los ao Douro de comboio. A mãe do Callum ficou encantada com as vinhas."
    llm = ScriptedLLM(defaults={"ExtractedFacts": facts_from({
        "Douro": ["The user's mother is Callum", "The user lives in Porto"], "smoking": ["The user quit smoking"],
        "Chamo-me": ["The user's name is Inês", "The user is a nurse"],
        "Passwort": ["The user's password is Schwertfisch"]})})
    agent = make_agent(llm)
    told = agent.turn(portuguese + " I live in Porto.", now="2026-05-04T10:00:00")
    agent.turn("I quit smoking.", now="2026-05-05T10:00:00")
    secret = agent.turn("Mein Passwort ist Schwertfisch, bitte merken.", now="2026-05-05T11:00:00")
    agent.turn("Chamo-me Inês e sou enfermeira.", now="2026-05-05T12:00:00")  # the name, written: kept
    assert agent.learning.wait(timeout=60)
    assert sorted(m.text for m in store.memories()) == [
        "The user lives in Porto", "The user quit smoking", "The user's name is Inês"]
    dropped = dict(agent.learning.outcomes[told.message_id].dropped)
    assert "language no module knows" in dropped["The user's mother is Callum"]
    assert agent.learning.outcomes[secret.message_id].withheld  # what the model's English named still withholds it
    assert any("Douro" in c.text for c in agent.turn("Where did we go on Sunday?", now="2026-05-06").evidence)

    let = make_agent(llm, AgentConfig(writer=WriterSettings(semantic_threshold=-1.0, any_language=True)))
    let.turn(portuguese, now="2026-05-07T10:00:00")
    assert let.learning.wait(timeout=60)
    assert "The user's mother is Callum" in [m.text for m in store.memories()]


def test_an_older_sentence_stating_what_is_asked_is_not_taken_to_answer_it(store, index):
    """Polish: both sentences state a home, by the real multilingual embedder; only the newest is taken to answer
    "Gdzie teraz mieszkam?", so the old home handed back is asked again, and the move handed back is kept."""
    old, moved = "Mieszkam w Poznaniu i mam psa, który wabi się Burek.", "W sobotę przeprowadziłam się do Gdańska!"
    first, second = _asked(store, index, [(old, "2026-11-02"), (moved, "2026-12-07")], [old, "Nie wiem.", moved],
                           [("Gdzie teraz mieszkam?", "2026-12-08")] * 2)
    assert first.answer == "Nie wiem."
    assert first.trace.step("Handed back").parsed == {"handed_back": old, "whose": "person"}
    assert second.answer == moved and "Handed back" not in {s.name for s in second.trace.steps}
