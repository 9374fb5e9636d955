"""Answer a scenario's questions under one GatherConfig, from a memory fed once (the ablation of the bench write-up).

python scripts/research/answer_variants.py SCENARIO --mode lightmem --gather '{"extra_share": null}' [--db FED.sqlite3]
Without --db the scenario's turns are stored without learning (all naive RAG needs); with --db (a memory kept by
`bench --memory-dir`) LightMem answers from what the Writer and the Dreams made of them. Prints one line per
question and a total; --out writes the answers as JSON. Not part of the app: a measuring tool.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import time
from collections import Counter

import numpy as np

from dreaming_agent.bench.scenario import load_scenario
from dreaming_agent.bench.scoring import score_answer
from dreaming_agent.pipeline.agent import Agent, AgentConfig
from dreaming_agent.pipeline.gather_config import GatherConfig
from dreaming_agent.settings import Settings
from dreaming_agent.store import Store, VectorIndex, make_client
from dreaming_agent.store.snapshot import open_copy
from dreaming_agent.wiring import build_embedder, build_llm


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario")
    ap.add_argument("--db", help="a fed memory (SQLite) to answer from; never written")
    ap.add_argument("--mode", default="rag", choices=["rag", "lightmem", "none"])
    ap.add_argument("--gather", default="{}", help="GatherConfig fields as JSON")
    ap.add_argument("--reply", type=int, default=96, help="reply cap in tokens")
    ap.add_argument("--gguf", default="models/qwen2.5-coder-0.5b-instruct.gguf")
    ap.add_argument("--out")
    args = ap.parse_args()
    scenario = load_scenario(args.scenario)
    llm = build_llm(Settings.load({}, {"gguf": args.gguf, "threads": 1}))
    config = AgentConfig(learn=False, reply_tokens=args.reply, gather=GatherConfig(**json.loads(args.gather)))
    store = open_copy(args.db) if args.db else Store()
    agent = Agent(store=store, index=VectorIndex(make_client()), llm=llm, embedder=build_embedder(Settings.load({})),
                  config=config)
    if not args.db:
        for session in scenario.sessions:
            agent.new_conversation(session.id)
            for i, text in enumerate(session.turns):
                stamp = dt.datetime.combine(session.date, dt.time(9)) + dt.timedelta(minutes=3 * i)
                agent.ingest(text, now=stamp.isoformat(), learn=False)
    rows, right, latencies, tokens = [], Counter(), [], []
    for q in scenario.questions:
        agent.new_conversation(f"question-{q.id}")
        started = time.perf_counter()
        result = agent.ask(q.question, args.mode, now=q.date.isoformat() + "T10:00:00")
        latencies.append((time.perf_counter() - started) * 1000)
        tokens.append(result.prompt.prompt_tokens if result.prompt else 0)
        score = score_answer(q, result.answer, result.prompt_text)
        right[q.type] += score.correct
        rows.append({"id": q.id, "type": q.type, "correct": score.correct, "recall": score.evidence_recall,
                     "reject_hits": score.reject_hits, "answer": result.answer})
        print(f"{q.id} {q.type:13} {'right' if score.correct else 'wrong'}  {result.answer[:90]!r}", flush=True)
    recall = [r["recall"] for r in rows if r["recall"] is not None]
    print(f"TOTAL {sum(right.values())}/{len(rows)} {dict(right)} recall={np.mean(recall):.2f} "
          f"reject_hits={sum(r['reject_hits'] for r in rows)} p50={np.percentile(latencies, 50):.0f}ms "
          f"tokens_p50={np.percentile(tokens, 50):.0f}")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(rows, f, ensure_ascii=False, indent=1)
    agent.close()
    store.close()


if __name__ == "__main__":
    main()
