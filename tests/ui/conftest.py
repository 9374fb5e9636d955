"""The app launched for real on 127.0.0.1 with a scripted model and the hashing embedder; clients per test."""
from __future__ import annotations

import json
import os
import re
import socket
from contextlib import contextmanager

import pytest

from conftest import FLOW_CONFIG
from dreaming_agent.settings import Settings
from dreaming_agent.testing import HashEmbedder, ScriptedLLM

# What the scripted Writer learns from each demo message, keyed by a word of it.
DEMO_FACTS = {
    "Acme": ["The user lives in Lisbon", "The user works at Acme as a nurse"],
    "peanuts": ["The user is allergic to peanuts"],
    "Porto": ["The user moved from Lisbon to Porto"],
}
DEMO_MESSAGES = [
    "I live in Lisbon and I work at Acme as a nurse.",
    "I'm allergic to peanuts, so no satay for me.",
    "Big news: I moved from Lisbon to Porto last week!",
]


def scripted_facts(messages, schema) -> str:
    said = messages[-1]["content"]
    return json.dumps({"facts": next((facts for key, facts in DEMO_FACTS.items() if key in said), [])})


def scripted_dream(messages, schema) -> str:
    """A plausible small model: one sound UPDATE, one sound PROMOTE, one FORGET the validator must refuse."""
    entries = dict((int(i), text) for i, text in re.findall(r"^\[(\d+)\].*\n\s+entry: (.*)$", messages[-1]["content"], re.M))
    find = lambda words: next((i for i, t in entries.items() if all(w in t for w in words)), None)  # noqa: E731
    old, new = find(["lives in Lisbon"]), find(["moved from Lisbon to Porto"])
    operations = []
    if old and new:
        operations.append({"op": "UPDATE", "target_ids": [old, new], "text": "The user lives in Porto (previously Lisbon)",
                           "reason": "The newer message says the user moved to Porto."})
    if allergy := find(["allergic"]):
        operations.append({"op": "PROMOTE", "target_ids": [allergy], "text": None, "reason": "A health fact stays true."})
    if work := find(["Acme"]):
        operations.append({"op": "FORGET", "target_ids": [work], "text": None, "reason": "Mentioned only once."})
    return json.dumps({"operations": operations})


# Long enough to be seen growing after the first six words, which a statement's reply holds back (acknowledge.Held).
STATEMENT_REPLY = "Thanks for telling me — I'll remember that, and you can ask me about it whenever you like."


def scripted_answer(messages, schema) -> str:
    """Answers that read sensibly in a screenshot: from what memory knows when it knows it, else from sentences."""
    system, question = messages[0]["content"], messages[-1]["content"]
    if "?" not in question:
        return STATEMENT_REPLY
    # LightMem marks a replaced value (after a Dream), or shows an entry whose message is not among the lines.
    if "(replaced later)" in system or re.search(r"The user[^\n]*Porto", system):
        return "You live in Porto now; you moved there from Lisbon last week."
    if "Porto" in system and "Lisbon" in system:
        return "You said you live in Lisbon, and also that you moved from Lisbon to Porto."
    return "I don't know yet."


def demo_llm(delay_s: float = 0.0, **defaults) -> ScriptedLLM:
    """The scripted demo model; each call takes `delay_s` (a reply streams over it)."""
    return ScriptedLLM(defaults={"ExtractedFacts": scripted_facts, "DreamProposal": scripted_dream,
                                 "text": scripted_answer, **defaults}, delay_s=delay_s)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Debian's Chromium, never a downloaded one; no background traffic of its own.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
WAIT_MS = 30_000
needs_chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                    reason=f"{CHROMIUM} is absent: install Debian's chromium (make browser) to run it")


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@contextmanager
def desktop_tab(browser, timeout_ms: int):
    """A fresh 1440×1000 tab that waits up to `timeout_ms` for anything it is asked to find."""
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    try:
        page = context.new_page()
        page.set_default_timeout(timeout_ms)
        yield page
    finally:
        context.close()


