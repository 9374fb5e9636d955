"""Pure formatting for the web page: records in, HTML or chat messages out; every user-derived string escaped."""
from __future__ import annotations

import json
from html import escape
from typing import Any, Iterable, Mapping, Sequence

from ..dream.diff import DreamReport, EntryView, OpReport
from ..store import Memory, Message

MODE_LABELS = {"lightmem": "LightMem", "rag": "RAG", "none": "No memory", "compare": "Compare"}
# Budget layers in prompt order, then the reply reserve; what is left of the window is drawn as free space.
BUDGET_SEGMENTS = (
    ("instructions", "#94a3b8"), ("facts", "#2563eb"), ("summary", "#7c3aed"), ("evidence", "#059669"),
    ("recent", "#d97706"), ("question", "#dc2626"), ("reply_reserve", "#cbd5e1"),
)

# The Dream report colours its entries inline, as it always has: its HTML is part of the /dream and /undo_dream answers.
_DREAM_NEW = "color:#116329;background:#e6ffec;padding:1px 4px;border-radius:3px"
_DREAM_GONE = "color:#b31d28;background:#ffebe9;text-decoration:line-through;padding:1px 4px;border-radius:3px"
_TIER = {"ltm": "long-term", "mtm": "short-term"}

# Gradio 6 takes page CSS only in launch(); shipping it in the page keeps the look the same however it is launched.
STYLE = """<style>
.da-status{font-size:.9em;color:#475569}.da-weak{margin-top:6px;padding:8px 10px;border-radius:6px;background:#fff7ed;
border:1px solid #fdba74;color:#7c2d12}.da-weak code{background:#ffedd5}
.da-badge{display:inline-block;font-size:.75em;padding:0 6px;border-radius:9px;margin-left:4px;border:1px solid #cbd5e1;color:#334155}
.da-writer{background:#eff6ff}.da-manual{background:#fefce8}.da-dream{background:#f5f3ff}
.da-learning{background:#fef3c7;border-color:#f59e0b;animation:da-pulse 1.2s infinite}.da-new{background:#dcfce7;border-color:#22c55e}.da-replaced{background:#f3f4f6;border-color:#9ca3af;color:#4b5563}
.da-warn{background:#fee2e2;border-color:#ef4444}
@keyframes da-pulse{50%{opacity:.45}}
.gradio-style ul.da-list{list-style:none;padding-left:0;margin:0}.gradio-style ul.da-list>li{list-style:none;padding:6px 0;
margin:0;border-bottom:1px solid #e2e8f0}
.da-id{font-family:monospace;color:#64748b;margin-right:4px}.da-src{font-size:.85em;color:#475569;margin:2px 0 0 18px}
.da-empty{color:#94a3b8;font-style:italic}
.da-bar{display:flex;height:16px;border:1px solid #cbd5e1;border-radius:4px;overflow:hidden;background:#fff}
.da-bar span{display:block;height:100%}.da-legend{font-size:.8em;color:#334155;margin-top:4px}
.da-legend i{display:inline-block;width:10px;height:10px;margin:0 3px 0 8px;border-radius:2px}
.da-turns{display:grid;gap:12px}.da-turn{border:1px solid #e2e8f0;border-radius:8px;padding:10px}
.da-answer{background:#f8fafc;border-radius:6px;padding:8px;margin:6px 0;white-space:pre-wrap}
.da-step{border-left:3px solid #94a3b8;padding:2px 8px;margin:6px 0}.da-step pre{white-space:pre-wrap;font-size:.8em;
max-height:220px;overflow:auto;background:#f8fafc;padding:4px}.da-ms{color:#64748b;font-size:.85em}
.da-msg-user{color:#1e3a8a}.da-msg-assistant{color:#334155}
.gradio-style button.da-del{float:right;border:none;background:none;box-shadow:none;cursor:pointer;color:#94a3b8;
padding:0 4px;margin:0;min-width:0;width:auto;height:auto;font-size:.95em;line-height:1.4}
.gradio-style button.da-del:hover{color:#b91c1c}
#memory-file:not(:has(a[download])){display:none}
.da-dream-progress progress{display:block;width:100%;margin-top:4px}
</style>"""


def chat_messages(history: Iterable[Message], notice: str | None = None) -> list[dict[str, str]]:
    """The stored conversation as chat bubbles: plain text (the chat renders no markdown), a notice last."""
    bubbles = []
    for message in history:
        text = plain_text(message.text)
        if message.role == "assistant" and message.speaker in MODE_LABELS:
            text = f"<b>{MODE_LABELS[message.speaker]}</b> · {text}"
        bubbles.append({"role": message.role, "content": text})
    if notice:
        bubbles.append({"role": "assistant", "content": "⚠️ " + plain_text(notice.removeprefix("⚠️").strip())})
    return bubbles


