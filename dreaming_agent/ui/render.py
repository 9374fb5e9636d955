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
    ("instructions", "#94a3b8"), ("current", "#0891b2"), ("facts", "#2563eb"), ("summary", "#7c3aed"), ("evidence", "#059669"),
    ("recent", "#d97706"), ("question", "#dc2626"), ("reply_reserve", "#cbd5e1"),
)

# The Dream report colours its entries inline, as it always has: its HTML is part of the /dream and /undo_dream answers.
_DREAM_NEW = "color:#116329;background:#e6ffec;padding:1px 4px;border-radius:3px"
_DREAM_GONE = "color:#b31d28;background:#ffebe9;text-decoration:line-through;padding:1px 4px;border-radius:3px"
_DREAM_UNDONE = "color:#6b7280;background:#f3f4f6;padding:1px 4px;border-radius:3px"
_TIER = {"ltm": "long-term", "mtm": "short-term"}

# The chat's label and its clear/copy icons float over its top edge: its messages scroll below that band, never under
# it (the rule on #chat .bubble-wrap).
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
.da-withheld{font-size:.8em;background:#fef3c7;color:#92400e;border-radius:4px;padding:0 4px}
.gradio-style button.da-del{float:right;border:none;background:none;box-shadow:none;cursor:pointer;color:#94a3b8;
padding:0 4px;margin:0;min-width:0;width:auto;height:auto;font-size:.95em;line-height:1.4}
.gradio-style button.da-del:hover{color:#b91c1c}
#memory-file:not(:has(a[download])){display:none}
.da-dream-progress progress{display:block;width:100%;margin-top:4px}
.da-dream-state{padding:4px 8px;border-radius:6px;margin:0 0 6px}.da-applied .da-dream-state{background:#dcfce7;color:#14532d}
.da-undone .da-dream-state{background:#e5e7eb;color:#374151;font-weight:600}
.da-undone .da-dream-body{opacity:.6;filter:grayscale(1)}
.da-status-more{font-size:.85em;color:#64748b}.da-status-more summary{cursor:pointer}
#chat .bubble-wrap{margin-top:28px;height:calc(100% - 28px)!important;border-top:1px solid #e2e8f0}
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


# Seconds the 0.5B model takes per group of entries on one thread (scripts/dream_times.py, docs/DREAM_TIMES.md):
# the estimate before the first group is done; after it, the Dream's own pace.
SECONDS_PER_GROUP = 21.0


def dream_progress(done: int | None, total: int, elapsed_s: float = 0.0) -> str:
    """The Dream's status line while it runs: groups reviewed of all it will, and about how long is left."""
    if done is None:
        return '<p class="da-dream-progress">🌙 Dreaming… grouping your entries (once the Writer has finished learning).</p>'
    if total == 0:
        return '<p class="da-dream-progress">🌙 Dreaming… nothing new since the last Dream: no group to review.</p>'
    return (f'<p class="da-dream-progress">🌙 Dreaming… <b>{done} of {total}</b> group{"" if total == 1 else "s"} '
            f'of entries reviewed · {escape(dream_estimate(done, total, elapsed_s))}'
            f'<progress value="{done}" max="{total}"></progress></p>')


def dream_estimate(done: int, total: int, elapsed_s: float) -> str:
    """About how long the rest of a Dream takes: measured per group on the 0.5B model, then at its own pace."""
    if done >= total:
        return "applying the changes"
    if done == 0:
        return f"about {_duration(total * SECONDS_PER_GROUP)} on the 0.5B model (one model call per group)"
    return f"about {_duration(elapsed_s / done * (total - done))} left"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    return f"{round(seconds / 60)} min"


def counted(count: int, noun: str) -> str:
    """'1 Dream', '2 Dreams', '1 entry', '3 entries'."""
    if count == 1:
        return f"1 {noun}"
    return f"{count} {noun[:-1] + 'ies' if noun.endswith('y') else noun + 's'}"


def deleted_message_notice(message_id: int, replies: Sequence[int], entries: int) -> str:
    """What deleting a message took with it: the replies to it and what was learned only from them."""
    said = f"Deleted message #{message_id}"
    if replies:
        ids = " and ".join(f"#{i}" for i in replies)
        said += f", the {'reply' if len(replies) == 1 else 'replies'} to it ({ids})"
    if entries:
        said += f" and {counted(entries, 'entry')} learned only from {'them' if replies else 'it'}"
    return said + "."


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
    """The background Writer's step for the latest message: 'learning…' until it has finished; a message withheld
    from memory (it holds a credential) is never learned, and says so rather than 'waiting' for good."""
    if message is None:
        return ""
    if message.withheld and step is None:  # its words are not repeated here: they hold the credential
        return (f'<div class="da-writer-panel"><b>Writer</b> <span class="da-badge">not learned</span> '
                f'message #{message.id}: {escape(message.withheld)}</div>')
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


def delete_button(kind: str, ident: int, role: str = "") -> str:
    """A trash button beside an entry or a message; the panel's script asks for confirmation (naming the reply a
    person's message takes with it), then deletes."""
    what = "entry" if kind == "memory" else "message"
    return (f'<button class="da-del" data-kind="{kind}" data-id="{int(ident)}" data-role="{escape(role)}" '
            f'title="Delete {what} #{int(ident)}" aria-label="Delete {what} #{int(ident)}">✕</button>')


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
        f'<li class="da-msg-{escape(m.role)}">{delete_button("message", m.id, m.role)}<span class="da-id">#{m.id}</span>'
        f'<small>{escape(m.created_at.replace("T", " "))}</small> <b>{escape(_speaker(m))}</b>: {escape(m.text)}'
        + (f' <span class="da-withheld" title="{escape(m.withheld)}">not remembered</span>' if m.withheld else "")
        + "</li>"
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
        + (f'<div class="da-src">model: {escape(op.reason)}</div>' if reads_as_sentence(op.reason) else "")
        + f'<div class="da-src"><span class="da-badge da-warn">refused</span> {escape(op.verdict)}</div></li>'
        for op in rejected
    )
    return f'<ul class="da-list">{items}</ul>'


def dream_html(report: DreamReport, *, undone_at: str | None = None) -> str:
    """New entries in green, superseded or forgotten ones struck through in red, refused proposals with reasons;
    an undone Dream greyed, its state named first."""
    heading = "Dream" if report.dream_id is None else f"Dream #{report.dream_id}"
    undone = report.status == "undone"
    parts = [
        f'<div class="dream-report {"da-undone" if undone else "da-applied"}" data-state="{escape(report.status)}">',
        f'<p class="da-dream-state">{escape(dream_state(report, undone_at))}</p><div class="da-dream-body">',
        f"<p><b>{escape(heading)}</b> · {escape(report.started_at.replace('T', ' '))} · "
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
            parts.extend(_dream_entry_line(view, op, undone) for view in (op.after or op.before))
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
    parts.append("</div></div>")
    return "".join(parts)


def dream_state(report: DreamReport, undone_at: str | None = None) -> str:
    """The diff's state in words: whether these changes are in memory now."""
    if report.status != "undone":
        return "Applied: these changes are in your memory now (Undo last Dream takes them back)."
    when = f" at {undone_at.replace('T', ' ')}" if undone_at else ""
    return f"Undone{when}: none of these changes is in your memory now; it is as it was before this Dream."


def reads_as_sentence(text: str | None) -> bool:
    """Whether the model's reason can be shown as it is: a capital (or ¿¡) first, an end mark last, quotes that
    close and a few words; a cut-off or garbled reason is left out, the validator's verdict says enough."""
    text = (text or "").strip()
    body = text.rstrip("\"'”’)»")
    if len(text.split()) < 2 or not body or body[-1] not in ".!?…":
        return False
    if not (text[0].isupper() or text[0] in "¿¡\"“«"):
        return False
    straight = text.count('"') % 2 == 0 and text.count("“") == text.count("”")
    # An apostrophe inside a word (don't, user's) is not a quote; one beside a space or the ends may be.
    singles = sum(1 for i, c in enumerate(text) if c in "'‘’" and not (0 < i < len(text) - 1
                  and text[i - 1].isalpha() and text[i + 1].isalpha()))
    return straight and singles % 2 == 0


def _dream_op_heading(op: OpReport) -> str:
    ids = ", ".join(str(i) for i in op.target_ids)
    why = f" — <i>{escape(op.reason)}</i>" if reads_as_sentence(op.reason) else ""
    return f"<b>{escape(op.op)}</b> [{escape(ids)}]{why}"


def _dream_entry_line(view: EntryView, op: OpReport, undone: bool = False) -> str:
    gone = view.status in ("superseded", "forgotten")
    style = _DREAM_GONE if gone else _DREAM_NEW
    label = view.status if gone else ("new" if view.id == op.new_memory_id else _TIER.get(view.tier, view.tier))
    if undone:  # neither added nor struck any more: what the Dream did, and that the undo took it back
        style = _DREAM_UNDONE
        label = "was added, now removed" if view.id == op.new_memory_id else f"was {label}, now as before"
    return f'<li><span style="{style}">[{view.id}] {escape(view.text)}</span> <small>{escape(label)}</small></li>'


def notice_html(text: str, *, ok: bool = True) -> str:
    badge = "da-new" if ok else "da-warn"
    return f'<span class="da-notice"><span class="da-badge {badge}">{"✓" if ok else "⚠️"}</span> {escape(text)}</span>'


def _speaker(message: Message) -> str:
    if message.role == "assistant" and message.speaker in MODE_LABELS:
        return f"assistant ({MODE_LABELS[message.speaker]})"
    return message.role


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
