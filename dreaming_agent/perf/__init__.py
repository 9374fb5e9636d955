"""The `perf` command: retrieval against memory size, ingest, the turn, the Dream and threads, in one run."""
from __future__ import annotations

import argparse
import os
import time
from datetime import datetime
from pathlib import Path

from tqdm import tqdm

from .. import wiring
from ..llm.base import available_cpus
from ..settings import Settings
from ..store import Store, VectorIndex
from .corpus import POOL_SIZE, Corpus, embed_pool, question_texts
from .dreams import ProposesNothing, measure_dream
from .model import HISTORY, QUESTIONS, measure_conversation, measure_ingest, with_learning
from .report import targets, write_all
from .retrieval import embed_queries, measure, rss_mb
from .threads import measure_threads

_CHUNK = 4000  # entries per bulk insert (Chroma caps one upsert at a few thousand rows)
_VECTORS_NOTE = (
    "N counts every entry a LightMem query searches: N/2 active memories and N/2 user sentences (N/4 messages of two "
    "sentences; each memory sourced from one of them). The query runs `pipeline.retriever.retrieve` (Chroma search of "
    "both collections, then hydration from SQLite) with its vector embedded beforehand. Texts are synthetic and "
    "varied. {pool} of them are embedded by the real embedder; the bulk vectors are unit vectors drawn around those "
    "(one real vector, plus up to 0.6 of another, plus 0.25 Gaussian noise), because embedding 100k texts takes far "
    "longer than this run and random unit vectors have no neighbourhoods (HNSW's worst case). Queries are {queries} "
    "real questions embedded by the real embedder."
)

_DREAM_NOTE = (
    "The Dream's model calls are answered by a stand-in that proposes no operations: the real model would "
    "add one call per cluster (minutes at 1,000 memories on 2 CPUs). So the time is clustering, validation and the "
    "transaction, and `llm_calls` is the number of clusters asked about."
)


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "perf", help="measure retrieval, ingest, turns, the Dream and threads; write perf.json, perf.md, perf.png")
    parser.add_argument("--sizes", type=_sizes, default="1000,10000,100000", help="memory sizes N, comma-separated")
    parser.add_argument("--out", default="docs/results", help="folder for perf.json, perf.md, perf.png")
    parser.add_argument("--gguf", default=None, help="another GGUF model for the turn, Writer and thread measures")
    parser.add_argument("--threads", type=int, default=None, help="llama.cpp threads for the turn and Writer; "
                        "default: the CPUs this process may use")
    parser.add_argument("--queries", type=int, default=100, help="queries per memory size")
    parser.add_argument("--dream-sizes", type=_sizes, default="100,1000",
                        help="memory counts for the Dream, comma-separated")
    parser.add_argument("--ingest-messages", type=int, default=40, help="messages timed through agent.ingest")
    parser.add_argument("--llm", choices=["embedded", "scripted"], default="embedded",
                        help="'scripted' is for smoke tests only: no model, figures meaningless")
    parser.add_argument("--embedder", choices=["embedded", "hash"], default="embedded",
                        help="'hash' is for smoke tests only")
    parser.add_argument("--seed", type=int, default=0)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    started, clock = datetime.now().replace(microsecond=0).isoformat(), time.perf_counter()
    load_at_start = _load_average()
    sizes, dream_sizes = args.sizes, args.dream_sizes
    # The defaults, not the environment: the figures are for the in-process model and offline embedder.
    settings = Settings.load({}, {"gguf": args.gguf, "threads": args.threads})
    if args.llm != "scripted":
        choice = wiring.choose_llm(settings, local_only=True)
        print(f"model: {choice.line()}")
        settings = choice.settings
    llm, embedder, scripted = _instances(args, settings)
    client = wiring.build_vector_client(settings)
    pool_size = max(POOL_SIZE, *dream_sizes)

    bar = tqdm(total=_ticks(sizes, dream_sizes, pool_size), unit="step", desc="perf")
    bar.set_description("embedding the pool")
    pool_texts, pool = embed_pool(embedder, pool_size, seed=args.seed, on_batch=lambda n: bar.update(1))
    questions = question_texts(args.queries, seed=args.seed)
    query_vectors = embed_queries(embedder, questions)

    corpus = Corpus(Store(), VectorIndex(client), pool[:POOL_SIZE], seed=args.seed)
    retrieval = [_retrieval_row(corpus, n, questions, query_vectors, embedder, bar) for n in sizes]
    corpus.index.drop()
    corpus.store.close()
    del corpus  # its vectors and the floor's matrix would otherwise weigh on the model measures

    def new_agent(learn: bool, store: Store | None = None, model=llm):
        agent = wiring.build_agent(settings, llm=model, embedder=embedder, client=client, store=store or Store())
        return with_learning(agent, learn)

    bar.set_description("ingest")
    ingest = measure_ingest(new_agent, args.ingest_messages, seed=args.seed)
    bar.update(1)
    bar.set_description("turns: Writer, RAG, LightMem")
    turn, writer = measure_conversation(new_agent, on_step=lambda: bar.update(1))
    ingest.update(writer)

    dream = []
    for n in dream_sizes:
        bar.set_description(f"dream over {n:,} memories")
        dream.append(measure_dream(lambda store: new_agent(False, store, ProposesNothing()), pool_texts[:n], pool[:n]))
        bar.update(1)

    bar.set_description("threads")
    threads = ({"skipped": "needs the real model (run without --llm scripted)"} if scripted
               else measure_threads(llm.path))
    bar.update(1)
    bar.close()
    llm.close()

    results = {
        "command": _command(args),
        "started_at": started,
        "duration_s": round(time.perf_counter() - clock, 1),
        "machine": {
            "cpu_count": os.cpu_count(), "available_cpus": available_cpus(), "llm_threads": wiring.threads(settings),
            "load_average": f"{load_at_start} at the start, {_load_average()} at the end",
        },
        "setup": {
            "llm": llm.name, "embedder": embedder.name, "dim": int(pool.shape[1]), "pool": POOL_SIZE,
            "queries": len(questions),
            "vectors": _VECTORS_NOTE.format(pool=POOL_SIZE, queries=len(questions)),
            "dream_llm": _DREAM_NOTE,
        },
        "retrieval": retrieval,
        "ingest": ingest,
        "turn": turn,
        "dream": dream,
        "threads": threads,
    }
    results["targets"] = targets(results)
    write_all(results, Path(args.out))
    print(f"perf: wrote {Path(args.out) / 'perf.json'}, perf.md and perf.png in {results['duration_s']:.0f} s")
    return 0