def pending_turn(text: str, replies: Mapping[str, str]) -> list[dict[str, str]]:
    """A message not yet answered, and each mode's reply as far as it has streamed, labelled as stored ones are."""
    bubbles = [{"role": "user", "content": plain_text(text)}]
    for mode, reply in replies.items():
        bubbles.append({"role": "assistant", "content": f"<b>{MODE_LABELS.get(mode, escape(mode))}</b> · "
                                                        f"{plain_text(reply.lstrip())}"})
    return bubbles


def dream_progress(done: int | None, total: int) -> str:
    """The Dream's status line while it runs: groups of entries the model has reviewed, of all it will."""
    if done is None:
        return '<p class="da-dream-progress">🌙 Dreaming… grouping your entries (once the Writer has finished learning).</p>'
    if total == 0:
        return '<p class="da-dream-progress">🌙 Dreaming… nothing new since the last Dream: no group to review.</p>'
    return (f'<p class="da-dream-progress">🌙 Dreaming… <b>{done} of {total}</b> group{"" if total == 1 else "s"} '
            f'of entries reviewed<progress value="{done}" max="{total}"></progress></p>')


def plain_text(text: str) -> str:
    """Text for the chat's HTML: markup escaped, line breaks kept; markdown stays literal (it is never rendered)."""
    return escape(text, quote=False).replace("\n", "<br>")


def budget_bar(breakdown: Mapping[str, int]) -> str:
    """How the prompt's tokens split across the window: one coloured segment per layer, then free space."""
    window = max(1, int(breakdown.get("window", 0)))
    used = {name: max(0, int(breakdown.get(name, 0))) for name, _ in BUDGET_SEGMENTS}
    free = max(0, window - sum(used.values()))
    bar = "".join(
        f'<span style="width:{100 * used[name] / window:.2f}%;background:{color}" '
        f'title="{name}: {used[name]} tokens"></span>'
        for name, color in BUDGET_SEGMENTS if used[name]
    )
    legend = "".join(
        f'<i style="background:{color}"></i>{name.replace("_", " ")} {used[name]}' for name, color in BUDGET_SEGMENTS
    )
    prompt = sum(used[name] for name, _ in BUDGET_SEGMENTS if name != "reply_reserve")
    return (
        f'<div class="da-budget"><div class="da-bar">{bar}</div>'
        f'<div class="da-legend">{legend}<i style="background:#fff;border:1px solid #cbd5e1"></i>free {free}</div>'
        f"<small>prompt {prompt} tokens + reply reserve {used['reply_reserve']} of a {window}-token window</small></div>"
    )


def trace_html(steps: Sequence[Mapping[str, Any]]) -> str:
    """Each module's decision, duration, retry/fallback marks, and its raw and parsed output."""
    if not steps:
        return '<p class="da-empty">No steps.</p>'
    return "".join(_step(step) for step in steps)


def _step(step: Mapping[str, Any]) -> str:
    marks = "".join(
        f'<span class="da-badge da-warn">{label}</span>'
        for key, label in (("retried", "retried"), ("fell_back", "fell back"), ("error", "error"))
        if step.get(key)
    )
    tokens = ""
    if step.get("llm_calls"):
        tokens = f' · {step["llm_calls"]} call(s), {step.get("prompt_tokens", 0)}→{step.get("completion_tokens", 0)} tokens'
    error = f'<div class="da-badge da-warn">{escape(str(step["error"]))}</div>' if step.get("error") else ""
    raw = "".join(f"<pre>{escape(str(r))}</pre>" for r in step.get("raw") or []) or '<p class="da-empty">no model call</p>'
    parsed = escape(json.dumps(step.get("parsed"), ensure_ascii=False, indent=1, default=str))
    return (
        f'<div class="da-step"><b>{escape(str(step.get("name", "?")))}</b> '
        f'<span class="da-ms">{float(step.get("duration_ms", 0)):.1f} ms{tokens}</span>{marks}'
        f'<div>{escape(str(step.get("decision", "")))}</div>{error}'
        f"<details><summary>raw and parsed output</summary><b>raw</b>{raw}<b>parsed</b><pre>{parsed}</pre></details></div>"
    )


def turn_panel(results: Mapping[str, Any], *, show_answers: bool) -> str:
    """One column per answered mode (two side by side in Compare): latency, budget meter and trace."""
    columns = []
    for mode, result in results.items():
        answer = f'<div class="da-answer">{escape(result.answer)}</div>' if show_answers else ""
        budget = budget_bar(result.prompt.breakdown) if result.prompt else ""
        columns.append(
            f'<div class="da-turn"><b>{escape(MODE_LABELS.get(mode, mode))}</b> '
            f'<span class="da-ms">{result.timings.get("total_ms", 0):.0f} ms</span>{answer}{budget}'
            f"<details open><summary>Trace</summary>{trace_html(result.trace.to_json())}</details></div>"
        )
    template = " ".join(["1fr"] * max(1, len(columns)))
    return f'<div class="da-turns" style="grid-template-columns:{template}">{"".join(columns)}</div>'


