"""Each visitor has a memory of their own, gone when their session ends."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import os
from html import escape

from dreaming_agent.settings import Settings
from dreaming_agent.store import make_client
from dreaming_agent.testing import HashEmbedder, ScriptedLLM
from dreaming_agent.ui.sessions import Sessions

from .conftest import DEMO_MESSAGES, call, chat_texts, tell


def test_two_concurrent_sessions_never_see_each_others_memory(launch, connect):
    url = launch()
    ana, ben = connect(url), connect(url)
    told = {"ana": DEMO_MESSAGES[0], "ben": DEMO_MESSAGES[1]}
    with ThreadPoolExecutor(2) as pool:  # both visitors talk at the same time
        panels = dict(zip(told, pool.map(lambda who: tell({"ana": ana, "ben": ben}[who], [told[who]]), told)))

    learned = {"ana": "Acme", "ben": "peanuts"}
    for who, other in (("ana", "ben"), ("ben", "ana")):
        shown = " ".join(panels[who][name] for name in ("facts", "mid_term", "window", "history", "writer"))
        assert escape(told[who]) in shown and learned[who] in panels[who]["mid_term"]
        assert escape(told[other]) not in shown and learned[other] not in shown

    # Ids are per session too: Ana's first entry is not Ben's to delete, and Ana's Dream leaves Ben alone.
    assert "Added entry #3." in call(ana, "/add_memory", "The user has a sister called Ana")["notice"]
    assert "No memory with id 3" in call(ben, "/delete_memory", 3)["notice"]
    call(ana, "/dream")
    ben_after = call(ben, "/learning")
    assert "Ana" not in ben_after["facts"] and "Acme" not in ben_after["mid_term"]
    assert chat_texts(call(ben, "/open_session")["chat"])[0] == DEMO_MESSAGES[1]


def test_ending_a_session_drops_its_index(launch, connect):
    chroma = make_client()  # in-process Chroma is one shared system: the app's collections are visible here

    def session_collections() -> set[str]:
        return {c.name for c in chroma.list_collections() if c.name.startswith("da-web-")}

    url = launch()
    before = session_collections()
    visitor = connect(url)
    tell(visitor, DEMO_MESSAGES[:1])
    mine = session_collections() - before
    assert len(mine) == 2  # memories and sentences

    visitor.close()  # the heartbeat stops, as when a tab closes: Gradio fires the page's unload event
    deadline = time.monotonic() + 20
    while session_collections() & mine and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not session_collections() & mine


def test_releasing_a_session_closes_its_agent_and_deletes_its_files():
    chroma = make_client()
    sessions = Sessions(Settings(), llm=ScriptedLLM(), embedder=HashEmbedder(), client=chroma)
    agent = sessions.agent("tab-1")
    assert sessions.agent("tab-1") is agent and sessions.agent("tab-2") is not agent
    agent.turn("I live in Porto.")
    path, namespace = agent.store.path, agent.index.namespace
    assert os.path.exists(path)

    assert sessions.release("tab-1") and not sessions.release("tab-1")
    assert "tab-1" not in sessions and len(sessions) == 1
    assert not os.path.exists(path) and not os.path.exists(path + "-wal")
    assert not any(c.name.startswith(f"da-{namespace}-") for c in chroma.list_collections())
    sessions.release_all()
    assert len(sessions) == 0
