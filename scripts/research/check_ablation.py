"""What each answer check gains and loses: `python scripts/research/check_ablation.py dev,holdout,third [--condition F]
[--threads 1] [--out DIR]`; a LoCoMo conversation is named `locomo:conv-26` (its first `--max-questions`, read from
`--locomo`, scored by token F1).

Every question is asked once with all checks, recording which checks acted (changed the answer or asked again).
Answers are greedy and each question is asked read-only in a fresh conversation, so a check that did not act on a
question cannot change its answer when it is off: only the questions a check acted on are asked again with that one
check off. A question is "gained" by a check when it is right with it and wrong without, "lost" the other way; on
LoCoMo, when its F1 is higher with the check, or lower. LoCoMo's text stays in ../shared: rows name questions by id.
The slips inside "Wrong line" (Own name; Replaced value with typed memory) count apart.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dreaming_agent.bench.conditions import CONDITIONS  # noqa: E402
from dreaming_agent.bench.runner import (Setup, _agent, _finish, asked_after, asked_at, feed_locomo,  # noqa: E402
                                         feed_scenario)
from dreaming_agent.bench.scenario import load_scenario  # noqa: E402
from dreaming_agent.bench.locomo import load_locomo  # noqa: E402
from dreaming_agent.bench.scoring import score_answer, score_locomo  # noqa: E402
from dreaming_agent.llm.llamacpp import LlamaCppLLM  # noqa: E402
from dreaming_agent.pipeline import checks  # noqa: E402
from dreaming_agent.settings import Settings  # noqa: E402
from dreaming_agent.wiring import build_embedder, build_vector_client  # noqa: E402

OFF: set[str] = set()  # the check names answering KEEP for this pass
ACTED: list[str] = []  # the check names that acted on the question being asked


def _name(check: checks.Check, verdict: checks.Verdict) -> str:
    """The check's name, or for "Wrong line" the slip it found (its note or ruling names it)."""
    if verdict.note is not None:
        return verdict.note.name
    if verdict.ruling is not None and isinstance(verdict.ruling.parsed, dict) and verdict.ruling.parsed.get("by"):
        return verdict.ruling.parsed["by"]
    return check.name


def _recording(check: checks.Check):
    original = check.verdict

    def verdict(draft, context, *, again=False):
        found = original(draft, context, again=again)
        if (found.text is None or found.text == draft.text) and found.again_without is None:
            return found  # kept (a ruling that keeps the answer changes nothing)
        name = _name(check, found)
        if name in OFF:
            return checks.KEEP
        ACTED.append(name)
        return found
    return verdict


def _fed(agent, name: str, condition, args):
    """Feed the agent one scenario or LoCoMo conversation as the bench does; yield (question id, type, ask) where
    ask() asks it read-only in a fresh conversation and returns (answer, score): 1.0 or 0.0 right, or LoCoMo's token
    F1."""
    if name.startswith("locomo:"):
        conversation = load_locomo(args.locomo, samples=[name.split(":", 1)[1]], max_questions=args.max_questions)[0]
        feed_locomo(agent, conversation, condition)
        for q in conversation.questions:
            def ask(q=q):
                agent.new_conversation(f"question-{q.id}")
                result = agent.ask(q.question, condition.mode, now=asked_after(conversation))
                return result.answer, score_locomo(q, result.answer, ()).f1
            yield q.id, q.category_name, ask
        return
    scenario = load_scenario(f"dreaming_agent/bench/scenarios/{name}.json")
    feed_scenario(agent, scenario, condition)
    for i, q in enumerate(scenario.questions):
        def ask(q=q, i=i):
            agent.new_conversation(f"question-{q.id}")
            result = agent.ask(q.question, condition.mode, now=asked_at(q, i))
            return result.answer, float(score_answer(q, result.answer, result.prompt_text).correct)
        yield q.id, q.type, ask


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("scenarios")
    p.add_argument("--condition", default="F")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--out", default="out/check-ablation")
    p.add_argument("--locomo", default="../shared/data/locomo/locomo10.json")
    p.add_argument("--max-questions", type=int, default=100)
    args = p.parse_args()
    condition = CONDITIONS[args.condition]
    for variant in checks.FOR_VARIANT.values():
        for check in variant:
            check.verdict = _recording(check)
    settings = Settings.load({})
    setup = Setup(LlamaCppLLM("models/qwen2.5-coder-0.5b-instruct.gguf", threads=args.threads),
                  build_embedder(settings), build_vector_client(settings))
    rows, table = [], defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))  # check -> scenario -> fired, gained, lost
    totals: dict[str, list[float]] = defaultdict(list)  # scenario -> each question's score with every check
    for name in args.scenarios.split(","):
        agent = _agent(setup, condition, 0)
        try:
            for qid, qtype, asking in _fed(agent, name, condition, args):

                def ask():
                    ACTED.clear()
                    answer, score = asking()
                    return answer, score, list(ACTED)
                answer, score, acted = ask()
                totals[name].append(score)
                for check_name in dict.fromkeys(acted):
                    OFF.add(check_name)
                    try:
                        without, score_without, _ = ask()
                    finally:
                        OFF.discard(check_name)
                    cell = table[check_name][name]
                    cell[0] += 1
                    cell[1] += bool(score > score_without)
                    cell[2] += bool(score_without > score)
                    rows.append({"scenario": name, "question": qid, "type": qtype, "check": check_name,
                                 "with": answer, "score": score, "without": without, "score_without": score_without})
                print(f"{name} {qid} {score:.2f} acted: {acted}", flush=True)
        finally:
            _finish(agent)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "questions.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    names = args.scenarios.split(",")
    lines = [f"Condition {args.condition}, 0.5B model, greedy, {args.threads} thread(s). Per scenario: acted on / "
             "gained / lost (right only with the check / right only without it; on LoCoMo, a higher or a lower token "
             "F1).", "", "With every check: " + ", ".join(
                 f"{n} {sum(totals[n]):.2f} of {len(totals[n])}" for n in args.scenarios.split(",")) + ".", "",
             "| check | " + " | ".join(names) + " | net |", "|---|" + "---|" * (len(names) + 1)]
    for check_name, cells in sorted(table.items()):
        net = sum(c[1] - c[2] for c in cells.values())
        lines.append(f"| {check_name} | " + " | ".join("{}/{}/{}".format(*cells.get(n, [0, 0, 0])) for n in names)
                     + f" | {net:+d} |")
    (out / "report.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
