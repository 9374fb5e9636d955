"""What each button does: plain functions of one session's agent that return what the page shows."""
from __future__ import annotations

import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import asdict
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterator, NamedTuple, TypeVar

from ..context.window import current_window
from ..dream.diff import report_from_store
from ..errors import DreamingAgentError, InvalidInput
from ..pipeline.agent import Agent, TurnResult
from ..store import Message
from . import compare, profile, render
from .live import LiveChat

CHAT_MODES = ("lightmem", "rag", "compare")
T = TypeVar("T")


class Panels(NamedTuple):
    """Everything that changes when memory changes; `learning` says whether the Writer is still at work."""

    facts: str
    mid_term: str
    window: str
    history: str
    writer: str
    learning: bool
    kept: str  # how much this tab holds, for the page's warning before a reload or close


class ChatView(NamedTuple):
    """What the page shows of a turn; `turn` and `panels` are None while the reply streams (they stay as they are)."""

    chat: list[dict]
    unsent: str  # the text to offer again: the message on error so nothing typed is lost, else ""
    turn: str | None
    panels: Panels | None
    compare: str | None = None  # the two Compare columns; None when the turn is not a Compare one


class DreamView(NamedTuple):
    diff: str  # the diff, or the Dream's progress while it runs (then `panels` is None)
    refused: str
    panels: Panels | None


class Traces(NamedTuple):
    """Panels that quote earlier text: re-rendered after a change or delete so that none of it lingers."""

    turn: str
    diff: str
    refused: str


class ActionView(NamedTuple):
    notice: str
    chat: list[dict]
    panels: Panels
    traces: Traces | None = None  # None: the action removed nothing, the traces stay as they are


_NOTHING_NOTED = "Nothing noted yet: tell me something about you."
# Said things, nothing noted: small talk, questions, or a language no module knows, whose facts nothing could check.
_NOTHING_DRAWN = ("Nothing noted yet. Facts are drawn from what you say in English or Spanish; everything you said, "
                  "in any language, stays in History and is searched as you said it.")


def panels(agent: Agent) -> Panels:
    """Memory as it stands, with what the background Writer is still working on marked 'learning…'."""
    running = agent.learning.running
    messages = agent.memory.history()
    by_id = {m.id: m for m in messages}
    pending = set(agent.store.writer_jobs("pending")) if running else set()
    latest = next((m for m in reversed(messages) if m.role == "user"), None)
    outcome = agent.learning.outcomes.get(latest.id) if latest else None
    facts, mid_term = agent.memory.facts(), agent.memory.mid_term()
    learning = {m.id for m in facts + mid_term if pending & set(m.source_message_ids)}
    new = {memory_id for memory_id, _ in outcome.stored} if outcome else set()
    replaced = agent.memory.replaced(facts + mid_term)
    events = agent.memory.timeline()

    mid_term_html = render.memory_list(mid_term, by_id, learning=learning, new=new, replaced=replaced,
                                       empty=_NOTHING_NOTED if latest is None else _NOTHING_DRAWN)
    if latest and latest.id in pending and not any(latest.id in m.source_message_ids for m in mid_term):
        mid_term_html = render.learning_placeholder(latest) + mid_term_html
    view = current_window(agent.store, agent.session)
    step = asdict(outcome.step) if outcome and outcome.step else None
    return Panels(
        facts=profile.profile_html(agent.memory.profile(), events) + profile.timeline_html(events)
        + render.memory_list(facts, by_id, learning=learning, new=new, replaced=replaced,
                             empty="Nothing long-term yet: press 🌙 Dream to consolidate, or add an entry."),
        mid_term=mid_term_html,
        window=render.window_html(view.summary, view.turns),
        history=render.history_html(messages),
        writer=render.writer_panel(latest, step, running=bool(latest and latest.id in pending)),
        learning=running,
        kept=render.memory_state(len(messages) + len(facts) + len(mid_term)),
    )


def traces(agent: Agent, turn: str | None = None) -> Traces:
    """The last Dream as the store now records it (deletes redact it), and the turn trace cleared or replaced."""
    turn = render.cleared_trace() if turn is None else turn
    last = agent.store.dreams.latest()
    if last is None:
        return Traces(turn, "", "")
    report = report_from_store(agent.store, last)
    return Traces(turn, render.dream_html(report), render.refused_html(report.rejected))


