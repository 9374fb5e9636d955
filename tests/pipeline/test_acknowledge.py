import pytest

from dreaming_agent.pipeline.acknowledge import PLAIN, Held, Stripped, check, without_copied

from .conftest import streamed


@pytest.mark.parametrize("message, reply, kept", [
    ("I'm allergic to peanuts.", "I'm sorry, but I can't assist with that.", False),
    ("Me he mudado a Bilbao con mi pareja.", "Lo siento, no puedo ayudarte con eso.", False),
    ("My sister lives in Sevilla.", "I don't know.", False),
    ("Me he mudado de Granada a Málaga.", "I apologize, but I don't have any information about the person's life.",
     False),
    ("I don't drink coffee anymore, only green tea.", "I don't drink coffee anymore, only green tea.", False),
    ("Trabajo como enfermera en el hospital.", "Trabajo como enfermera en el hospital, ¿y tú?", False),
    ("My boss Koldo is very strict.", "Acknowledge that Koldo is very strict.", False),
    ("Mi hermana Ane vive en Donostia.", "I acknowledge that you said that Mi hermana Ane lives in Donostia.", False),
    ("Hola, soy Itziar y trabajo como enfermera en Bilbao.",  # met as a new user: the model introduced itself as her
     "¡Hola! Soy Itziar, enfermera en Bilbao. ¿En qué puedo ayudarte hoy?", False),
    ("I'm Tomás, I'm 34 and I teach history.", "Hi! I'm Tomás, a history teacher.", False),
    ("Hola, soy Itziar. Vivo en Vitoria y trabajo de enfermera.",  # the same walk a round later
     "¡Hola! Estoy Itziar, una enfermera en Vitoria. ¿En qué puedo ayudarte hoy?", False),
    ("Estoy cansada de mi trabajo.", "¡Ánimo! Estoy aquí para escucharte.", True),
    # Saying back what they said, as the assistant, is an acknowledgement.
    ("Hola, soy Itziar y trabajo como enfermera en Bilbao.", "¡Hola, Itziar! ¿Te gusta ser enfermera?", True),
    ("I'm Tomás, I'm 34 and I teach history.", "Nice to meet you, Tomás! What period do you teach?", True),
    ("I'm Tomás.", "I am an assistant, happy to help.", True),
    ("I don't drink coffee anymore, only green tea.", "Green tea it is! Do you miss coffee?", True),
    ("I don't drink coffee anymore, only green tea.", "So you don't drink coffee anymore, only green tea?", True),
    ("My cat is Nube.", "What a lovely name! How old is Nube?", True),
    ("My name is Eve and I live in Vigo.", "You said: My name is Eve and I live in Vigo.", True),
    ("Hola", "¡Hola! ¿Qué tal?", True),
    ("Ya no tomo café, solo té verde.", "¿Así que ya no tomas café? ¡El té verde es buena idea!", True),
    ("On Fridays I play the guitar in a band called Los Lunes.",  # the person's sentence after a thank-you
     "Thank you for sharing your information. On Fridays, I play the guitar in a band called Los Lunes.", False),
    ("On Fridays I play the guitar in a band called Los Lunes.",
     "Thank you for sharing! So on Fridays you play the guitar in a band called Los Lunes?", True),
    # A reply in the other language is replaced, where the words of both tell their languages.
    ("Ahora trabajo en el hospital de Basurto.",
     "Thank you for your message. I'm glad to hear that you're working in the hospital of Basurto.", False),
    ("My cat is Nube.", "¡Qué nombre tan bonito!", False),
    ("Hola", "Hi! How are you?", True),  # "Hola" alone does not tell its language
    ("I'm Tomás.", "Encantado, Tomás.", True),  # nor does this reply
])
def test_a_statements_reply_is_kept_unless_it_refuses_or_speaks_as_the_person(message, reply, kept):
    result = check(reply, message)
    assert (result.answer == reply) is kept and result.abstained is not kept
    if not kept:
        assert result.answer == PLAIN["es" if any(w in message for w in ("mi ", "Mi ", "Trabajo", "Me he", "Hola", "Ahora")) else "en"]


