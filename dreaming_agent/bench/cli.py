"""`python -m dreaming_agent bench`: conditions A–F on a scenario file or on LoCoMo, with a report."""
from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
from pathlib import Path

from ..errors import ConfigError, DreamingAgentError


def add_parser(commands) -> None:
    p = commands.add_parser("bench", help="measure conditions A–F on a scenario (or LoCoMo) and write a report")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--scenario", help="scenario JSON (default: the bundled development scenario)")
    source.add_argument("--locomo", help="path to locomo10.json (kept outside the repository)")
    source.add_argument("--longmemeval", metavar="FILE",
                        help="LongMemEval questions (e.g. ../shared/data/longmemeval/longmemeval_oracle_dev.json): "
                             "each question in a fresh memory fed with its own sessions")
    p.add_argument("--conversations", type=int, default=1, help="LoCoMo: how many conversations")
    p.add_argument("--sample", action="append", default=None,
                   help="LoCoMo: a conversation by its sample id (conv-30); repeat for more (instead of --conversations)")
    p.add_argument("--max-questions", type=int, default=None, help="LoCoMo: questions per conversation")
    p.add_argument("--per-type", type=int, default=None,
                   help="LongMemEval: the first N questions of each type, and of each type's abstention items")
    p.add_argument("--conditions", default=None, help="default: A,B,C,D,E (LongMemEval: A,B,E,F)")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--first-run", type=int, default=0,
                   help="index (and seed) of the first run; with --append, splits the runs of a slow model over processes")
    p.add_argument("--out", default="out/bench")
    p.add_argument("--llm", default=None, help="embedded | ollama | scripted (scripted: smoke tests only); "
                                                 "default: the model the app would choose (see `doctor`)")
    p.add_argument("--gguf", default=None, help="GGUF file for the embedded backend (e.g. the 0.5B eval model)")
    p.add_argument("--ollama-model", default=None)
    p.add_argument("--embedder", default="embedded", help="embedded | hash (smoke tests) | sentence-transformers name/path")
    p.add_argument("--reply-tokens", type=int, default=96, help="reply cap for the scored questions")
    p.add_argument("--append", action="store_true",
                   help="keep the answers already in --out (same scenario and model) for other conditions or other "
                        "runs, and re-report")
    p.add_argument("--live", action="store_true",
                   help="ask the questions as ordinary turns of one conversation (stored, indexed, learned from), "
                        "as in the app; default: each read-only, in a fresh conversation")
    p.add_argument("--memory-dir", default=None,
                   help="keep each condition's fed memory (SQLite) here and, when the same scenario, condition, run, "
                        "model and Writer/Dream prompts come again, answer from it instead of feeding again")
    p.add_argument("--threads", type=int, default=None, help="llama.cpp threads (default: the CPUs this process may use)")
    p.add_argument("--shard", metavar="K/N", default=None,
                   help="LongMemEval, LoCoMo: only the K-th of every N questions (conversations), so that N processes "
                        "feed one --memory-dir at once; a run without it then answers all from the fed memories")
    p.add_argument("--merge", metavar="DIR", default=None,
                   help="run nothing: move the answers of another bench folder (same scenario, model and prompts, or "
                        "another --shard of it) into --out, replacing the same questions of the same (condition, run) "
                        "pairs, and re-report")
    p.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except DreamingAgentError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.merge:
        return _merge(Path(args.merge), Path(args.out))
    from tqdm import tqdm

    from ..prompts import PromptLibrary
    from ..settings import Settings
    from ..store import make_client
    from .conditions import parse_conditions
    from .report import REFERENCE
    from .runner import Setup, memory_key, run_locomo, run_longmemeval, run_scenario

    conditions = parse_conditions(args.conditions or ("A,B,E,F" if args.longmemeval else "A,B,C,D,E"))
    if args.runs < 1 or args.first_run < 0:
        raise ConfigError("--runs must be at least 1 and --first-run at least 0.")
    shard = _shard(args.shard, args.scenario is None and (args.locomo or args.longmemeval))
    llm, embedder, llm_name = _models(args)
    prompts = PromptLibrary.bundled()
    meta = {
        "llm": llm_name, "embedder": getattr(embedder, "name", args.embedder),
        "prompt_versions": [prompts[n].version
                            for n in ("controller", "selector", "responder", "answer", "acknowledge", "writer", "dream")],
        "question_mode": "live (turns of one conversation)" if args.live else "read-only, each in a fresh conversation",
    }
    if args.locomo:
        from .locomo import load_locomo

        conversations = load_locomo(args.locomo, conversations=args.conversations, max_questions=args.max_questions,
                                    samples=args.sample)
        units = [(c.sample_id, c) for c in conversations]
        steps = lambda c: len(c.turns) + len(c.questions)  # noqa: E731
        meta["scenario"] = f"LoCoMo ({', '.join(c.sample_id for c in conversations)})"
        run_one = run_locomo
    elif args.longmemeval:
        from .longmemeval import load_longmemeval
        from .longmemeval_scoring import NAME, agreement

        questions = load_longmemeval(args.longmemeval, per_type=args.per_type)
        units = [(q.id, q) for q in questions]
        steps = lambda q: q.turn_count + 1  # noqa: E731
        chosen = "" if args.per_type is None else f", the first {args.per_type} of each type"
        meta["scenario"] = f"LongMemEval {Path(args.longmemeval).name} ({len(questions)} questions{chosen})"
        meta["scorer"] = {"name": NAME, "agreement_with_labels": agreement()}
        run_one = run_longmemeval
    else:
        from . import SCENARIOS_DIR
        from .scenario import load_scenario

        scenario = load_scenario(args.scenario or SCENARIOS_DIR / "dev.json")
        units = [(scenario.name, scenario)]
        steps = lambda s: s.turn_count + len(s.questions)  # noqa: E731
        meta["scenario"] = scenario.name
        run_one = run_scenario
    if shard:
        k, n = shard
        units = units[k - 1::n]
        meta["scenario"] += f", shard {k} of {n}"
    total = sum(steps(unit) for _, unit in units)
    bar = tqdm(total=total * len(conditions) * args.runs, unit="step", file=sys.stderr)
    setup = Setup(llm, embedder, make_client(), reply_tokens=args.reply_tokens, live=args.live,
                  memory_dir=Path(args.memory_dir) if args.memory_dir else None,
                  memory_key=memory_key(llm_name, meta["embedder"], prompts),
                  progress=lambda _: bar.update())
    records = []
    for run in range(args.first_run, args.first_run + args.runs):
        for condition in conditions:
            bar.set_description(f"run {run} {condition.name}")
            for _, unit in units:
                records.extend(run_one(setup, unit, condition, run))
    bar.close()
    command = "python -m dreaming_agent bench " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    report = _write(Path(args.out), records, meta, command, keep_previous=args.append)
    print(f"wrote {args.out}/report.json, report.md, accuracy.png, answers.jsonl")
    for name, c in report["conditions"].items():
        print(f"{name}: accuracy {c['accuracy']:.3f}  evidence recall {c['evidence_recall']}  p50 {c['latency_ms_p50']:.0f} ms")
    for name, by_type in report["paired"].items():
        c = by_type["all"]
        print(f"{name} against {REFERENCE}: {c['difference']:+.3f} (95% interval {c['interval'][0]:+.3f} to {c['interval'][1]:+.3f}); "
              f"better on {c['better']}, worse on {c['worse']} of {c['questions']} questions")
    return 0


