"""What a newcomer trips on, in a real headless Chromium (Debian's): icons over text, deleting a message and its
reply, notices that clear, an undone Dream, Compare as two columns; screenshots kept in docs/screenshots/."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .conftest import DEMO_MESSAGES, WAIT_MS, desktop_tab, needs_chromium
from .test_browser import send, wait_until_learned

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts"
DOCS = ROOT / "docs" / "screenshots"

pytestmark = needs_chromium

OVERLAPS = """() => {
  const icons = [...document.querySelectorAll('#chat .top-panel button')].map(b => b.getBoundingClientRect());
  const area = document.querySelector('#chat .bubble-wrap').getBoundingClientRect();
  const texts = [...document.querySelectorAll('#chat .message-row')].map(m => m.getBoundingClientRect())
    .filter(r => r.bottom > area.top && r.top < area.bottom)  // what can be seen of each message
    .map(r => ({left: r.left, right: r.right, top: Math.max(r.top, area.top), bottom: Math.min(r.bottom, area.bottom)}));
  return icons.filter(i => texts.some(t => i.left < t.right && t.left < i.right && i.top < t.bottom && t.top < i.bottom)).length;
}"""


def snap(page, name: str) -> None:
    page.mouse.move(0, 0)
    SHOTS.mkdir(exist_ok=True)
    shot = SHOTS / f"newcomer-{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    DOCS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(shot, DOCS / f"newcomer-{name}.png")


@pytest.fixture
def page(browser):
    with desktop_tab(browser, WAIT_MS) as page:
        page.on("dialog", lambda dialog: (setattr(page, "asked", dialog.message), dialog.accept()))
        yield page


def test_a_newcomer_meets_no_overlap_a_clean_delete_clearing_notices_an_undone_dream_and_two_columns(launch, page):
    page.goto(launch())
    for text in [*DEMO_MESSAGES, "By the way, I like jazz."]:
        send(page, text, "Thanks for telling me")
    wait_until_learned(page, "The user moved from Lisbon to Porto")

    # 7: the chat's clear and copy icons sit above the messages, whichever is scrolled to the top.
    page.locator("#chat .bubble-wrap").evaluate("e => e.scrollTop = 37")
    assert page.evaluate(OVERLAPS) == 0
    page.locator("#chat .bubble-wrap").evaluate("e => e.scrollTop = e.scrollHeight")

    # 2: deleting a message takes the reply to it, and the confirmation said it would.
    page.get_by_role("tab", name="History").click()
    last = page.locator("#history li").filter(has_text="I like jazz").locator("button.da-del")
    last.click()
    assert "the reply to it" in page.asked
    notice = page.locator("#history-notice")
    notice.get_by_text("the reply to it").wait_for()
    bubbles = page.locator("#chat .message-row")
    page.wait_for_function("() => !document.querySelector('#chat').innerText.includes('I like jazz')")
    assert bubbles.count() == 6  # three messages, each with its own reply: none left stacked
    snap(page, "1-deleted-with-reply")

    # 3: the notice goes with the next action.
    page.get_by_role("tab", name="Memory").click()
    page.wait_for_function("() => !document.querySelector('#history-notice .da-notice')")

    # 1: an undone Dream reads as undone.
    page.locator("#dream-button").click()
    diff = page.locator("#diff")
    diff.locator('[data-state="applied"]').wait_for()
    page.locator("#undo-button").click()
    undone = diff.locator('[data-state="undone"]')
    undone.wait_for()
    assert "Undone at" in undone.inner_text() and "line-through" not in undone.inner_html()
    assert page.locator("#diff .da-dream-body").evaluate("e => getComputedStyle(e).filter") == "grayscale(1)"
    snap(page, "2-dream-undone")

    # 10: Compare as two columns, aligned, each answer with its time and prompt tokens; a difference is marked.
    page.locator("#dream-button").click()
    diff.locator('[data-state="applied"]').wait_for()
    page.locator("#mode").get_by_text("Compare").click()
    page.locator("#compare").wait_for(state="visible")
    assert not page.locator("#chat").is_visible()
    page.locator("#message textarea").fill("Where do I live now?")
    page.locator("#message textarea").press("Enter")
    row = page.locator("#compare .da-cmp-row").last
    row.locator(".da-cmp-meta", has_text="prompt tokens").nth(1).wait_for()
    lightmem, rag = row.locator(".da-cmp-a").all()
    assert "Porto now" in lightmem.inner_text() and "You said you live in Lisbon" in rag.inner_text()
    assert lightmem.bounding_box()["y"] == rag.bounding_box()["y"]  # side by side, on the same line
    assert "da-cmp-differs" in row.get_attribute("class") and "Only LightMem had" in row.inner_text()
    snap(page, "3-compare")

    page.set_viewport_size({"width": 560, "height": 1000})  # a phone: one answer above the other
    page.wait_for_timeout(300)
    top, below = lightmem.bounding_box(), rag.bounding_box()
    assert below["y"] >= top["y"] + top["height"]
    snap(page, "4-compare-narrow")
