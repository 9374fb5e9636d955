"""The real embedded SmolLM2 model and the real offline embedder, wired from default settings: turns and the Writer."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dreaming_agent.pipeline.writer import write
from dreaming_agent.prompts import PromptLibrary
from dreaming_agent.settings import Settings
from dreaming_agent.text import mentions, numbers, proper_nouns
from dreaming_agent.wiring import build_agent

pytestmark = pytest.mark.model

DEV = Path(__file__).resolve().parents[2] / "dreaming_agent" / "bench" / "scenarios" / "dev.json"
TOLD = [  # what the person said earlier, on other days
    ("2026-03-02", "I have a cat called Pimentón, he's three and extremely dramatic."),
    ("2026-03-14", "Also today I started a data analytics bootcamp, online, evenings and weekends."),
    ("2026-03-29", "Also I started cello lessons last week, con una profesora que se llama Amparo."),
    ("2026-04-12", "Mi sobrino Unai cumple 7 años el sábado que viene, tengo que pensar un regalo."),
]
QUESTION = "What is my cat called?"


@pytest.fixture(scope="module")
def agent():
    agent = build_agent(Settings.load({}))  # the app's defaults: embedded SmolLM2-135M, USE embedder, ephemeral stores
    for day, text in TOLD:
        agent.ingest(text, now=day, learn=False)
    yield agent
    agent.close()
    agent.index.drop()
    agent.store.close()


def test_lightmem_turn_traces_every_step_and_puts_the_evidence_in_the_prompt(agent):
    result = agent.turn(QUESTION, mode="lightmem", now="2026-05-01")
    assert result.error is None and result.answer.strip()
    steps = [s.name for s in result.trace.steps]
    assert steps[:4] == ["Controller", "Retriever", "Selector", "Responder"] and steps[-1] == "Abstention"
    # a slip code sees (the person's own name for the cat's, a copied acknowledgement) is asked once more
    retried = steps[4:-1]
    assert retried in ([], ["Own name", "Responder, again"], ["Acknowledgement copied", "Responder, again"])
    assert_timed(result)
    assert result.blocking_llm_calls == 1 + len(retried) // 2  # Controller and Selector decide in code (default variant)
    assert result.trace.step("Responder").completion_tokens > 0
    assert result.evidence, "nothing retrieved reached the prompt"
    assert all(c.text in result.prompt_text for c in result.evidence)
    assert "- 2026-03-02: I have a cat called Pimentón" in result.prompt_text
    assert agent.learning.wait(timeout=120)
    assert agent.learning.outcomes[result.message_id].step.name == "Writer"


def test_rag_turn_is_retrieval_and_one_reply_with_the_sentences_in_the_prompt(agent):
    result = agent.turn(QUESTION, mode="rag", now="2026-05-01")
    assert result.error is None and result.answer.strip()
    names = [s.name for s in result.trace.steps]
    assert names[:2] == ["Retriever", "Responder"]  # retrieval, then the one reply
    assert set(names[2:]) <= {"Voice", "In their language"}  # what code may then do to the reply, without the model
    assert result.blocking_llm_calls == 1
    assert_timed(result)
    retrieved = [hit["text"] for hit in result.trace.step("Retriever").parsed]
    assert "I have a cat called Pimentón, he's three and extremely dramatic." in retrieved
    assert all(c.sources[0].message_id != result.message_id for c in result.evidence)  # not its own evidence
    assert all(f"- {c.date[:10]}: {c.text}" in result.prompt_text for c in result.evidence)
    assert "- 2026-03-02: I have a cat called Pimentón" in result.prompt_text
    assert agent.learning.wait(timeout=120)


def test_published_variant_really_asks_the_model_to_route_and_select(agent):
    from dataclasses import replace

    published = build_agent(Settings.load({}), llm=agent.llm, embedder=agent.embedder,
                            config=replace(agent.config, variant="published"))
    try:
        for day, text in TOLD:
            published.memory.add(text)
        result = published.ask(QUESTION, mode="lightmem", now="2026-05-01")
    finally:
        published.close()
        published.index.drop()
        published.store.close()
    assert result.trace.step("Controller").raw  # the model really answered the structured call
    assert result.trace.step("Selector").raw
    assert result.blocking_llm_calls >= 3


def test_a_streamed_turn_gives_the_plain_turns_answer_and_trace(agent):
    """Two twins of the app's agent on the same model, one turn each: streamed token by token, or whole."""
    from dataclasses import replace

    twins = [build_agent(Settings.load({}), llm=agent.llm, embedder=agent.embedder, index_namespace=f"twin-{i}",
                         config=replace(agent.config, learn=False)) for i in range(2)]
    pieces: list[str] = []
    try:
        results = []
        for twin, on_text in zip(twins, (None, lambda mode, piece: pieces.append(piece))):
            for day, text in TOLD:
                twin.ingest(text, now=day, learn=False)
            # llama.cpp's logits differ in the last bits between a prompt evaluated in one batch and one replayed
            # from its cache: an unrelated call first makes both twins' prompts start cold.
            agent.llm.complete([{"role": "user", "content": "Hi"}], max_tokens=2)
            results.append(twin.turn(QUESTION, mode="rag", now="2026-05-01", on_text=on_text))
        stored = [twin.memory.history()[-1].text for twin in twins]
    finally:
        for twin in twins:
            twin.close()
            twin.index.drop()
            twin.store.close()
    plain, streamed = results
    assert len(pieces) > 1
    assert "".join(pieces) == streamed.trace.step("Responder").raw[0] == plain.trace.step("Responder").raw[0]
    assert streamed.answer == plain.answer == stored[0] == stored[1]
    timeless = [[(s.name, s.decision, s.raw, s.parsed, s.prompt_tokens, s.completion_tokens) for s in r.trace.steps]
                for r in results]
    assert timeless[0] == timeless[1]


