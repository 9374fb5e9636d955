"""The decisions the default variant takes in code: routing, compound queries, language, abstention."""
import pytest

from dreaming_agent.pipeline import abstain
from dreaming_agent.pipeline.controller import plan
from dreaming_agent.pipeline.evidence import memory_line, said_line
from dreaming_agent.pipeline.retriever import Candidate, is_question
from dreaming_agent.store.records import Memory, Sentence, Source


@pytest.mark.parametrize("text, question, personal, parts", [
    ("What colour is my cat, and what's his name?", True, True, ["What colour is my cat", "what's his name"]),
    ("¿Cómo se llama mi hermana y en qué ciudad vive?", True, True, ["Cómo se llama mi hermana", "en qué ciudad vive"]),
    ("¿Cuántas semanas hace que llegué a Edimburgo?", True, True, []),
    ("Did I run the half marathon before or after the vet?", True, True, []),
    ("Tengo un gato que se llama Miso.", False, False, []),
    ("What is the capital of France?", True, False, []),
    ("I have a cat called Pimentón, he's three.", False, False, []),
    ("Me gusta el té y como pasta", False, False, []),
    ("Remember that my sister is Inés.", False, False, []),
])
def test_plan_routes_and_splits_in_code(text, question, personal, parts):
    decided = plan(text)
    assert (decided.question, decided.personal) == (question, personal)
    assert decided.queries[0] == text and decided.queries[1:] == parts


@pytest.mark.parametrize("text, past", [
    ("What's my dog called?", False), ("What breed is my dog?", False), ("What's my cat called now?", False),
    ("Which cities have I lived in?", True), ("Where did I live before Bilbao?", True),
    ("Which towns we visited in May were by the sea?", True), ("How many times did I go swimming?", True),
    ("¿Dónde viví antes de Bilbao?", True), ("¿Cómo se llama mi perro?", False),
    ("How many times a week am I running now?", False),  # says it asks about now
])
def test_a_question_over_the_persons_history_reads_every_value(text, past):
    assert plan(text).past is past


@pytest.mark.parametrize("text, current", [
    ("How many cups of coffee am I having per day lately?", True), ("Are we still going to Lisbon in June?", True),
    ("Where do I live now?", True), ("¿Dónde vivo ahora?", True), ("Where did I live before?", False),
    ("Where do I live?", False), ("What is my current job title?", True), ("¿Cuál es mi trabajo actual?", True),
    ("What was my job title before the current one?", False),
])
def test_a_question_about_now_reads_the_newest_value(text, current):
    assert plan(text).current is current


@pytest.mark.parametrize("text, leans", [
    ("Where does she live?", True), ("¿Y eso cuándo fue?", True), ("And her husband?", True),
    ("¿Cómo se llama?", True), ("What did you say about the vet?", True), ("What did you just say?", True),
    ("¿Y mi hermano?", True), ("¿Dónde vive su marido?", True),
    ("What's my sister's name?", False), ("¿Qué coche tengo?", False), ("¿Tengo alguna alergia?", False),
    ("When did I move to Vitoria?", False), ("Where do I work these days?", False),
    ("Tengo un gato que se llama Miso.", True),  # a statement: answered from the message alone anyway
    # a pronoun for someone the question names first stands alone (dev, live)
    ("What did I give my nephew for his birthday?", False), ("What colour is my cat, and what's his name?", False),
    ("¿Cuántos kilos ha adelgazado mi gato entre sus dos visitas al veterinario?", False),
    ("Does Maria like her job?", False), ("What is his name?", True), ("When did my sister tell me about it?", True),
])
def test_a_question_that_leans_on_the_turns_before_it(text, leans):
    assert plan(text).follow_up is leans


@pytest.mark.parametrize("text, expected", [
    ("¿Tengo alguna alergia?", "es"), ("What's my blood type?", "en"), ("Qué coche tengo", "es"),
    ("Which city do I live in now?", "en"), ("¿Quién me ayudó?", "es"), ("Where did I move to in May?", "en"),
    ("I'm Tomás, I'm 34 and I teach history.", "en"), ("Me he mudado a Bilbao con mi pareja.", "es"),
    ("Vivo en Bilbao pero soy de Zaragoza.", "es"), ("Tengo un gato que se llama Miso.", "es"),
])
def test_language_of_the_question(text, expected):
    assert abstain.language(text) == expected


