"""What a visitor does to memory through the endpoints: ids, duplicates, deletes that leave no trace, files."""
from __future__ import annotations

import json
import re

import pytest
from gradio_client import handle_file

from .conftest import DEMO_MESSAGES, call, chat_texts, tell


@pytest.fixture
def client(launch, connect):
    return connect(launch())


@pytest.mark.parametrize("typed", [2.5, "2.5", 0, -2, "two"])
def test_an_id_that_is_not_a_whole_number_deletes_nothing(client, typed):
    for text in ("The user has a sister called Ana", "The user likes tea", "The user plays chess"):
        call(client, "/add_memory", text)
    out = call(client, "/delete_memory", typed)
    assert "da-warn" in out["notice"] and ("whole number" in out["notice"] or "Type the number" in out["notice"])
    assert all(f"#{i}</span>" in out["facts"] for i in (1, 2, 3))
    message = call(client, "/delete_message", typed)
    assert "da-warn" in message["notice"]


def test_a_whole_number_typed_as_text_or_float_is_accepted(client):
    call(client, "/add_memory", "The user likes tea")
    call(client, "/add_memory", "The user plays chess")
    assert "Deleted #2." in call(client, "/delete_memory", "2")["notice"]
    assert "Deleted #1." in call(client, "/delete_memory", 1.0)["notice"]


@pytest.mark.parametrize("again", ["The user likes tea", "  the USER likes   tea. ", "The user likés tea!"])
def test_an_entry_saying_what_an_active_one_says_is_refused(client, again):
    call(client, "/add_memory", "The user likes tea")
    out = call(client, "/add_memory", again)
    assert "da-warn" in out["notice"] and "Entry #1 already says that" in out["notice"]
    assert out["facts"].count("likes") == 1


def test_editing_an_entry_into_a_copy_of_another_is_refused(client):
    call(client, "/add_memory", "The user likes tea")
    call(client, "/add_memory", "The user plays chess")
    out = call(client, "/edit_memory", 2, "the user likes tea")
    assert "Entry #1 already says that" in out["notice"] and "plays chess" in out["facts"]
    assert "now reads" in call(client, "/edit_memory", 1, "The user likes Tea.")["notice"]  # its own text is fine


def test_a_delete_clears_every_panel_that_quoted_the_deleted_text(client):
    tell(client)
    dream = call(client, "/dream")
    turn = call(client, "/chat", "Where do I live now?", "lightmem")["turn"]
    # The message itself, and what the Writer and the Dream learned from it (answers are messages of their own).
    deleted, learned = "Big news", ("moved from Lisbon to Porto", "lives in Porto (previously Lisbon)")
    assert learned[1] in turn and all(text in dream["diff"] for text in learned)  # quoted before the delete
    out = call(client, "/delete_message", 5)  # "Big news: I moved from Lisbon to Porto last week!"
    assert DEMO_MESSAGES[2] not in chat_texts(out["chat"])  # answers stay: they are messages of their own
    for name in ("facts", "mid_term", "window", "history", "writer", "turn", "diff", "refused"):
        assert deleted not in out[name], f"{name} still quotes the message"
    for name in ("facts", "mid_term", "turn", "diff", "refused"):
        assert not any(text in out[name] for text in learned), f"{name} still quotes what was learned from it"
    assert "trace was cleared" in out["turn"] and "Dream #1" in out["diff"]


def test_the_trash_icon_deletes_the_conversation_only_when_confirmed(client):
    tell(client, DEMO_MESSAGES[:2])
    call(client, "/add_memory", "The user has a sister called Ana")
    kept = call(client, "/delete_conversation", False)
    assert "Nothing was deleted" in kept["notice"] and len(kept["chat"]) == 4

    gone = call(client, "/delete_conversation", True)
    assert "Deleted the conversation (4 messages)" in gone["notice"]
    assert gone["chat"] == [] and "No messages yet" in gone["history"]
    assert "Acme" not in gone["mid_term"] and "peanuts" not in gone["mid_term"]
    assert "sister called Ana" in gone["facts"]  # typed by the person, not learned from the chat
    assert 'data-kept="1"' in gone["kept"]


def test_download_then_load_in_a_new_tab_brings_everything_back(launch, connect, tmp_path):
    url = launch()
    ana = connect(url)
    tell(ana)
    call(ana, "/dream")
    call(ana, "/add_memory", "The user has a sister called Ana")
    before = call(ana, "/open_session")
    path, notice = client_export(ana)
    saved = json.loads(open(path, encoding="utf-8").read())
    assert "Saved 6 messages" in notice and saved["format"] == "dreaming-agent-memory"
    assert {m["text"] for m in saved["messages"]} >= set(DEMO_MESSAGES) and len(saved["dreams"]) == 1

    fresh = connect(url)  # a new tab: its own, empty memory
    loaded = call(fresh, "/load_memory", handle_file(path))
    assert "Loaded 6 messages" in loaded["notice"] and "and 1 Dream saved" in loaded["notice"]
    assert chat_texts(loaded["chat"]) == chat_texts(before["chat"])
    for name in ("facts", "mid_term", "history"):
        assert _without_badges(loaded[name]) == _without_badges(before[name])
    assert "The user lives in Porto (previously Lisbon)" in loaded["diff"]
    assert "refused" in loaded["refused"] or "never forgotten" in loaded["refused"]

    again = call(fresh, "/load_memory", handle_file(path))
    assert "already holds a conversation" in again["notice"]


def test_a_file_that_is_not_a_memory_file_is_refused(client, tmp_path):
    bogus = tmp_path / "notes.json"
    bogus.write_text('{"hello": "world"}')
    out = call(client, "/load_memory", handle_file(str(bogus)))
    assert "da-warn" in out["notice"] and "not a memory file" in out["notice"] and out["chat"] == []


def client_export(client) -> tuple[str, str]:
    out = call(client, "/export_memory")
    return out["file"], out["notice"]


def _without_badges(html: str) -> str:
    """The 'new' badge marks what the last Writer run added: not part of what memory holds."""
    return re.sub(r'<span class="da-badge da-new">new</span>', "", html)
