"""In a real headless Chromium: nothing typed reaches outside, nothing is lost unwarned, deletes are real."""
from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest

from .conftest import WAIT_MS, demo_llm, needs_chromium

pytestmark = needs_chromium

# Markdown and HTML that would each make a browser fetch from elsewhere, or show a live link, if rendered.
MARKUP = ("![x](http://example.com/pixel.png) <img src=http://example.com/img.png> "
          "[link](http://example.com/page) **bold** <a href=http://example.com/a>a</a>")
LOCAL_HOSTS = {"127.0.0.1", "localhost"}


def echo_llm():
    """A model that repeats the markup in everything it writes: entries, answers, Dream texts and reasons."""
    def dream(messages, schema):
        ids = [int(i) for i in re.findall(r"^\[(\d+)\]", messages[-1]["content"], re.M)]
        return json.dumps({"operations": [
            {"op": "UPDATE", "target_ids": ids[:1], "text": "The user is Eve " + MARKUP, "reason": MARKUP},
            {"op": "FORGET", "target_ids": ids[:1], "text": None, "reason": MARKUP},
        ]})

    return demo_llm(ExtractedFacts=json.dumps({"facts": ["The user is Eve " + MARKUP]}), DreamProposal=dream,
                    text=lambda messages, schema: "You said: " + MARKUP)


@pytest.fixture
def tab(browser):
    """A tab that records every request and dialog; requests for anything but this machine are refused."""
    context = browser.new_context(viewport={"width": 1440, "height": 1000}, accept_downloads=True)
    context.requests, context.dialogs, context.answers = [], [], []

    def on_dialog(dialog):
        context.dialogs.append((dialog.type, dialog.message))
        (dialog.accept() if (context.answers.pop(0) if context.answers else True) else dialog.dismiss())

    def open_tab():
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.on("request", lambda request: context.requests.append(request.url))
        page.on("dialog", on_dialog)
        return page

    context.route(lambda url: urlsplit(url).hostname not in LOCAL_HOSTS and not url.startswith(("data:", "blob:")),
                  lambda route: route.abort())
    context.open_tab = open_tab
    yield context
    context.close()


def send(page, text: str) -> None:
    """Send, then wait for the stored turn: two more bubbles, and the trace that comes only once the reply is stored."""
    bubbles = page.locator("#chat .message-row").count()
    trace = page.locator("#turn").inner_text()
    page.locator("#message textarea").fill(text)
    page.locator("#message textarea").press("Enter")
    page.wait_for_function(f"() => document.querySelectorAll('#chat .message-row').length >= {bubbles + 2}")
    page.wait_for_function("t => document.querySelector('#turn').innerText !== t", arg=trace)


def learned(page) -> None:
    page.wait_for_function("() => document.querySelector('#mid-term').innerText.includes('The user ')"
                           " && !(document.querySelector('#mid-term')?.innerText ?? 'learning…').includes('learning…')")


def test_markdown_and_html_from_anyone_are_shown_as_text_and_fetch_nothing(launch, tab):
    page = tab.open_tab()
    page.goto(launch(echo_llm()))
    send(page, "My name is Eve " + MARKUP)
    learned(page)
    page.get_by_text("Add, edit or delete an entry").click()
    page.locator("#memory-text textarea").fill("The user writes " + MARKUP)
    page.locator("#add-memory").click()
    page.locator("#facts").get_by_text("The user writes").wait_for()
    page.locator("#dream-button").click()
    page.locator("#diff").get_by_text("Dream #1").wait_for()

    panels = {"#chat": None, "#turn": None, "#writer": None, "#facts": "Memory", "#mid-term": "Memory",
              "#diff": "Dream", "#window": "Window", "#history": "History"}
    for panel, tab_name in panels.items():
        if tab_name:
            page.get_by_role("tab", name=tab_name).click()
        shown = page.locator(panel).text_content()  # the trace keeps raw model output in a closed <details>
        for literal in ("![x](http://example.com/pixel.png)", "<img src=http://example.com/img.png>",
                        "[link](http://example.com/page)", "**bold**"):
            assert literal in shown, f"{panel} does not show {literal} as text"
    page.wait_for_timeout(500)  # any image or script the markup smuggled in would have asked by now
    assert page.locator("img[src*='example.com'], a[href*='example.com'], strong:text('bold')").count() == 0
    outside = [url for url in tab.requests
               if urlsplit(url).hostname not in LOCAL_HOSTS and not url.startswith(("data:", "blob:"))]
    assert tab.requests and outside == []
    assert tab.dialogs == []


