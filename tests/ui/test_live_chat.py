"""The chat and the Dream as the page receives them: the message at once, the reply growing, then the stored turn."""
from __future__ import annotations

import re
import threading

import pytest

from dreaming_agent.pipeline.acknowledge import PLAIN, Held
from dreaming_agent.pipeline.agent import Agent
from dreaming_agent.ui import handlers, render
from dreaming_agent.ui.live import LiveChat, PanelClock

from .conftest import DEMO_MESSAGES, FLOW_CONFIG, STATEMENT_REPLY, demo_llm


@pytest.fixture
def make_agent(store, index, embedder):
    agents = []

    def make(llm) -> Agent:
        agents.append(Agent(store=store, index=index, llm=llm, embedder=embedder, config=FLOW_CONFIG))
        return agents[-1]

    yield make
    for agent in agents:
        agent.close()


def texts(chat: list[dict]) -> list[str]:
    return [bubble["content"] for bubble in chat]


def test_the_message_shows_first_then_the_reply_grows_then_the_stored_turn(make_agent):
    agent = make_agent(demo_llm())
    views = list(handlers.chat(agent, LiveChat(), "I live in Lisbon & I work at Acme as a nurse.", "lightmem"))
    first, *streaming, final = views
    assert texts(first.chat) == ["I live in Lisbon &amp; I work at Acme as a nurse."]  # before any model call
    assert first.turn is None and first.panels is None and first.unsent == ""
    replies = [texts(view.chat)[-1] for view in streaming]
    held = Held.words_judged - 1  # a statement's reply shows once its first words show it is no refusal
    assert len(replies) == len(STATEMENT_REPLY.split()) - held
    assert all(later.startswith(earlier) and later != earlier for earlier, later in zip(replies, replies[1:]))
    assert replies[0] == "<b>LightMem</b> · Thanks for telling me — I'll " and all(v.panels is None for v in streaming)
    assert texts(final.chat) == texts(render.chat_messages(agent.memory.history()))
    assert texts(final.chat)[-1] == f"<b>LightMem</b> · {STATEMENT_REPLY}"
    assert final.unsent == "" and "<b>Responder</b>" in final.turn and final.panels is not None


def test_compare_streams_both_columns_one_after_the_other(make_agent):
    agent = make_agent(demo_llm())
    live = LiveChat()
    for text in DEMO_MESSAGES:
        list(handlers.chat(agent, live, text, "lightmem"))
    views = list(handlers.chat(agent, live, "Where do I live now?", "compare"))
    shown = [texts(view.chat)[6:] for view in views]  # after the three earlier turns
    assert shown[0] == ["Where do I live now?"]
    lightmem = [s for s in shown if len(s) == 2]
    rag = [s for s in shown[:-1] if len(s) == 3]
    assert lightmem and rag and shown.index(lightmem[-1]) < shown.index(rag[0])  # LightMem finishes, then RAG
    # A question in the first person streams each word once the next begins ("My" must never show, `voice.Addressed`)
    assert lightmem[0][1] == "<b>LightMem</b> · You" and rag[0][2] == "<b>RAG</b> · You"
    assert rag[-1][1:] == shown[-1][1:] == [
        "<b>LightMem</b> · You said you live in Lisbon, and also that you moved from Lisbon to Porto.",
        "<b>RAG</b> · You said you live in Lisbon, and also that you moved from Lisbon to Porto.",
    ]
    assert "grid-template-columns:1fr 1fr" in views[-1].turn


def test_a_message_sent_while_busy_waits_shows_at_once_and_is_answered_after(make_agent):
    agent = make_agent(demo_llm(delay_s=0.6))
    live = LiveChat()
    first = handlers.chat(agent, live, DEMO_MESSAGES[0], "lightmem")
    next(first)
    finished = []
    draining = threading.Thread(target=lambda: finished.append(list(first)))
    draining.start()
    second = handlers.chat(agent, live, DEMO_MESSAGES[1], "rag")
    shown = texts(next(second).chat)
    assert shown[0] == DEMO_MESSAGES[0] and shown[-1] == DEMO_MESSAGES[1]  # queued, shown at once
    assert len(texts(list(second)[-1].chat)) == 4
    draining.join(10)
    assert [(m.role, m.speaker) for m in agent.memory.history()] == [
        ("user", None), ("assistant", "lightmem"), ("user", None), ("assistant", "rag")]
    assert [m.text for m in agent.memory.history() if m.role == "user"] == DEMO_MESSAGES[:2]
    assert texts(finished[0][-1].chat)[:2] == texts(render.chat_messages(agent.memory.history()))[:2]


