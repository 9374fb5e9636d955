"""The role classifier the validator uses to keep a name in its place (English and Spanish)."""
from __future__ import annotations

import pytest

from dreaming_agent.dream.roles import cued_roles, roles_of

CASES = [
    ("Kiwi", "My parrot Kiwi learned a word.", {"pet"}),
    ("Kiwi", "My parrot's name is Kiwi.", {"pet"}),
    ("Kiwi", "Kiwi is my parrot.", {"pet"}),
    ("Kiwi", "The user has a parrot named Kiwi.", {"pet"}),
    ("Kiwi", "The person's name is Kiwi.", {"self"}),
    ("Kiwi", "Call me Kiwi.", {"self"}),
    ("Marta", "Hi, I'm Marta.", {"self"}),
    ("Ana", "Me llamo Ana.", {"self"}),
    ("Ana", "Mi hermana se llama Ana.", {"person"}),
    ("Luna", "Mi perra se llama Luna.", {"pet"}),
    ("Acme", "I work at Acme.", {"work"}),
    ("Acme", "Acme is where I work.", {"work"}),
    ("Acme", "Trabajo en Acme desde 2020.", {"work"}),
    ("Acme", "The user lives in Acme.", {"residence"}),
    ("Lisbon", "Vivo en Lisboa.", {"residence"}),
    ("Lisbon", "I live in Lisbon and work at Acme.", {"residence"}),
    ("Acme", "I live in Lisbon and work at Acme.", {"work"}),
    ("Ximena", "Mi nieta Ximena ya sostiene la cabeza.", {"person"}),  # every relation text.py knows
    ("Beto", "My son-in-law Beto rents the house.", {"person"}),
    ("Acme", "I work as a manager at Acme.", {"work"}),  # a job title is no relative
    # a naming word in the third person names whom the clause before it names, never the person (dev scenario)
    ("Fiona", "Found a cello teacher! Se llama Fiona, she's from Aberdeen.", {"person"}),
    ("Ana", "I have a new colleague. Her name is Ana.", {"person"}),
    ("Ana", "Mi hermana, que vive en Bilbao desde siempre, se llama Ana.", {"person"}),
    ("Luna", "La usuaria se llama Luna.", {"self"}),
    ("Ana", "The user is called Ana.", {"self"}),
    ("Colegio Sorolla", "I work as a teacher at Colegio Sorolla.", {"work"}),  # a trade names only who it introduces
    # The words around say nothing, or belong to another name: no role rather than a wrong one.
    ("Madrid", "I live with my dog Toby in Madrid.", set()),
    ("Ana", "I called Ana yesterday.", set()),
    ("Ana", "Ana works at Acme.", set()),
    ("Globex", "I work at Acme.", set()),
    ("Canela", "I have a greyhound called Canela.", set()),  # a breed is no animal this knows, and Canela no person
    ("Ximena", "They changed their minds: se llama Ximena, no Valeria.", set()),
]


@pytest.mark.parametrize("name, text, roles", CASES, ids=[f"{n}: {t}" for n, t, _ in CASES])
def test_roles(name, text, roles):
    assert roles_of(name, text) == roles


def test_the_word_that_cued_a_role():
    assert cued_roles("Marisela", "Mi hija Marisela está embarazada de una niña, mi primera nieta.") == {
        ("person", "hija")}
    assert cued_roles("Pimentón", "My cat is called Pimentón.") == {("pet", "cat")}
    assert cued_roles("Bruno", "Me llamo Bruno.") == {("self", "")}