def chat(agent: Agent, live: LiveChat, text: str, mode: str) -> Iterator[ChatView]:
    """The message at once, the reply as it streams, then the stored turn with its trace and memory.

    Answered in one mode, or in both for Compare; a failure becomes a clear message in the chat."""
    try:
        if mode not in CHAT_MODES:
            raise InvalidInput(f"Unknown mode {mode!r}; choose one of {', '.join(CHAT_MODES)}.")
        if not isinstance(text, str) or not text.strip():
            agent.turn(text)  # refused with the agent's own words, before anything is stored or shown
        modes = ("lightmem", "rag") if mode == "compare" else (mode,)

        def answer(on_text) -> dict[str, TurnResult]:
            if mode == "compare":
                return agent.compare(text, on_text=on_text)
            return {mode: agent.turn(text, mode, on_text=on_text)}

        turn = live.add(text, modes)
        # Started before the first yield: a page that goes away then must not leave the turn queued for ever.
        answered = _on_thread(lambda: live.run(turn, agent.memory.history, answer))

        def streaming(replies: dict[str, str]) -> ChatView:
            history = agent.memory.history()
            columns = compare.columns_html(live.compared_turns(history, turn, replies)) if mode == "compare" else None
            return ChatView(live.chat(history, turn=turn, replies=replies), "", None, None, columns)

        yield streaming({})
        for replies in live.changes(turn):
            yield streaming(replies)
        results = answered.result()
    except DreamingAgentError as e:
        yield ChatView(live.chat(agent.memory.history(), str(e)), text, "", panels(agent))
        return
    failed = next((r for r in results.values() if r.error), None)
    if mode == "compare" and not failed:
        live.compared.append(compare.from_results(text, results))
    history = agent.memory.history()
    yield ChatView(
        live.chat(history, failed.answer if failed else None),
        text if failed else "",
        render.turn_panel(results, show_answers=False),
        panels(agent),
        compare.columns_html(live.compared_turns(history)) if mode == "compare" else None,
    )


def wait_for_learning(agent: Agent, timeout_s: float) -> Panels:
    """For API callers: block until the Writer is done (or the timeout passes), then show memory."""
    agent.learning.wait(timeout=max(0.0, min(float(timeout_s or 0), 600.0)))
    return panels(agent)


def dream(agent: Agent) -> Iterator[DreamView]:
    """Consolidate, saying how many groups of entries the model has reviewed of all it will, then the diff."""
    progress: queue.Queue = queue.Queue()
    yield DreamView(render.dream_progress(None, 0), "", None)
    dreamt = _on_thread(lambda: agent.memory.dream(
        on_progress=lambda done, total: progress.put((done, total, time.perf_counter()))))
    dreamt.add_done_callback(lambda _: progress.put(None))
    first = None
    while (step := progress.get()) is not None:
        done, total, at = step
        first = first or at  # the model's first call starts here: the pace is measured from it
        yield DreamView(render.dream_progress(done, total, at - first), "", None)
    try:
        report = dreamt.result()
    except DreamingAgentError as e:
        yield DreamView(render.notice_html(str(e), ok=False), "", panels(agent))
        return
    yield DreamView(render.dream_html(report), render.refused_html(report.rejected), panels(agent))


def undo_last_dream(agent: Agent, now: str | None = None) -> DreamView:
    """Undo the newest Dream; its diff stays on the tab, greyed and marked undone at `now` (default: this moment)."""
    report = agent.memory.undo_last_dream()
    if report is None:
        return DreamView(render.notice_html("Nothing to undo: no Dream has changed anything.", ok=False), "",
                         panels(agent))
    undone_at = now or datetime.now().isoformat(timespec="seconds")
    return DreamView(render.dream_html(report, undone_at=undone_at), render.refused_html(report.rejected),
                     panels(agent))


def add_memory(agent: Agent, text: str) -> ActionView:
    return _act(agent, lambda: f"Added entry #{agent.memory.add(_text(text))}.", forgets=False)


def edit_memory(agent: Agent, memory_id: float | None, text: str) -> ActionView:
    def edit() -> str:
        ident = _ident(memory_id, "entry")
        agent.memory.edit(ident, _text(text))
        return f"Entry #{ident} now reads as you wrote it."
    return _act(agent, edit)


def delete_memory(agent: Agent, memory_id: float | None) -> ActionView:
    def delete() -> str:
        removed = agent.memory.delete(_ident(memory_id, "entry"))
        return "Deleted " + ", ".join(f"#{i}" for i in removed) + "."
    return _act(agent, delete)