def test_a_reload_warns_only_when_there_is_memory_to_lose(launch, tab):
    page = tab.open_tab()
    page.goto(launch())
    page.locator("#message textarea").click()  # a person's gesture: browsers ask only after one
    page.reload()
    assert tab.dialogs == []  # nothing stored yet: nothing to lose, no question

    send(page, "I live in Lisbon and I work at Acme as a nurse.")
    tab.answers.append(True)  # leave: the warning was seen
    page.reload()
    assert [kind for kind, _ in tab.dialogs] == ["beforeunload"]
    page.locator("#message textarea").wait_for()
    assert page.locator("#chat .message-row").count() == 0  # the reload threw the memory away, as warned


def test_download_then_load_in_a_new_tab(launch, tab, tmp_path):
    url = launch()
    first = tab.open_tab()
    first.goto(url)
    send(first, "I live in Lisbon and I work at Acme as a nurse.")
    learned(first)
    with first.expect_download() as download:
        first.locator("#export-memory").click()
    path = tmp_path / "memory.json"
    download.value.save_as(path)
    saved = json.loads(path.read_text())
    assert [m["text"] for m in saved["messages"]][0] == "I live in Lisbon and I work at Acme as a nurse."

    second = tab.open_tab()  # a new tab is a new visitor with an empty memory
    second.goto(url)
    second.locator("#message textarea").wait_for()
    with second.expect_file_chooser() as chooser:
        second.locator("#load-memory").click()
    chooser.value.set_files(path)
    second.locator("#notice").get_by_text("Loaded 2 messages").wait_for()
    assert "I live in Lisbon and I work at Acme" in second.locator("#chat").inner_text()
    assert "The user works at Acme as a nurse" in second.locator("#mid-term").inner_text()


def test_trash_buttons_ask_then_delete_for_real(launch, tab):
    page = tab.open_tab()
    page.goto(launch())
    send(page, "I live in Lisbon and I work at Acme as a nurse.")
    learned(page)
    mid_term = page.locator("#mid-term")

    tab.answers.append(False)  # "Delete entry #1?" — no
    mid_term.locator("button.da-del[data-id='1']").click()
    page.wait_for_timeout(300)
    assert "#1" in mid_term.inner_text()
    tab.answers.append(True)
    mid_term.locator("button.da-del[data-id='1']").click()
    page.locator("#memory-notice").get_by_text("Deleted #1.").wait_for()
    assert "#1" not in mid_term.inner_text() and "#2" in mid_term.inner_text()

    page.get_by_text("Add, edit or delete an entry").click()
    page.locator("#memory-id input").fill("2.5")
    page.locator("#delete-memory").click()
    page.locator("#memory-notice").get_by_text("2.5 is not an id").wait_for()
    assert "#2" in mid_term.inner_text()

    clear = page.locator("#chat button[aria-label='Clear']")
    tab.answers.append(False)  # the chat's trash icon, refused: the conversation comes back
    clear.click()
    page.locator("#notice").get_by_text("Nothing was deleted").wait_for()
    assert page.locator("#chat .message-row").count() == 2
    tab.answers.append(True)
    clear.click()
    page.locator("#notice").get_by_text("Deleted the conversation (2 messages)").wait_for()
    page.get_by_role("tab", name="History").click()
    page.locator("#history").get_by_text("No messages yet").wait_for()
    assert [kind for kind, _ in tab.dialogs] == ["confirm"] * 4
