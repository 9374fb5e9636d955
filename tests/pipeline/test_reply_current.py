"""The reply path's reading of what is current: rows chosen by the real embedder, events in date order, the check
on an answer that gives a replaced value, and the bounded wait for the Writer."""
from __future__ import annotations

import json
import time

import pytest

from dreaming_agent.embed.offline import default_offline_embedder
from dreaming_agent.pipeline.current import (CurrentSettings, current_first, gives_superseded, wait_for_writer)
from dreaming_agent.pipeline.evidence import Evidence
from dreaming_agent.pipeline.retriever import Candidate
from dreaming_agent.store.facts import Prior, ProfileRow
from dreaming_agent.store.records import Typed
from dreaming_agent.testing import ScriptedLLM


@pytest.fixture(scope="module")
def real_embedder():
    return default_offline_embedder()


def remember(store, embedder, text, typed, day):
    return store.add_memory(text, embedding=embedder.embed(text, role="passage"), created_at=f"{day}T10:00:00",
                            typed=typed)


@pytest.fixture
def dana(store, real_embedder):
    remember(store, real_embedder, "The user is called Dana", Typed("user", "name", "Dana", "2026-11-20"), "2026-11-20")
    remember(store, real_embedder, "The user lives in Leeds", Typed("user", "home", "Leeds", "2026-11-20"), "2026-11-20")
    remember(store, real_embedder, "The user works as pharmacist", Typed("user", "occupation", "pharmacist", "2026-11-20"),
             "2026-11-20")
    remember(store, real_embedder, "The user lives in Bristol", Typed("user", "home", "Bristol", "2026-11-18"), "2026-11-25")
    remember(store, real_embedder, "The user works as teacher", Typed("user", "occupation", "teacher", "2026-11-25"),
             "2026-11-25")
    remember(store, real_embedder, "The user: ran a marathon", Typed("user", "event", "ran a marathon", "2026-11-22"),
             "2026-11-23")
    remember(store, real_embedder, "The user: adopted a dog", Typed("user", "event", "adopted a dog", "2026-11-02"),
             "2026-11-23")
    return store


@pytest.mark.parametrize("question, first", [
    ("Where do I live now?", "- current since 2026-11-18: The user lives in Bristol (before: Leeds)"),
    ("¿Dónde vivo ahora?", "- current since 2026-11-18: The user lives in Bristol (before: Leeds)"),
    ("What's my job?", "- current since 2026-11-25: The user works as teacher (before: pharmacist)"),
])
def test_the_profile_row_bearing_on_the_question_comes_first(dana, real_embedder, question, first):
    floor = Evidence(lines=["- 2026-11-20: I live in Leeds."], shown=[])
    evidence = current_first(floor, dana, real_embedder.embed(question, role="query"), about_time=False)
    assert evidence.lines[0] == first
    assert evidence.lines[-1] == "- 2026-11-20: I live in Leeds."  # the verbatim floor stays
    assert len(evidence.lines) == len(evidence.shown) + 1  # each added line shows its entry; the floor had none
    assert not any("marathon" in line for line in evidence.lines)
    assert evidence.steps[-1].name == "Current"


def test_a_question_about_time_reads_the_dated_events_in_date_order(dana, real_embedder):
    evidence = current_first(Evidence(), dana, real_embedder.embed("When did I run the marathon?", role="query"),
                             about_time=True)
    events = [line for line in evidence.lines if "The user:" in line]
    assert events == ["- 2026-11-02: The user: adopted a dog", "- 2026-11-22: The user: ran a marathon"]
    assert [c.record.text for c in evidence.shown][-2:] == ["The user: adopted a dog", "The user: ran a marathon"]


def test_nothing_bears_on_an_unrelated_question(dana, real_embedder):
    evidence = Evidence(lines=["- x"], shown=[])
    assert current_first(evidence, dana, real_embedder.embed("Tell me a joke about penguins", role="query"),
                         about_time=False, settings=CurrentSettings(min_similarity=0.3)) is evidence


HOME = ProfileRow("user", "home", "Bristol", "2026-11-18", 4, (Prior("Leeds", "2026-11-20", 2),))


