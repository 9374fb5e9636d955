"""VectorIndex on every kind of Chroma client: in-process, persistent folder, and a real `chroma run` server."""
import numpy as np
import pytest

from dreaming_agent.errors import BackendUnavailable
from dreaming_agent.settings import Settings
from dreaming_agent.store import VectorIndex, make_client
from dreaming_agent.wiring import build_vector_client
from live_servers import chroma_server, free_port


@pytest.fixture(scope="module")
def chroma_port(tmp_path_factory):
    server = chroma_server(tmp_path_factory.mktemp("chroma-server")).start()
    yield server.port
    server.stop()


@pytest.fixture(params=["ephemeral", "server"])
def any_client(request, chroma_client):
    """The index contract holds for the in-process client and for the HTTP client of a real server."""
    if request.param == "ephemeral":
        return chroma_client
    port = request.getfixturevalue("chroma_port")
    return build_vector_client(Settings(chroma_host="127.0.0.1", chroma_port=port))


def _fill(store, embedder, texts):
    ids = []
    for t in texts:
        ids.append(store.add_memory(t, embedding=embedder.embed(t)))
    return ids


def _exercise(client, store, embedder):
    index = VectorIndex(client)
    try:
        ids = _fill(store, embedder, ["The user lives in Lisbon", "The user has a cat named Miso", "The user is vegetarian"])
        assert index.sync(store) == {"added": 3, "removed": 0}
        hits = index.search("memories", embedder.embed("cat Miso", "query"), 2)
        assert hits[0].id == ids[1] and hits[0].score > hits[1].score
        index.add("memories", [999], embedder.embed("stale entry")[None, :])
        store.delete_memory(ids[0])
        assert index.sync(store) == {"added": 0, "removed": 2}
        assert index.ids("memories") == set(ids[1:])
    finally:
        index.drop()


def test_index_contract(store, embedder, any_client):
    _exercise(any_client, store, embedder)


def test_persistent_index_survives_reopen(store, embedder, tmp_path):
    client = make_client(path=str(tmp_path / "chroma"))
    index = VectorIndex(client, namespace="keep")
    ids = _fill(store, embedder, ["The user plays the cello"])
    index.sync(store)
    del index, client
    reopened = VectorIndex(make_client(path=str(tmp_path / "chroma")), namespace="keep")
    assert reopened.ids("memories") == set(ids)
    assert reopened.sync(store) == {"added": 0, "removed": 0}


def test_unreachable_server_says_how_to_fix():
    with pytest.raises(BackendUnavailable, match="chroma run"):
        VectorIndex(make_client(host="127.0.0.1", port=free_port()))


def test_reindex_rebuilds_from_sqlite(store, embedder, any_client):
    index = VectorIndex(any_client)
    try:
        ids = _fill(store, embedder, ["a fact about tea", "a fact about coffee"])
        index.add("memories", [424242], np.ones((1, embedder.dim), np.float32))
        index.reindex(store)
        assert index.ids("memories") == set(ids)
    finally:
        index.drop()


def test_an_index_made_with_the_narrower_search_is_widened_when_opened(store, embedder, tmp_path):
    # An app's persistent index keeps the settings it was created with; one from before the search widened
    # (128) lost 1.5% of the exact top 16 on a LoCoMo conversation's real vectors.
    client = make_client(path=str(tmp_path / "chroma"))
    for kind in ("memories", "sentences"):
        client.get_or_create_collection(f"da-old-{kind}", embedding_function=None,
                                        metadata={"hnsw:space": "cosine", "hnsw:search_ef": 128, "hnsw:M": 48,
                                                  "hnsw:construction_ef": 400})
    ids = _fill(store, embedder, ["The user plays the cello"])
    VectorIndex(client, namespace="old").sync(store)
    del client
    reopened = make_client(path=str(tmp_path / "chroma"))
    index = VectorIndex(reopened, namespace="old")
    for kind in ("memories", "sentences"):
        assert reopened.get_collection(f"da-old-{kind}").configuration["hnsw"]["ef_search"] == 512
    assert index.ids("memories") == set(ids)  # nothing lost on the way


