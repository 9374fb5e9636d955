"""Every role meets every model fault: the turn still answers or says clearly what failed, nothing is lost."""
from __future__ import annotations

import zlib
from collections import Counter, deque
from dataclasses import replace

import pytest

from dreaming_agent.errors import BackendUnavailable, ModelTimeout
from dreaming_agent.pipeline.agent import Agent, AgentConfig
from dreaming_agent.testing import ScriptedLLM
from dreaming_agent.ui.render import dream_html

from .conftest import CONFIG, Markers, echo_facts, report

DOWN = "Cannot reach Ollama at http://127.0.0.1:11434."
# Each fault as queued replies: bad output is queued twice because a structured call retries once.
FAULTS = {
    "invalid_json": lambda: ['{"facts": [unclosed', '{"facts": [unclosed'],
    "empty_output": lambda: ["", ""],
    "wrong_schema": lambda: ['{"answer": 42, "ok": true}', '{"answer": 42, "ok": true}'],
    "timeout": lambda: [ModelTimeout(30, "ollama")],
    "unreachable": lambda: [BackendUnavailable(DOWN, backend="ollama")],
}
UNAVAILABLE = ("timeout", "unreachable")
TURN_ROLES = {"Controller": "ControllerDecision", "Selector": "Selection", "Responder": "text"}
# Small window so one turn folds the oldest half into the rolling summary (the Summary role).
FOLDING = AgentConfig(writer=CONFIG.writer, window_tokens=20)
TALLY: Counter = Counter()  # how each case ended, for the figures line


@pytest.fixture(scope="module", autouse=True)
def figures():
    """After the last case: how many fault cases ran and how each ended (every one also kept the message)."""
    yield
    report("model faults", roles=6, faults=len(FAULTS), cases=sum(TALLY.values()), **dict(sorted(TALLY.items())))


def seeded(make_agent, llm, markers, config=CONFIG):
    """An agent with enough memory that the Selector has something to choose from."""
    agent = make_agent(llm, config)
    for _ in range(5):
        agent.ingest(f"I like {markers.new()} lemons in my garden.", learn=False)
        agent.memory.add(f"The user grows {markers.new()} tomatoes in the garden")
    return agent


def stored_first(store, text):
    """A model reply that first checks the person's message is already in SQLite, then replays `reply`."""
    def check(reply):
        def wrapped(messages, schema):
            assert text in [m.text for m in store.messages()], "a model was called before the message was stored"
            if isinstance(reply, BaseException):
                raise reply
            return reply
        return wrapped
    return check


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("role", TURN_ROLES)
def test_a_turn_answers_or_says_clearly_what_failed(make_agent, store, role, fault):
    markers = Markers(zlib.crc32(f"{role}/{fault}".encode()))
    question = f"What do I grow in my garden, tomatoes {markers.new()}?"
    llm = ScriptedLLM()
    # Only the published variant asks a model to route and select; the default decides both in code.
    config = CONFIG if role == "Responder" else replace(CONFIG, variant="published")
    agent = seeded(make_agent, llm, markers, config)
    llm.queues[TURN_ROLES[role]] = deque(map(stored_first(store, question), FAULTS[fault]()))

    result = agent.turn(question)

    assert store.message(result.message_id).text == question  # the person's words are kept whatever happens
    step = result.trace.step(role)
    assert step is not None, f"no {role} step in the trace"
    if role == "Responder" and fault in (*UNAVAILABLE, "empty_output"):  # nothing to fall back to: say so
        TALLY["turn_clear_error"] += 1
        assert result.error and result.answer.startswith("⚠️ ")
        shown = {"timeout": "30 s", "unreachable": DOWN, "empty_output": "empty answer"}[fault]
        assert shown in result.answer and "Your message is saved" in result.answer
        assert step.error and not any(m.role == "assistant" for m in store.messages())  # no fake answer stored
        return
    TALLY["turn_answered"] += 1
    assert result.error is None and result.answer.strip(), result.answer
    if role != "Responder":
        assert step.fell_back and step.error, f"{role} hid the fault: {step}"
        assert result.trace.step("Responder").llm_calls == 1  # the turn went on to answer
    if role == "Controller":  # retrieval still ran, with the raw message as the query
        assert result.trace.step("Retriever").parsed


