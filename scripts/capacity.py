"""How many web sessions one process holds: memory per session, non-model time per turn, where it saturates.

Sessions are made as the web app makes them (ui/sessions.py: one Agent per browser session, sharing the model,
the embedder and the Chroma client). The model is the ScriptedLLM, which answers at once, so the time measured is
the agent's own: store, embed, search, pack, trace, and the Writer in the background.

    .venv/bin/python scripts/capacity.py --sizes 1,10,50,100 --turns 10 --out capacity.json
"""
from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import re
import sys
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dreaming_agent import wiring  # noqa: E402
from dreaming_agent.embed.base import Embedder  # noqa: E402
from dreaming_agent.perf.retrieval import percentile, rss_mb  # noqa: E402
from dreaming_agent.settings import Settings  # noqa: E402
from dreaming_agent.testing import ScriptedLLM  # noqa: E402
from dreaming_agent.ui.blocks import CONCURRENT_EVENTS  # noqa: E402
from dreaming_agent.ui.sessions import Sessions  # noqa: E402

# One visitor's conversation: short statements and questions in English and Portuguese; {n} keeps visitors apart.
SCRIPT = (
    "I like lemons from garden {n}.",
    "Eu moro em Lisboa, na rua {n}.",
    "I own {n} bicycles.",
    "A minha irmã Ana mudou-se para o Porto em maio.",
    "What fruit do I like?",
    "Onde mora a minha irmã?",
    "I visit the museum every Sunday with friend {n}.",
    "Quantas bicicletas eu tenho?",
    "I work at the bakery on street {n}.",
    "Where do I work, and where do I live?",
)
SATURATION_GAIN = 1.10  # throughput that grows by less than 10% from one size to the next has stopped growing
P95_BLOWUP = 3.0  # or p95 three times the single session's


def scripted_model() -> ScriptedLLM:
    """Answers at once; its Writer keeps "I like/own/visit/work ..." as a fact, so memory grows as with a model."""
    llm = ScriptedLLM(defaults={"ExtractedFacts": _echo_facts})
    llm.calls = deque(maxlen=1)  # its call log would otherwise keep every prompt and count as session memory
    return llm


def _echo_facts(messages, schema) -> str:
    said = messages[-1]["content"].split("Message:", 1)[-1]
    facts = [f"The user {verb}s {rest}" for verb, rest in re.findall(r"\bI (like|own|visit|work) ([^.?\n]+)", said)]
    return json.dumps({"facts": facts[:5]})


def measure(sessions: int, turns: int, workers: int, *, llm, embedder: Embedder, settings: Settings,
            client) -> dict:
    """`sessions` agents made as the web app does, `turns` each, driven from `workers` threads at once."""
    release_freed_memory()
    rss_before = rss_mb()
    pool = Sessions(settings, llm=llm, embedder=embedder, client=client)
    hashes = [f"visitor-{i}" for i in range(sessions)]
    for session_hash in hashes:
        pool.agent(session_hash)

    def converse(index: int) -> list[float]:
        agent = pool.agent(hashes[index])
        times = []
        for turn in range(turns):
            text = SCRIPT[turn % len(SCRIPT)].format(n=index * 1000 + turn)
            started = time.perf_counter()
            agent.turn(text, mode="lightmem", now="2026-05-10T12:00:00")
            times.append((time.perf_counter() - started) * 1000)
        return times

    started = time.perf_counter()
    with ThreadPoolExecutor(workers) as threads:
        latencies = [ms for times in threads.map(converse, range(sessions)) for ms in times]
    answered_s = time.perf_counter() - started
    for session_hash in hashes:
        pool.agent(session_hash).learning.wait()  # what a session holds once its Writer has caught up
    learned_s = time.perf_counter() - started
    rss_after = rss_mb()
    memories = sum(len(pool.agent(h).store.memories()) for h in hashes)
    pool.release_all()
    return {
        "sessions": sessions, "turns_per_session": turns, "workers": workers, "turns": len(latencies),
        "rss_before_mb": rss_before, "rss_after_mb": rss_after,
        "mb_per_session": round((rss_after - rss_before) / sessions, 2),
        "turn_p50_ms": percentile(latencies, 50), "turn_p95_ms": percentile(latencies, 95),
        "turn_max_ms": round(max(latencies), 1),
        "turns_per_s": round(len(latencies) / answered_s, 1),
        "seconds_to_answer": round(answered_s, 2), "seconds_until_learned": round(learned_s, 2),
        "memories_learned": memories,
    }


def saturation(rows: list[dict]) -> str:
    """The first size at which throughput stops growing or p95 explodes, in words."""
    base_p95 = rows[0]["turn_p95_ms"]
    for previous, row in zip(rows, rows[1:]):
        if row["turn_p95_ms"] > P95_BLOWUP * base_p95:
            return (f"p95 explodes at {row['sessions']} sessions ({row['turn_p95_ms']:.0f} ms, "
                    f"{row['turn_p95_ms'] / base_p95:.1f}x the single session's)")
        if row["turns_per_s"] < SATURATION_GAIN * previous["turns_per_s"]:
            return (f"throughput stops growing at {previous['sessions']}-{row['sessions']} sessions "
                    f"({previous['turns_per_s']} -> {row['turns_per_s']} turns/s)")
    return f"not reached up to {rows[-1]['sessions']} sessions"


def release_freed_memory() -> None:
    """Hand memory freed by earlier sizes back to the OS, so that the next size's RSS growth is its own."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: the growth may then be understated by reused memory
        pass


def markdown(rows: list[dict]) -> str:
    lines = ["| sessions | workers | turns | MB/session | turn p50 ms | turn p95 ms | max ms | turns/s | memories |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {r['sessions']} | {r['workers']} | {r['turns']} | {r['mb_per_session']} | {r['turn_p50_ms']:.1f} "
              f"| {r['turn_p95_ms']:.1f} | {r['turn_max_ms']:.0f} | {r['turns_per_s']} | {r['memories_learned']} |"
              for r in rows]
    return "\n".join(lines)


def load_average() -> float | None:
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,10,50,100", help="numbers of sessions, comma-separated")
    parser.add_argument("--turns", type=int, default=10, help="turns per session")
    parser.add_argument("--workers", type=int, default=CONCURRENT_EVENTS,
                        help="threads driving the sessions at once (default: the web app's concurrency limit)")
    parser.add_argument("--out", required=True, help="JSON file to write")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]

    load_at_start, clock = load_average(), time.perf_counter()
    started_at = datetime.now().replace(microsecond=0).isoformat()
    settings = Settings.load({})  # the defaults, not the environment: the offline embedder, in-process Chroma
    embedder = wiring.build_embedder(settings)
    embedder.embed_batch(["warm-up"], role="query")  # the model loads on first use: not a session's cost
    client = wiring.build_vector_client(settings)
    llm = scripted_model()
    rows = [measure(n, args.turns, min(n, args.workers), llm=llm, embedder=embedder, settings=settings,
                    client=client) for n in sizes]
    results = {
        "command": "python scripts/capacity.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "started_at": started_at, "duration_s": round(time.perf_counter() - clock, 1),
        "machine": {"cpu_count": os.cpu_count(), "available_cpus": len(os.sched_getaffinity(0)),
                    "load_average": f"{load_at_start} at the start, {load_average()} at the end"},
        "setup": {"llm": llm.name, "embedder": embedder.name, "chroma": settings.chroma_mode},
        "rows": rows, "saturation": saturation(rows),
    }
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    print(markdown(rows))
    print(f"\nsaturation: {results['saturation']}")
    print(f"load average: {results['machine']['load_average']}; {results['duration_s']} s; wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
