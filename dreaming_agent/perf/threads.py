"""The seed's lesson, measured: llama.cpp threads beyond the CPUs a process may really use make it slower."""
from __future__ import annotations

import multiprocessing
import os
import statistics
import time

from ..llm.base import available_cpus

_PROMPT = [
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "content": "Write the numbers from one to forty in words, separated by commas."},
]


CASES = {  # name -> (CPUs the child may use, llama.cpp threads; None: what available_cpus() detects)
    "pinned_detected": ({0}, None),
    "pinned_cpu_count_threads": ({0}, os.cpu_count() or 1),
    "unpinned_detected": (None, None),
    "unpinned_one_thread": (None, 1),
}


def measure_threads(gguf_path: str, *, n_ctx: int = 1024, max_tokens: int = 32, calls: int = 2) -> dict:
    """One child process per case: pinned to CPU 0 (as `taskset -c 0` would) or not; detected or fixed threads."""
    results = {name: time_in_child(gguf_path, cpus, threads, n_ctx, max_tokens, calls)
               for name, (cpus, threads) in CASES.items()}
    return {"cpu_count": os.cpu_count(), "available_cpus": available_cpus(), **results,
            "oversubscribed_slowdown": _slowdown(results["pinned_cpu_count_threads"], results["pinned_detected"])}


def _slowdown(slow: dict, fast: dict) -> float | None:
    if "error" in slow or "error" in fast or not fast["call_p50_ms"]:
        return None
    return round(slow["call_p50_ms"] / fast["call_p50_ms"], 2)


def time_in_child(gguf_path: str, cpus: set[int] | None, threads: int | None, n_ctx: int = 1024,
                  max_tokens: int = 32, calls: int = 2) -> dict:
    """Time model calls in a fresh (spawned) process, so the CPU restriction and llama.cpp's threads start clean."""
    context = multiprocessing.get_context("spawn")
    parent_end, child_end = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(child_end, gguf_path, cpus, threads, n_ctx, max_tokens, calls))
    child.start()
    child_end.close()
    try:
        result = parent_end.recv()
    except EOFError:
        result = {"error": f"the child process died (exit code {child.exitcode})"}
    child.join()
    return result


def _child(conn, gguf_path: str, cpus: set[int] | None, threads: int | None, n_ctx: int, max_tokens: int,
           calls: int) -> None:
    """Runs in the child: restrict CPUs, load the model, one warm-up call, then the timed calls."""
    from ..llm.llamacpp import LlamaCppLLM

    try:
        if cpus is not None:
            os.sched_setaffinity(0, cpus)
        llm = LlamaCppLLM(gguf_path, n_ctx=n_ctx, threads=threads)  # None: LlamaCppLLM detects the CPUs
        llm.complete(_PROMPT, max_tokens=8)
        times, tokens = [], 0
        for seed in range(calls):
            started = time.perf_counter()
            completion = llm.complete(_PROMPT, max_tokens=max_tokens, seed=seed)
            times.append((time.perf_counter() - started) * 1000)
            tokens += completion.completion_tokens
        llm.close()
        conn.send({
            "cpus": len(os.sched_getaffinity(0)),
            "threads": llm.threads,
            "call_p50_ms": round(statistics.median(times), 1),
            "tokens_per_s": round(tokens / (sum(times) / 1000), 1),
        })
    except Exception as e:  # reported in perf.json rather than losing the whole run to one child
        conn.send({"error": f"{type(e).__name__}: {e}"})
    finally:
        conn.close()
