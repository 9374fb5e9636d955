"""perf.json, perf.md and perf.png from one run's results; pure apart from writing the files."""
from __future__ import annotations

import json
from pathlib import Path

RETRIEVAL_TARGET_MS = 5.0
WITH_EMBEDDING_TARGET_MS = 15.0
RECALL_TARGET = 0.95
LIGHTMEM_RATIO_TARGET = 1.3


def targets(results: dict) -> list[dict]:
    """Each target with the measured value and whether it was met; sizes below 10k are not judged."""
    rows = []
    for row in results["retrieval"]:
        if row["n"] >= 10_000:
            rows.append(_target(f"retrieval p50 at {row['n']:,} (no embedding)", f"≤ {RETRIEVAL_TARGET_MS} ms",
                                row["p50_ms"], row["p50_ms"] <= RETRIEVAL_TARGET_MS))
            rows.append(_target(f"recall@8 at {row['n']:,}", f"≥ {RECALL_TARGET}", row["recall_at_8"],
                                row["recall_at_8"] >= RECALL_TARGET))
    if results["retrieval"]:
        largest = max(results["retrieval"], key=lambda r: r["n"])
        if largest["n"] >= 100_000:
            rows.append(_target(f"retrieval p50 with the query embedding at {largest['n']:,}",
                                f"≤ {WITH_EMBEDDING_TARGET_MS} ms", largest["with_embedding_p50_ms"],
                                largest["with_embedding_p50_ms"] <= WITH_EMBEDDING_TARGET_MS))
    turn = results["turn"]
    if turn.get("ratio") is not None:
        rows.append(_target("LightMem / RAG time to answer (p50)", f"≤ {LIGHTMEM_RATIO_TARGET}×", turn["ratio"],
                            turn["ratio"] <= LIGHTMEM_RATIO_TARGET))
    busy, turns = (int(x) for x in turn["writer_running_at_reply"].split("/"))
    rows.append(_target("Writer on the reply path", "0 ms (reply returns before the Writer ends)",
                        f"Writer still running at {busy}/{turns} replies", busy == turns))
    return rows


def _target(name: str, target: str, value, met: bool) -> dict:
    return {"name": name, "target": target, "value": value, "met": bool(met)}


