"""What a Dream did, as data for the API and as escaped HTML for the person: before, after, and what was refused."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from html import escape

from ..store import Store

_NEW = "color:#116329;background:#e6ffec;padding:1px 4px;border-radius:3px"
_GONE = "color:#b31d28;background:#ffebe9;text-decoration:line-through;padding:1px 4px;border-radius:3px"
_TIER = {"ltm": "long-term", "mtm": "short-term"}


@dataclass(frozen=True)
class EntryView:
    id: int
    tier: str
    status: str
    text: str


@dataclass
class OpReport:
    op: str
    target_ids: list[int]
    text: str | None
    reason: str
    verdict: str
    new_memory_id: int | None = None
    before: list[EntryView] = field(default_factory=list)
    after: list[EntryView] = field(default_factory=list)


@dataclass
class DreamReport:
    dream_id: int | None
    status: str  # "applied" | "undone"
    started_at: str
    accepted: list[OpReport] = field(default_factory=list)
    rejected: list[OpReport] = field(default_factory=list)
    raw_outputs: list[dict] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    llm_calls: int = 0
    clusters: int = 0
    model: str | None = None
    prompt_version: str | None = None

    def to_json(self) -> dict:
        """A plain dict (lists, strings, numbers) for the API."""
        return asdict(self)


def report_from_store(store: Store, dream_id: int) -> DreamReport:
    """Rebuild a Dream's report from its recorded operations, row images and the rows as they are now."""
    run = store.query("SELECT started_at, status, model, prompt_version FROM dream_runs WHERE id = ?", (dream_id,))
    started_at, status, model, prompt_version = run[0]
    images = {
        memory_id: json.loads(before)
        for memory_id, before in store.query(
            "SELECT memory_id, before FROM dream_changes WHERE dream_id = ? AND before IS NOT NULL", (dream_id,)
        )
    }
    ops = store.query(
        "SELECT op, target_ids, text, reason, accepted, verdict, new_memory_id FROM dream_ops "
        "WHERE dream_id = ? ORDER BY id",
        (dream_id,),
    )
    mentioned = {i for row in ops for i in json.loads(row[1])} | {row[6] for row in ops if row[6] is not None}
    now = {m.id: _view(m) for m in store.memories(status=None, ids=sorted(mentioned))}
    report = DreamReport(dream_id, status, started_at, model=model, prompt_version=prompt_version)
    for op, target_json, text, reason, accepted, verdict, new_id in ops:
        targets = json.loads(target_json)
        entry = OpReport(op, targets, text, reason or "", verdict, new_id)
        entry.before = [_image_view(images[i]) if i in images else now[i] for i in targets if i in images or i in now]
        if accepted:
            entry.after = [now[i] for i in targets + ([new_id] if new_id else []) if i in now]
            report.accepted.append(entry)
        else:
            report.rejected.append(entry)
    return report


def render_html(report: DreamReport) -> str:
    """New entries in green, superseded or forgotten ones struck through in red, refused proposals with reasons."""
    heading = "Dream" if report.dream_id is None else f"Dream #{report.dream_id}"
    state = " (undone)" if report.status == "undone" else ""
    parts = [
        '<div class="dream-report">',
        f"<p><b>{escape(heading)}</b>{escape(state)} · {escape(report.started_at)} · "
        f"{len(report.accepted)} change{'' if len(report.accepted) == 1 else 's'}, "
        f"{len(report.rejected)} refused</p>",
    ]
    failed = [o for o in report.raw_outputs if o.get("fell_back") and o.get("error")]
    if failed:  # "Nothing changed" alone would hide a model that is down or answering garbage
        parts.append(
            f"<p><b>The model gave no usable proposal for {len(failed)} of {len(report.raw_outputs)} group(s) "
            f"of entries</b>, so they were left as they were: {escape(str(failed[0]['error']))}</p>"
        )
    if report.accepted:
        parts.append("<h4>Changes</h4><ul>")
        for op in report.accepted:
            parts.append(f"<li>{_op_heading(op)}<ul>")
            parts.extend(_entry_line(view, op) for view in (op.after or op.before))
            parts.append("</ul></li>")
        parts.append("</ul>")
    else:
        parts.append("<p>Nothing changed.</p>")
    if report.rejected:
        parts.append("<h4>Refused proposals</h4><ul>")
        for op in report.rejected:
            proposed = f" “{escape(op.text)}”" if op.text else ""
            parts.append(f"<li>{_op_heading(op)}{proposed}<br><small>{escape(op.verdict)}</small></li>")
        parts.append("</ul>")
    parts.append("</div>")
    return "".join(parts)


def _op_heading(op: OpReport) -> str:
    ids = ", ".join(str(i) for i in op.target_ids)
    why = f" — <i>{escape(op.reason)}</i>" if op.reason else ""
    return f"<b>{escape(op.op)}</b> [{escape(ids)}]{why}"


def _entry_line(view: EntryView, op: OpReport) -> str:
    gone = view.status in ("superseded", "forgotten")
    style = _GONE if gone else _NEW
    label = view.status if gone else ("new" if view.id == op.new_memory_id else _TIER.get(view.tier, view.tier))
    return f'<li><span style="{style}">[{view.id}] {escape(view.text)}</span> <small>{escape(label)}</small></li>'


def _view(memory) -> EntryView:
    return EntryView(memory.id, memory.tier, memory.status, memory.text)


def _image_view(image: dict) -> EntryView:
    return EntryView(image["id"], image["tier"], image["status"], image["text"])
