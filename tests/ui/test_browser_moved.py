"""A person who moves, with the app's default model (the 0.5B one) and the real embedder, in a real headless Chromium
(issue "Memory that knows what is current"): told a home and a job, then a move and a new job, asked at once and
asked again later — the new home and job each time, the panel showing the old home replaced by the new one (in the
entries and in the profile that opens "memory about you"), and a PIN that becomes no entry and gets the
not-remembered notice.

A few minutes on one thread; the replies and trace steps are kept in test-artifacts/moved.json."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from dreaming_agent import lang

from .conftest import desktop_tab, needs_chromium

pytestmark = [needs_chromium, pytest.mark.model, pytest.mark.slow]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
MODEL_WAIT_MS = 600_000  # a turn and its Writer on one busy core
STEPS = """() => [...document.querySelectorAll('#turn .da-step')].map(step => ({
    name: step.querySelector(':scope > b').textContent,
    parsed: JSON.parse(step.querySelector('details > pre:last-of-type').textContent)}))"""
ENTRIES = """() => [...document.querySelectorAll('#facts li:not(.da-profile-row):not(.da-event), #mid-term li')].map(li => ({
    text: li.querySelector('.da-id').nextSibling.textContent,
    replaced: li.querySelector('.da-replaced')?.textContent || ''}))"""
PROFILE = """() => Object.fromEntries([...document.querySelectorAll('#facts li.da-profile-row')].map(li => [
    li.dataset.attribute, {now: li.innerText.split('; before:')[0], before: li.innerText.split('; before:')[1] || ''}]))"""
# The Writer has finished every statement: no entry in the panels is still being learned (the PIN, which no model
# reads, leaves the Writer's own panel saying it is "not learned").
IDLE = """() => !(document.querySelector('#writer')?.innerText ?? 'learning…').includes('learning…')
    && !(document.querySelector('#mid-term')?.innerText ?? 'learning…').includes('learning…')
    && !(document.querySelector('#facts')?.innerText ?? 'learning…').includes('learning…')"""
NOTICE = lang.en.NOT_REMEMBERED.split(":")[0]  # "I have not remembered that"


@pytest.fixture
def page(browser):
    with desktop_tab(browser, MODEL_WAIT_MS) as page:
        yield page


def say(page, text: str, traced_by: str = "Controller") -> dict:
    """Send `text` in LightMem mode, not waiting for the Writer; once its turn is traced (by its Controller step, or
    by `traced_by` for a message no model reads), its reply and trace steps."""
    page.locator("#message textarea").fill(text)
    page.locator("#message textarea").press("Enter")
    page.wait_for_function(f"""([said, by]) => ({STEPS})().some(s => s.name === by
        && (by !== 'Controller' || s.parsed.queries[0] === said))""", arg=[text, traced_by])
    reply = page.locator("#chat .message-row").last.inner_text().strip()
    return {"said": text, "reply": reply, "steps": page.evaluate(STEPS)}


def test_a_move_is_answered_at_once_and_later_and_the_panel_shows_the_old_home_replaced(default_app_url, page):
    page.goto(default_app_url)
    page.locator("#mode").get_by_text("LightMem", exact=True).click()
    turns = [say(page, text) for text in (
        "Hi! I'm Dana, I live in Leeds and I work as a pharmacist.", "I have a dog called Pepper.",
        "Big news: I moved to Bristol last week and started a new job as a teacher.",
        "Where do I live now?", "What's my job?", "What's my dog called?")]
    turns.append(say(page, "My bank PIN is 4471, don't tell anyone.", traced_by="Not remembered"))
    page.wait_for_function("() => document.querySelector('#writer').innerText.includes('not learned')")
    assert "4471" not in page.locator("#writer").inner_text()  # the panel names the message, not its words
    page.wait_for_function(IDLE)
    turns.append(say(page, "Where do I live now?"))  # the move no longer among the turns a question reads
    page.wait_for_function(IDLE)
    entries = page.evaluate(ENTRIES)
    profile = page.evaluate(PROFILE)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "moved.json").write_text(json.dumps({"turns": turns, "entries": entries, "profile": profile},
                                                     ensure_ascii=False, indent=1), encoding="utf-8")

    home, job, dog, pin, home_later = turns[3:]
    assert "Bristol" in home["reply"] and "Leeds" not in home["reply"], home
    assert "teacher" in job["reply"] and "pharmacist" not in job["reply"], job
    assert "Pepper" in dog["reply"], dog
    assert NOTICE in pin["reply"] and not any("4471" in e["text"] for e in entries), (pin, entries)
    assert "Bristol" in home_later["reply"] and "Leeds" not in home_later["reply"], home_later
    selector = next(s for s in home_later["steps"] if s["name"] == "Selector")
    assert any("Bristol" in row for row in selector["parsed"]["current"]), selector
    leeds = [e for e in entries if "Leeds" in e["text"]]
    bristol = [e for e in entries if "Bristol" in e["text"]]
    assert leeds and all(e["replaced"].startswith("replaced by #") for e in leeds), entries
    assert bristol and not any(e["replaced"] for e in bristol), entries
    # The profile opens "memory about you": Bristol now, Leeds before it
    assert "Bristol" in profile["home"]["now"] and "Leeds" not in profile["home"]["now"], profile
    assert "Leeds" in profile["home"]["before"], profile
    assert "teacher" in profile["occupation"]["now"] and "pharmacist" in profile["occupation"]["before"], profile
