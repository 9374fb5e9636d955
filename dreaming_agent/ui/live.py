"""What a tab's chat shows between a send and the stored answer: messages waiting their turn, the reply streaming."""
from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from typing import Callable, Iterator, TypeVar

from ..pipeline.agent import OnText
from ..store import Message
from . import render
from .compare import ComparedTurn

T = TypeVar("T")


@dataclass(eq=False)
class PendingTurn:
    text: str
    modes: tuple[str, ...]
    replies: dict[str, str] = field(default_factory=dict)  # what has streamed so far, by mode
    stored_up_to: int | None = None  # the newest message id before this turn began; None while it waits
    changes: queue.Queue = field(default_factory=queue.Queue)  # `replies` after each piece, None once it is over


class PanelClock:
    """The order of one tab's memory-panel updates: an update read before one already sent is stale, not sent.

    The Writer's timer reads the store while a chat may be storing its reply; had the timer's read, begun first, landed
    after the chat's own update, the History would lack the reply until the next tick."""

    def __init__(self):
        self._lock = threading.Lock()
        self._read = 0  # tickets handed out
        self._sent = 0  # the newest ticket sent

    def read(self) -> int:
        """A ticket for a read of the store about to begin (or just done: then no later read is older)."""
        with self._lock:
            self._read += 1
            return self._read

    def send(self, ticket: int) -> bool:
        """Whether the update read under `ticket` may be sent: no update read after it was sent before it."""
        with self._lock:
            if ticket < self._sent:
                return False
            self._sent = ticket
            return True


class LiveChat:
    """One tab's turns in the order sent: a message sent while another is answered waits for it, never dropped."""

    def __init__(self):
        self._ready = threading.Condition()
        self._turns: list[PendingTurn] = []
        self.panels = PanelClock()  # this tab's memory-panel updates, in the order read
        self.compared: list[ComparedTurn] = []  # this tab's finished Compare turns, for the two columns

    def add(self, text: str, modes: tuple[str, ...]) -> PendingTurn:
        turn = PendingTurn(text, modes)
        with self._ready:
            self._turns.append(turn)
        return turn

    def run(self, turn: PendingTurn, history: Callable[[], list[Message]], answer: Callable[[OnText], T]) -> T:
        """Wait for the turns sent before `turn`, then `answer(on_text)`, streaming into it; always ends the turn."""
        try:
            with self._ready:
                self._ready.wait_for(lambda: self._turns[0] is turn)
            stored = history()
            turn.stored_up_to = stored[-1].id if stored else 0
            return answer(lambda mode, piece: self._stream(turn, mode, piece))
        finally:
            with self._ready:
                self._turns.remove(turn)
                self._ready.notify_all()
            turn.changes.put(None)

    def changes(self, turn: PendingTurn) -> Iterator[dict[str, str]]:
        """`turn`'s replies as they stood after each piece streamed into it (none missed), until it is over."""
        while (replies := turn.changes.get()) is not None:
            yield replies

    def chat(self, history: list[Message], notice: str | None = None, *, turn: PendingTurn | None = None,
             replies: dict[str, str] | None = None) -> list[dict[str, str]]:
        """The stored conversation, then every turn still under way (`turn` with `replies` when given): a turn's own
        stored messages are shown once."""
        with self._ready:
            turns = list(self._turns)
        if turn is not None and turn not in turns:  # over already: its pieces are still being shown in order
            turns.insert(0, turn)
        started = turns[0].stored_up_to if turns else None
        stored = [m for m in history if started is None or m.id <= started]
        bubbles = render.chat_messages(stored, notice)
        for pending in turns:
            shown = replies if pending is turn and replies is not None else dict(pending.replies)
            bubbles += render.pending_turn(pending.text, shown)
        return bubbles

    def compared_turns(self, history: list[Message], turn: PendingTurn | None = None,
                       replies: dict[str, str] | None = None) -> list[ComparedTurn]:
        """Finished Compare turns whose message is still stored, then `turn` as far as it has streamed."""
        kept = {m.id for m in history}
        turns = [t for t in self.compared if t.message_id in kept]
        if turn is not None:
            turns.append(ComparedTurn(turn.text, replies=dict(replies or {})))
        return turns

    def _stream(self, turn: PendingTurn, mode: str, piece: str | None) -> None:
        turn.replies[mode] = "" if piece is None else turn.replies.get(mode, "") + piece  # None: it starts over
        turn.changes.put(dict(turn.replies))