def delete_message(agent: Agent, message_id: float | None) -> ActionView:
    """A message goes with the replies to it (both of Compare's): a reply left alone would answer nothing."""
    def delete() -> str:
        ident = _ident(message_id, "message")
        replies = replies_to(agent.memory.history(), ident)
        memories = agent.memory.delete_message(ident).memories
        for reply in replies:
            memories += agent.memory.delete_message(reply).memories
        return render.deleted_message_notice(ident, replies, len(memories))
    return _act(agent, delete)


def replies_to(messages: list[Message], message_id: int) -> list[int]:
    """The assistant's replies to a person's message: those after it, up to the next message of theirs."""
    after = False
    replies = []
    for message in messages:
        if message.id == message_id:
            if message.role != "user":
                return []
            after = True
        elif after:
            if message.role == "user":
                break
            replies.append(message.id)
    return replies


def delete_conversation(agent: Agent, confirmed: bool) -> ActionView:
    """The chat's trash icon: after the person confirms, every message goes, and all learned only from them."""
    if not confirmed:
        return ActionView(render.notice_html("Nothing was deleted.", ok=False), render.chat_messages(agent.memory.history()),
                          panels(agent))

    def delete() -> str:
        count = agent.memory.delete_conversation()
        return f"Deleted the conversation ({render.counted(count, 'message')}) and what was learned only from it."
    return _act(agent, delete)


def delete_clicked(agent: Agent, kind: str | None, ident: object) -> ActionView:
    """A trash button beside an entry or a message."""
    if kind == "message":
        return delete_message(agent, ident)
    return delete_memory(agent, ident)


def export_memory(agent: Agent, folder: Path) -> tuple[str | None, str]:
    """'Download my memory': the file to hand to the browser, and a notice."""
    try:
        memory = agent.export_memory()
    except DreamingAgentError as e:
        return None, render.notice_html(str(e), ok=False)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"dreaming-memory-{memory.exported_at.replace(':', '-')}.json"
    path.write_text(memory.model_dump_json(indent=1), encoding="utf-8")
    return str(path), render.notice_html(
        f"Saved {render.counted(len(memory.messages), 'message')}, {render.counted(len(memory.memories), 'entry')} "
        f"and {render.counted(len(memory.dreams), 'Dream')}; load the file in a new tab with 📂 Load memory.")


def load_memory(agent: Agent, raw: bytes | None) -> ActionView:
    """'Load memory' into this fresh tab: the conversation, its entries and the last Dream come back."""
    if not raw:
        return _act(agent, lambda: _refuse("Choose the .json file that 💾 Download my memory saved."), forgets=False)

    def load() -> str:
        memory = agent.load_memory(raw)
        return (f"Loaded {render.counted(len(memory.messages), 'message')}, "
                f"{render.counted(len(memory.memories), 'entry')} and {render.counted(len(memory.dreams), 'Dream')} "
                f"saved on {memory.exported_at.replace('T', ' ')}.")
    view = _act(agent, load, forgets=False)
    return view._replace(traces=traces(agent, turn=""))


def _on_thread(work: Callable[[], T]) -> Future[T]:
    """`work()` on a thread of its own, so that the locks it takes are released by the thread that took them
    (Gradio may resume a generator on any of its threads); its result or exception lands in the Future."""
    future: Future[T] = Future()

    def run() -> None:
        try:
            future.set_result(work())
        except BaseException as e:  # handed to the page's generator, which re-raises it there
            future.set_exception(e)

    threading.Thread(target=run, name="turn", daemon=True).start()
    return future


def _act(agent: Agent, action, *, forgets: bool = True) -> ActionView:
    """Run one memory action; a person's mistake (unknown id, empty text) comes back as a notice.

    An action that `forgets` (edit, delete) also re-renders the panels that may quote the old text."""
    try:
        notice = render.notice_html(action())
    except DreamingAgentError as e:
        notice = render.notice_html(str(e), ok=False)
    return ActionView(notice, render.chat_messages(agent.memory.history()), panels(agent), traces(agent) if forgets else None)


def _refuse(message: str) -> str:
    raise InvalidInput(message)


def _ident(value: float | int | str | None, kind: str) -> int:
    """A whole, positive id; '2.5' is refused rather than rounded to a neighbour that would then be deleted."""
    try:
        number = float(str(value).strip().lstrip("#"))
    except (TypeError, ValueError):
        raise InvalidInput(f"Type the number of the {kind} (shown as #id).") from None
    if not number.is_integer() or number < 1:
        raise InvalidInput(f"{value} is not an id: type the whole number of the {kind}, as shown after # (e.g. 2).")
    return int(number)


def _text(text: str | None) -> str:
    if not text or not text.strip():
        raise InvalidInput("Type the text of the entry first.")
    return text