def _shown_while_streaming(reply: str, message: str, *, asked_again: str | None = None) -> list[str | None]:
    return streamed(lambda on_text: Held(on_text, message), reply, asked_again)


def _stripped_while_streaming(reply: str, *, asked_again: str | None = None) -> list[str | None]:
    return streamed(Stripped, reply, asked_again)


def test_a_statements_reply_shows_from_its_sixth_word_and_then_grows():
    passed = _shown_while_streaming("Thanks for telling me, I will remember your sister.", "My sister lives in Sevilla.")
    assert passed == ["Thanks for telling me, I will ", "remember ", "your ", "sister."]


@pytest.mark.parametrize("message, reply", [
    ("I'm allergic to peanuts.", "I'm sorry, but I can't assist with that request about your health."),
    ("Ya no tomo café, solo té verde.", "Ya no tomo café, solo té verde."),
    ("Me he mudado a Bilbao.", "Lo siento, no puedo ayudarte con eso."),
])
def test_a_statements_reply_that_refuses_or_speaks_as_the_person_is_never_shown(message, reply):
    assert _shown_while_streaming(reply, message) == []


def test_a_reply_that_turns_into_a_refusal_is_withdrawn_and_the_rest_not_shown():
    passed = _shown_while_streaming("Thanks for telling me about it. I'm sorry, I can't help further.",
                                    "I'm allergic to peanuts.")
    assert passed == ["Thanks for telling me about it. ", "I'm ", None]


def test_a_reply_in_the_other_language_is_never_shown():
    assert _shown_while_streaming("Thank you for your message. I'm glad to hear that you're working there.",
                                  "Ahora trabajo en el hospital de Basurto.") == []


def test_a_reply_asked_for_again_is_withdrawn_and_judged_from_its_start():
    passed = _shown_while_streaming("Good to know, thanks for telling me.", "My cat is Nube.",
                                    asked_again="I'm sorry, I can't assist with that.")
    assert passed == ["Good to know, thanks for telling ", "me.", None]


@pytest.mark.parametrize("reply, answer", [
    ("Entendido, gracias por contármelo.", ""),
    ("Entendido, gracias por contármelo", ""),
    ("Entendido, gracias por contármelo. Eres alérgica a la penicilina.", "Eres alérgica a la penicilina."),
    (" got it, thanks for telling me. Peanuts.", "Peanuts."),
    ("Entendido: eres alérgica a la penicilina.", "Entendido: eres alérgica a la penicilina."),  # its own words
    ("Got it: you live in Bilbao.", "Got it: you live in Bilbao."),
    ("You told me you are allergic to peanuts.", "You told me you are allergic to peanuts."),
])
def test_a_questions_reply_loses_only_a_copied_acknowledgement_at_its_start(reply, answer):
    assert without_copied(reply) == answer


def test_a_questions_reply_streams_at_once_unless_it_opens_like_the_acknowledgement():
    assert _stripped_while_streaming("Eres alérgica a la penicilina.") == ["Eres ", "alérgica ", "a ", "la ",
                                                                           "penicilina."]
    assert _stripped_while_streaming("Entendido: la penicilina.") == ["Entendido: ", "la ", "penicilina."]
    assert _stripped_while_streaming("Got a cat named Miso.") == ["Got a ", "cat ", "named ", "Miso."]


def test_a_copied_acknowledgement_is_never_shown_and_what_follows_it_is():
    assert _stripped_while_streaming("Entendido, gracias por contármelo.") == []
    assert _stripped_while_streaming("Entendido, gracias por contármelo. Eres alérgica a la penicilina.") == [
        "Eres ", "alérgica ", "a ", "la ", "penicilina."]
    assert _stripped_while_streaming("Got it, thanks for telling me.", asked_again="You are allergic to peanuts.") == [
        "You ", "are ", "allergic ", "to ", "peanuts."]


def test_a_reply_asked_for_again_after_showing_is_withdrawn():
    assert _stripped_while_streaming("Bilbao.", asked_again="Vitoria.") == ["Bilbao.", None, "Vitoria."]