@pytest.mark.parametrize("answer, evidence, abstained", [
    ("Your blood type is AB.", '- (2026-03-02) the person said: "I live in Valencia."', True),
    ("Tu perro se llama Rex.", '- (2026-03-02) the person said: "Mi gato Pimentón duerme."', True),
    ("Your cat is called Pimentón.", '- (2026-03-02) the person said: "I have a cat called Pimentón."', False),
    ("You live in Edinburgh.", '- (2026-05-20) the person said: "Landed in Edinburgh today!"', False),
    ("You work at Haar Analytics.", '- (2026-04-12) the person said: "I got the job at Haar Analytics."', False),
    ("It was after.", '- (2026-03-29) the person said: "Today I ran my first half marathon!!"', False),
    # A lone capital letter is a value; the Spanish "o" in the evidence does not say it
    ("Noemí's blood type is O.", '- 2026-03-02: Noemí: gato o perro, da igual.', True),
    ("Your blood type is O.", '- 2026-03-02: Me hicieron análisis: grupo O positivo.', False),
    ("A friend told me.", '- 2026-03-02: My friend called.', False),
])
def test_an_answer_naming_what_no_line_says_becomes_i_dont_know(answer, evidence, abstained):
    verdict = abstain.check(answer, "What is it?", evidence)
    assert verdict.abstained is abstained
    assert verdict.answer == ("I don't know." if abstained else answer)


@pytest.mark.parametrize("said, words_in, line", [
    ("Today I ran my first half marathon!!", "en", "- 29 March 2026: Today I ran my first half marathon!!"),
    ("Today I ran my first half marathon!!", "es", "- 29 de marzo de 2026: Today I ran my first half marathon!!"),
    ("Today I ran my first half marathon!!", None, "- 2026-03-29: Today I ran my first half marathon!!"),
])
def test_a_line_is_dated_in_words_in_the_language_of_the_reply(said, words_in, line):
    assert said_line(Candidate(Sentence(1, 1, 0, said, "2026-03-29T09:00:00"), 0.7), compact=True,
                     words_in=words_in) == line


def test_a_name_taken_from_the_question_is_supported():
    assert not abstain.check("Itziar is your sister.", "Is Itziar my sister?", "- (2026-03-02) sister").abstained
    assert abstain.check("Itziar lives in Bilbao.", "Where does Itziar live?", "- nothing about it").abstained


@pytest.mark.parametrize("sentence, asked", [
    ("What am I allergic to?", True), ("¿Dónde vivo", True), ("I moved to Bilbao.", False), ("Hola!", False),
])
def test_the_persons_questions_are_recognised(sentence, asked):
    assert is_question(sentence) is asked


def test_an_opening_word_is_not_a_name():
    evidence = '- (2026-03-02) the person said: "I live in Valencia."'
    assert not abstain.check("Based on the memory, you live in Valencia.", "Where do I live?", evidence).abstained
    assert not abstain.check("Según lo que dijiste, vives en Valencia.", "¿Dónde vivo?", evidence).abstained
    assert abstain.check("Rex is your dog.", "What's my dog called?", evidence).abstained


@pytest.mark.parametrize("answer, abstained", [
    ("Eres alérgica a la penicilina.", False),  # the second person opens with its verb, capitalised
    ("Vives en Valencia.", False),
    ("Tienes un gato.", False),
    ("Aunque no estoy segura, vives en Valencia.", False),
    ("Vives en Valencia con Rex.", True),  # what follows the verb is still read
    ("Tomás vive en Valencia.", True),  # a name that opens the answer is still a name
])
def test_an_answer_in_the_second_person_is_read_past_its_verb(answer, abstained):
    evidence = '- (2026-03-02) the person said: "Soy alérgica a la penicilina. Vivo en Valencia con mi gato."'
    assert abstain.check(answer, "¿Dónde vivo?", evidence).abstained is abstained


TOLD = ["Mi hermana Itziar vive en Bilbao.", "My mother never liked Edinburgh's weather.",
        "Joaquín viene en mayo con su novia.", "I have a greyhound called Canela."]


@pytest.mark.parametrize("question, asked, unsaid", [
    ("¿Cómo se llama mi madre?", ("madre",), ()),  # "mother" was said in English
    ("What's my sister's name?", ("sister",), ()),  # the possessive is read through
    ("What's my son-in-law's name?", ("son-in-law",), ("son-in-law",)),
    ("Who is my manager?", ("manager",), ("manager",)),
    ("¿Cuántos años tiene mi hermano?", ("hermano",), ("hermano",)),
])
def test_relations_the_person_never_named_are_found_in_either_language(question, asked, unsaid):
    known = abstain.relations(question, lambda: TOLD)
    assert (known.asked, known.unsaid) == (asked, unsaid)


def test_no_relation_no_reading_of_the_log():
    read = []
    assert abstain.relations("¿Dónde vivo ahora?", lambda: read.append(1) or TOLD) is None
    assert abstain.relations("¿Cuántos son los días de mayo?", lambda: read.append(1) or TOLD) is None  # "son": are
    assert abstain.relations("What's my dog called?", lambda: read.append(1) or TOLD) is None  # pets go by breed
    assert read == []


