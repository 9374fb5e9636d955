"""The perf command end to end at tiny sizes (scripted model, hash embedder), and its pure parts."""
from __future__ import annotations

import json

import numpy as np
import pytest

from dreaming_agent.__main__ import main
from dreaming_agent.perf.corpus import Corpus, fact_texts, mixed_vectors
from dreaming_agent.perf.report import markdown, targets
from dreaming_agent.perf.retrieval import exact_top_k, measure, recall
from dreaming_agent.perf.threads import CASES, time_in_child
from dreaming_agent.testing import HashEmbedder


@pytest.fixture(scope="module")
def smoke_results(tmp_path_factory):
    out = tmp_path_factory.mktemp("perf")
    code = main(["perf", "--sizes", "200,400", "--out", str(out), "--llm", "scripted", "--embedder", "hash",
                 "--dream-sizes", "20,40", "--queries", "10", "--ingest-messages", "5"])
    assert code == 0
    return out, json.loads((out / "perf.json").read_text(encoding="utf-8"))


def test_perf_json_has_the_keys_others_rely_on(smoke_results):
    _, results = smoke_results
    assert [row["n"] for row in results["retrieval"]] == [200, 400]
    for row in results["retrieval"]:
        assert {"n", "p50_ms", "p95_ms", "floor_p50_ms", "ratio", "recall_at_8", "embed_query_p50_ms",
                "rss_mb"} <= row.keys()
        assert 0.0 <= row["recall_at_8"] <= 1.0
        assert row["p95_ms"] >= row["p50_ms"] > 0
    assert {"rag_p50_ms", "lightmem_p50_ms", "ratio", "blocking_llm_calls"} <= results["turn"].keys()
    assert {"messages_per_s", "writer_p50_ms"} <= results["ingest"].keys()
    assert [d["memories"] for d in results["dream"]] == [20, 40]
    assert "skipped" in results["threads"]  # the scripted model has no threads to measure


def test_turn_counts_blocking_calls_and_keeps_the_writer_off_the_reply(smoke_results):
    _, results = smoke_results
    # One blocking call each: LightMem's Controller and Selector decide in code, over 60 entries and more.
    assert results["turn"]["blocking_llm_calls"] == {"rag": 1, "lightmem": 1}
    assert results["turn"]["lightmem_memories"] >= 50 and results["turn"]["background_messages"] >= 50
    turns = results["turn"]["turns"]
    assert results["turn"]["writer_running_at_reply"] == f"{turns}/{turns}"


def test_dream_asks_the_model_once_per_cluster(smoke_results):
    _, results = smoke_results
    for dream in results["dream"]:
        assert 0 < dream["clusters"] <= dream["memories"]
        assert dream["llm_calls"] == dream["clusters"]


def test_report_files_start_with_the_command(smoke_results):
    out, results = smoke_results
    text = (out / "perf.md").read_text(encoding="utf-8")
    assert text.splitlines()[3].startswith("python -m dreaming_agent perf --sizes 200,400")
    assert (out / "perf.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert results["command"] in text


def test_exact_top_k_is_best_first():
    matrix = np.eye(5, dtype=np.float32)
    query = np.array([0.1, 0.9, 0.0, 0.5, 0.0], dtype=np.float32)
    assert exact_top_k(matrix, query, 3).tolist() == [1, 3, 0]
    assert recall([("memory", 1), ("sentence", 2)], [("memory", 1), ("memory", 3)]) == 0.5


def test_fact_texts_are_distinct_across_chunks():
    texts = fact_texts(500, seed=0) + fact_texts(500, seed=0, start=500)
    assert len(set(texts)) == len(texts)


def test_mixed_vectors_are_unit_rows_near_the_pool():
    rng = np.random.default_rng(0)
    pool = HashEmbedder().embed_batch(fact_texts(50, seed=1))
    vectors = mixed_vectors(pool, 200, rng)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert (vectors @ pool.T).max(axis=1).min() > 0.5  # each stays close to the real vector it was drawn from


def test_real_path_recall_is_exact_on_a_small_index(store, index):
    embedder = HashEmbedder()
    corpus = Corpus(store, index, embedder.embed_batch(fact_texts(64, seed=2)))
    corpus.grow(400)
    questions = ["Where does Ana live?", "What did I buy in Porto?"]
    row = measure(corpus, questions, embedder.embed_batch(questions, role="query"), embedder)
    assert row["n"] == 400 == len(corpus.matrix)
    assert row["recall_at_8"] == 1.0  # HNSW with search_ef 128 is exact at this size


def test_targets_judge_only_the_large_sizes():
    turn = {"ratio": 1.2, "writer_running_at_reply": "4/4"}
    rows = [{"n": 1000, "p50_ms": 9.0, "recall_at_8": 0.5, "with_embedding_p50_ms": 12.0},
            {"n": 100_000, "p50_ms": 6.0, "recall_at_8": 0.99, "with_embedding_p50_ms": 14.0}]
    judged = {t["name"]: t["met"] for t in targets({"retrieval": rows, "turn": turn})}
    assert judged == {
        "retrieval p50 at 100,000 (no embedding)": False,
        "recall@8 at 100,000": True,
        "retrieval p50 with the query embedding at 100,000": True,
        "LightMem / RAG time to answer (p50)": True,
        "Writer on the reply path": True,
    }


def test_markdown_reports_a_failed_child(smoke_results):
    _, results = smoke_results
    failed = {name: {"error": "boom"} for name in CASES}
    results = {**results, "threads": {"cpu_count": 2, "available_cpus": 1, "oversubscribed_slowdown": None, **failed}}
    assert markdown(results).count("failed: boom") == len(CASES)


def test_thread_child_reports_its_failure_instead_of_dying(tmp_path):
    result = time_in_child(str(tmp_path / "missing.gguf"), {0}, 2)
    assert result["error"].startswith("ModelFileMissing")
