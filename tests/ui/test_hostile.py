"""Markup typed by a visitor, or echoed by the model, comes back escaped from every endpoint and panel."""
from __future__ import annotations

import json
import re

from .conftest import call, chat_texts, demo_llm, learned

HOSTILE = "My name is Eve <img src=x onerror=alert(1)> <script>alert(2)</script> ${alert(3)}"
ESCAPED = "&lt;img src=x onerror=alert(1)&gt; &lt;script&gt;alert(2)&lt;/script&gt;"


def hostile_llm():
    """A model that repeats the markup everywhere it can: queries, facts, answers, Dream texts and reasons."""
    def dream(messages, schema):
        ids = [int(i) for i in re.findall(r"^\[(\d+)\]", messages[-1]["content"], re.M)]
        return json.dumps({"operations": [
            {"op": "UPDATE", "target_ids": ids[:1], "text": "The user is Eve " + HOSTILE[15:], "reason": HOSTILE},
            {"op": "MERGE", "target_ids": ids[:1], "text": HOSTILE, "reason": HOSTILE},
        ]})

    return demo_llm(
        # Queries are capped at 48 characters by the schema: the markup alone fits.
        ControllerDecision=json.dumps({"new_info": True, "needs_memory": True,
                                       "queries": ["<img src=x onerror=alert(1)>"]}),
        ExtractedFacts=json.dumps({"facts": ["The user is Eve " + HOSTILE[15:]]}),
        DreamProposal=dream,
        text=lambda messages, schema: "You said: " + messages[-1]["content"],
    )


def assert_escaped(html: str, where: str, *, shows_text: bool = True) -> None:
    assert "<img" not in html and "<script" not in html.lower(), f"raw markup in {where}"
    if shows_text:
        assert ESCAPED in html, f"{where} does not show the text"


def test_markup_is_shown_as_text_in_every_panel(launch, connect):
    client = connect(launch(hostile_llm()))
    turn = call(client, "/chat", HOSTILE, "lightmem")
    compared = call(client, "/chat", HOSTILE, "compare")
    panels = learned(client)
    # Typed into "memory about you" before the Dream: with the Writer's entry it makes a group sharing the name Eve,
    # which the Dream asks the model about (a lone entry said once it settles in code, and shows no proposal).
    added = call(client, "/add_memory", HOSTILE)
    dream = call(client, "/dream")

    for bubble in chat_texts(compared["chat"]):
        assert_escaped(bubble, "chat")
    assert_escaped(turn["turn"], "trace")
    assert_escaped(compared["turn"], "compare trace")
    for name in ("facts", "mid_term", "window", "history", "writer"):
        assert_escaped(panels[name], name, shows_text=name != "facts")
    assert_escaped(dream["diff"], "Dream diff")
    assert_escaped(dream["refused"], "refused proposals")
    assert_escaped(added["facts"], "memory about you")
    assert "${alert(3)}" in added["facts"]  # left as text: the page never evaluates panel contents as templates
