"""Calibrate the Writer's grounding on the development conversation: what each check stops, what it wrongly drops.

Runs the real Writer (pipeline.writer.write, keeping what it extracted before any check) over the 57 user turns of
bench/scenarios/dev.json with each model and writer prompt below, scores every extracted fact with the lexical,
semantic (USE embedder) and role checks, and compares the verdicts with the hand labels in LABELS. Extractions are
cached per run (greedy decoding, so a rerun gives the same facts); --fresh recomputes them.

Run: .venv/bin/python scripts/research/grounding_check.py [--runs NAME,...] [--cache DIR] [--fresh] [--threshold T]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dreaming_agent.llm.llamacpp import default_gguf_path  # noqa: E402
from dreaming_agent.pipeline.grounding import lexical, role, semantic  # noqa: E402
from dreaming_agent.pipeline.writer import WriterSettings  # noqa: E402
from dreaming_agent.text import split_sentences  # noqa: E402

EVAL_MODEL = ROOT / "models" / "qwen2.5-coder-0.5b-instruct.gguf"
DEV = ROOT / "dreaming_agent" / "bench" / "scenarios" / "dev.json"

# Writer prompts tried against the shipped one (prompts/writer.md). "rewrite" asks for third-person English
# sentences; "no-example" is the shipped prompt without its answer-shape example.
REWRITE_PROMPT = """\
You write down facts about a person from one message they wrote on $today. The message may mix Spanish and English.
Write each fact as one short sentence in the third person that starts with "The user", never with "I". Use the message's own words where you can.
Rules:
- Only what the person tells about themselves and their life: people, pets, places, work, studies, health, diet, plans, hobbies, tastes.
- Keep who did what exactly as in the message; never give the person something another one did or has.
- Copy names and numbers exactly as written. Never add a name, place, number or detail that the message does not give.
- Skip weather, greetings, thanks, questions and passing moods. If nothing is worth remembering, return an empty list.
Reply with JSON only: {"facts": [...]}, a list of strings.
=== user ===
Message: $message
"""
NO_EXAMPLE_PROMPT = """\
You extract facts about the person from one message they wrote on $today.
Rules:
- Only facts the person states about themselves or their own life (people, pets, places, work, health, plans, tastes, dates).
- One short sentence per fact, starting with "The user". Keep every name, place and number exactly as written.
- Nothing about the weather, greetings, questions, or what the assistant said. Never add anything not in the message.
- If there is nothing durable to remember, return an empty list.
Reply with JSON only: {"facts": [...]}, a list of strings.
=== user ===
Message: $message
"""
PROMPTS = {"shipped": None, "rewrite": REWRITE_PROMPT, "no-example": NO_EXAMPLE_PROMPT}
MODELS = {"qwen0.5b": lambda: str(EVAL_MODEL), "smollm2": default_gguf_path}  # the app's default model
RUNS = ["qwen0.5b/shipped", "qwen0.5b/rewrite", "qwen0.5b/no-example", "smollm2/shipped", "smollm2/no-example"]

# Hand labels (fact text -> ok | noise | bad) live beside this script, as data.
from grounding_labels import BAD, LABELS, NOISE, OK  # noqa: E402  (its own folder is on sys.path when run)


@dataclass(frozen=True)
class ScoredFact:
    run: str
    turn: int
    fact: str
    label: str  # ok | noise | bad | ? (not labelled yet)
    lexical_ok: bool
    role_ok: bool
    similarity: float  # max cosine to the message's sentences, as the Writer computes it

    @property
    def supported(self) -> bool:
        return self.label in (OK, NOISE)


def dev_turns() -> list[tuple[int, str, str]]:
    """(turn number from 1, date, text) for every user turn of the development conversation."""
    scenario = json.loads(DEV.read_text(encoding="utf-8"))
    turns = [(s["date"], t) for s in scenario["sessions"] for t in s["turns"]]
    return [(n, date, text) for n, (date, text) in enumerate(turns, start=1)]


def extract(model_path: str, prompt_text: str | None) -> dict:
    """Every turn through the real Writer; the facts as the model gave them, before any check."""
    from dreaming_agent.embed.offline import default_offline_embedder
    from dreaming_agent.llm.llamacpp import LlamaCppLLM
    from dreaming_agent.pipeline.writer import write
    from dreaming_agent.prompts import PromptLibrary
    from dreaming_agent.store import Store, VectorIndex, make_client

    prompts = PromptLibrary.bundled()
    if prompt_text is not None:
        directory = Path(tempfile.mkdtemp(prefix="writer-prompt-"))
        (directory / "writer.md").write_text(prompt_text, encoding="utf-8")
        prompts = PromptLibrary(directory)
    llm = LlamaCppLLM(model_path, n_ctx=2048)
    embedder = default_offline_embedder()
    store, index = Store(), VectorIndex(make_client())
    keep_all = WriterSettings(semantic_threshold=-2.0, duplicate_threshold=2.0)
    rows, started = [], time.perf_counter()
    for turn, date, text in dev_turns():
        message = store.add_message("dev", "user", text, date + "T12:00:00")
        outcome = write(store, index, embedder, llm, prompts, message, settings=keep_all)
        # The Writer still drops facts that fail the lexical or role check; "extracted" has them all.
        rows.append([turn, list(outcome.step.parsed["extracted"])])
        print(f"  turn {turn:2d}: {len(rows[-1][1])} facts", file=sys.stderr)
    index.drop()
    llm.close()
    return {"prompt_version": prompts["writer"].version, "seconds_per_turn": (time.perf_counter() - started) / len(rows),
            "rows": rows}


def load_run(name: str, cache: Path, fresh: bool) -> dict:
    model, prompt = name.split("/")
    path = cache / (name.replace("/", "--") + ".json")
    if path.exists() and not fresh:
        return json.loads(path.read_text(encoding="utf-8"))
    print(f"extracting {name} ...", file=sys.stderr)
    run = extract(MODELS[model](), PROMPTS[prompt])
    cache.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(run, ensure_ascii=False, indent=1), encoding="utf-8")
    return run


def score(name: str, run: dict) -> list[ScoredFact]:
    from dreaming_agent.embed.offline import default_offline_embedder

    embedder = default_offline_embedder()
    messages = {turn: text for turn, _, text in dev_turns()}
    scored = []
    for turn, facts in run["rows"]:
        if not facts:
            continue
        message = messages[turn]
        sentences = split_sentences(message) or [message]
        vectors = embedder.embed_batch(facts + sentences, role="passage")
        for fact, vector in zip(facts, vectors[: len(facts)]):
            similarity = semantic(vector, vectors[len(facts):], 0.0).similarity
            scored.append(ScoredFact(name, turn, fact, LABELS.get(fact, "?"), lexical(fact, message).ok,
                                     role(fact, message).ok, round(similarity, 4)))
    return scored


def verdicts(fact: ScoredFact, threshold: float) -> dict[str, bool]:
    """Whether each check (alone and chained as the Writer chains them) keeps the fact."""
    semantic_ok = fact.similarity >= threshold
    return {
        "lexical": fact.lexical_ok,
        f"semantic >= {threshold:.2f}": semantic_ok,
        "role": fact.role_ok,
        "lexical + semantic": fact.lexical_ok and semantic_ok,
        "lexical + semantic + role": fact.lexical_ok and semantic_ok and fact.role_ok,
    }


def check_table(facts: list[ScoredFact], threshold: float) -> list[str]:
    bad = [f for f in facts if f.label == BAD]
    good = [f for f in facts if f.supported]
    lines = [f"| check | bad stopped (of {len(bad)}) | supported dropped (of {len(good)}) |", "|---|---|---|"]
    for check in verdicts(facts[0], threshold):
        stopped = sum(not verdicts(f, threshold)[check] for f in bad)
        dropped = sum(not verdicts(f, threshold)[check] for f in good)
        lines.append(f"| {check} | {stopped} | {dropped} |")
    return lines


def sweep_table(facts: list[ScoredFact], thresholds: list[float]) -> list[str]:
    bad = [f for f in facts if f.label == BAD]
    good = [f for f in facts if f.supported]
    lines = ["| threshold | semantic: bad stopped | semantic: supported dropped | with lexical: bad stopped | with lexical: supported dropped |",
             "|---|---|---|---|---|"]
    for t in thresholds:
        def stops(f, with_lexical):
            return f.similarity < t or (with_lexical and not f.lexical_ok)
        lines.append(f"| {t:.2f} | {sum(stops(f, False) for f in bad)} | {sum(stops(f, False) for f in good)} | "
                     f"{sum(stops(f, True) for f in bad)} | {sum(stops(f, True) for f in good)} |")
    return lines


def run_table(runs: dict[str, dict], scored: dict[str, list[ScoredFact]], threshold: float) -> list[str]:
    lines = ["| run | prompt version | s/turn | turns with facts | facts | ok | noise | bad | stored ok | stored noise | stored bad |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, run in runs.items():
        facts = scored[name]
        stored = [f for f in facts if verdicts(f, threshold)["lexical + semantic + role"]]
        counts = [sum(f.label == label for f in group) for group in (facts, stored) for label in (OK, NOISE, BAD)]
        lines.append(f"| {name} | {run['prompt_version']} | {run['seconds_per_turn']:.2f} | "
                     f"{sum(1 for _, fs in run['rows'] if fs)} | {len(facts)} | " + " | ".join(map(str, counts)) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", default=",".join(RUNS), help=f"comma-separated, from: {', '.join(RUNS)}")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "grounding-check")
    parser.add_argument("--fresh", action="store_true", help="re-extract even when a cached run exists")
    parser.add_argument("--threshold", type=float, default=WriterSettings().semantic_threshold)
    args = parser.parse_args()
    names = [n.strip() for n in args.runs.split(",") if n.strip()]
    runs = {name: load_run(name, args.cache, args.fresh) for name in names}
    scored = {name: score(name, run) for name, run in runs.items()}
    unlabelled = sorted({(f.turn, f.fact) for fs in scored.values() for f in fs if f.label == "?"})
    out = [f"## Runs (stored = kept by lexical + semantic >= {args.threshold:.2f} + role)", *run_table(runs, scored, args.threshold)]
    groups = {"0.5B model, all prompts": [f for n in names if n.startswith("qwen") for f in scored[n]],
              "SmolLM2, all prompts": [f for n in names if n.startswith("smollm2") for f in scored[n]]}
    thresholds = [round(0.05 * i, 2) for i in range(0, 13)] + [0.70, 0.80]  # 0.80: the default before calibration
    for title, facts in groups.items():
        if not facts:
            continue
        out += ["", f"## Checks: {title}", *check_table(facts, args.threshold),
                "", f"## Semantic threshold sweep: {title}", *sweep_table(facts, thresholds)]
    for name in names:
        out += ["", f"## Checks: {name}", *check_table(scored[name], args.threshold)] if scored[name] else []
    role_stops = [f for fs in scored.values() for f in fs if not f.role_ok]
    out += ["", "## What the role check stops", *[f"- [{f.label}] turn {f.turn}: {f.fact}" for f in role_stops]]
    if unlabelled:
        out += ["", f"## {len(unlabelled)} facts without a label (add them to LABELS)",
                *[f"- turn {t}: {json.dumps(f, ensure_ascii=False)}" for t, f in unlabelled]]
    print("\n".join(out))


if __name__ == "__main__":
    main()
