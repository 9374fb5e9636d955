"""Every endpoint of the launched app, called through gradio_client as a visitor would."""
from __future__ import annotations

import json
import re
import threading
import time

import httpx
import pytest

from dreaming_agent.errors import BackendUnavailable, ModelTimeout
from dreaming_agent.settings import Settings

from .conftest import DEMO_MESSAGES, call, chat_texts, demo_llm, free_port, tell


@pytest.fixture
def client(launch, connect):
    return connect(launch())


@pytest.mark.parametrize("mode, steps", [
    ("lightmem", ["Controller", "Retriever", "Selector", "Responder", "Abstention"]),
    ("rag", ["Retriever", "Responder"]),
])
def test_chat_in_one_mode_answers_and_traces_every_module(client, mode, steps):
    tell(client, DEMO_MESSAGES[:1], mode)
    out = call(client, "/chat", "Where do I live?", mode)
    label = {"lightmem": "LightMem", "rag": "RAG"}[mode]
    assert chat_texts(out["chat"])[-2:] == ["Where do I live?", f"<b>{label}</b> · I don't know yet."]
    assert re.findall(r'<div class="da-step"><b>(\w+)</b>', out["turn"]) == steps
    assert re.search(rf"<b>{label}</b> <span class=\"da-ms\">\d+ ms</span>", out["turn"])
    assert "raw and parsed output" in out["turn"] and 'class="da-bar"' in out["turn"]
    assert "da-answer" not in out["turn"]  # one mode: the answer is in the chat only


def test_compare_shows_both_answers_side_by_side_with_latency_and_trace(client):
    tell(client)
    out = call(client, "/chat", "Where do I live now?", "compare")
    # Before a Dream both read the same dated sentences (LightMem's floor is RAG's list); after one, see the browser test.
    assert chat_texts(out["chat"])[-3:] == [
        "Where do I live now?",
        "<b>LightMem</b> · You said you live in Lisbon, and also that you moved from Lisbon to Porto.",
        "<b>RAG</b> · You said you live in Lisbon, and also that you moved from Lisbon to Porto.",
    ]
    turn = out["turn"]
    assert "grid-template-columns:1fr 1fr" in turn
    lightmem, rag = turn.split('<div class="da-turn">')[1:]
    assert re.match(r"<b>LightMem</b> <span class=\"da-ms\">\d+ ms</span>", lightmem)
    assert re.match(r"<b>RAG</b> <span class=\"da-ms\">\d+ ms</span>", rag)
    assert "<b>Controller</b>" in lightmem and "<b>Controller</b>" not in rag and "<b>Responder</b>" in rag
    # The answers themselves sit in the two Compare columns, each with its time and prompt tokens under it.
    answers = re.findall(r'<div class="da-cmp-a" data-mode="(\w+)">.*?·</span>(.*?)<span class="da-cmp-meta">'
                         r"([\d.]+ s · \d+ prompt tokens)</span>", out["compare"])
    assert [(mode, text[:8]) for mode, text, _ in answers] == [("lightmem", "You said"), ("rag", "You said")]
    assert "da-cmp-differs" not in out["compare"]  # the same answer: no difference to mark


