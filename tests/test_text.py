import pytest

from dreaming_agent.text import mentions, normalize, numbers, proper_nouns, says_nothing, split_sentences


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


@pytest.mark.parametrize("message, sentences", [
    # the held-out scenario's doctor, stored as "…la Dra." and "Patel, que me lleva…" before
    ("El viernes tuve consulta con mi nueva doctora, la Dra. Okafor. Es muy amable.",
     ["El viernes tuve consulta con mi nueva doctora, la Dra. Okafor.", "Es muy amable."]),
    ("Dr. Patel, que me lleva desde hace años. Me regañó.", ["Dr. Patel, que me lleva desde hace años.", "Me regañó."]),
    ("Mrs. Delgado lives next door.", ["Mrs. Delgado lives next door."]),
    ("J.K. Rowling is great. George R. R. Martin too.", ["J.K. Rowling is great.", "George R. R. Martin too."]),
    ("I should, shouldn't I. That seems good!", ["I should, shouldn't I.", "That seems good!"]),  # "I." ends one
    ("I did a test of my DNA. It was fun.", ["I did a test of my DNA.", "It was fun."]),
    ("Ask Dr.\nPatel is away", ["Ask Dr.", "Patel is away"]),  # a line break always ends a sentence
])
def test_titles_and_initials_end_no_sentence(message, sentences):
    assert split_sentences(message) == sentences


@pytest.mark.parametrize("sentence, small_talk", [
    ("Caroline: Thanks, Mel!", True),
    ("Wow, Mel!", True),
    ("Good to see you!", True),
    ("¡Gracias, Ana!", True),
    ("Buenos días!", True),
    ("Caroline: That's awesome, Melanie!", True),
    ("Caroline: Phew!", True),
    ("Caroline: Nice job!", True),
    ("Melanie: Wow, Caroline, that looks awesome!", True),
    ("Caroline: That's so funny!", True),
    ("Caroline: Woohoo Melanie!", True),
    ("¡Uf, qué guay!", True),
    # Short, but each tells something: a name, a place, an answer, a feeling about a thing
    ("Soy Noemí.", False),
    ("Okafor.", False),
    ("In Laredo!", False),
    ("Yes, in Laredo.", False),
    ("Hola desde Edimburgo!!", False),
    ("Thanks for the tip about Bilbao!", False),
    ("Happy Easter!", False),
    ("So much!", False),
    # A bare yes answers a question that is not shown with it: dated alone, "Caroline: Yep!" tells nothing
    ("Yep!", True),
    ("Caroline: Yeah for sure.", True),
    ("¡Sí!", True),
    ("That looks like rain over Bilbao.", False),
    ("Funny story about my dog.", False),
    ("Great job on the marathon!", False),
    ("", False),
])
def test_small_talk_is_greetings_thanks_and_exclamations_with_names_only(sentence, small_talk):
    assert says_nothing(sentence) is small_talk


@pytest.mark.parametrize("answer", ["You're renting a flat in Bath.", "You’re renting a flat in Bath.",
                                    "It's in Bath.", "They're in Bath, I think."])
def test_a_contraction_opening_an_answer_is_no_name(answer):
    """"You're" (either apostrophe) is no name the evidence must say: the abstention check had replaced such answers
    with "I don't know"."""
    assert proper_nouns(answer) == {"bath"}


def test_a_message_in_a_script_without_spaces_splits_at_its_own_full_stops():
    """Chinese and Japanese end sentences with 。！？ and no space: each sentence is its own, and a question among
    them stays apart from what is told."""
    assert split_sentences("我的妹妹住在杭州，她是护士。我上个月搬到了南京！你知道吗？我们养了一只猫。") == [
        "我的妹妹住在杭州，她是护士。", "我上个月搬到了南京！", "你知道吗？", "我们养了一只猫。"]
    assert split_sentences("今日は晴れです。 明日は雨？") == ["今日は晴れです。", "明日は雨？"]
    assert split_sentences("她说：「我明天走。」我知道了。") == ["她说：「我明天走。」", "我知道了。"]
    assert split_sentences("I moved to Lyon!  Great? yes") == ["I moved to Lyon!", "Great?", "yes"]


@pytest.mark.parametrize("message, sentences", [
    # German and Czech write a day's number as an ordinal with a full stop; no module knows them
    ("Große Neuigkeit: Ich bin am 2. Dezember nach Leipzig gezogen! Es ist kalt.",
     ["Große Neuigkeit: Ich bin am 2. Dezember nach Leipzig gezogen!", "Es ist kalt."]),
    ("Přestěhoval jsem se 15. prosince do Brna. Je tu hezky.", ["Přestěhoval jsem se 15. prosince do Brna.", "Je tu hezky."]),
    # English and Spanish never do: the stop after a number ends the sentence there
    ("My son is 7. He loves Lego.", ["My son is 7.", "He loves Lego."]),
    ("Mi hijo tiene 7. Le encanta el Lego.", ["Mi hijo tiene 7.", "Le encanta el Lego."]),
    ("Wir sind 2026. Das Jahr ist neu.", ["Wir sind 2026.", "Das Jahr ist neu."]),  # a year is no day
    # Italian, which no module knows either, writes "il 2 dicembre": a number ending a sentence ends it
    ("Mia figlia adesso ha 7. La scuola le piace molto.", ["Mia figlia adesso ha 7.", "La scuola le piace molto."]),
])
def test_a_day_number_stop_ends_a_sentence_only_where_the_language_writes_no_such_ordinal(message, sentences):
    assert split_sentences(message) == sentences
