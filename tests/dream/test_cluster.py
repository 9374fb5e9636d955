"""Clustering: close embeddings or a shared name group entries, within a size bound, the same way every time."""
from __future__ import annotations

from dreaming_agent.dream.cluster import cluster_memories, group

from .builders import remember


def test_close_texts_and_shared_names_group_and_loners_stay_alone(store, embedder):
    tea = remember(store, embedder, "The user likes green tea in the morning", ("I like green tea in the morning.", "2024-01-01"))
    tea_again = remember(store, embedder, "The user likes green tea every morning", ("Green tea every morning!", "2024-01-02"))
    dog = remember(store, embedder, "The user has a dog named Toby", ("My dog Toby is two.", "2024-01-03"))
    thunder = remember(store, embedder, "Toby is afraid of thunder", ("Toby hid from the thunder.", "2024-01-04"))
    chess = remember(store, embedder, "The user plays chess on weekends", ("Chess every weekend.", "2024-01-05"))

    clusters = cluster_memories(store, min_similarity=0.75)

    assert clusters == [[tea, tea_again], [dog, thunder], [chess]]


def test_clusters_never_exceed_the_bound_and_cover_every_active_entry_once(store, embedder):
    ids = [
        remember(store, embedder, f"The user met Quentin at the {place}", (f"Met Quentin at the {place}.", "2024-02-01"))
        for place in ["park", "gym", "market", "library", "station", "museum", "harbour", "bakery", "cinema", "zoo"]
    ]
    store.db.execute("UPDATE memories SET status = 'forgotten' WHERE id = ?", (ids[-1],))

    clusters = cluster_memories(store, max_cluster=4, min_similarity=0.5)

    assert all(1 <= len(c) <= 4 for c in clusters)
    assert sorted(i for c in clusters for i in c) == ids[:-1]
    assert any(len(c) == 4 for c in clusters)


def test_grouping_is_deterministic_whatever_the_input_order(embedder):
    texts = {i: t for i, t in enumerate([
        "The user likes green tea", "The user likes black tea", "Toby is a beagle", "Toby likes the beach",
        "The user runs on Sundays", "The user swims on Sundays", "The user reads novels", "The user works at Acme",
    ], start=1)}
    vectors = dict(zip(texts, embedder.embed_batch(list(texts.values()))))
    forward = group(texts, vectors, max_cluster=3, min_similarity=0.3)
    backward = group(dict(reversed(list(texts.items()))), dict(reversed(list(vectors.items()))),
                     max_cluster=3, min_similarity=0.3)
    assert forward == backward == group(texts, vectors, max_cluster=3, min_similarity=0.3)
    assert [3, 4] in forward
    assert all(len(c) <= 3 for c in forward)


def test_entries_without_vectors_still_cluster_by_name():
    clusters = group({1: "Toby is a beagle", 2: "The user walks Toby", 3: "The user likes jazz"}, {})
    assert clusters == [[1, 2], [3]]


def test_entries_from_one_message_are_shown_together_unless_it_gave_too_many():
    texts = {1: "The user has a dog", 2: "The user's dog is a beagle", 3: "The user likes jazz", 4: "The user sings"}
    sources = {1: [10], 2: [10], 3: [11], 4: [12, 10]}  # 4 also draws on message 12: not from one message alone
    assert group(texts, {}, sources=sources) == [[1, 2], [3], [4]]
    assert group(texts, {}, sources={i: [10] for i in texts}, max_cluster=3) == [[1], [2], [3], [4]]