def writer_panel(message: Message | None, step: Mapping[str, Any] | None, *, running: bool) -> str:
    """The background Writer's step for the latest message: 'learning…' until it has finished."""
    if message is None:
        return ""
    quoted = escape(_clip(message.text, 80))
    if step is None:
        state = '<span class="da-badge da-learning">learning…</span>' if running else '<span class="da-badge">waiting</span>'
        return f'<div class="da-writer-panel"><b>Writer</b> {state} on “{quoted}”</div>'
    return f'<div class="da-writer-panel"><b>Writer</b> on “{quoted}”{trace_html([step])}</div>'


def memory_list(
    memories: Sequence[Memory], sources: Mapping[int, Message], *, learning: Iterable[int] = (),
    new: Iterable[int] = (), replaced: Mapping[int, int] | None = None, empty: str = "Nothing yet.",
) -> str:
    """Entries with id, origin, state (`replaced`: entry -> the entry that says its newer value), and the dated
    messages they came from."""
    if not memories:
        return f'<p class="da-empty">{escape(empty)}</p>'
    learning, new = set(learning), set(new)
    items = []
    for memory in memories:
        state = ""
        if memory.id in learning:
            state = '<span class="da-badge da-learning">learning…</span>'
        elif memory.id in new:
            state = '<span class="da-badge da-new">new</span>'
        if replaced and memory.id in replaced:
            state += f'<span class="da-badge da-replaced">replaced by #{int(replaced[memory.id])}</span>'
        said = "".join(
            f'<div class="da-src">{escape(sources[m].created_at[:10])} · you said: “{escape(_clip(sources[m].text, 200))}”</div>'
            for m in memory.source_message_ids if m in sources
        )
        items.append(
            f'<li>{delete_button("memory", memory.id)}<span class="da-id">#{memory.id}</span>{escape(memory.text)}'
            f'<span class="da-badge da-{escape(memory.origin)}">{escape(memory.origin)}</span>{state}{said}</li>'
        )
    return f'<ul class="da-list">{"".join(items)}</ul>'


def delete_button(kind: str, ident: int) -> str:
    """A trash button beside an entry or a message; the panel's script asks for confirmation, then deletes."""
    what = "entry" if kind == "memory" else "message"
    return (f'<button class="da-del" data-kind="{kind}" data-id="{int(ident)}" title="Delete {what} #{int(ident)}" '
            f'aria-label="Delete {what} #{int(ident)}">✕</button>')


def memory_state(kept: int) -> str:
    """How many messages and entries this tab holds: the page warns before a reload or close throws them away."""
    return f'<span data-kept="{int(kept)}"></span>'


def cleared_trace() -> str:
    return '<p class="da-empty">The last turn\'s trace was cleared: it may have quoted what you changed or deleted.</p>'


def learning_placeholder(message: Message) -> str:
    """Shown while the Writer reads a message and has stored nothing from it yet."""
    return (f'<p><span class="da-badge da-learning">learning…</span> from “{escape(_clip(message.text, 80))}”</p>')


def window_html(summary: str, turns: Sequence[Message]) -> str:
    """Layer 1: the rolling summary of older turns and the verbatim tail."""
    summary_html = escape(summary) if summary else '<span class="da-empty">No summary yet: everything is still verbatim.</span>'
    tail = "".join(
        f'<li class="da-msg-{escape(m.role)}"><span class="da-id">#{m.id}</span><b>{escape(m.role)}</b>: {escape(m.text)}</li>'
        for m in turns
    ) or '<li class="da-empty">No turns yet.</li>'
    return f"<h4>Rolling summary</h4><p>{summary_html}</p><h4>Verbatim tail</h4><ul class=\"da-list\">{tail}</ul>"


def history_html(messages: Sequence[Message]) -> str:
    """Every stored message with its id and date, so one can be deleted by id."""
    if not messages:
        return '<p class="da-empty">No messages yet.</p>'
    rows = "".join(
        f'<li class="da-msg-{escape(m.role)}">{delete_button("message", m.id)}<span class="da-id">#{m.id}</span>'
        f'<small>{escape(m.created_at.replace("T", " "))}</small> <b>{escape(_speaker(m))}</b>: {escape(m.text)}</li>'
        for m in messages
    )
    return f'<ul class="da-list">{rows}</ul>'