def _retrieval_row(corpus: Corpus, n: int, questions: list[str], query_vectors, embedder, bar: tqdm) -> dict:
    """Grow the corpus to n entries, then measure it; RSS is read right after, with everything loaded."""
    bar.set_description(f"storing {n:,} entries")
    corpus.grow(n, chunk=_CHUNK, on_chunk=lambda added: bar.update(1))
    bar.set_description(f"querying {n:,} entries")
    row = measure(corpus, questions, query_vectors, embedder)
    row.update(rss_mb=rss_mb(), floor_matrix_mb=round(corpus.matrix.nbytes / 2**20, 1))
    bar.update(1)
    return row


def _instances(args: argparse.Namespace, settings: Settings):
    """The real model and embedder, or (smoke tests only) the package's test doubles; the third value says which."""
    scripted = args.llm == "scripted"
    if scripted or args.embedder == "hash":
        from ..testing import HashEmbedder, ScriptedLLM
    llm = ScriptedLLM() if scripted else wiring.build_llm(settings)
    embedder = HashEmbedder() if args.embedder == "hash" else wiring.build_embedder(settings)
    return llm, embedder, scripted


def _ticks(sizes: list[int], dream_sizes: list[int], pool_size: int) -> int:
    """Progress-bar steps: pool batches, insert chunks, one per measure and per turn."""
    chunks, previous = 0, 0
    for n in sizes:
        chunks += -(-(n - previous) // _CHUNK)
        previous = n
    pool_batches = -(-pool_size // 64)
    conversation = len(HISTORY) + 2 * len(QUESTIONS)
    return pool_batches + chunks + len(sizes) + 1 + conversation + len(dream_sizes) + 1


def _load_average() -> float | None:
    """One-minute load: on a shared machine it says how much the figures were disturbed."""
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


def _sizes(text: str) -> list[int]:
    """argparse type: '1000,10000' -> [1000, 10000], sorted; argparse turns the error into a usage message."""
    try:
        values = sorted(int(part) for part in text.split(",") if part.strip())
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"expected comma-separated whole numbers, got {text!r}") from e
    if not values or values[0] < 4:
        raise argparse.ArgumentTypeError(f"sizes must be at least 4, got {text!r}")
    return values


def _command(args: argparse.Namespace) -> str:
    """The command line that reproduces this run (every option spelled out)."""
    parts = ["python -m dreaming_agent perf", f"--sizes {_joined(args.sizes)}", f"--out {args.out}"]
    optional = {"--gguf": args.gguf, "--threads": args.threads, "--queries": args.queries,
                "--dream-sizes": _joined(args.dream_sizes),
                "--ingest-messages": args.ingest_messages, "--llm": args.llm, "--embedder": args.embedder,
                "--seed": args.seed}
    parts += [f"{flag} {value}" for flag, value in optional.items() if value is not None]
    return " ".join(parts)


def _joined(values: list[int]) -> str:
    return ",".join(str(v) for v in values)