@pytest.mark.parametrize("answer, stale", [
    ("You live in Leeds.", "Leeds"),
    ("Vives en Leeds.", "Leeds"),
    ("You live in Bristol.", None),
    ("You moved from Leeds to Bristol.", None),  # the current value is given too
    ("I don't know.", None),
])
def test_an_answer_giving_a_replaced_value_is_caught(answer, stale, store):
    said = [Candidate(_sentence(store, text), 0.5) for text in ("I live in Leeds.", "I moved to Bristol.")]
    found = gives_superseded(answer, said, [HOME])
    assert (found.old if found else None) == stale
    if found:
        assert found.lines == [0] and "Bristol" in found.reason


def _sentence(store, text):
    message = store.add_message("s1", "user", text, "2026-11-20T10:00:00")
    return store.sentences(message_ids=[message.id])[0]


def test_a_question_waits_for_the_writer_within_its_bound(make_agent):
    llm = ScriptedLLM(defaults={"ExtractedFacts": json.dumps({"facts": []})}, delay_s=0.4)
    agent = make_agent(llm)
    agent.ingest("I moved to Bristol last week.")
    assert agent.learning.running
    waited = wait_for_writer(agent.learning, CurrentSettings(writer_wait_s=5.0))
    assert 0.0 < waited < 5.0 and not agent.learning.running
    agent.ingest("I started a new job.")
    started = time.perf_counter()
    assert wait_for_writer(agent.learning, CurrentSettings(writer_wait_s=0.1)) <= 0.2  # the bound holds
    assert time.perf_counter() - started < 0.3
    assert agent.learning.wait(5) and wait_for_writer(agent.learning) == 0.0  # nothing pending: no wait at all


def test_an_agent_asks_again_without_the_old_value_when_its_answer_gave_it(make_agent):
    from dataclasses import replace

    from .conftest import FLOW_CONFIG
    from .test_current import typed

    # the old line kept (not left out by the Selector) and every current row shown (the hashing embedder has no
    # semantics): what the check itself does
    gather = replace(FLOW_CONFIG.gather, replaced_unless_past=False, current=CurrentSettings(min_similarity=-1.0))

    said = {"Leeds": [typed("home", "Leeds")], "Bristol": [typed("home", "Bristol")]}
    answers = iter(["You live in Leeds.", "You live in Bristol."])
    llm = ScriptedLLM(defaults={"ExtractedFacts": lambda m, s: json.dumps(
        {"facts": next((f for k, f in said.items() if k in m[-1]["content"]), [])}),
        "text": lambda m, s: next(answers)})
    agent = make_agent(llm, replace(FLOW_CONFIG, gather=gather))
    agent.turn("I live in Leeds.", now="2026-11-20T10:00:00")
    agent.turn("I moved to Bristol.", now="2026-11-25T10:00:00")
    agent.learning.wait()
    answers = iter(["You live in Leeds.", "You live in Bristol."])
    result = agent.ask("Where do I live?", now="2026-11-26")
    assert result.answer == "You live in Bristol."
    assert "Leeds" in result.trace.step("Replaced value").decision
    evidence = result.prompt_text.split("Evidence from memory (dated):")[1].split("[user]")[0]
    assert "Bristol" in evidence and "Leeds" not in evidence


def test_a_question_asked_while_the_writer_works_waits_for_it_and_says_so(make_agent, store):
    from .test_current import typed

    llm = ScriptedLLM(defaults={"ExtractedFacts": lambda m, s: json.dumps(
        {"facts": [typed("home", "Bristol")] if "Bristol" in m[-1]["content"] else []}),
        "text": "You live in Bristol."}, delay_s=0.3)
    agent = make_agent(llm)
    agent.turn("I moved to Bristol.", now="2026-11-25T10:00:00")
    assert agent.learning.running
    result = agent.turn("Where do I live?", now="2026-11-25T10:00:05")
    wait = result.trace.step("Writer wait")
    assert 0 < wait.parsed["waited_s"] < CurrentSettings().writer_wait_s
    assert [m.value for m in store.memories(attribute="home")] == ["Bristol"]  # learned before the answer