def test_a_name_for_a_relation_must_have_been_said_with_it():
    sister = abstain.relations("What's my sister's name?", lambda: TOLD)
    assert sister.check("Your sister is Itziar.", "What's my sister's name?").abstained is False
    mother = abstain.relations("¿Cómo se llama mi madre?", lambda: TOLD)
    refused = mother.check("Tu madre se llama Itziar.", "¿Cómo se llama mi madre?")
    assert refused.abstained and refused.answer == "No lo sé." and refused.unsupported == ("itziar",)
    assert mother.check("Tu madre vive en Edinburgh.", "¿Cómo se llama mi madre?").abstained is False  # said with her
    assert mother.check("No lo sé.", "¿Cómo se llama mi madre?").abstained is False  # names nobody
    where = abstain.relations("Where does my mother live?", lambda: TOLD)  # not a name question: no tie asked
    assert where.check("Your mother lives in Bilbao.", "Where does my mother live?").abstained is False


def test_a_question_about_someone_the_person_told_of():
    girlfriend = abstain.relations("¿Cómo se llama la novia de Joaquín?", lambda: TOLD)
    assert girlfriend.about_someone_known("¿Cómo se llama la novia de Joaquín?")
    assert girlfriend.check("La novia de Joaquín es Ximena.", "¿Cómo se llama la novia de Joaquín?").abstained
    stranger = abstain.relations("¿Cómo se llama la novia de Pedro?", lambda: TOLD)
    assert not stranger.about_someone_known("¿Cómo se llama la novia de Pedro?")


def test_a_question_answered_i_dont_know_leaves_the_window_with_its_answer():
    from dreaming_agent.pipeline.responder import quiet_replies

    recent = [{"role": "user", "content": "Mi hermana Ane vive en Donostia."},
              {"role": "assistant", "content": "Got it, thanks for telling me. Anything else?"},
              {"role": "user", "content": "¿Cómo se llama mi madre?"},
              {"role": "assistant", "content": "No lo sé."},
              {"role": "user", "content": "What's my blood type?"},
              {"role": "assistant", "content": "I don't know."}]
    assert quiet_replies(recent) == [{"role": "user", "content": "Mi hermana Ane vive en Donostia."},
                                     {"role": "assistant", "content": "Got it, thanks for telling me."}]


def test_a_standalone_question_sees_only_the_exchanges_in_which_the_person_told_something():
    from dreaming_agent.pipeline.responder import told_only

    recent = [{"role": "assistant", "content": "Hola, ¿en qué puedo ayudarte?"},  # the window may open on a reply
              {"role": "user", "content": "Trabajo como enfermera en Bilbao."},
              {"role": "assistant", "content": "Entendido, gracias por contármelo."},
              {"role": "user", "content": "What's my blood type?"},
              {"role": "assistant", "content": "Your blood type is O."},
              {"role": "user", "content": "Mi hermana Ane vive en Donostia."}]
    assert told_only(recent) == [recent[1], recent[2], recent[5]]


def test_the_next_turn_does_not_see_a_code_abstention(make_agent):
    from dreaming_agent.pipeline.agent import AgentConfig
    from dreaming_agent.testing import ScriptedLLM

    agent = make_agent(ScriptedLLM(defaults={"text": "Ane."}), AgentConfig(learn=False))
    agent.turn("Mi hermana Ane vive en Donostia.")
    assert agent.turn("¿Cómo se llama mi madre?").answer == "No lo sé."
    nxt = agent.turn("¿Y cómo se llama ella?")  # leans on the turns before: the window is shown, without the refusal
    assert "[assistant]\nNo lo sé." not in nxt.prompt_text and "¿Cómo se llama mi madre?" not in nxt.prompt_text
    assert "[user]\nMi hermana Ane vive en Donostia." in nxt.prompt_text


@pytest.mark.parametrize("entry, message, shown", [
    # A long remark: only the sentence the entry was drawn from.
    ("Caroline went to a support group", "Hey! Busy week. I went to a support group yesterday. The weather was awful.",
     "I went to a support group yesterday."),
    # One sentence, or nothing in common (the Writer reworded it all): the whole message, verbatim.
    ("The user has a beagle", "I have a beagle called Toby.", "I have a beagle called Toby."),
    ("The user is a nurse", "Trabajo en el hospital. Turno de noche.", "Trabajo en el hospital. Turno de noche."),
])
def test_an_entry_is_shown_with_the_sentences_of_its_message_that_state_it(entry, message, shown):
    memory = Memory(7, "mtm", entry, "writer", "active", None, "2026-03-02", "2026-03-02", None, 0,
                    source_message_ids=(3,), sources=(Source(3, "2026-03-02T10:00:00", message),))
    line = memory_line(Candidate(memory, 0.6), with_sources=True)
    assert line == f'- 2026-03-02: {entry} (said: "{shown}")'


@pytest.mark.parametrize("text, question", [
    ("我现在住在哪个城市？", True), ("今どこに住んでいますか？", True), ("أين أسكن الآن؟", True),
    ("我上个月搬到了南京。", False), ("我搬家了！你知道吗？我现在住在南京。", True),
])
def test_a_question_mark_of_any_script_asks(text, question):
    """"？" (Chinese, Japanese) and "؟" (Arabic) ask as "?" does: such a question had been answered as a statement."""
    assert plan(text).question is question
    assert is_question(text) is text.endswith(("？", "؟"))
