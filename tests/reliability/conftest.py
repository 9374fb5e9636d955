"""Shared pieces of the reliability checks: agents on real files, unique markers, and the launched web app."""
from __future__ import annotations

import json
import random
import re
import string
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import FLOW_CONFIG

# The app launched on 127.0.0.1 exactly as the UI tests launch it (fixtures re-exported for this folder).
from ui.conftest import call, chat_texts, demo_llm, launch, quick_heartbeat  # noqa: F401

CONFIG = FLOW_CONFIG  # the shared agent settings (tests/conftest.py), as this folder's tests name them
MARKER = re.compile(r"\bzq[a-z]{7}\b")


class Markers:
    """Unique lower-case tokens ("zq" + 7 letters): one per message or fact, so presence is a substring check."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.issued: set[str] = set()

    def new(self) -> str:
        while True:
            token = "zq" + "".join(self.rng.choice(string.ascii_lowercase) for _ in range(7))
            if token not in self.issued:
                self.issued.add(token)
                return token


def found(text: str) -> set[str]:
    return set(MARKER.findall(text))


def echo_facts(messages, schema) -> str:
    """A scripted Writer that keeps each marked statement: "I like zq… lemons." -> "The user likes zq… lemons"."""
    said = messages[-1]["content"].split("Message:", 1)[-1]
    facts = [f"The user {verb}s {rest}" for verb, rest in re.findall(r"\bI (like|visit|own) (zq[a-z]{7} \w+)", said)]
    facts += [f"The user is allergic to {m}" for m in re.findall(r"allergic to (zq[a-z]{7})", said)]
    return json.dumps({"facts": facts[:5]})


def echo_summary(messages, schema) -> str:
    """A scripted summariser that, like a real one, repeats what the folded turns said (here: their markers)."""
    transcript = messages[-1]["content"]
    return json.dumps({"summary": "Earlier the person mentioned " + " ".join(sorted(found(transcript))) + "."})


@pytest.fixture
def visitors():
    """gradio_client sessions, each its own visitor; closed (the session ends) after the test at the latest."""
    from gradio_client import Client

    opened: list[Client] = []

    def open_visitor(url: str) -> Client:
        # analytics_enabled must be passed: gradio_client ignores GRADIO_ANALYTICS_ENABLED when it is left True.
        # The read timeout bounds every call (the longest is a 120 s wait for the Writer).
        client = Client(url, verbose=False, analytics_enabled=False, httpx_kwargs={"timeout": 150})
        opened.append(client)
        return client

    yield open_visitor
    close_all(opened)


def close_all(clients) -> None:
    """End sessions in parallel: each close waits up to a second for its heartbeat thread."""
    if clients:
        with ThreadPoolExecutor(len(clients)) as pool:
            list(pool.map(lambda client: client.close(), clients))


def report(name: str, **figures) -> None:
    """One line of figures per check, printed under `pytest -s` and quoted in docs/RELIABILITY.md."""
    print(f"\n[reliability] {name}: " + ", ".join(f"{k}={v}" for k, v in figures.items()), flush=True)
