"""In a real headless Chromium with a slow scripted model: the message shows at once, the reply streams, a draft
typed meanwhile stays, a message sent while busy is answered too, and the Dream counts its groups."""
from __future__ import annotations

import re

import pytest

from .conftest import DEMO_MESSAGES, STATEMENT_REPLY, WAIT_MS, demo_llm, desktop_tab, needs_chromium

pytestmark = needs_chromium

CALL_S = 2.0  # every model call of the scripted model takes this long; a reply streams word by word over it
REPLY = STATEMENT_REPLY


@pytest.fixture
def page(browser):
    with desktop_tab(browser, WAIT_MS) as page:
        yield page


def bubbles(page) -> list[str]:
    return [row.inner_text().strip() for row in page.locator("#chat .message-row").all()]


def test_the_chat_is_live_and_nothing_sent_or_typed_is_lost(launch, page):
    page.goto(launch(demo_llm(delay_s=CALL_S)))
    box = page.locator("#message textarea")
    box.fill(DEMO_MESSAGES[0])
    box.press("Enter")
    page.locator("#chat .message-row", has_text=DEMO_MESSAGES[0]).wait_for()
    assert REPLY not in "".join(bubbles(page))  # on screen before the model has answered
    assert box.input_value() == ""

    # Part of the reply is on the page before the rest of it: it streams.
    page.wait_for_function("reply => { const rows = [...document.querySelectorAll('#chat .message-row')];"
                           " const last = rows.length ? rows[rows.length - 1].innerText : '';"
                           " return last.includes('Thanks for') && !last.includes('whenever you like.'); }", arg=REPLY)

    box.fill(DEMO_MESSAGES[1])  # sent while the first is still being answered: queued, shown at once
    box.press("Enter")
    page.locator("#chat .message-row", has_text="allergic to peanuts").wait_for()
    assert sum(REPLY in text for text in bubbles(page)) == 0  # the first reply had not finished

    box.fill("And I have a dog called")  # a draft typed during the wait
    page.get_by_role("tab", name="History").click()
    # Waited for by what it says, not by its rows: a panel refresh the Writer's timer started before the second
    # reply was stored may land after it, and shows the history without it until the next refresh
    page.wait_for_function("reply => { const text = document.querySelector('#history').innerText;"
                           " return text.split(reply).length === 3 && document.querySelectorAll('#history li').length === 4; }",
                           arg=REPLY, timeout=4 * WAIT_MS)
    shown = bubbles(page)
    assert [text.split("\n")[0] for text in shown] == [
        DEMO_MESSAGES[0], f"LightMem · {REPLY}", DEMO_MESSAGES[1], f"LightMem · {REPLY}"]
    assert box.input_value() == "And I have a dog called"
    stored = page.locator("#history").inner_text()
    assert stored.index(DEMO_MESSAGES[0]) < stored.index(DEMO_MESSAGES[1]) and stored.count(REPLY) == 2


def test_the_dream_shows_groups_reviewed_of_all(launch, page):
    page.goto(launch(demo_llm(delay_s=CALL_S / 2)))
    box = page.locator("#message textarea")
    for text in DEMO_MESSAGES:  # one after the other, as fast as the box empties: none is lost
        box.fill(text)
        box.press("Enter")
        page.wait_for_function("() => document.querySelector('#message textarea').value === ''")
    page.get_by_role("tab", name="History").click()
    page.wait_for_function("() => document.querySelectorAll('#history li').length === 6", timeout=4 * WAIT_MS)
    page.locator("#dream-button").click()
    progress = page.locator("#diff .da-dream-progress")
    progress.get_by_text(re.compile(r"Dreaming… [1-9]\d* of \d+ groups")).wait_for(timeout=2 * WAIT_MS)
    done, total = map(int, re.search(r"(\d+) of (\d+)", progress.inner_text()).groups())
    assert 1 <= done < total  # real progress, part way: not a guess of the time left
    page.locator("#diff").get_by_text("Dream #1").wait_for(timeout=2 * WAIT_MS)
    assert page.locator("#diff .da-dream-progress").count() == 0


def test_a_message_the_model_failed_to_answer_comes_back_to_the_box(launch, page):
    from dreaming_agent.errors import BackendUnavailable

    page.goto(launch(demo_llm(text=BackendUnavailable("The model is down.", backend="test"))))
    box = page.locator("#message textarea")
    box.fill("I live in Lisbon.")
    box.press("Enter")
    page.locator("#chat .message-row", has_text="The model is down.").wait_for()
    page.wait_for_function("() => document.querySelector('#message textarea').value === 'I live in Lisbon.'")
