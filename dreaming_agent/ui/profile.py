"""What memory holds as it stands, for "Memory about you": the profile (each single-valued thing now, since when,
what it replaced) and the timeline (what happened when). Pure formatting; every user-derived string escaped."""
from __future__ import annotations

from html import escape
from typing import Any, Sequence

from ..store.attributes import label as attribute_label
from .render import delete_button


def profile_html(rows: Sequence[Any], events: Sequence[Any] = ()) -> str:
    """What holds one value at a time, as it stands ("Lives in Bristol — since 2026-11-27; before: Leeds"), each
    value with its entry's id and delete button; since when it happened where the timeline's `events` say ("since
    the week before 27 November 2026"); empty when memory knows none."""
    if not rows:
        return ""

    def held(h) -> str:
        return f'{escape(h.value)} <span class="da-id">#{int(h.memory_id)}</span>'
    items = []
    for row in rows:
        now = " / ".join(held(h) for h in row.now)
        since = min(h.since for h in row.now)
        happened = next((e.when for h in row.now for e in events if e.memory_id == h.memory_id), None)
        ended = [happened or since, *(h.since for h in row.before)]  # each held until the next one was said
        before = ("; before: " + ", ".join(f'<span class="da-replaced">{held(h)} until {escape(until)}</span>'
                                           for h, until in zip(row.before, ended))
                  if row.before else "")
        label = escape(attribute_label(row.attribute, whole=all(h.whole for h in row.now)))
        items.append(f'<li class="da-profile-row" data-attribute="{escape(row.attribute)}">'
                     f'{delete_button("memory", row.now[-1].memory_id)}<b>{label}</b> {now} — since {escape(happened or since)}'
                     f'{before}</li>')
    return f'<ul class="da-list da-profile">{"".join(items)}</ul>'


def timeline_html(events: Sequence[Any]) -> str:
    """The entries that say when something happened, oldest first, each at its day and with the words that told it
    ("16 February 2026 · The user adopted a cat #17 — said 2026-02-17: “yesterday”"); empty when none does."""
    if not events:
        return ""
    items = "".join(
        f'<li class="da-event">{delete_button("memory", e.memory_id)}<b>{escape(e.when)}</b> · {escape(e.text)} '
        f'<span class="da-id">#{int(e.memory_id)}</span><div class="da-src">said {escape(e.said_on)}: '
        f'“{escape(e.said)}”</div></li>' for e in events)
    return (f'<details class="da-timeline"><summary>When things happened ({len(events)})</summary>'
            f'<ul class="da-list">{items}</ul></details>')