@pytest.fixture(autouse=True)
def quick_heartbeat(monkeypatch):
    """Gradio notices a closed session on its next heartbeat: 0.2 s here instead of 15, so clients close fast."""
    monkeypatch.setenv("GRADIO_HEARTBEAT_INTERVAL", "0.2")


@pytest.fixture
def launch():
    """Launch build_app(...) on 127.0.0.1 with the given scripted model; returns the URL; closed after the test."""
    from dreaming_agent.ui import build_app

    demos = []

    def start(llm: ScriptedLLM | None = None, settings: Settings | None = None) -> str:
        demo = build_app(settings or Settings(), llm=llm or demo_llm(), embedder=HashEmbedder(), agent_config=FLOW_CONFIG)
        demo.launch(server_name="127.0.0.1", server_port=free_port(), prevent_thread_lock=True, quiet=True,
                    share=False)
        demos.append(demo)
        return demo.local_url

    yield start
    for demo in demos:
        demo.close()


@pytest.fixture
def default_app_url(default_model):
    """The app as `make run` builds it, with the default model (the 0.5B one) and the real embedder; its URL."""
    from dreaming_agent.pipeline.agent import AgentConfig
    from dreaming_agent.ui import build_app
    from dreaming_agent.wiring import build_embedder

    demo = build_app(Settings(), llm=default_model, embedder=build_embedder(Settings()), agent_config=AgentConfig())
    demo.launch(server_name="127.0.0.1", server_port=free_port(), prevent_thread_lock=True, quiet=True, share=False)
    yield demo.local_url
    demo.close()


@pytest.fixture
def connect():
    """gradio_client sessions, each its own visitor with its own memory; closed (session ended) after the test."""
    from gradio_client import Client

    clients = []

    def open_client(url: str) -> Client:
        client = Client(url, verbose=False)
        clients.append(client)
        return client

    yield open_client
    for client in clients:
        client.close()


def chat_texts(chat: list[dict]) -> list[str]:
    """The text of each chat bubble as the endpoint returns it."""
    return ["".join(part.get("text", "") for part in bubble["content"]) for bubble in chat]


PANELS = ("facts", "mid_term", "window", "history", "writer", "kept", "timer")
TRACES = ("turn", "diff", "refused")
OUTPUTS = {
    "/open_session": ("chat", *PANELS),
    "/chat": ("chat", "textbox", "turn", "compare", *PANELS),
    "/learning": PANELS,
    "/dream": ("diff", "refused", *PANELS),
    "/undo_dream": ("diff", "refused", *PANELS),
    "/add_memory": ("notice", "chat", *PANELS),
    "/edit_memory": ("notice", "chat", *PANELS, *TRACES),
    "/delete_memory": ("notice", "chat", *PANELS, *TRACES),
    "/delete_message": ("notice", "chat", *PANELS, *TRACES),
    "/delete_conversation": ("notice", "chat", *PANELS, *TRACES),
    "/load_memory": ("notice", "chat", *PANELS, *TRACES),
    "/export_memory": ("file", "notice"),
}


def call(client, api_name: str, *args) -> dict:
    """One endpoint call, its outputs by name."""
    return dict(zip(OUTPUTS[api_name], client.predict(*args, api_name=api_name), strict=True))


def learned(client, timeout_s: float = 30) -> dict:
    """Memory panels once the background Writer is done."""
    panels = client.predict(timeout_s, api_name="/wait_for_learning")
    assert not panels["learning"], "the Writer did not finish in time"
    return panels


def tell(client, messages=DEMO_MESSAGES, mode: str = "lightmem") -> dict:
    """Send each message, then wait for learning; returns the memory panels."""
    for text in messages:
        assert call(client, "/chat", text, mode)["textbox"] == ""
    return learned(client)
