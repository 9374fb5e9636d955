"""The profile panel: what is current by subject, since when, what it replaced; events in date order; escaped."""
from __future__ import annotations

from dreaming_agent.store.facts import Dated, Prior, ProfileRow
from dreaming_agent.store.records import Typed
from dreaming_agent.ui.profile import day, profile_html, profile_line, timeline_html, whose


def test_a_current_value_says_since_when_and_what_it_replaced():
    row = ProfileRow("user", "home", "Bristol", "2026-11-27", 8, (Prior("Leeds", "2026-11-20", 2),))
    assert profile_line(row, today="2026-12-01") == "Lives in Bristol — since 27 Nov; before: Leeds"
    assert profile_line(ProfileRow("user", "diet", "vegetarian", "2025-03-02", 3)) == "Diet: vegetarian — since 2 Mar 2025"


def test_subjects_are_named_for_the_person():
    assert [whose(s) for s in ("user", "person:sister:ruth", "pet:dog:pepper", "caroline/user")] == [
        "You", "Your sister Ruth", "Your dog Pepper", "Caroline"]
    assert day("2019-06-03", "2026-01-01") == "3 Jun 2019" and day("not a date") == "not a date"


def test_the_panel_from_the_store_after_a_move(store):
    store.add_memory("The user lives in Leeds", created_at="2026-11-20T10:00:00", typed=Typed("user", "home", "Leeds", "2026-11-20"))
    store.add_memory("The user lives in Bristol", created_at="2026-11-27T10:00:00", typed=Typed("user", "home", "Bristol", "2026-11-27"))
    store.add_memory("The user's dog Pepper: <b>bites</b>", created_at="2026-11-21T10:00:00",
                     typed=Typed("pet:dog:pepper", "other", "<b>bites</b>", "2026-11-21"))
    store.add_memory("The user: ran a marathon", created_at="2026-11-22T10:00:00",
                     typed=Typed("user", "event", "ran a marathon", "2026-11-16"))
    store.add_memory("The user: met Ana", created_at="2026-11-22T10:00:00", typed=Typed("user", "event", "met Ana", "2026-11-02"))
    html = profile_html(store.facts.profile(), today="2026-12-01")
    assert "Lives in Bristol — since 27 Nov; before: Leeds" in html
    assert html.index("<b>You</b>") < html.index("Your dog Pepper") and "&lt;b&gt;bites" in html and "<b>bites" not in html
    assert "marathon" not in html  # events are the timeline's
    timeline = timeline_html(store.facts.timeline(), today="2026-12-01")
    assert timeline.index("2 Nov · You: met Ana") < timeline.index("16 Nov · You: ran a marathon")
    assert profile_html([]).startswith('<p class="da-empty">') and "No dated events" in timeline_html([])
    assert [d for d in store.facts.timeline()] == [Dated("2026-11-02", "user", "event", "met Ana", 5),
                                                    Dated("2026-11-16", "user", "event", "ran a marathon", 4)]