def refused_html(rejected: Sequence[Any]) -> str:
    """The Dream's refused proposals: what the model asked for, its reason, and why the code said no."""
    if not rejected:
        return '<p class="da-empty">No proposal was refused.</p>'
    items = "".join(
        f'<li><b>{escape(op.op)}</b> <span class="da-id">[{escape(", ".join(str(i) for i in op.target_ids))}]</span>'
        + (f" “{escape(op.text)}”" if op.text else "")
        + (f'<div class="da-src">model: {escape(op.reason)}</div>' if op.reason else "")
        + f'<div class="da-src"><span class="da-badge da-warn">refused</span> {escape(op.verdict)}</div></li>'
        for op in rejected
    )
    return f'<ul class="da-list">{items}</ul>'


def dream_html(report: DreamReport) -> str:
    """New entries in green, superseded or forgotten ones struck through in red, refused proposals with reasons."""
    heading = "Dream" if report.dream_id is None else f"Dream #{report.dream_id}"
    state = " (undone)" if report.status == "undone" else ""
    parts = [
        '<div class="dream-report">',
        f"<p><b>{escape(heading)}</b>{escape(state)} · {escape(report.started_at)} · "
        f"{len(report.accepted)} change{'' if len(report.accepted) == 1 else 's'}, "
        f"{len(report.rejected)} refused</p>",
    ]
    if report.settled:  # otherwise "Nothing changed" after a Dream over new entries reads as if none was looked at
        parts.append(f"<p>{report.settled} new entr{'y' if report.settled == 1 else 'ies'} kept as "
                     f"{'it is' if report.settled == 1 else 'they are'} without asking the model: the rules would "
                     "refuse to promote or forget them whatever it proposed (said once about something lasting, or "
                     "already long-term).</p>")
    failed = [o for o in report.raw_outputs if o.get("fell_back") and o.get("error")]
    if failed:  # "Nothing changed" alone would hide a model that is down or answering garbage
        parts.append(
            f"<p><b>The model gave no usable proposal for {len(failed)} of {len(report.raw_outputs)} group(s) "
            f"of entries</b>, so they were left as they were: {escape(str(failed[0]['error']))}</p>"
        )
    if report.accepted:
        parts.append("<h4>Changes</h4><ul>")
        for op in report.accepted:
            parts.append(f"<li>{_dream_op_heading(op)}<ul>")
            parts.extend(_dream_entry_line(view, op) for view in (op.after or op.before))
            parts.append("</ul></li>")
        parts.append("</ul>")
    else:
        parts.append("<p>Nothing changed.</p>")
    if report.rejected:
        parts.append("<h4>Refused proposals</h4><ul>")
        for op in report.rejected:
            proposed = f" “{escape(op.text)}”" if op.text else ""
            parts.append(f"<li>{_dream_op_heading(op)}{proposed}<br><small>{escape(op.verdict)}</small></li>")
        parts.append("</ul>")
    parts.append("</div>")
    return "".join(parts)


def _dream_op_heading(op: OpReport) -> str:
    ids = ", ".join(str(i) for i in op.target_ids)
    why = f" — <i>{escape(op.reason)}</i>" if op.reason else ""
    return f"<b>{escape(op.op)}</b> [{escape(ids)}]{why}"


def _dream_entry_line(view: EntryView, op: OpReport) -> str:
    gone = view.status in ("superseded", "forgotten")
    style = _DREAM_GONE if gone else _DREAM_NEW
    label = view.status if gone else ("new" if view.id == op.new_memory_id else _TIER.get(view.tier, view.tier))
    return f'<li><span style="{style}">[{view.id}] {escape(view.text)}</span> <small>{escape(label)}</small></li>'


def status_html(info: Mapping[str, str], *, weak_model: bool) -> str:
    """Backend, model, embedder and threads; on the tiny default model, how to get better answers."""
    line = " · ".join(f"{escape(k)}: <b>{escape(str(v))}</b>" for k, v in info.items())
    note = ""
    if weak_model:
        note = (
            '<div class="da-weak">You are running the tiny built-in model: answers will be weak. For good answers, run '
            "<code>ollama pull qwen2.5:3b</code> and start again with <code>DREAMING_LLM=ollama</code> "
            "(or <code>--llm ollama</code>, or <code>DREAMING_PRESET=seed</code>).</div>"
        )
    return (f'<div class="da-status">{line} · memory: <b>this browser tab only</b>, deleted when you close it '
            f"(💾 Download my memory keeps a copy)</div>{note}")


def notice_html(text: str, *, ok: bool = True) -> str:
    badge = "da-new" if ok else "da-warn"
    return f'<span class="da-badge {badge}">{"✓" if ok else "⚠️"}</span> {escape(text)}'


def _speaker(message: Message) -> str:
    if message.role == "assistant" and message.speaker in MODE_LABELS:
        return f"assistant ({MODE_LABELS[message.speaker]})"
    return message.role


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
