"""Measures that involve the model: ingest, the background Writer, and a turn answered by RAG and by LightMem."""
from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import replace
from typing import Callable

from ..pipeline.agent import Agent
from .corpus import fact_texts
from .retrieval import percentile

# One person's earlier messages, then questions about them: both modes answer the same conversation.
HISTORY = [
    "My sister Ana moved to Lisbon in 2019 and works at the harbour office.",
    "I adopted a grey cat called Miso last March.",
    "Mi hermano Luis compró una bicicleta roja en Sevilla por 300 euros.",
    "I'm allergic to peanuts, so I always ask before ordering desserts.",
    "Our flight to Osaka leaves at 7:40 on June 12.",
    "I run 10 km every Sunday along the river with my friend Priya.",
]
QUESTIONS = [
    "Where does my sister live?",
    "What is my cat called?",
    "¿Qué compró Luis en Sevilla?",
    "When does our flight to Osaka leave?",
    "What am I allergic to?",
    "How far do I run on Sundays?",
]

AgentFactory = Callable[[bool], Agent]  # learn -> a fresh agent on its own store and index
BACKGROUND = 60  # earlier messages of the same person; LightMem also holds one entry per message


def measure_ingest(new_agent: AgentFactory, count: int, *, seed: int) -> dict:
    """RAG ingest rate: store + sentence embedding (each ingest embeds the sentences still waiting)."""
    agent = new_agent(False)
    texts = [f"{a} {b}" for a, b in zip(fact_texts(count, seed=seed, start=2 * 10**7),
                                          fact_texts(count, seed=seed + 1, start=3 * 10**7))]
    times = []
    started = time.perf_counter()
    for text in texts:
        t0 = time.perf_counter()
        agent.ingest(text, now="2025-01-01T12:00:00", learn=False)
        times.append(_ms(t0))
    elapsed = time.perf_counter() - started
    agent.close()
    return {"messages": count, "messages_per_s": round(count / elapsed, 1), "ingest_p50_ms": percentile(times, 50),
            "ingest_p95_ms": percentile(times, 95)}


def measure_conversation(new_agent: AgentFactory, *, on_step: Callable[[], None] = lambda: None) -> tuple[dict, dict]:
    """The Writer on the history, then the same questions answered by RAG and LightMem agents sharing one model."""
    agents = {"rag": new_agent(False), "lightmem": new_agent(True)}
    present = _background(agents, BACKGROUND)
    writer = _learn_history(agents, on_step)
    answer_ms: dict[str, list[float]] = {"rag": [], "lightmem": []}
    calls: dict[str, list[int]] = {"rag": [], "lightmem": []}
    steps: dict[str, dict[str, list[float]]] = {"rag": defaultdict(list), "lightmem": defaultdict(list)}
    writer_after_ms, writer_busy_at_reply = [], 0
    for turn_number, question in enumerate(QUESTIONS):
        # Alternate who goes first: llama.cpp reuses the previous prompt's prefix, which favours the second.
        order = ("rag", "lightmem") if turn_number % 2 == 0 else ("lightmem", "rag")
        for mode in order:
            agent = agents[mode]
            t0 = time.perf_counter()
            result = agent.turn(question, mode=mode, now="2025-01-02T12:00:00")
            answer_ms[mode].append(_ms(t0))
            calls[mode].append(result.blocking_llm_calls)
            for step in result.trace.steps:
                steps[mode][step.name].append(step.duration_ms)
            t1 = time.perf_counter()
            busy = agent.learning.running
            agent.learning.wait()  # not timed into the answer: shows what the Writer would have added
            if mode == "lightmem":
                writer_busy_at_reply += int(busy)
                writer_after_ms.append(_ms(t1))
            on_step()
    for agent in agents.values():
        agent.close()
    rag, lightmem = percentile(answer_ms["rag"], 50), percentile(answer_ms["lightmem"], 50)
    return {
        "turns": len(QUESTIONS),
        "history_messages": len(HISTORY),
        "lightmem_memories": writer["writer_facts_stored"] + present,
        "background_messages": BACKGROUND,
        "rag_p50_ms": rag,
        "lightmem_p50_ms": lightmem,
        "ratio": round(lightmem / rag, 2) if rag else None,
        "rag_ms": answer_ms["rag"],
        "lightmem_ms": answer_ms["lightmem"],
        "blocking_llm_calls": {mode: max(set(c), key=c.count) for mode, c in calls.items()},
        "blocking_llm_calls_per_turn": calls,
        "steps_p50_ms": {mode: {name: percentile(ms, 50) for name, ms in by_step.items()}
                         for mode, by_step in steps.items()},
        "writer_after_reply_p50_ms": percentile(writer_after_ms, 50),
        "writer_running_at_reply": f"{writer_busy_at_reply}/{len(QUESTIONS)}",
    }, writer


def _background(agents: dict[str, Agent], count: int) -> int:
    """Months of earlier talk: both agents store the messages; LightMem also holds an entry drawn from each.

    The entries are added directly (their own words, with the message as source) so that the measured turns
    search a realistic memory without an hour of Writer calls first. Returns how many entries LightMem holds."""
    learner = agents["lightmem"]
    texts = fact_texts(count, seed=7, start=4 * 10**7)
    vectors = learner.embedder.embed_batch(texts, role="passage")
    for text, vector in zip(texts, vectors):
        agents["rag"].ingest(text, now="2024-12-01T12:00:00", learn=False)
        message = learner.ingest(text, now="2024-12-01T12:00:00", learn=False)
        memory_id = learner.store.add_memory(text, source_message_ids=[message.id], embedding=vector,
                                             created_at="2024-12-01T12:00:00")
        learner.index.add("memories", [memory_id], vector[None, :])
    return len(learner.store.memories())


def _learn_history(agents: dict[str, Agent], on_step: Callable[[], None]) -> dict:
    """Store the history in both agents; time each LightMem Writer run from the message stored to its end."""
    latencies, model_ms, stored, dropped = [], [], 0, []
    for text in HISTORY:
        agents["rag"].ingest(text, now="2025-01-01T12:00:00")
        learner = agents["lightmem"]
        message = learner.ingest(text, now="2025-01-01T12:00:00")
        t0 = time.perf_counter()
        learner.learning.wait()
        latencies.append(_ms(t0))
        outcome = learner.learning.outcomes.get(message.id)
        if outcome is not None:
            stored += len(outcome.stored)
            dropped += [f"{fact} ({why})" for fact, why in outcome.dropped]
            dropped += [f"{fact} (duplicate of memory {memory_id})" for fact, memory_id in outcome.duplicates]
            model_ms.append(outcome.step.duration_ms if outcome.step else 0.0)
        on_step()
    agents["rag"].learning.wait()
    return {"writer_messages": len(HISTORY), "writer_p50_ms": percentile(latencies, 50),
            "writer_model_p50_ms": percentile(model_ms, 50), "writer_facts_stored": stored,
            "writer_facts_dropped": dropped}


def with_learning(agent: Agent, learn: bool) -> Agent:
    """The wired agent with the Writer switched on or off (AgentConfig is frozen)."""
    agent.config = replace(agent.config, learn=learn)
    return agent


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
