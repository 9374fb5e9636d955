"""Does memory form? A fixed conversation told turn by turn, every entry judged against the facts each message
holds, then one Dream and its undo: the figures of docs/results/default-model-memory.md."""
from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, Field

from .. import lang
from ..store import attributes
from ..store.kinds import OTHER
from ..text import mentions, normalize, words

CONVERSATIONS = Path(__file__).resolve().parent / "conversations"
# Words that show an entry copied the person's own first-person sentence instead of stating a fact about them.
_FIRST_PERSON = lang.words("FIRST_PERSON") | lang.words("FIRST_PERSON_VERBS")
# A reply that refuses, or says it knows nothing, where the person only told it something.
_UNNATURAL = lang.phrases("UNNATURAL")


class ExpectedFact(BaseModel):
    fact: str  # how a person would write it
    words: list[str] = Field(min_length=1)  # each must be in the entry; "a|b" accepts either
    kind: str = "other"  # the kind of thing an entry stating it says (`store.kinds`): "home", "pet name", …


class ToldMessage(BaseModel):
    date: str
    text: str
    facts: list[ExpectedFact]
    wrong: list[str] = []  # regular expressions (on the normalised entry) that mean the fact went to the wrong person


class Conversation(BaseModel):
    name: str
    about: str
    others: list[str] = []  # names of other people and pets: "The user Carmen …" gives their fact to the person
    messages: list[ToldMessage] = Field(min_length=1)


def load(name: str) -> Conversation:
    """A bundled conversation ('tune' or 'check') or a JSON file of the same shape."""
    path = Path(name) if name.endswith(".json") else CONVERSATIONS / f"{name}.json"
    return Conversation.model_validate_json(path.read_text(encoding="utf-8"))


def matches(entry: str, expected: ExpectedFact) -> bool:
    return all(any(mentions(option, entry) for option in group.split("|")) for group in expected.words)


def third_person(entry: str) -> bool:
    """Reads as a fact about someone: no first-person word, and no sentence glued after 'The user' ('The user I'm…')."""
    tokens = words(entry)
    if any(normalize(t).replace("’", "'") in _FIRST_PERSON for t in tokens):
        return False
    if [normalize(t) for t in tokens[:2]] == ["the", "user"] and len(tokens) > 2:
        return not tokens[2][:1].isupper()
    return True


@dataclass
class Judged:
    text: str
    message: int  # index in the conversation
    true: bool
    clean: bool
    fact: str | None = None  # the expected fact it states
    kind: str = "other"  # the kind memory holds the entry to say (`kind_of`)
    expected_kind: str | None = None  # the labelled kind of the fact it states

    @property
    def kind_right(self) -> bool:
        return self.true and self.kind == self.expected_kind


def judge(entry: str, message_index: int, told: ToldMessage, others: list[str] = (), kind: str | None = None) -> Judged:
    """True when it states one of its message's facts, about the right person; clean when it reads third-person;
    its `kind` (None: "other") right when it is the labelled kind of that fact."""
    folded = normalize(entry)
    wrong = any(re.search(pattern, folded) for pattern in told.wrong)
    wrong = wrong or any(folded.startswith(f"the user {normalize(name)}") for name in others)
    fact = next((f for f in told.facts if matches(entry, f)), None)
    return Judged(entry, message_index, fact is not None and not wrong, third_person(entry),
                  fact.fact if fact else None, kind or OTHER, fact.kind if fact else None)


@dataclass
class FormingResult:
    conversation: str
    model: str
    entries: list[Judged] = field(default_factory=list)
    replies: list[tuple[str, str]] = field(default_factory=list)  # (message, reply)
    expected: int = 0
    writer_s: float = 0.0
    dream: dict = field(default_factory=dict)

    @property
    def true(self) -> int:
        return sum(e.true for e in self.entries)

    @property
    def false(self) -> int:
        return sum(not e.true for e in self.entries)

    @property
    def clean_true(self) -> int:
        return sum(e.true and e.clean for e in self.entries)

    @property
    def kinds_right(self) -> int:
        return sum(e.kind_right for e in self.entries)

    @property
    def typed(self) -> list[Judged]:
        """The entries memory gave a kind of thing (not "other")."""
        return [e for e in self.entries if e.kind != OTHER]

    @property
    def facts_found(self) -> int:
        return len({(e.message, e.fact) for e in self.entries if e.true})

    instructions: str = ""  # the acknowledgement prompt, which a reply must not read back

    @property
    def natural_replies(self) -> int:
        return sum(natural(reply, message, self.instructions) for message, reply in self.replies)

    def figures(self) -> dict:
        return {
            "conversation": self.conversation, "model": self.model, "entries": len(self.entries),
            "true": self.true, "true_third_person": self.clean_true, "false": self.false,
            "facts_found": f"{self.facts_found}/{self.expected}",
            "kinds_right": f"{self.kinds_right}/{self.true}",  # of the true entries, those of the labelled kind
            "typed_true": f"{sum(e.kind_right for e in self.typed)}/{len(self.typed)}",  # typed: true, right kind
            "natural_replies": f"{self.natural_replies}/{len(self.replies)}",
            "writer_s": round(self.writer_s, 1), **{f"dream_{k}": v for k, v in self.dream.items()},
        }


