"""How often the vector index leaves out a hit it should find: `python scripts/research/index_exactness.py [--builds 3]`.

No model: every LoCoMo conversation's turns are split into sentences as the bench feeds them and embedded by the
bench's embedder, its questions as queries. For each graph setting (links a node, candidates while building), each
conversation is put into a new Chroma collection `--builds` times; each question is searched plainly and less the
mean sentence vector (`VectorIndex.search(less=…)`), 16 hits each, and a search counts as missing a hit when a
sentence it did not return scores above the 16th it did by more than 1e-6 (exact cosine in float64; closer than that
is a tie, which any index may order either way). Figures: docs/results/HISTORY.md, round 17.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dreaming_agent.bench.locomo import load_locomo  # noqa: E402
from dreaming_agent.settings import Settings  # noqa: E402
from dreaming_agent.store.vectors import _HNSW, make_client  # noqa: E402
from dreaming_agent.wiring import build_embedder  # noqa: E402
from distinctive_recall import turns_as_fed  # noqa: E402

K, TIE = 16, 1e-6


def misses(collection, sentences: np.ndarray, queries: np.ndarray, mean: np.ndarray) -> tuple[int, int]:
    """How many of the searches less the mean, and of the plain ones, left out a hit of their exact top K."""
    unit = sentences.astype(np.float64)
    unit /= np.linalg.norm(unit, axis=1, keepdims=True)
    counts = [0, 0]
    for query in queries:
        for slot, vector in enumerate((query - mean, query)):
            found = {int(i) for i in collection.query(query_embeddings=[vector], n_results=K)["ids"][0]}
            scores = unit @ vector.astype(np.float64)
            lowest = min(scores[j] for j in found)
            counts[slot] += any(scores[j] > lowest + TIE for j in np.argsort(-scores)[:K] if j not in found)
    return counts[0], counts[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, default=ROOT.parent / "shared" / "data" / "locomo" / "locomo10.json")
    parser.add_argument("--builds", type=int, default=3)
    parser.add_argument("--graph", action="append", default=None, metavar="LINKS,CANDIDATES",
                        help="a graph setting to measure; repeat for more (default: 16,128 and the index's own)")
    args = parser.parse_args(argv)
    graphs = [tuple(int(n) for n in g.split(",")) for g in (args.graph or
              ["16,128", f"{_HNSW['hnsw:M']},{_HNSW['hnsw:construction_ef']}"])]
    embedder = build_embedder(Settings.load({}, {"embedder": "embedded"}))
    client = make_client()
    totals = {graph: [0, 0, 0, 0.0] for graph in graphs}  # less the mean, plain, searches of each, seconds to add
    rows = ["| conversation | sentences | questions | " + " | ".join(
        f"{m} links, {ef}: missed less the mean / plain" for m, ef in graphs) + " |", "|---" * (3 + len(graphs)) + "|"]
    for conversation in load_locomo(args.locomo, max_questions=10_000):
        texts, _ = turns_as_fed(conversation)
        sentences = np.asarray(embedder.embed_batch(texts, role="passage"), dtype=np.float32)
        queries = np.asarray(embedder.embed_batch([q.question for q in conversation.questions], role="query"),
                             dtype=np.float32)
        mean = sentences.astype(np.float64).mean(axis=0).astype(np.float32)
        cells = []
        for m, ef in graphs:
            found = []
            for build in range(args.builds):
                name = f"exactness-{conversation.sample_id}-{m}-{ef}-{build}"
                collection = client.create_collection(name, embedding_function=None, metadata={
                    **_HNSW, "hnsw:M": m, "hnsw:construction_ef": ef})
                started = time.perf_counter()
                collection.add(ids=[str(i) for i in range(len(sentences))], embeddings=sentences)
                totals[(m, ef)][3] += time.perf_counter() - started
                found.append(misses(collection, sentences, queries, mean))
                client.delete_collection(name)
                totals[(m, ef)][0] += found[-1][0]
                totals[(m, ef)][1] += found[-1][1]
                totals[(m, ef)][2] += len(queries)
            cells.append(", ".join(f"{d}/{p}" for d, p in found))
        rows.append(f"| {conversation.sample_id} | {len(texts)} | {len(queries)} | " + " | ".join(cells) + " |")
        print(rows[-1], flush=True)
    rows.append("| all, searches with a miss | | | " + " | ".join(
        f"{t[0]} / {t[1]} of {t[2]} each ({t[3]:.0f} s to add)" for t in totals.values()) + " |")
    print(f"\nSearches of 16 that missed a hit, per build ({args.builds} builds):\n")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
