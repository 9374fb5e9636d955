"""The page with the app's default model (the 0.5B one) and the real embedder, in a real headless Chromium:
five facts told, true entries in the memory panel, a Dream whose diff shows an accepted change, Undo.

A few minutes on one thread. DREAMING_UPDATE_SCREENSHOT=1 copies its pictures to docs/screenshots/ (and the README's)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from dreaming_agent.bench import forming

from .conftest import desktop_tab, needs_chromium

pytestmark = [needs_chromium, pytest.mark.model, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
TUNE = forming.load("tune")
TOLD = [TUNE.messages[i] for i in (0, 1, 2, 3, 6)]  # name and work, allergy, sister, dog, boyfriend
MODEL_WAIT_MS = 600_000  # a Dream over a dozen entries takes minutes on one busy core
ENTRIES = """() => [...document.querySelectorAll('#facts li:not(.da-profile-row):not(.da-event), #mid-term li')].map(li => [
    li.closest('#facts') ? 'long-term' : 'short-term', li.querySelector('.da-id').textContent,
    li.querySelector('.da-id').nextSibling.textContent, li.querySelector('.da-src')?.textContent || ''])"""


@pytest.fixture
def page(browser):
    with desktop_tab(browser, MODEL_WAIT_MS) as page:
        yield page


def snap(page, name: str) -> None:
    page.mouse.move(0, 0)  # no hover state in the picture
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / f"default-{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    if os.environ.get("DREAMING_UPDATE_SCREENSHOT"):
        (ROOT / "docs" / "screenshots").mkdir(exist_ok=True)
        shutil.copyfile(shot, ROOT / "docs" / "screenshots" / shot.name)


def true_entries(entries: list[list[str]]) -> list[str]:
    """Entries that state a fact of one of the told messages, about the right person (bench/forming.py's judge)."""
    return [text for _, _, text, _ in entries
            if any(forming.judge(text, i, told, TUNE.others).true for i, told in enumerate(TOLD))]


def test_five_facts_become_entries_a_dream_changes_them_and_undo_restores_the_panel(default_app_url, page):
    page.goto(default_app_url)
    for told in TOLD:
        bubbles = page.locator("#chat .message-row").count()
        page.locator("#message textarea").fill(told.text)
        page.locator("#message textarea").press("Enter")
        page.wait_for_function(f"() => document.querySelectorAll('#chat .message-row').length >= {bubbles + 2}")
    replies = page.locator("#chat .message-row").all_inner_texts()[1::2]
    assert sum(forming.natural(reply) for reply in replies) >= 4, replies
    # The Writer's panel names the message it worked on; done when it shows the last one without a badge.
    page.wait_for_function("""last => { const w = document.querySelector('#writer').innerText;
        return w.includes(last) && !w.includes('learning…') && !w.includes('waiting')
            && !(document.querySelector('#mid-term')?.innerText ?? 'learning…').includes('learning…'); }""", arg=TOLD[-1].text[:30])

    before = page.evaluate(ENTRIES)
    assert len(true_entries(before)) >= 3, before
    snap(page, "1-memory")

    page.locator("#dream-button").click()
    diff = page.locator("#diff")
    diff.get_by_text("Dream #1").wait_for()
    assert "Changes" in diff.inner_text(), diff.inner_text()  # at least one accepted operation
    colours = diff.evaluate("""d => [...d.querySelectorAll('li span[style]')].map(s => [
        getComputedStyle(s).color, getComputedStyle(s).textDecorationLine])""")
    assert ["rgb(17, 99, 41)", "none"] in colours, colours  # a new or kept entry, in green
    assert ["rgb(179, 29, 40)", "line-through"] in colours, colours  # a replaced one, struck through in red
    snap(page, "2-dream")

    page.locator("#undo-button").click()
    diff.get_by_text("Undone at").wait_for()
    page.get_by_role("tab", name="Memory").click()
    assert page.evaluate(ENTRIES) == before
    snap(page, "3-undo")
