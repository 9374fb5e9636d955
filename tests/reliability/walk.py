"""A seeded random walk over everything a person and the Dream can do, with a marker model of what was deleted.

Every message and every typed fact carries a unique marker. The walk remembers which markers the person deleted
(a message, a memory with the entries it replaced, the old text of an edit) and, after every step, looks for them
on every surface a person or the model can see.
"""
from __future__ import annotations

import json
import random
from collections import Counter, deque
from dataclasses import dataclass, field

from dreaming_agent.context.window import current_window
from dreaming_agent.pipeline.agent import Agent, TurnResult
from dreaming_agent.ui import handlers, render

from .conftest import Markers, found

STATEMENTS = ("I like {} lemons.", "I visit {} museum.", "I own {} boats.", "I am allergic to {} and it matters.")
FACTS = ("The user grows {} tomatoes", "The user is allergic to {}", "The user visits {} museum")
WEIGHTS = {"message": 24, "fact": 10, "edit": 10, "delete_message": 12, "delete_memory": 10, "dream": 10,
           "undo": 8, "query": 16}


@dataclass
class Walk:
    agent: Agent
    seed: int
    rng: random.Random = field(init=False)
    markers: Markers = field(init=False)
    message_marker: dict[int, str] = field(default_factory=dict)  # live user message id -> its marker
    owner: dict[str, int] = field(default_factory=dict)  # typed marker (fact or edit) -> memory that holds it
    superseded_by: dict[int, int] = field(default_factory=dict)  # from the Dream's reports, undone by undo
    dreams: dict[int, list[int]] = field(default_factory=dict)  # dream id -> entries it created
    deleted: set[str] = field(default_factory=set)
    deleted_said: set[str] = field(default_factory=set)  # markers of deleted messages (a subset of `deleted`)
    named_by_dream: set[int] = field(default_factory=set)  # ids the last Dream's proposals named
    steps: Counter = field(default_factory=Counter)
    figures: Counter = field(default_factory=Counter)
    log: list[str] = field(default_factory=list)

    def __post_init__(self):
        self.rng = random.Random(self.seed)
        self.markers = Markers(self.seed)

    # -- steps ----------------------------------------------------------------------------------------------
    def step(self) -> None:
        kind = self.rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
        self.steps[kind] += 1
        self.log.append(kind)
        before = self._residue()  # a report of this step may show entries as they were just before it
        surfaces = getattr(self, "_" + kind)() or []
        self.agent.learning.wait(timeout=60)
        self.check(surfaces, before)

    def _message(self):
        marker = self.markers.new()
        result = self.agent.turn(self.rng.choice(STATEMENTS).format(marker))
        self.message_marker[result.message_id] = marker
        return turn_surfaces(result)

    def _fact(self):
        marker = self.markers.new()
        self.owner[marker] = self.agent.memory.add(self.rng.choice(FACTS).format(marker))

    def _edit(self):
        memory = self._pick_active()
        if memory is None:
            return
        marker = self.markers.new()
        self.agent.memory.edit(memory.id, self.rng.choice(FACTS).format(marker))
        # The old text is gone, except what older entries (hidden, restorable by undo) still hold.
        self.deleted |= {m for m in found(memory.text) if self.owner.get(m) == memory.id}
        self.owner[marker] = memory.id

    def _delete_message(self):
        history = self.agent.memory.history()
        if not history:
            return
        message = self.rng.choice(history)
        self.agent.memory.delete_message(message.id)
        marker = self.message_marker.pop(message.id, None)
        if marker:
            self.deleted_said.add(marker)
            self.deleted.add(marker)

    def _delete_memory(self):
        memory = self._pick_active(prefer=self.named_by_dream)  # what a Dream just named: its record must forget it
        if memory is None:
            return
        replaced = self._present(self._replaced_by(memory.id))
        removed = set(self.agent.memory.delete(memory.id))
        assert replaced <= removed, f"delete_memory({memory.id}) left entries it replaced: {replaced - removed}"
        self.deleted |= {m for m, holder in self.owner.items() if holder in replaced | removed}

    def _dream(self):
        visible = self.agent.memory.facts() + self.agent.memory.mid_term()
        plan = self._plan(visible)
        delivered = []

        def propose(messages, schema):
            ops, plan[:] = list(plan), []
            delivered.extend(ops)
            return json.dumps({"operations": ops})

        self.agent.llm.queues["DreamProposal"] = deque([propose])
        report = self.agent.memory.dream()
        self.agent.llm.queues["DreamProposal"].clear()
        created = []
        for op in report.accepted:
            if op.new_memory_id is not None:
                created.append(op.new_memory_id)
                self.superseded_by.update({t: op.new_memory_id for t in op.target_ids})
        self.dreams[report.dream_id] = created
        self.named_by_dream = {i for op in delivered for i in op["target_ids"]}
        self.figures["proposed"] += len(delivered)
        self.figures["accepted"] += len(report.accepted)
        return [render.dream_html(report), render.refused_html(report.rejected)]

    def _undo(self):
        report = self.agent.memory.undo_last_dream()
        if report is None:
            return
        self.figures["undone"] += 1
        created = set(self.dreams.get(report.dream_id, []))
        removed = created - self._present(created)  # undo keeps a created entry the person edited since
        lost_edits = {m for m, holder in self.owner.items() if holder in removed and m not in self.deleted}
        self.figures["edits_dropped_by_undo"] += len(lost_edits)
        self.deleted |= lost_edits  # must stay empty: an edit makes the entry the person's own
        self.superseded_by = {k: v for k, v in self.superseded_by.items() if v not in created}
        page = render.dream_html(report)
        for marker in lost_edits:  # the undo report lists what it removed; nothing else may show them
            page = page.replace(marker, "")
        return [page]

    def _query(self):
        marker = self.markers.new()
        topic = self.rng.choice(("lemons", "museum", "boats", "allergic", "tomatoes"))
        result = self.agent.turn(f"What about {topic} {marker}?", self.rng.choice(("lightmem", "rag")))
        self.message_marker[result.message_id] = marker
        return turn_surfaces(result)

    # -- helpers --------------------------------------------------------------------------------------------
    def _pick_active(self, prefer: set[int] = frozenset()):
        visible = self.agent.memory.facts() + self.agent.memory.mid_term()
        preferred = [m for m in visible if m.id in prefer]
        if preferred and self.rng.random() < 0.5:
            return self.rng.choice(preferred)
        return self.rng.choice(visible) if visible else None

    def _plan(self, visible) -> list[dict]:
        """A few MERGE/UPDATE/PROMOTE/FORGET over random existing ids, now and then a stale one."""
        if not visible:
            return []
        texts = {m.id: m.text for m in visible}
        ops = []
        for _ in range(self.rng.randint(1, 4)):
            kind = self.rng.choice(("MERGE", "UPDATE", "PROMOTE", "FORGET"))
            size = self.rng.randint(2, 3) if kind == "MERGE" else 1
            targets = self.rng.sample(sorted(texts), min(size, len(texts)))
            if self.rng.random() < 0.1:
                targets.append(self.rng.randint(1, max(texts) + 3))
            text = "; ".join(texts[t] for t in targets if t in texts) if kind in ("MERGE", "UPDATE") else None
            if text and self.rng.random() < 0.3:  # an invented word: refused, but its text stays on record
                text += f" and {self.markers.new()}"
            ops.append({"op": kind, "target_ids": targets, "text": text, "reason": f"walk {self.seed}"})
        return ops

    def _replaced_by(self, memory_id: int) -> set[int]:
        """The entry and, transitively, every entry the Dream replaced with it."""
        chain, frontier = {memory_id}, [memory_id]
        while frontier:
            newer = frontier.pop()
            for older, by in self.superseded_by.items():
                if by == newer and older not in chain:
                    chain.add(older)
                    frontier.append(older)
        return chain

    def _present(self, ids: set[int]) -> set[int]:
        return {m.id for m in self.agent.store.memories(status=None, ids=ids)}

    # -- the guarantee ----------------------------------------------------------------------------------------
    def check(self, extra: list[str], residue_before: list[str] = ()) -> None:
        agent, store = self.agent, self.agent.store
        assert agent.index.ids("memories") == {m.id for m in store.memories()}, "index memories != SQLite"
        assert agent.index.ids("sentences") == set(store.sentence_vectors()), "index sentences != SQLite"
        residue = sorted(set(self._residue()) | set(residue_before), key=len, reverse=True)
        probe = self._probe()
        panels = handlers.panels(agent)
        view = current_window(store, agent.session)
        surfaces = {
            "facts": [m.text for m in agent.memory.facts()],
            "mid_term": [m.text for m in agent.memory.mid_term()],
            "history": [m.text for m in agent.memory.history()],
            "window": [view.summary] + [m.text for m in view.turns],
            "panels": [panels.facts, panels.mid_term, panels.window, panels.history, panels.writer, panels.kept,
                       *handlers.traces(agent), json.dumps(render.chat_messages(agent.memory.history()))],
            "probe": probe,
            "step": extra,
        }
        for name, texts in surfaces.items():
            for text in texts:
                for kept in residue:
                    text = text.replace(kept, "")
                leaked = found(text) & self.deleted
                if leaked:
                    where = text.find(next(iter(leaked)))
                    raise AssertionError(
                        f"{name} shows deleted {sorted(leaked)} after step {sum(self.steps.values())} "
                        f"({self.log[-1]}, seed {self.seed}): …{text[max(0, where - 300):where + 100]}…")
        self._check_nothing_else_lost()

    def _residue(self) -> list[str]:
        """Texts of active Dream entries that keep a deleted message's words because they rest on something else too:
        another source message that survives, or a fact the person typed.

        That is the documented contract (a delete removes what was derived *only* from the deleted thing)."""
        kept = []
        typed = {m for m in self.owner if m not in self.deleted}
        for memory in self.agent.store.memories():
            markers = found(memory.text)
            rests_elsewhere = set(memory.source_message_ids) & set(self.message_marker) or markers & typed
            if markers & self.deleted_said and rests_elsewhere:
                kept.append(memory.text)
        self.figures["max_residue_entries"] = max(self.figures["max_residue_entries"], len(kept))
        return kept

    def _probe(self) -> list[str]:
        """Ask for deleted markers by name (read-only): nothing deleted may come back, except the question."""
        wanted = self.rng.sample(sorted(self.deleted), min(3, len(self.deleted)))
        live = self.rng.sample(sorted(self.message_marker.values()), min(2, len(self.message_marker)))
        question = "Tell me about " + " ".join(wanted + live) + "?"
        result = self.agent.ask(question, self.rng.choice(("lightmem", "rag")))
        # The question itself may name anything: the prompt and the Controller's queries (in the panel) repeat it.
        return [surface.replace(question, "") for surface in turn_surfaces(result)]

    def _check_nothing_else_lost(self) -> None:
        """The converse: what the person did not delete is still there (messages in history, typed facts in memory)."""
        said = {m.id: m.text for m in self.agent.memory.history()}
        for message_id, marker in self.message_marker.items():
            assert marker in said.get(message_id, ""), f"message {message_id} ({marker}) was lost"
        everything = " ".join(m.text for m in self.agent.store.memories(status=None))
        lost = {m for m in self.owner if m not in self.deleted and m not in everything}
        assert not lost, (f"typed facts {sorted(lost)} were lost though never deleted, at step "
                          f"{sum(self.steps.values())} ({self.log[-1]}, seed {self.seed}); "
                          f"held by {[self.owner[m] for m in lost]}")


def turn_surfaces(result: TurnResult) -> list[str]:
    """What a turn shows: the Retriever's candidates, the evidence, the rendered turn panel, then the prompt."""
    retriever = result.trace.step("Retriever")
    candidates = [c["text"] for c in (retriever.parsed if retriever else [])]
    evidence = [c.text for c in result.evidence] + [s.text for c in result.evidence for s in c.sources]
    panel = render.turn_panel({result.mode: result}, show_answers=True)
    return [*candidates, *evidence, panel, result.prompt_text]
