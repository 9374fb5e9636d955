"""The memory-forming measure: its judge on entries the 0.5B model really wrote, and its run with a scripted model."""
from __future__ import annotations

import json

import pytest

from dreaming_agent.bench import forming
from dreaming_agent.pipeline.agent import Agent, AgentConfig
from dreaming_agent.pipeline.writer import WriterSettings
from dreaming_agent.store.records import Memory
from dreaming_agent.testing import ScriptedLLM

TUNE = forming.load("tune")


@pytest.mark.parametrize("entry, message, true, clean", [
    # Written by the 0.5B model before the Writer's prompt was changed (docs/results/default-model-memory.md).
    ("The user Soy alérgica a los cacahuetes, así que nada de satay para mí.", 2, True, False),
    ("The user Carmen vive en Sevilla con sus dos hijos", 3, False, False),
    ("The user Bruno is a four-year-old beagle", 4, False, False),
    ("The user's grandmother Carmen lives in Sevilla", 3, False, True),
    # And after.
    ("The user is allergic to cacahuetes", 2, True, True),
    ("The user's sister Carmen lives in Sevilla", 3, True, True),
    ("The user's dog is a four-year-old beagle", 4, True, True),
    ("The user's sister moved from Valencia to Barcelona", 10, False, True),
    ("The user has moved from Valencia to Barcelona", 10, True, True),
])
def test_judge_knows_true_facts_the_wrong_person_and_a_copied_sentence(entry, message, true, clean):
    judged = forming.judge(entry, message - 1, TUNE.messages[message - 1], TUNE.others)
    assert (judged.true, judged.clean) == (true, clean)


@pytest.mark.parametrize("entry, message, kind, right", [
    ("The user works as a nurse", 1, "occupation", True),  # the fact's labelled kind
    ("The user works as a nurse", 1, None, False),  # an occupation memory did not type
    ("The user works as a nurse", 1, "workplace", False),
    ("The user is called Lucía", 1, None, True),  # a name is no single-valued kind: "other" is right
    ("The user is called Lucía", 1, "home", False),
    ("The user has a dog called Bruno", 4, "pet name", True),
    ("The user's grandmother Carmen lives in Sevilla", 3, None, False),  # a false entry has no right kind
])
def test_judge_knows_whether_memory_gave_an_entry_the_kind_of_its_fact(entry, message, kind, right):
    judged = forming.judge(entry, message - 1, TUNE.messages[message - 1], TUNE.others, kind)
    assert judged.kind == (kind or "other") and judged.kind_right is right


@pytest.mark.parametrize("text, typed, kind", [
    ("The user has moved to Barcelona", None, "home"),  # its shape says it where its vector did not
    ("The user's dog is called Rex", "pet name", "pet name"),  # the kind, not the pet it is keyed by
    ("The user's car is dark green", "vehicle", None),  # a car's value is a name: this entry says none
    ("The user is allergic to peanuts", None, None),
])
def test_an_entrys_kind_is_the_one_memory_holds_it_to_say(text, typed, kind):
    memory = Memory(1, "mtm", text, "writer", "active", None, "2026-05-01T12:00:00", "2026-05-01T12:00:00", None, 0)
    assert forming.kind_of(memory, typed) == kind


@pytest.mark.parametrize("name", ["tune", "check"])
def test_both_conversations_have_ten_bilingual_messages_each_with_facts(name):
    conversation = forming.load(name)
    assert len(conversation.messages) == 10 and all(m.facts for m in conversation.messages)
    spanish = [m for m in conversation.messages if any(w in m.text.split() for w in ("Mi", "Soy", "Tengo", "en"))]
    assert 3 <= len(spanish) <= 7
    assert forming.load("tune").messages[0].text != forming.load("check").messages[0].text


def test_replies_that_refuse_or_know_nothing_are_not_natural():
    assert forming.natural("Nice, I'll remember that you're learning to swim! How is it going?")
    assert not forming.natural("I'm sorry, but I can't assist with that.")
    assert not forming.natural("No lo sé.")
    assert not forming.natural("")


def test_a_run_counts_entries_per_message_and_undoes_its_dream(store, index, embedder):
    said = {"Lucía": ["The user's name is Lucía", "The user works as a nurse"],
            "cacahuetes": ["The user is allergic to cacahuetes"],
            "hermana": ["The user Carmen vive en Sevilla"]}

    def writer(messages, schema):
        return json.dumps({"facts": next((f for k, f in said.items() if k in messages[-1]["content"]), [])})

    def dream(messages, schema):
        ids = [int(line[1:line.index("]")]) for line in messages[-1]["content"].splitlines() if line.startswith("[")]
        return json.dumps({"operations": [{"op": "PROMOTE", "target_ids": ids[:1], "reason": "health"}]})

    llm = ScriptedLLM(defaults={"ExtractedFacts": writer, "DreamProposal": dream, "text": "Noted! Anything else?"})
    agent = Agent(store=store, index=index, llm=llm, embedder=embedder,
                  config=AgentConfig(writer=WriterSettings(semantic_threshold=-1.0)))
    try:
        result = forming.run(agent, TUNE)
    finally:
        agent.close()

    assert [(e.message, e.true, e.clean) for e in result.entries] == [
        (0, True, True), (0, True, True), (1, True, True), (2, False, False)]
    assert result.natural_replies == 10 and result.expected == sum(len(m.facts) for m in TUNE.messages)
    figures = result.figures()
    assert figures["true"] == 3 and figures["false"] == 1 and figures["facts_found"] == f"3/{result.expected}"
    assert figures["kinds_right"].endswith("/3") and figures["typed_true"].split("/")[1] == str(len(result.typed))
    assert figures["dream_accepted"] >= 1 and figures["dream_undo_restores"] is True
    assert "FALSE m3: The user Carmen vive en Sevilla  (not third-person)" in forming.report_text(result)