def assert_timed(result) -> None:
    assert set(result.timings) == {s.name for s in result.trace.steps} | {"total_ms"}
    assert all(step.duration_ms >= 0 for step in result.trace.steps)
    assert result.timings["total_ms"] >= max(s.duration_ms for s in result.trace.steps) > 0


def dev_turns() -> list[tuple[str, str]]:
    scenario = json.loads(DEV.read_text(encoding="utf-8"))
    return [(s["date"], turn) for s in scenario["sessions"] for turn in s["turns"]]


def writer_sample(turns: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Turns 1, 3 and 5 of every session (24 of 57): greetings, names, numbers, both languages, all eight dates.

    All 57 take about 80 s with SmolLM2 here; this keeps the model tests near a minute."""
    by_day: dict[str, list[tuple[str, str]]] = {}
    for day, text in turns:
        by_day.setdefault(day, []).append((day, text))
    return [turn for day_turns in by_day.values() for turn in day_turns[0:6:2]]


def example_entities(prompt_texts: list[str], conversation: str) -> set[str]:
    """Names and numbers written in the prompts that the conversation never mentions: only an example can be their source."""
    found = set()
    for text in prompt_texts:
        text = re.sub(r"\$\w+", " ", text)  # template variables are not examples
        found |= proper_nouns(text) | numbers(text)
    return {e for e in found if not mentions(e, conversation)}


def test_example_entities_would_catch_a_leaked_example():
    prompt = 'Example: {"facts": ["The user has a dog called Toby in Madrid", "The user is 34"]}'
    leaked = example_entities([prompt], "I have a cat called Pimentón, he's three.")
    assert {"toby", "madrid", "34"} <= leaked


def test_writer_over_the_development_conversation_stores_nothing_from_prompt_examples(agent):
    # Same model and embedder as the app, a fresh store: the Writer over a sample of dev.json's user turns.
    writer_agent = build_agent(Settings.load({}), llm=agent.llm, embedder=agent.embedder)
    prompts = PromptLibrary.bundled()
    turns = dev_turns()
    sample = writer_sample(turns)
    try:
        outcomes = []
        for day, text in sample:
            message = writer_agent.store.add_message("dev", "user", text, day + "T12:00:00")
            outcomes.append(write(writer_agent.store, writer_agent.index, writer_agent.embedder, writer_agent.llm,
                                  prompts, message, settings=writer_agent.config.writer))
        memories = [m.text for m in writer_agent.store.memories()]
    finally:
        writer_agent.close()
        writer_agent.index.drop()
        writer_agent.store.close()

    assert len(outcomes) == len(sample) >= 20 and not any(o.unavailable for o in outcomes)
    prompt_texts = [p.read_text(encoding="utf-8") for p in sorted(prompts.directory.glob("*.md"))]
    forbidden = example_entities(prompt_texts, " ".join(text for _, text in turns))
    assert forbidden, "the prompts hold no names or numbers of their own: the check would be empty"
    leaks = {m: (proper_nouns(m) | numbers(m)) & forbidden for m in memories}
    assert not {m: e for m, e in leaks.items() if e}
    # An answer-shape placeholder copied by the model ("The user <fact 1>") must never become a memory either.
    assert not [m for m in memories if "<" in m or "..." in m]
    copied = [f for o in outcomes for f in o.step.parsed["extracted"] if "<" in f or "..." in f]
    assert all(any(f == d for o in outcomes for d, _ in o.dropped) for f in copied)
