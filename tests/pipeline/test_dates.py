import pytest

from dreaming_agent.pipeline.dates import resolve


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


def test_a_line_with_an_unreadable_date_is_left_alone():
    assert resolve("Born yesterday.", "sometime") == "Born yesterday."
