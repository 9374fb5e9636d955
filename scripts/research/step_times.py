"""Where a question's time goes, step by step: `python scripts/research/step_times.py [--scenario dev] [--conditions B,E]`.

Asks a scenario's questions again, read-only, over the memories a bench run kept (`bench --memory-dir out/memory`,
same model and prompts), and prints each trace step's p50 and mean milliseconds per condition, with the Responder's
prompt and completion tokens. Pin it to one core (`taskset -c 1`) and give the model one thread, as the bench does.
Figures: docs/results/HISTORY.md, round 18.
"""
from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dreaming_agent.bench import SCENARIOS_DIR  # noqa: E402
from dreaming_agent.bench.conditions import parse_conditions  # noqa: E402
from dreaming_agent.bench.runner import Setup, _agent, _fed_memory, _finish, memory_key  # noqa: E402
from dreaming_agent.bench.scenario import load_scenario  # noqa: E402
from dreaming_agent.embed.offline import default_offline_embedder  # noqa: E402
from dreaming_agent.llm.llamacpp import LlamaCppLLM  # noqa: E402
from dreaming_agent.prompts import PromptLibrary  # noqa: E402
from dreaming_agent.store import make_client  # noqa: E402
from dreaming_agent.store.snapshot import open_copy  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default="dev")
    p.add_argument("--conditions", default="B,E")
    p.add_argument("--gguf", default=str(ROOT / "models" / "qwen2.5-coder-0.5b-instruct.gguf"))
    p.add_argument("--memory-dir", default=str(ROOT / "out" / "memory"))
    args = p.parse_args()
    scenario = load_scenario(SCENARIOS_DIR / f"{args.scenario}.json")
    llm = LlamaCppLLM(gguf_path=args.gguf, n_ctx=4096, threads=1)
    embedder = default_offline_embedder()
    setup = Setup(llm, embedder, make_client(), memory_dir=Path(args.memory_dir),
                  memory_key=memory_key(Path(args.gguf).name, embedder.name, PromptLibrary.bundled()))
    for condition in parse_conditions(args.conditions):
        kept = _fed_memory(setup, scenario.name, condition, 0)
        if not kept.exists():
            print(f"{kept} is missing: run `python -m dreaming_agent bench --scenario …/{args.scenario}.json "
                  f"--conditions {condition.name} --memory-dir {args.memory_dir}` first.")
            return 1
        agent = _agent(setup, condition, 0, open_copy(kept))
        steps: dict[str, list[float]] = {}
        prompt_tokens, completion_tokens = [], []
        try:
            for i, q in enumerate(scenario.questions):
                agent.new_conversation(f"question-{q.id}")
                asked = dt.datetime.combine(q.date, dt.time(10, 0)) + dt.timedelta(minutes=i)
                result = agent.ask(q.question, condition.mode, now=asked.isoformat())
                for step in result.trace.steps:
                    steps.setdefault(step.name, []).append(step.duration_ms)
                    if step.name == "Responder":
                        prompt_tokens.append(step.prompt_tokens)
                        completion_tokens.append(step.completion_tokens)
                steps.setdefault("total", []).append(result.timings["total_ms"])
        finally:
            _finish(agent)
        print(f"{condition.name}: prompt tokens p50 {statistics.median(prompt_tokens):.0f}, "
              f"completion tokens mean {statistics.mean(completion_tokens):.1f}")
        for name, ms in steps.items():
            print(f"  {name:<20} p50 {statistics.median(ms):8.1f} ms  mean {statistics.mean(ms):8.1f} ms  ({len(ms)} questions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
