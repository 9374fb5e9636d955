import pytest

from dreaming_agent.pipeline.dates import resolve


@pytest.mark.parametrize("said, on, expected", [
    ("My granddaughter was born yesterday at 6:40.", "2026-03-22", "born yesterday (2026-03-21) at 6:40."),
    ("Anoche fue nuestra última tocada.", "2026-02-08", "Anoche (2026-02-07) fue"),
    ("Antes de ayer fui al médico.", "2026-02-22", "Antes de ayer (2026-02-20) fui"),
    ("Last Monday was my first day at work.", "2026-03-08", "Last Monday (2026-03-02) was"),  # 03-08 is a Sunday
    ("The movers come next Saturday.", "2026-02-22", "next Saturday (2026-02-28)."),
    ("El sábado pasado toqué.", "2026-02-08", "El sábado pasado (2026-02-07) toqué."),
    ("Mañana empiezo en Haar Analytics!", "2026-05-24", "Mañana (2026-05-25) empiezo"),
    ("Llegué hace ocho días.", "2026-02-22", "hace ocho días (2026-02-14)."),
    ("I moved here two weeks ago.", "2026-05-01", "two weeks ago (2026-04-17)."),
    ("Since last week I take it black.", "2026-02-08", "last week (the week before 2026-02-08) I"),
    ("Classes start next week.", "2026-08-31", "next week (the week after 2026-08-31)."),
    ("Vuelvo dentro de 3 días.", "2026-05-01", "dentro de 3 días (2026-05-04)."),
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