def test_an_index_built_with_the_sparser_graph_is_built_again_from_its_own_vectors(tmp_path):
    # 16 links a node (Chroma's default, and ours before round 17) left a LoCoMo sentence out of a search now and
    # then; such an index is made again with 48, its vectors and ids kept, with no SQLite sync needed to refill it.
    client = make_client(path=str(tmp_path / "chroma"))
    vectors = _unit(np.random.default_rng(2).normal(size=(4500, 8)))  # more than one page of 4,000
    for kind in ("memories", "sentences"):
        old = client.get_or_create_collection(f"da-sparse-{kind}", embedding_function=None,
                                              metadata={"hnsw:space": "cosine", "hnsw:M": 16})
        for start in range(0, len(vectors), 1500):
            old.add(ids=[str(i) for i in range(start, start + 1500)], embeddings=vectors[start:start + 1500])
    del client
    reopened = make_client(path=str(tmp_path / "chroma"))
    index = VectorIndex(reopened, namespace="sparse")
    for kind in ("memories", "sentences"):
        hnsw = reopened.get_collection(f"da-sparse-{kind}").configuration["hnsw"]
        assert (hnsw["max_neighbors"], hnsw["ef_construction"], hnsw["ef_search"]) == (48, 400, 512)
        assert index.ids(kind) == set(range(len(vectors)))
    assert np.allclose(index.mean("sentences"), vectors.mean(axis=0), atol=1e-5)  # the same vectors, not just ids
    assert [hit.id for hit in index.search("sentences", vectors[123], 1)] == [123]
    settled = VectorIndex(make_client(path=str(tmp_path / "chroma")), namespace="sparse")
    assert settled.ids("memories") == set(range(len(vectors)))  # built once: opening it again keeps it as it is


def _unit(rows) -> np.ndarray:
    rows = np.asarray(rows, dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_the_mean_and_the_count_follow_adds_replacements_and_removals(chroma_client):
    index = VectorIndex(chroma_client)
    try:
        vectors = _unit(np.random.default_rng(0).normal(size=(6, 8)))
        assert index.mean("sentences") is None and index.held("sentences") == 0
        index.add("sentences", [1, 2, 3], vectors[:3])
        assert np.allclose(index.mean("sentences"), vectors[:3].mean(axis=0), atol=1e-6)
        index.add("sentences", [4, 5], vectors[3:5])
        index.add("sentences", [1], vectors[5:6])  # a replacement: the old vector leaves the mean
        index.remove("sentences", [2])
        expected = vectors[[5, 2, 3, 4]].mean(axis=0)
        assert np.allclose(index.mean("sentences"), expected, atol=1e-6)
        assert index.held("sentences") == 4
        reopened = VectorIndex(chroma_client, namespace=index.namespace)
        assert reopened.held("sentences") == 4  # counted from the collection the first time
        assert np.allclose(reopened.mean("sentences"), expected, atol=1e-6)
        assert index.mean("memories") is None
        index.remove("sentences", [1, 3, 4, 5])
        assert index.mean("sentences") is None and index.held("sentences") == 0
    finally:
        index.drop()


def test_a_search_less_the_mean_ranks_what_sets_a_vector_apart_and_scores_it_plainly(chroma_client):
    index = VectorIndex(chroma_client)
    try:
        rng = np.random.default_rng(1)
        shared, apart = np.eye(16)[0], np.eye(16)[1]
        generic = _unit([shared + 0.1 * rng.normal(size=16) for _ in range(8)])  # near everything
        specific = _unit([0.5 * shared + apart])
        index.add("sentences", list(range(1, 9)), generic)
        index.add("sentences", [9], specific)
        query = _unit([shared + 0.3 * apart])[0]
        plain = index.search("sentences", query, 3)
        distinct = index.search("sentences", query, 3, less=index.mean("sentences"))
        assert 9 not in [hit.id for hit in plain] and distinct[0].id == 9
        assert np.isclose(distinct[0].score, float(specific[0] @ query), atol=1e-5)  # cosine to the query itself
    finally:
        index.drop()


def test_sync_counts_the_mean_of_what_sqlite_holds(store, embedder, chroma_client):
    index = VectorIndex(chroma_client)
    try:
        _fill(store, embedder, ["The user lives in Lisbon", "The user has a cat named Miso"])
        index.add("memories", [999], embedder.embed("stale entry")[None, :])
        assert index.mean("memories") is not None  # counted before the sync, with the stale entry in it
        index.sync(store)
        expected = np.stack(list(store.memory_vectors().values())).mean(axis=0)
        assert np.allclose(index.mean("memories"), expected, atol=1e-6)
        assert np.allclose(VectorIndex(chroma_client, namespace=index.namespace).mean("memories"), expected, atol=1e-6)
    finally:
        index.drop()
