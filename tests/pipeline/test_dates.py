import pytest

from dreaming_agent.pipeline.dates import resolve, when


@pytest.mark.parametrize("said, on, expected", [
    ("My granddaughter was born yesterday at 6:40.", "2026-03-22", "born yesterday (21 March 2026) at 6:40."),
    ("Anoche fue nuestra última tocada.", "2026-02-08", "Anoche (7 de febrero de 2026) fue"),
    ("Antes de ayer fui al médico.", "2026-02-22", "Antes de ayer (20 de febrero de 2026) fui"),
    ("Last Monday was my first day at work.", "2026-03-08", "Last Monday (2 March 2026) was"),  # 03-08 is a Sunday
    ("The movers come next Saturday.", "2026-02-22", "next Saturday (28 February 2026)."),
    ("El sábado pasado toqué.", "2026-02-08", "El sábado pasado (7 de febrero de 2026) toqué."),
    ("Mañana empiezo en Haar Analytics!", "2026-05-24", "Mañana (25 de mayo de 2026) empiezo"),
    ("Llegué hace ocho días.", "2026-02-22", "hace ocho días (14 de febrero de 2026)."),
    ("I moved here two weeks ago.", "2026-05-01", "two weeks ago (17 April 2026)."),
    ("Since last week I take it black.", "2026-02-08", "last week (the week before 8 February 2026) I"),
    ("Classes start next week.", "2026-08-31", "next week (the week after 31 August 2026)."),
    ("La semana pasada empecé el bootcamp.", "2026-03-02", "La semana pasada (la semana anterior al 2 de marzo de 2026)"),
    ("Vuelvo dentro de 3 días.", "2026-05-01", "dentro de 3 días (4 de mayo de 2026)."),
    # a weekday said alone, read by what its sentence tells of: the past, or what is to come (03-23 is a Monday)
    ("The parcel arrived on Friday!", "2026-03-23", "on Friday (20 March 2026)!"),
    ("I sprained my ankle on Wednesday.", "2026-03-23", "on Wednesday (18 March 2026)."),
    ("Since Tuesday my title is team lead.", "2026-03-23", "Since Tuesday (17 March 2026) my"),
    ("I'm driving to the coast on Friday.", "2026-03-23", "on Friday (27 March 2026)."),
    ("We will sign the lease on Thursday.", "2026-03-23", "on Thursday (26 March 2026)."),
    ("El sábado fui a la playa.", "2026-03-23", "El sábado (21 de marzo de 2026) fui"),
    ("El jueves voy a firmar el contrato.", "2026-03-23", "El jueves (26 de marzo de 2026) voy"),
    ("Desde el lunes soy vegana.", "2026-03-25", "Desde el lunes (23 de marzo de 2026) soy"),
])
def test_a_relative_date_gets_the_date_it_stands_for(said, on, expected):
    assert expected in resolve(said, on)


@pytest.mark.parametrize("said", [
    "Manejamos a las cinco de la mañana.",  # morning, not tomorrow
    "Esta mañana hacía frío.",
    "In two weeks I lost 3 kilos.",  # how long it took, not a date
    "Hace frío en Edimburgo.",
    "Today I ran my first half marathon!",  # the line's own date already says it
])
def test_what_is_not_a_relative_date_is_left_alone(said):
    assert resolve(said, "2026-03-29") == said


@pytest.mark.parametrize("said", [
    "We fly out on Saturday, the bags are packed.",  # tells neither the past nor what is to come: no guess
    "I go climbing every Thursday.",  # how often, not when
    "I go climbing on Thursdays.",
    "Los viernes juego al pádel.",
    "I was nervous, but I will call them on Monday.",  # tells both
    "I'm so excited about the concert on Friday!",  # a feeling, not a past
    "I need to call the landlord on Monday.",
])
def test_a_weekday_said_alone_is_read_only_where_its_sentence_tells_which(said):
    assert resolve(said, "2026-03-23") == said and when(said, "2026-03-23") is None


@pytest.mark.parametrize("said, code, label", [
    ("Sold my old car today!", "en", "29 March 2026"),
    ("Hoy he firmado el contrato.", "es", "29 de marzo de 2026"),
    ("The user handed in the notice this morning", "en", "29 March 2026"),
])
def test_today_is_the_day_it_was_said_though_the_line_is_not_rewritten(said, code, label):
    found = when(said, "2026-03-29T10:00:00", code)
    assert found is not None and found.label == label
    assert resolve(said, "2026-03-29T10:00:00") == said  # the line's own date already says it


def test_a_line_with_an_unreadable_date_is_left_alone():
    assert resolve("Born yesterday.", "sometime") == "Born yesterday."