def test_a_failed_turn_offers_the_text_again(make_agent):
    from dreaming_agent.errors import BackendUnavailable

    agent = make_agent(demo_llm(text=BackendUnavailable("The model is down.", backend="test")))
    final = list(handlers.chat(agent, LiveChat(), "Where do I live?", "rag"))[-1]
    assert final.unsent == "Where do I live?" and "The model is down." in texts(final.chat)[-1]
    refused = list(handlers.chat(agent, LiveChat(), "   ", "rag"))
    assert len(refused) == 1 and "empty" in texts(refused[0].chat)[-1]


def test_the_dream_says_how_many_groups_it_has_reviewed_of_all(make_agent):
    agent = make_agent(demo_llm())
    live = LiveChat()
    for text in DEMO_MESSAGES:
        list(handlers.chat(agent, live, text, "lightmem"))
    *running, final = list(handlers.dream(agent))
    assert all(view.panels is None for view in running) and final.panels is not None
    counts = [tuple(map(int, m.groups())) for v in running if (m := re.search(r"<b>(\d+) of (\d+)</b>", v.diff))]
    total = counts[0][1]
    assert total >= 2 and counts == [(done, total) for done in range(total + 1)]
    assert "Dreaming…" in running[0].diff and "Dream #1" in final.diff


def test_a_reply_asked_again_streams_afresh_and_only_the_second_is_stored(make_agent):
    from dreaming_agent.testing import ScriptedLLM

    def model(messages, schema):  # the 0.5B model's slip: the person's own name for their cat's
        return "Your cat is called Itziar." if "me llamo Itziar" in messages[0]["content"] else "Your cat is Pimentón."
    agent = make_agent(ScriptedLLM(defaults={"text": model}))
    agent.ingest("Hola, me llamo Itziar.", now="2026-03-01", learn=False)
    agent.ingest("My cat is called Pimentón.", now="2026-03-01", learn=False)
    agent.new_conversation()
    views = list(handlers.chat(agent, LiveChat(), "What's my cat called?", "lightmem"))
    replies = [texts(view.chat)[-1] for view in views[1:-1]]
    first = "<b>LightMem</b> · Your cat is called"  # the first reply streamed (each word once the next begins)...
    assert first in replies
    restart = replies.index(first) + 1
    assert replies[restart: restart + 2] == ["<b>LightMem</b> · ", "<b>LightMem</b> · Your"]  # withdrawn, then anew
    assert texts(views[-1].chat)[-1] == "<b>LightMem</b> · Your cat is Pimentón."
    assert agent.memory.history()[-1].text == "Your cat is Pimentón."
    assert "<b>Own name</b>" in views[-1].turn


def test_a_statement_answered_with_a_refusal_never_shows_it(make_agent):
    from dreaming_agent.testing import ScriptedLLM

    # The 0.5B default model's reply to a statement, met as a new user: it streamed for two seconds before the check.
    agent = make_agent(ScriptedLLM(defaults={"text": "I'm sorry, but I can't assist with that."}))
    views = list(handlers.chat(agent, LiveChat(), "I'm allergic to penicillin.", "lightmem"))
    assert not any("sorry" in text for view in views for text in texts(view.chat))
    assert texts(views[-1].chat)[-1] == f"<b>LightMem</b> · {PLAIN['en']}"
    assert agent.memory.history()[-1].text == PLAIN["en"] and "<b>Acknowledgement</b>" in views[-1].turn


def test_a_panel_read_begun_before_a_chat_stored_its_reply_is_not_sent_after_the_chat_s_own():
    clock = PanelClock()
    tick = clock.read()  # the Writer's timer begins reading the store
    chat = clock.read()  # the chat stores its reply, then reads the panels
    assert clock.send(chat)
    assert not clock.send(tick)  # landing after the chat's update it would hide the reply: not sent
    later = clock.read()
    assert clock.send(later)  # the next tick is sent
    assert clock.send(later)  # one update may be sent in pieces (a stream's last yield after its first)


def test_the_timer_s_stale_history_never_replaces_the_chat_s(make_agent):
    agent = make_agent(demo_llm())
    live = LiveChat()
    ticket = live.panels.read()
    before = handlers.panels(agent)  # the timer's read, begun before the message was stored
    final = list(handlers.chat(agent, live, DEMO_MESSAGES[0], "lightmem"))[-1]
    assert live.panels.send(live.panels.read())  # the chat's panels, read after its reply was stored
    assert DEMO_MESSAGES[0] in final.panels.history and DEMO_MESSAGES[0] not in before.history
    assert not live.panels.send(ticket)
