import shutil
import socket
import subprocess
import time

import numpy as np
import pytest

from dreaming_agent.errors import BackendUnavailable
from dreaming_agent.store import VectorIndex, make_client


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


def test_ephemeral_index(store, embedder, chroma_client):
    _exercise(chroma_client, store, embedder)


def test_persistent_index_survives_reopen(store, embedder, tmp_path):
    client = make_client(path=str(tmp_path / "chroma"))
    index = VectorIndex(client, namespace="keep")
    ids = _fill(store, embedder, ["The user plays the cello"])
    index.sync(store)
    del index, client
    reopened = VectorIndex(make_client(path=str(tmp_path / "chroma")), namespace="keep")
    assert reopened.ids("memories") == set(ids)
    assert reopened.sync(store) == {"added": 0, "removed": 0}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory):
    chroma = shutil.which("chroma") or str(__import__("pathlib").Path(__import__("sys").executable).parent / "chroma")
    port = _free_port()
    proc = subprocess.Popen(
        [chroma, "run", "--path", str(tmp_path_factory.mktemp("chroma-server")), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.2)
    yield port
    proc.terminate()
    proc.wait(timeout=10)


def test_http_client_against_a_real_server(store, embedder, chroma_server):
    _exercise(make_client(host="127.0.0.1", port=chroma_server), store, embedder)


def test_unreachable_server_says_how_to_fix():
    with pytest.raises(BackendUnavailable, match="chroma run"):
        VectorIndex(make_client(host="127.0.0.1", port=_free_port()))


def test_reindex_rebuilds_from_sqlite(store, embedder, index):
    ids = _fill(store, embedder, ["a fact about tea", "a fact about coffee"])
    index.add("memories", [424242], np.ones((1, embedder.dim), np.float32))
    index.reindex(store)
    assert index.ids("memories") == set(ids)