def natural(reply: str, message: str = "", instructions: str = "") -> bool:
    """Not a refusal nor 'I don't know'; it neither reads its instructions back nor repeats the person's sentence
    as its own (six words in a row copied, one of them 'I', 'my'…): saying back what they said is fine."""
    folded = normalize(reply).replace("’", "'")
    if not folded or any(phrase in folded for phrase in _UNNATURAL):
        return False
    own_voice = {run for run in _runs(message) if _FIRST_PERSON.intersection(run)}
    return not (_runs(reply) & (own_voice | _runs(instructions)))


def _runs(text: str, size: int = 6) -> set[tuple[str, ...]]:
    tokens = words(normalize(text).replace("’", "'"))
    return {tuple(tokens[i:i + size]) for i in range(len(tokens) - size + 1)}


def run(agent, conversation: Conversation, *, dream: bool = True) -> FormingResult:
    """Tell `agent` every message as a turn (the reply and the background Writer, as in the app), then Dream and undo."""
    result = FormingResult(conversation.name, agent.llm.name, expected=sum(len(m.facts) for m in conversation.messages),
                           instructions=agent.prompts["acknowledge"].template)
    started = time.perf_counter()
    message_index: dict[int, int] = {}
    for i, told in enumerate(conversation.messages):
        turn = agent.turn(told.text, now=told.date + "T12:00:00")
        message_index[turn.message_id] = i
        result.replies.append((told.text, turn.answer))
    agent.learning.wait()
    result.writer_s = time.perf_counter() - started
    typed = agent.store.kinds.typed()
    for memory in agent.store.memories():
        source = next((message_index[m] for m in memory.source_message_ids if m in message_index), None)
        if source is not None:
            result.entries.append(judge(memory.text, source, conversation.messages[source], conversation.others,
                                        kind_of(memory, typed.get(memory.id))))
    if dream:
        result.dream = dream_and_undo(agent, now=conversation.messages[-1].date + "T23:00:00")
    return result


def kind_of(memory, typed: str | None) -> str | None:
    """The kind of thing memory holds an entry to say, as the profile reads it: its vector's kind, else the kind its
    shape states ("The user has moved from Valencia to Barcelona": home); a pet's name without its pet."""
    stated = attributes.stated(memory, typed)
    return stated[0].attribute.split(":")[0] if stated else None


def dream_and_undo(agent, *, now: str) -> dict:
    """One Dream: what it accepted and refused, and whether undoing it gives back exactly the rows it changed."""
    before = _memory_rows(agent.store)
    started = time.perf_counter()
    report = agent.memory.dream(now=now)
    figures = {
        "s": round(time.perf_counter() - started, 1), "calls": report.llm_calls, "settled": report.settled,
        "accepted": len(report.accepted), "refused": len(report.rejected),
        "failed_calls": sum(1 for o in report.raw_outputs if o.get("fell_back")),
        "accepted_ops": [f"{op.op} {op.target_ids}: {op.text or ''}".strip() for op in report.accepted],
        "refused_ops": [f"{op.op} {op.target_ids}: {op.verdict}" for op in report.rejected],
    }
    if report.accepted:
        agent.memory.undo_last_dream()
        figures["undo_restores"] = _memory_rows(agent.store) == before
    return figures


def _memory_rows(store) -> list[tuple]:
    return [(m.id, m.text, m.tier, m.status, m.superseded_by) for m in store.memories(status=None)]


def report_text(result: FormingResult) -> str:
    """The figures, then every entry with its verdict, then the replies: what the doc quotes."""
    lines = [json.dumps({k: v for k, v in result.figures().items() if not k.endswith("_ops")}, ensure_ascii=False)]
    for entry in result.entries:
        mark = "true " if entry.true else "FALSE"
        style = "" if entry.clean else "  (not third-person)"
        kind = f"  [{entry.kind}{'' if entry.kind_right or not entry.true else ', labelled ' + str(entry.expected_kind)}]"
        lines.append(f"  {mark} m{entry.message + 1}: {entry.text}{style}{kind}")
    for name in ("dream_accepted_ops", "dream_refused_ops"):
        for op in result.dream.get(name.removeprefix("dream_"), []):
            lines.append(f"  {name.split('_')[1]}: {op}")
    for message, reply in result.replies:
        ok = natural(reply, message, result.instructions)
        lines.append(f"  {'ok ' if ok else 'BAD'} {message[:50]!r} -> {reply!r}")
    return "\n".join(lines)
