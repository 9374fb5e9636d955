"""The page in a real headless Chromium (Debian's, never a downloaded one): chat, learn, Dream, Compare."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from .conftest import DEMO_MESSAGES, WAIT_MS, desktop_tab, needs_chromium
from .test_hostile import HOSTILE, hostile_llm

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"

pytestmark = needs_chromium


@pytest.fixture
def page(browser):
    with desktop_tab(browser, WAIT_MS) as page:
        page.dialogs = []  # any alert() that fired: markup ran instead of being shown
        page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
        yield page


def send(page, text: str, answer: str) -> None:
    """Type and press Enter, then wait for one more bubble holding `answer` (earlier ones may hold it too)."""
    count = "a => document.querySelector('#chat').innerText.split(a).length - 1"
    page.locator("#message textarea").wait_for()
    before = page.evaluate(count, answer)
    page.locator("#message textarea").fill(text)
    page.locator("#message textarea").press("Enter")
    page.wait_for_function(f"a => ({count})(a) > {before}", arg=answer)


def wait_until_learned(page, fact: str) -> None:
    """The page's timer refreshes memory without a reload; 'learning…' goes once the Writer is done (a panel being
    re-rendered, briefly absent, counts as still learning)."""
    page.locator("#mid-term").get_by_text(fact).first.wait_for()
    page.wait_for_function("() => !(document.querySelector('#mid-term')?.innerText ?? 'learning…').includes('learning…')")


def test_chat_learn_dream_and_compare_in_the_browser(launch, page):
    page.goto(launch())
    page.locator("#status .da-status").get_by_text("Model: scripted").wait_for()
    for text in DEMO_MESSAGES:
        send(page, text, "Thanks for telling me")
    wait_until_learned(page, "The user moved from Lisbon to Porto")
    assert "Writer" in page.locator("#writer").inner_text()

    page.locator("#dream-button").click()
    diff = page.locator("#diff")
    diff.get_by_text("The user lives in Porto (previously Lisbon)").wait_for()
    struck = diff.get_by_text("The user lives in Lisbon", exact=False).first
    assert "line-through" in struck.evaluate("e => getComputedStyle(e).textDecorationLine")
    assert "never forgotten" in diff.inner_text()  # refused proposals, with the validator's reason

    page.locator("#mode").get_by_text("Compare").click()
    page.locator("#message textarea").fill("Where do I live now?")
    page.locator("#message textarea").press("Enter")
    page.locator("#compare .da-cmp-a").get_by_text("You live in Porto now").wait_for()
    page.locator("#compare .da-cmp-meta", has_text="prompt tokens").nth(1).wait_for()  # both answered and stored
    turn = page.locator("#turn")
    page.wait_for_function("() => document.querySelectorAll('#turn .da-turn').length == 2")
    assert "Controller" in turn.inner_text()
    page.wait_for_function("() => !(document.querySelector('#writer')?.innerText ?? 'learning…').includes('learning…')")

    page.mouse.move(0, 0)  # no hover state in the picture
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "browser-compare-after-dream.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    if os.environ.get("DREAMING_UPDATE_SCREENSHOT"):  # refreshes docs/screenshot-compare.png (scripted model)
        shutil.copyfile(shot, ROOT / "docs" / "screenshot-compare.png")
    assert page.dialogs == []


def test_markup_in_a_message_is_shown_as_text_and_never_runs(launch, page):
    page.goto(launch(hostile_llm()))
    send(page, HOSTILE, "You said: My name is Eve")
    page.locator("#mid-term").get_by_text("The user is Eve").first.wait_for()
    # A second entry naming Eve: the Dream asks the model about the pair (a lone entry it settles in code).
    page.get_by_text("Add, edit or delete an entry").click()
    page.locator("#memory-text textarea").fill(HOSTILE)
    page.locator("#add-memory").click()
    page.locator("#facts").get_by_text("My name is Eve").wait_for()
    page.locator("#dream-button").click()
    page.locator("#diff").get_by_text("Dream #1").wait_for()
    page.wait_for_timeout(500)  # give any injected handler a chance to fire

    literal = "<img src=x onerror=alert(1)>"
    for panel in ("#chat", "#turn", "#mid-term", "#writer", "#diff"):
        assert literal in page.locator(panel).inner_text(), f"{panel} does not show the markup as text"
    page.get_by_role("tab", name="History").click()
    assert literal in page.locator("#history").inner_text()
    assert page.locator('img[src="x"]').count() == 0
    assert not page.evaluate("[...document.scripts].some(s => s.textContent.includes('alert(2)'))")
    assert page.dialogs == []
