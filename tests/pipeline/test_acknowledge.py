import pytest

from dreaming_agent.pipeline.acknowledge import PLAIN, check


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
])
def test_a_statements_reply_is_kept_unless_it_refuses_or_speaks_as_the_person(message, reply, kept):
    result = check(reply, message)
    assert (result.answer == reply) is kept and result.abstained is not kept
    if not kept:
        assert result.answer == PLAIN["es" if any(w in message for w in ("mi ", "Mi ", "Trabajo", "Me he", "Hola")) else "en"]
