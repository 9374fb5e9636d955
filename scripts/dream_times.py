"""How long a Dream takes as memory grows: `python scripts/dream_times.py --sizes 10,50,200 --threads 1`.

Fills a fresh memory with N short-term entries as the Writer would store them (each from its own message, a
person's life told over weeks: where they live, work, what they like, some of it changing), then runs one Dream on
the given model and prints the groups the model was asked about, the seconds, and seconds per group. The page's
estimate before a Dream (ui.render.dream_estimate) uses the seconds per group measured here. Figures: docs/DREAM_TIMES.md.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dreaming_agent.embed.offline import default_offline_embedder  # noqa: E402
from dreaming_agent.llm.llamacpp import LlamaCppLLM  # noqa: E402
from dreaming_agent.settings import Settings  # noqa: E402
from dreaming_agent.store import make_client  # noqa: E402
from dreaming_agent.wiring import build_agent  # noqa: E402

CITIES = ["Lisbon", "Porto", "Leeds", "Lyon", "Madrid", "Turin", "Bergen", "Krakow", "Ghent", "Cork"]
JOBS = ["nurse", "pharmacist", "teacher", "baker", "welder", "architect", "librarian", "chemist"]
LIKES = ["climbing", "jazz", "chess", "sourdough", "cycling", "poetry", "sailing", "pottery", "birdwatching"]
PEOPLE = ["Ana", "Tom", "Lea", "Raj", "Mia", "Ivo", "Noor", "Sam"]


def life_entries(count: int) -> list[str]:
    """`count` entries in the Writer's style; moves and job changes make groups the model must judge."""
    shapes = [
        lambda k: f"The user lives in {CITIES[k % len(CITIES)]}",
        lambda k: f"The user moved from {CITIES[k % len(CITIES)]} to {CITIES[(k + 1) % len(CITIES)]}",
        lambda k: f"The user works as a {JOBS[k % len(JOBS)]}",
        lambda k: f"The user likes {LIKES[k % len(LIKES)]}",
        lambda k: f"The user's friend {PEOPLE[k % len(PEOPLE)]} is a {JOBS[(k + 3) % len(JOBS)]}",
        lambda k: f"The user is allergic to {['peanuts', 'cats', 'pollen', 'shellfish'][k % 4]}",
    ]
    return [shapes[i % len(shapes)](i // len(shapes)) for i in range(count)]


def time_dream(llm, embedder, size: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(db=str(Path(folder) / "memory.db"))
        agent = build_agent(settings, llm=llm, embedder=embedder, client=make_client(), index_namespace=f"n{size}")
        start = dt.datetime(2026, 1, 5, 9, 0)
        for i, text in enumerate(life_entries(size)):
            at = (start + dt.timedelta(hours=7 * i)).isoformat(timespec="seconds")
            said = agent.store.add_message(agent.session, "user", text.replace("The user", "I").replace("I's", "My"),
                                           created_at=at)
            vector = embedder.embed(text, role="passage")
            memory_id = agent.store.add_memory(text, source_message_ids=[said.id], embedding=vector, created_at=at)
            agent.index.add("memories", [memory_id], vector[None, :])
        clock = time.perf_counter()
        report = agent.memory.dream(now=(start + dt.timedelta(hours=7 * size)).isoformat(timespec="seconds"))
        seconds = time.perf_counter() - clock
    groups = report.clusters or 0
    return {"entries": size, "groups_asked": groups, "settled_without_model": report.settled,
            "accepted": len(report.accepted), "refused": len(report.rejected), "seconds": round(seconds, 1),
            "seconds_per_group": round(seconds / groups, 2) if groups else None}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="10,50,200")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--gguf", default=str(ROOT / "models" / "qwen2.5-coder-0.5b-instruct.gguf"))
    args = p.parse_args()
    llm = LlamaCppLLM(gguf_path=args.gguf, n_ctx=4096, threads=args.threads)
    embedder = default_offline_embedder()
    for size in (int(s) for s in args.sizes.split(",")):
        print(json.dumps(time_dream(llm, embedder, size)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