def _shard(value: str | None, splittable) -> tuple[int, int] | None:
    """`--shard K/N` as (K, N), 1 ≤ K ≤ N; None without the flag."""
    if value is None:
        return None
    if not splittable:
        raise ConfigError("--shard splits LongMemEval questions or LoCoMo conversations; a scenario is one conversation.")
    try:
        k, n = (int(part) for part in value.split("/"))
    except ValueError:
        k = n = 0
    if not 1 <= k <= n:
        raise ConfigError(f"--shard takes K/N with 1 ≤ K ≤ N (e.g. 1/2 and 2/2 for two processes), not {value!r}.")
    return k, n


def _merge(source: Path, out: Path) -> int:
    """Answers measured in separate folders (e.g. two processes, one per core, or two shards) become one report."""
    source_meta = _meta(source)
    out_meta = _meta(out) if (out / "report.json").exists() else source_meta  # a fresh folder takes the source
    scenario = _joined_shards(source_meta["scenario"], out_meta["scenario"])
    differ = [k for k in ("scenario", "llm", "embedder", "prompt_versions", "question_mode")
              if (k != "scenario" or scenario is None) and source_meta.get(k) != out_meta.get(k)]
    if differ:
        raise ConfigError(f"{source} and {out} measured different setups ({', '.join(differ)}); not merged.")
    added = _previous(source, set())
    _write(out, added, {**out_meta, "scenario": scenario or out_meta["scenario"]},
           f"python -m dreaming_agent bench --merge {source} --out {out}", keep_previous=True)
    pairs = ", ".join(f"{c} run {r}" for c, r in sorted({(r.condition, r.run) for r in added}))
    print(f"merged {pairs} from {source} into {out}/report.json, report.md, accuracy.png, answers.jsonl")
    return 0


