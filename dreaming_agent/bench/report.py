"""Aggregate answer records into report.json, report.md, accuracy.png and answers.jsonl."""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from statistics import mean

import numpy as np

from .conditions import CONDITIONS
from .runner import AnswerRecord


def question_score(r: AnswerRecord) -> float:
    """1/0 for scenario questions and LoCoMo abstention; token F1 for other LoCoMo questions."""
    if r.correct is not None:
        return float(r.correct)
    return float(r.f1 or 0.0)


def scored_apart(r: AnswerRecord) -> bool:
    """A question whose score stays out of the overall figure (LongMemEval's preference rubrics): its type's own."""
    return bool(r.extra.get("scored_apart"))


def summarize(records: list[AnswerRecord], *, meta: dict) -> dict:
    conditions: dict[str, dict] = {}
    for name in sorted({r.condition for r in records}):
        rows = [r for r in records if r.condition == name]
        runs = sorted({r.run for r in rows})
        overall = [r for r in rows if not scored_apart(r)] or rows
        per_run = [mean(question_score(r) for r in overall if r.run == run) for run in runs]
        recalls = [r.evidence_recall for r in rows if r.evidence_recall is not None]
        types = sorted({r.type for r in rows})
        latencies = [r.latency_ms for r in rows]
        conditions[name] = {
            "label": CONDITIONS[name].label,
            "accuracy": round(mean(per_run), 4),
            "accuracy_runs": [round(a, 4) for a in per_run],
            "evidence_recall": round(mean(recalls), 4) if recalls else None,
            "by_type": {t: round(mean(question_score(r) for r in rows if r.type == t), 4) for t in types},
            "right_by_type": {t: sum(bool(r.correct) for r in rows if r.type == t) for t in types},
            "recall_by_type": {t: _mean_or_none([r.evidence_recall for r in rows if r.type == t]) for t in types},
            "latency_ms_p50": round(float(np.percentile(latencies, 50)), 1),
            "latency_ms_p95": round(float(np.percentile(latencies, 95)), 1),
            "blocking_llm_calls_per_turn": round(mean(r.blocking_llm_calls for r in rows), 2),
            "prompt_tokens_p50": int(np.percentile([r.prompt_tokens for r in rows], 50)),
            "reject_hits": sum(r.reject_hits for r in rows),
            "questions": len(rows) // max(1, len(runs)),
        }
        abstaining = [r for r in rows if r.extra.get("abstention")]
        if abstaining:
            conditions[name]["abstention"] = round(mean(question_score(r) for r in abstaining), 4)
    return {**meta, "conditions": conditions, "paired": paired(records)}


# The condition every other one is held against, question by question: naive RAG, the baseline to beat
REFERENCE = "B"
RESAMPLES = 2000


def paired(records: list[AnswerRecord], reference: str = REFERENCE) -> dict[str, dict[str, dict]]:
    """Each condition against `reference` on the same questions (and runs), per question type and overall: how many
    it answered better, worse and the same, and the mean difference in score with a 95% interval from resampling
    the questions (seeded, so a report is reproducible). A difference whose interval holds 0 is one that another
    sample of questions could reverse: with 30 questions of a type, a few answers worded differently move the mean
    by 0.01 either way."""
    by_key = {(r.condition, r.run, r.question_id): r for r in records}
    out: dict[str, dict[str, dict]] = {}
    for name in sorted({r.condition for r in records} - {reference}):
        pairs = [(r, by_key[(reference, r.run, r.question_id)]) for r in records
                 if r.condition == name and (reference, r.run, r.question_id) in by_key]
        if not pairs:
            continue
        out[name] = {t: _compared([(x, b) for x, b in pairs if x.type == t or (t == "all" and not scored_apart(x))])
                     for t in ["all", *sorted({x.type for x, _ in pairs})]}
    return out


def _compared(pairs: list[tuple[AnswerRecord, AnswerRecord]]) -> dict:
    diffs = np.array([question_score(x) - question_score(b) for x, b in pairs])
    recall = [(x.evidence_recall, b.evidence_recall) for x, b in pairs
              if x.evidence_recall is not None and b.evidence_recall is not None]
    means = np.random.default_rng(0).choice(diffs, size=(RESAMPLES, len(diffs))).mean(axis=1)
    return {
        "questions": len(pairs),
        "better": int((diffs > 1e-9).sum()), "worse": int((diffs < -1e-9).sum()),
        "same": int((abs(diffs) <= 1e-9).sum()),
        "difference": round(float(diffs.mean()), 4),
        "interval": [round(float(np.percentile(means, 2.5)), 4), round(float(np.percentile(means, 97.5)), 4)],
        "recall_better": sum(x > b for x, b in recall), "recall_worse": sum(x < b for x, b in recall),
    }


def _mean_or_none(values: list) -> float | None:
    known = [v for v in values if v is not None]
    return round(mean(known), 4) if known else None


