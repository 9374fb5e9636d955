"""Background learning and the person's turns share one model: a reply goes first, and closing never hangs."""
import json
import threading
import time

from dreaming_agent.testing import ScriptedLLM


def test_a_reply_does_not_queue_behind_the_writers_next_call(make_agent):
    """One model serves both (it takes one call at a time, as llama.cpp's lock does): a Writer call already running
    finishes, but its retry waits until the person's reply is written."""
    model, order = threading.Lock(), []

    def call(name: str, reply: str, seconds: float):
        def run(messages, schema):
            with model:
                time.sleep(seconds)
                order.append(name)
            return reply
        return run

    llm = ScriptedLLM({"ExtractedFacts": [call("writer", "not JSON", 0.6),
                                          call("writer retry", json.dumps({"facts": []}), 0.0)]},
                      defaults={"text": call("reply", "Your cat is Nube.", 0.0)})
    agent = make_agent(llm)
    agent.ingest("My cat is called Nube.", now="2026-05-01T10:00:00")
    time.sleep(0.2)  # the Writer's first call now holds the model
    result = agent.turn("What is my cat called?", "rag", now="2026-05-01T10:01:00")
    assert agent.learning.wait(timeout=30)
    assert result.answer == "Your cat is Nube."
    assert order[:3] == ["writer", "reply", "writer retry"]


def test_closing_while_the_writer_has_calls_left_does_not_hang(make_agent):
    llm = ScriptedLLM({"ExtractedFacts": ["not JSON", json.dumps({"facts": []})] * 2}, delay_s=0.3)
    agent = make_agent(llm)
    for text in ("My cat is called Nube.", "I live in Bilbao."):
        agent.ingest(text, now="2026-05-01T10:00:00")
    closer = threading.Thread(target=agent.close)
    closer.start()
    closer.join(timeout=30)
    assert not closer.is_alive()


def test_a_question_waits_for_the_writer_still_learning_from_the_statement_before(make_agent, store):
    """Asked right after a statement, LightMem reads what the Writer learned from it; the wait is in the trace, and
    it is bounded: past `writer_wait_s` the question is answered without the entry."""
    from dreaming_agent.pipeline.agent import AgentConfig
    from dreaming_agent.pipeline.writer import WriterSettings

    def slow(seconds):
        def extract(messages, schema):
            time.sleep(seconds)
            return json.dumps({"facts": ["The user lives in Bristol"]})
        return extract

    agent = make_agent(ScriptedLLM({"ExtractedFacts": [slow(1.0)]}),
                       AgentConfig(writer=WriterSettings(semantic_threshold=-1.0)))
    agent.turn("I live in Bristol.", "rag", now="2026-05-01T10:00:00")
    asked = agent.turn("Where do I live?", "lightmem", now="2026-05-01T10:00:01")
    waited = asked.trace.step("Waited for the Writer")
    assert waited.parsed["finished"] and waited.duration_ms >= 500
    assert [m.text for m in store.memories()] == ["The user lives in Bristol"]
    assert asked.trace.steps[0] is waited
    assert agent.learning.wait(timeout=30)
    assert agent.turn("Where do I live?", "lightmem", now="2026-05-01T10:00:02").trace.step(
        "Waited for the Writer") is None  # nothing left to learn: no wait

    impatient = make_agent(ScriptedLLM({"ExtractedFacts": [slow(2.0)]}),
                           AgentConfig(writer=WriterSettings(semantic_threshold=-1.0), writer_wait_s=0.2))
    impatient.turn("I work at the library.", "rag", now="2026-05-02T10:00:00")
    hurried = impatient.turn("Where do I work?", "lightmem", now="2026-05-02T10:00:01")
    assert hurried.trace.step("Waited for the Writer").parsed == {"finished": False, "bound_s": 0.2}
    assert impatient.turn("Where do I work?", "rag", now="2026-05-02T10:00:02").trace.step(
        "Waited for the Writer") is None  # naive RAG reads the stored sentences: it never waits