_SHARDS = re.compile(r"^(.*), shards? (\d+(?:, \d+)*) of (\d+)$")


def _joined_shards(one: str, other: str) -> str | None:
    """The scenario two shards of one run measured together ("…, shards 1, 3 of 4"; all of them: no suffix)."""
    a, b = _SHARDS.match(one), _SHARDS.match(other)
    if (a or b) and not (a and b):  # a shard merged into (or from) the whole run it is part of
        whole, shard = (other, a) if a else (one, b)
        return whole if shard[1] == whole else None
    if not (a and b) or (a[1], a[3]) != (b[1], b[3]):
        return None
    ks = sorted({int(k) for m in (a, b) for k in m[2].split(", ")})
    n = int(a[3])
    if ks == list(range(1, n + 1)):
        return a[1]
    return f"{a[1]}, shard{'s' if len(ks) > 1 else ''} {', '.join(map(str, ks))} of {n}"


def _meta(folder: Path) -> dict:
    import json

    try:
        report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ConfigError(f"{folder} is not a bench folder (no readable report.json): {e}") from e
    return {k: v for k, v in report.items() if k != "conditions"}


def _write(out: Path, added, meta: dict, command: str, *, keep_previous: bool) -> dict:
    """Reports `added`, plus (keep_previous) the answers already in `out` to other questions or (condition, run) pairs."""
    from .report import summarize, write_outputs

    records = (_previous(out, {(r.condition, r.run, r.question_id) for r in added}) if keep_previous else []) + list(added)
    report = summarize(records, meta={**meta, "runs": len({r.run for r in records})})
    write_outputs(out, records, report, command)
    return report


def _previous(out: Path, replaced: set[tuple[str, int, str]]):
    """Answers from earlier invocations into the same folder, except the questions of a (condition, run) asked again."""
    import json

    from .runner import AnswerRecord

    path = out / "answers.jsonl"
    if not path.exists():
        return []
    rows = [AnswerRecord(**json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if (r.condition, r.run, r.question_id) not in replaced]


def _models(args):
    from ..settings import Settings
    from ..wiring import build_embedder, build_llm, choose_llm

    if args.embedder == "hash":
        from ..testing import HashEmbedder

        embedder = HashEmbedder()
    else:
        embedder = build_embedder(Settings.load({}, {"embedder": args.embedder}))
    if args.llm == "scripted":
        from ..testing import ScriptedLLM

        return ScriptedLLM(), embedder, "scripted"
    # Server addresses and keys come from the environment (OLLAMA_HOST, OPENAI_BASE_URL, …); the flags set the rest.
    choice = choose_llm(Settings.load(os.environ, {"llm": args.llm, "gguf": args.gguf,
                                                   "ollama_model": args.ollama_model, "threads": args.threads}))
    print(f"model: {choice.line()}", file=sys.stderr)
    llm = build_llm(choice.settings)
    return llm, embedder, Path(choice.path).name if choice.path else llm.name