@pytest.mark.parametrize("fault", FAULTS)
def test_a_writer_fault_is_recorded_and_an_unavailable_model_is_retried_later(make_agent, store, fault):
    markers = Markers(7)
    llm = ScriptedLLM({"ExtractedFacts": FAULTS[fault]()}, defaults={"ExtractedFacts": echo_facts})
    agent = make_agent(llm)
    said = f"I like {markers.new()} lemons."
    first = agent.turn(said)
    assert agent.learning.wait(timeout=30)
    outcome = agent.learning.outcomes[first.message_id]
    assert outcome.step.error, "the Writer's fault left no trace"
    if fault in UNAVAILABLE:
        assert store.writer_jobs("failed") == [first.message_id]
        assert store.memories() == []
        agent.turn(f"I visit {markers.new()} museum.")  # the next message retries the failed job first
        assert agent.learning.wait(timeout=30)
        assert store.writer_jobs("failed") == []
        assert "The user likes " + said[7:-1] in [m.text for m in store.memories()]
    else:  # bad output: the Writer fell back to "no facts" after one retry, and says so
        assert outcome.step.fell_back and outcome.step.retried and len(outcome.step.raw) == 2
        assert store.writer_jobs("done") == [first.message_id]
    assert store.message(first.message_id).text == said
    TALLY["writer_recorded" if fault not in UNAVAILABLE else "writer_failed_then_retried"] += 1


def test_a_writer_cut_short_by_closing_is_retried_by_the_next_agent(store, index, embedder):
    """Queued Writer jobs cancelled at shutdown must not stay 'pending' for ever."""
    markers = Markers(8)
    texts = [f"I like {markers.new()} lemons." for _ in range(3)]
    slow = ScriptedLLM(defaults={"ExtractedFacts": echo_facts}, delay_s=0.2)
    agent = Agent(store=store, index=index, llm=slow, embedder=embedder, config=CONFIG)
    for text in texts:
        agent.ingest(text)
    agent.close()  # the process stops with Writer work still queued
    left = store.writer_jobs("pending") + store.writer_jobs("failed")
    assert left, "closing finished every job: the test did not cut anything short"

    reopened = Agent(store=store, index=index, llm=ScriptedLLM(defaults={"ExtractedFacts": echo_facts}),
                     embedder=embedder, config=CONFIG)
    try:
        reopened.ingest(f"I own {markers.new()} boats.")
        assert reopened.learning.wait(timeout=30)
        assert store.writer_jobs("pending") == [] and store.writer_jobs("failed") == []
        learned = " ".join(m.text for m in store.memories())
        assert all(text.split()[2] in learned for text in texts)
    finally:
        reopened.close()


@pytest.mark.parametrize("fault", FAULTS)
def test_a_dream_fault_changes_nothing_and_says_why(make_agent, store, fault):
    markers = Markers(9)
    llm = ScriptedLLM({"DreamProposal": FAULTS[fault]()})
    agent = make_agent(llm)
    for _ in range(2):
        agent.memory.add(f"The user visits {markers.new()} museum")
    agent.ingest(f"I like {markers.new()} lemons.", learn=False)
    agent.store.add_memory("The user likes lemons", source_message_ids=[agent.memory.history()[-1].id])
    before = store.query("SELECT * FROM memories ORDER BY id")

    report_ = agent.memory.dream()

    assert store.query("SELECT * FROM memories ORDER BY id") == before
    assert report_.accepted == [] and report_.raw_outputs and report_.raw_outputs[0]["error"]
    page = dream_html(report_)
    expected = {"timeout": "30 s", "unreachable": DOWN}.get(fault, "no usable proposal")
    assert expected in page, f"the Dream page does not say the model failed: {page}"
    TALLY["dream_unchanged_and_said_why"] += 1


@pytest.mark.parametrize("fault", FAULTS)
def test_a_summary_fault_falls_back_to_the_persons_own_words(make_agent, store, fault):
    markers = Markers(10)
    llm = ScriptedLLM({"Summary": FAULTS[fault]()})
    agent = make_agent(llm, FOLDING)
    first = f"I like {markers.new()} lemons very much indeed."
    # Background learning waits while a turn is being answered; holding the turn across both messages makes it
    # run after the second, so there is one fold whatever the scheduler does.
    with agent._turn_lock:
        agent.turn(first)
        agent.turn(f"I visit {markers.new()} museum on sundays.")
    assert agent.learning.wait(timeout=30)
    summary, through = store.summary(agent.session)
    assert llm.calls_for("Summary") == len(FAULTS[fault]())  # one fold, met by the fault (and its retry)
    assert through >= 1 and summary.startswith("Earlier the person said: " + first[:20])  # their own words
    assert [m.text for m in store.messages(role="user")][0] == first
    TALLY["summary_fell_back"] += 1


