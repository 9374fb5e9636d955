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
