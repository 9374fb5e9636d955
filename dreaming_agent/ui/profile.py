"""The memory panel as a profile: current values by subject with since when and what they replaced, and the dated
events in order. Pure functions: store rows in, text or escaped HTML out."""
from __future__ import annotations

from datetime import date
from html import escape
from typing import Iterable

from ..store.facts import Dated, ProfileRow
from ..store.vocabulary import ATTRIBUTES, USER


def day(iso: str, today: str | None = None) -> str:
    """"27 Nov", with the year when it is not this year's: "3 Jun 2019"."""
    try:
        d = date.fromisoformat(iso[:10])
    except ValueError:
        return iso
    same_year = today is not None and today[:4] == iso[:4]
    return f"{d.day} {d.strftime('%b')}" + ("" if same_year else f" {d.year}")


def whose(subject: str) -> str:
    """A subject key as the panel names it: "You", "Your sister Ruth" (a speaker's lines: "Caroline")."""
    speaker, _, key = subject.rpartition("/")
    if key == USER:
        return speaker.title() if speaker else "You"
    _, relation, name = (key.split(":") + ["", ""])[:3]
    named = " ".join(part for part in (relation, name.title()) if part)
    return f"{speaker.title()}'s {named}" if speaker else f"Your {named}"


def profile_line(row: ProfileRow, today: str | None = None) -> str:
    """"Lives in Bristol — since 27 Nov; before: Leeds"."""
    attribute = ATTRIBUTES.get(row.attribute)
    said = attribute.label.format(value=row.value) if attribute and attribute.label else row.value
    line = f"{said} — since {day(row.since, today)}"
    if row.before:
        line += "; before: " + ", ".join(p.value for p in row.before)
    return line


def profile_html(rows: Iterable[ProfileRow], today: str | None = None) -> str:
    """One block per subject, the person first; each value with its entry id (to edit or delete it)."""
    groups: dict[str, list[ProfileRow]] = {}
    for row in rows:
        groups.setdefault(row.subject, []).append(row)
    if not groups:
        return '<p class="da-empty">Nothing known yet: tell me something about you.</p>'
    blocks = []
    for subject, values in groups.items():
        items = "".join(f'<li><span class="da-id">#{r.memory_id}</span>{escape(profile_line(r, today))}</li>'
                        for r in values)
        blocks.append(f'<div class="da-profile"><b>{escape(whose(subject))}</b><ul>{items}</ul></div>')
    return "".join(blocks)


def timeline_html(events: Iterable[Dated], today: str | None = None) -> str:
    items = "".join(f'<li><span class="da-id">#{e.memory_id}</span>{escape(day(e.date, today))} · '
                    f'{escape(whose(e.subject))}: {escape(e.value)}</li>' for e in events)
    return f'<ol class="da-timeline">{items}</ol>' if items else '<p class="da-empty">No dated events yet.</p>'
