import pytest

from dreaming_agent.text import mentions, normalize, numbers, proper_nouns, split_sentences


def test_normalize_drops_accents_case_and_spaces():
    assert normalize("  Árbol   ÑANDÚ\tcafé ") == "arbol nandu cafe"


def test_proper_nouns_skip_openers_and_join_names():
    assert proper_nouns("The user moved to New York with Ana.") == {"new york", "new", "york", "ana"}
    assert proper_nouns("Yo vivo en Sevilla") == {"sevilla"}


def test_numbers_include_words():
    assert numbers("I have two cats and 3 dogs, born 2019") == {"2", "3", "2019"}
    assert numbers("tengo dos gatos") == {"2"}


@pytest.mark.parametrize("entity, text, expected", [
    ("Lisbon", "Me mudé a Lisboa en marzo", True),
    ("Lisboa", "I moved to Lisbon", True),
    ("London", "Vivo en Londres", True),
    ("Málaga", "I live in malaga", True),
    ("Berlin", "Me mudé a Lisboa", False),
    ("2019", "desde 2018", False),
    ("3", "tengo tres perros", True),
])
def test_mentions_is_bilingual_and_strict_on_new_names(entity, text, expected):
    assert mentions(entity, text) is expected


def test_sentences():
    assert split_sentences("Hola. ¿Qué tal? Bien!") == ["Hola.", "¿Qué tal?", "Bien!"]
    assert split_sentences("no punctuation here") == ["no punctuation here"]
    assert split_sentences("   ") == []