def test_learned_facts_are_marked_learning_until_the_writer_finishes(launch, connect):
    release = threading.Event()

    def slow_writer(messages, schema):
        release.wait(30)
        return json.dumps({"facts": ["The user works at Acme as a nurse"]})

    client = connect(launch(demo_llm(ExtractedFacts=slow_writer)))
    try:
        out = call(client, "/chat", DEMO_MESSAGES[0], "lightmem")
        assert "learning…" in out["mid_term"] and "learning…" in out["writer"]
        assert "The user works at Acme" not in out["mid_term"]
        assert "learning…" in call(client, "/learning")["mid_term"]  # what the page's timer polls
    finally:
        release.set()
    deadline = time.monotonic() + 30
    while "learning…" in (polled := call(client, "/learning"))["mid_term"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert re.search(r"Acme as a nurse<span class=\"da-badge da-writer\">writer</span><span class=\"da-badge da-new\">new",
                     polled["mid_term"])
    assert "learning…" not in polled["writer"] and "stored 1" in polled["writer"]


def test_dream_shows_the_diff_and_refused_proposals_and_undo_restores(client):
    before = tell(client)
    dream = call(client, "/dream")
    diff = dream["diff"]
    assert re.search(r'color:#116329[^"]*">\[\d+\] The user lives in Porto \(previously Lisbon\)</span> <small>new', diff)
    assert re.search(r'line-through[^"]*">\[\d+\] The user lives in Lisbon</span> <small>superseded', diff)
    assert "FORGET" in dream["refused"] and "never forgotten" in dream["refused"]
    assert "Mentioned only once." in dream["refused"]
    assert "allergic to peanuts" in dream["facts"] and "allergic to peanuts" not in dream["mid_term"]

    undo = call(client, "/undo_dream")
    assert 'data-state="undone"' in undo["diff"] and "Undone at " in undo["diff"]
    assert "allergic to peanuts" not in undo["facts"]
    for fact in ("lives in Lisbon", "moved from Lisbon to Porto", "allergic to peanuts", "Acme"):
        assert fact in undo["mid_term"] and fact in before["mid_term"]
    assert "Nothing to undo" in call(client, "/undo_dream")["diff"]


def test_add_edit_and_delete_a_memory_by_id(client):
    added = call(client, "/add_memory", "The user has a sister called Ana")
    assert "Added entry #1." in added["notice"]
    assert re.search(r"#1</span>The user has a sister called Ana<span class=\"da-badge da-manual\">manual", added["facts"])

    edited = call(client, "/edit_memory", 1, "The user has two sisters, Ana and Bea")
    assert "Entry #1 now reads as you wrote it." in edited["notice"]
    assert "two sisters, Ana and Bea" in edited["facts"] and "sister called Ana" not in edited["facts"]

    deleted = call(client, "/delete_memory", 1)
    assert "Deleted #1." in deleted["notice"] and "Ana" not in deleted["facts"]


@pytest.mark.parametrize("api_name, args, message", [
    ("/delete_memory", (99,), "No memory with id 99"),
    ("/edit_memory", (99, "Anything"), "No active memory with id 99"),
    ("/edit_memory", (1, "   "), "Type the text of the entry first."),
    ("/add_memory", ("",), "Type the text of the entry first."),
    ("/delete_message", (42,), "No message with id 42"),
])
def test_a_wrong_id_or_empty_text_comes_back_as_a_notice(client, api_name, args, message):
    out = call(client, api_name, *args)
    assert "da-warn" in out["notice"] and message in out["notice"]


def test_deleting_a_message_removes_it_and_what_was_learned_only_from_it(client):
    tell(client, DEMO_MESSAGES[:2])
    out = call(client, "/delete_message", 1)
    assert "Deleted message #1, the reply to it (#2) and 2 entries learned only from them." in out["notice"]
    assert DEMO_MESSAGES[0] not in chat_texts(out["chat"]) and "#2</span>" not in out["history"]
    assert len(chat_texts(out["chat"])) == 2  # the second message and its own reply, nothing stacked
    assert "#1</span>" not in out["history"] and "Acme" not in out["mid_term"] and "Lisbon" not in out["mid_term"]
    assert "allergic to peanuts" in out["mid_term"]


@pytest.mark.parametrize("failure, shown", [
    (BackendUnavailable("Cannot reach Ollama at http://127.0.0.1:11434.", backend="ollama"), "Cannot reach Ollama"),
    (ModelTimeout(120, "ollama"), "did not answer within 120 s"),
])
def test_a_model_failure_shows_a_clear_message_and_keeps_what_was_typed(launch, connect, failure, shown):
    client = connect(launch(demo_llm(text=failure)))
    out = call(client, "/chat", "I adopted a cat called Miso.", "lightmem")
    last = chat_texts(out["chat"])[-1]
    assert last.startswith("⚠️ ") and shown in last and "Your message is saved" in last
    assert out["textbox"] == "I adopted a cat called Miso."
    assert "I adopted a cat called Miso." in out["history"]  # stored before the model was called
    assert "error" in out["turn"] and shown in out["turn"]


def test_an_empty_message_is_refused_in_the_chat_and_nothing_is_stored(client):
    out = call(client, "/chat", "   ", "compare")
    assert chat_texts(out["chat"]) == ["⚠️ The message is empty: type something to send."]
    assert out["textbox"] == "   " and "No messages yet" in out["history"]


def test_opening_a_session_shows_its_empty_memory(client):
    out = call(client, "/open_session")
    assert out["chat"] == [] and "Nothing noted yet" in out["mid_term"] and "No messages yet" in out["history"]


def status_line(url: str) -> str:
    config = httpx.get(url + "config").json()
    return next(c["props"]["value"] for c in config["components"] if c["props"].get("elem_id") == "status")


@pytest.mark.parametrize("settings", [Settings(), Settings(llm="ollama")])
def test_status_line_names_what_really_answers(launch, settings):
    status = status_line(launch(settings=settings))
    plain, details = status.split("<details", 1)
    assert "Model: <b>scripted</b>" in plain and "stand-in" in plain and "backend" not in plain
    assert "backend: injected" in details and "embedder: hash-256" in details and "threads: " in details
    assert "chroma: " in details and "ollama pull" not in status


@pytest.mark.model
def test_status_line_warns_on_the_tiny_default_model():
    from dreaming_agent.testing import HashEmbedder
    from dreaming_agent.ui import build_app

    demo = build_app(Settings(), embedder=HashEmbedder())  # the real SmolLM2 model, loaded but never called
    try:
        demo.launch(server_name="127.0.0.1", server_port=free_port(), prevent_thread_lock=True, quiet=True)
        status = status_line(demo.local_url)
    finally:
        demo.close()
    assert "backend: embedded" in status and "SmolLM2" in status and "weak" in status
    assert "ollama pull qwen2.5:3b" in status and "start the app again" in status


def test_memory_said_in_a_language_no_module_knows_shows_why_nothing_was_noted(client):
    call(client, "/chat", "Grande novidade: mudei-me para o Porto no dia 3 de dezembro!", "lightmem")
    out = call(client, "/open_session")
    assert "Nothing noted yet" in out["mid_term"] and "stays in History" in out["mid_term"]
    assert "mudei-me para o Porto" in out["history"]