def write_outputs(out: Path, records: list[AnswerRecord], report: dict, command: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(json.dumps(report, indent=2, ensure_ascii=False))
    with (out / "answers.jsonl").open("w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(asdict(r), ensure_ascii=False) + "\n")
    (out / "report.md").write_text(markdown(report, command), encoding="utf-8")
    plot(report, out / "accuracy.png")


def markdown(report: dict, command: str) -> str:
    conditions = report["conditions"]
    types = sorted({t for c in conditions.values() for t in c["by_type"]})
    lines = [
        f"# Bench: {report['scenario']}",
        "",
        f"Command: `{command}`",
        "",
        f"LLM: `{report['llm']}` · embedder: `{report['embedder']}` · runs: {report['runs']} · "
        f"prompts: {', '.join(report.get('prompt_versions', []))}",
        "",
        f"Questions: {report.get('question_mode', 'read-only, each in a fresh conversation')}",
        "",
        *_scorer(report.get("scorer")),
        "| condition | accuracy (mean) | per run | evidence recall | latency p50 / p95 ms | blocking calls | prompt tokens p50 | reject hits |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, c in conditions.items():
        recall = "–" if c["evidence_recall"] is None else f"{c['evidence_recall']:.2f}"
        lines.append(
            f"| {name}: {c['label']} | {c['accuracy']:.3f} | {', '.join(f'{a:.3f}' for a in c['accuracy_runs'])} | "
            f"{recall} | {c['latency_ms_p50']:.0f} / {c['latency_ms_p95']:.0f} | {c['blocking_llm_calls_per_turn']} | "
            f"{c['prompt_tokens_p50']} | {c['reject_hits']} |"
        )
    if any("abstention" in c for c in conditions.values()):
        lines += ["", "Abstention items (right when the reply says it was never said): " + ", ".join(
            f"{name} {c['abstention']:.2f}" for name, c in conditions.items() if "abstention" in c)]
    lines += ["", "By question type (accuracy):", "", "| condition | " + " | ".join(types) + " |",
              "|---|" + "---|" * len(types)]
    for name, c in conditions.items():
        lines.append(f"| {name} | " + " | ".join(f"{c['by_type'].get(t, float('nan')):.2f}" for t in types) + " |")
    lines += ["", "By question type (evidence recall):", "", "| condition | " + " | ".join(types) + " |",
              "|---|" + "---|" * len(types)]
    for name, c in conditions.items():
        recalls = c.get("recall_by_type", {})
        lines.append(f"| {name} | " + " | ".join("–" if recalls.get(t) is None else f"{recalls[t]:.2f}" for t in types) + " |")
    for name, by_type in report.get("paired", {}).items():
        lines += ["", f"{name} against {REFERENCE}, question by question (score difference: mean, and its 95% interval "
                      f"over {RESAMPLES} resamplings of the questions; an interval holding 0 is not a difference this "
                      "sample can show):", "",
                  f"| type | questions | {name} better | worse | same | difference | 95% interval | "
                  "evidence recall better / worse |", "|---|---|---|---|---|---|---|---|"]
        for t, c in by_type.items():
            lo, hi = c["interval"]
            lines.append(f"| {t} | {c['questions']} | {c['better']} | {c['worse']} | {c['same']} | "
                         f"{c['difference']:+.3f} | {lo:+.3f} to {hi:+.3f} | {c['recall_better']} / {c['recall_worse']} |")
    return "\n".join(lines) + "\n"


def _scorer(scorer: dict | None) -> list[str]:
    """The lines naming a proxy scorer and how often it agrees with hand labels: a figure that is not a judge's."""
    if not scorer:
        return []
    agree = scorer["agreement_with_labels"]
    return [f"Scorer: **{scorer['name']}**; it agrees with {agree['answers_agree']:.0%} of {agree['answers']} "
            f"hand-labelled replies and {agree['preferences_agree']:.0%} of {agree['preferences']} preference replies "
            "(docs/LONGMEMEVAL.md). Preference questions are scored apart, out of the overall accuracy and the "
            "\"all\" row; abstention items are those of every type.", ""]


def plot(report: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    conditions = report["conditions"]
    names = list(conditions)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.bar(names, [conditions[n]["accuracy"] for n in names], color="#7a9cc6")
    for i, n in enumerate(names):
        runs = conditions[n]["accuracy_runs"]
        ax.scatter([i] * len(runs), runs, color="black", s=12, zorder=3)
        recall = conditions[n]["evidence_recall"]
        if recall is not None:
            ax.scatter([i], [recall], marker="_", s=400, color="#d0743c", zorder=4)
    ax.set_ylim(0, 1)
    ax.set_ylabel("accuracy (bars, runs as dots); evidence recall (orange)")
    ax.set_title(f"{report['scenario']} — {report['llm']}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