def write_all(results: dict, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "perf.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    plot(results["retrieval"], out / "perf.png")
    (out / "perf.md").write_text(markdown(results), encoding="utf-8")


def plot(rows: list[dict], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on a server or in CI
    import matplotlib.pyplot as plt

    sizes = [r["n"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, label, style in (
        ("p50_ms", "real path p50 (Chroma + SQLite)", "o-"),
        ("p95_ms", "real path p95", "o--"),
        ("with_embedding_p50_ms", "real path p50 incl. query embedding", "s-"),
        ("floor_p50_ms", "exact numpy top-k p50 (floor)", "^-"),
    ):
        ax.plot(sizes, [r[key] for r in rows], style, label=label)
    ax.axhline(RETRIEVAL_TARGET_MS, color="grey", linestyle=":", label=f"target {RETRIEVAL_TARGET_MS:g} ms")
    ax.axhline(WITH_EMBEDDING_TARGET_MS, color="grey", linestyle="-.",
               label=f"target incl. embedding {WITH_EMBEDDING_TARGET_MS:g} ms")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("memory size N (entries searched: memories + user sentences)")
    ax.set_ylabel("latency per query (ms)")
    ax.set_title("Retrieval latency against memory size")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def markdown(results: dict) -> str:
    setup, machine = results["setup"], results["machine"]
    lines = [
        "# Performance", "", "```", results["command"], "```", "",
        f"Run {results['started_at']}, {results['duration_s']:.0f} s in all, on {machine['cpu_count']} CPUs "
        f"({machine['available_cpus']} usable, {machine['llm_threads']} llama.cpp threads; one-minute load average "
        f"{machine['load_average']}). Model: {setup['llm']}; embedder: {setup['embedder']} "
        f"({setup['dim']} dimensions).",
        "",
        "## Targets", "",
        "| target | wanted | measured | met |",
        "| --- | --- | --- | --- |",
        *[f"| {t['name']} | {t['target']} | {t['value']} | {'yes' if t['met'] else '**no**'} |"
          for t in results["targets"]],
        "",
        "## Retrieval", "", setup["vectors"], "", *_retrieval_table(results["retrieval"]), "",
        "![retrieval latency](perf.png)", "",
        "## Ingest and the Writer", "", _table(results["ingest"]), "",
        "## Turn: RAG against LightMem, same model, same conversation", "",
        _table({k: v for k, v in results["turn"].items() if not k.endswith("_per_turn")}), "",
        "## Dream", "", setup["dream_llm"], "",
        "| memories | time ms | clusters | model calls | accepted | rejected |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
        *[f"| {d['memories']:,} | {d['dream_ms']} | {d['clusters']} | {d['llm_calls']} | {d['accepted']} | "
          f"{d['rejected']} |" for d in results["dream"]],
        "",
        "## Threads", "", _threads(results["threads"]), "",
        "## Findings", "", *[f"- {line}" for line in findings(results)], "",
    ]
    return "\n".join(lines)


def _retrieval_table(rows: list[dict]) -> list[str]:
    columns = {"p50_ms": "p50 ms", "p95_ms": "p95 ms", "embed_query_p50_ms": "query embedding p50 ms",
               "with_embedding_p50_ms": "incl. embedding p50 ms",
               "floor_p50_ms": "floor p50 ms", "ratio": "real/floor", "recall_at_8": "recall@8",
               "index_count_p50_ms": "index.count ms", "rss_mb": "RSS MB"}
    return [
        "| N | " + " | ".join(columns.values()) + " |",
        "| ---: " * (len(columns) + 1) + "|",
        *[f"| {r['n']:,} | " + " | ".join(str(r[key]) for key in columns) + " |" for r in rows],
        "",
        "Each figure is from the best of 3 passes over the queries (the pass with the lowest median), since other "
        "processes shared the CPUs. The query embedding is timed alone, one question per call as a turn does. "
        "The floor is numpy "
        "`matrix @ query` and argpartition on one BLAS thread. RSS is the whole process, including the floor's own "
        "copy of the vectors (N × d × 4 bytes).",
    ]


def findings(results: dict) -> list[str]:
    """What the figures say about the missed targets, computed from the figures themselves."""
    lines = []
    for row in results["retrieval"]:
        if row["n"] >= 10_000 and row["p50_ms"] > RETRIEVAL_TARGET_MS:
            share = 2 * row["index_count_p50_ms"] / row["p50_ms"]
            lines.append(
                f"At {row['n']:,} entries, `VectorIndex.search` asks Chroma for `count()` before each query: "
                f"{row['index_count_p50_ms']} ms, twice per retrieval (memories and sentences), about {share:.0%} of "
                "the p50. The count grows with N; Chroma 1.x already returns fewer hits when asked for more than it "
                "holds, and none from an empty collection, so the count can go.")
        if row["n"] >= 10_000 and row["recall_at_8"] < RECALL_TARGET:
            lines.append(f"Recall@8 at {row['n']:,} is {row['recall_at_8']}: a wider HNSW search "
                         "(`hnsw:search_ef` in store/vectors.py) trades latency for it.")
    largest = max(results["retrieval"], key=lambda r: r["n"], default=None)
    if largest and largest["n"] >= 100_000 and largest["with_embedding_p50_ms"] > WITH_EMBEDDING_TARGET_MS:
        lines.append(
            f"With its embedding, a query at {largest['n']:,} took {largest['with_embedding_p50_ms']} ms: the "
            f"embedding alone {largest['embed_query_p50_ms']} ms, the search and hydration {largest['p50_ms']} ms.")
    turn, ingest = results["turn"], results["ingest"]
    if turn.get("ratio") is not None and turn["ratio"] > LIGHTMEM_RATIO_TARGET:
        lightmem_steps = turn["steps_p50_ms"]["lightmem"]
        steps = ", ".join(f"{name} {ms:.0f} ms" for name, ms in lightmem_steps.items())
        model_share = 1 - lightmem_steps.get("Retriever", 0.0) / (sum(lightmem_steps.values()) or 1.0)
        calls = turn["blocking_llm_calls"]
        lines.append(
            f"LightMem makes {calls['lightmem']} blocking model calls before the answer to RAG's {calls['rag']}; "
            f"its step p50s: {steps}. The model calls are {model_share:.0%} of that, so the ratio follows the "
            "number and length of the calls before the reply; retrieval is not what costs.")
    if ingest.get("writer_messages") and not ingest.get("writer_facts_stored"):
        lines.append(
            f"The Writer stored no memory from the {ingest['writer_messages']} history messages "
            f"({len(ingest.get('writer_facts_dropped', []))} facts dropped), so LightMem answered from verbatim "
            "sentences only, like RAG, but with two more calls.")
    threads = results["threads"]
    if "skipped" not in threads and "error" not in threads["unpinned_detected"] \
            and "error" not in threads["unpinned_one_thread"]:
        detected, single = threads["unpinned_detected"], threads["unpinned_one_thread"]
        lines.append(
            f"Unpinned, {detected['threads']} threads ran at {detected['tokens_per_s']} tokens/s and 1 thread at "
            f"{single['tokens_per_s']}: under a load average of {results['machine']['load_average']} the CPUs a "
            "process may use are not CPUs it really has, and llama.cpp's threads wait on each other.")
    if results["dream"] and "error" not in results["dream"][-1] and results["setup"]["llm"] != "scripted":
        largest = results["dream"][-1]
        minutes = largest["clusters"] * ingest["writer_model_p50_ms"] / 60_000
        lines.append(
            f"A Dream over {largest['memories']:,} memories asks about {largest['clusters']} clusters: at the "
            f"Writer's p50 per structured call ({ingest['writer_model_p50_ms']:.0f} ms) the real model would need "
            f"about {minutes:.0f} minutes.")
    return lines or ["Nothing to explain: no target was missed."]


def _table(values: dict) -> str:
    rows = ["| measure | value |", "| --- | --- |"]
    rows += [f"| {key} | {_cell(value)} |" for key, value in values.items()]
    return "\n".join(rows)


def _cell(value) -> str:
    text = json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else str(value)
    return text.replace("|", "\\|")


def _threads(threads: dict) -> str:
    if "skipped" in threads:
        return f"Skipped: {threads['skipped']}"
    rows = ["| process | CPUs | llama.cpp threads | call p50 ms | tokens/s |", "| --- | ---: | ---: | ---: | ---: |"]
    for key, label in (("pinned_detected", "pinned to CPU 0, threads = available_cpus()"),
                       ("pinned_cpu_count_threads", "pinned to CPU 0, threads = os.cpu_count()"),
                       ("unpinned_detected", "not pinned, threads = available_cpus()"),
                       ("unpinned_one_thread", "not pinned, 1 thread")):
        child = threads[key]
        if "error" in child:
            rows.append(f"| {label} | - | - | failed: {child['error']} | - |")
        else:
            rows.append(f"| {label} | {child['cpus']} | {child['threads']} | {child['call_p50_ms']} | "
                        f"{child['tokens_per_s']} |")
    rows.append("")
    rows.append(f"Pinned to one CPU, os.cpu_count() threads take {threads['oversubscribed_slowdown']}× the time of "
                "the detected count per call.")
    return "\n".join(rows)
