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
from ..text import mentions, normalize, words

CONVERSATIONS = Path(__file__).resolve().parent / "conversations"
# Words that show an entry copied the person's own first-person sentence instead of stating a fact about them.
_FIRST_PERSON = lang.words("FIRST_PERSON") | lang.words("FIRST_PERSON_VERBS")
# A reply that refuses, or says it knows nothing, where the person only told it something.
_UNNATURAL = lang.phrases("UNNATURAL")


class ExpectedFact(BaseModel):
    fact: str  # how a person would write it
    words: list[str] = Field(min_length=1)  # each must be in the entry; "a|b" accepts either
    attribute: str | None = None  # the typed attribute it should have ("a|b" accepts either); None: not labelled
    subject: str | None = None  # the subject key it should have ("user", "person:sister:ruth"); None: not labelled


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
    secrets: list[str] = []  # what no entry may hold (a PIN said in a message)
    current: list[ExpectedFact] = []  # what the profile should hold as current at the end (attribute labelled)


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
    attribute: str | None = None  # the entry's typed attribute and subject, as stored
    subject: str | None = None
    attribute_right: bool | None = None  # against the label of the fact it states; None: no label to judge by
    subject_right: bool | None = None


def judge(entry: str, message_index: int, told: ToldMessage, others: list[str] = (), *, attribute: str | None = None,
          subject: str | None = None) -> Judged:
    """True when it states one of its message's facts, about the right person; clean when it reads third-person;
    with a typed entry and a labelled fact, whether its attribute and subject are the labelled ones."""
    folded = normalize(entry)
    wrong = any(re.search(pattern, folded) for pattern in told.wrong)
    wrong = wrong or any(folded.startswith(f"the user {normalize(name)}") for name in others)
    expected = next((f for f in told.facts if matches(entry, f)), None)
    judged = Judged(entry, message_index, expected is not None and not wrong, third_person(entry),
                    expected.fact if expected else None, attribute, subject)
    if expected is not None and expected.attribute and attribute:
        judged.attribute_right = attribute in expected.attribute.split("|")
    if expected is not None and expected.subject and subject:
        judged.subject_right = subject in expected.subject.split("|")
    return judged


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
    def facts_found(self) -> int:
        return len({(e.message, e.fact) for e in self.entries if e.true})

    instructions: str = ""  # the acknowledgement prompt, which a reply must not read back

    @property
    def natural_replies(self) -> int:
        return sum(natural(reply, message, self.instructions) for message, reply in self.replies)

    leaked: list[str] = field(default_factory=list)  # secrets found in an entry
    current: str = ""  # "k/n" of the labelled current values the profile holds at the end

    def typed_figures(self) -> dict:
        """Typed facts: how many entries are typed, and of those judged, how many have the labelled attribute."""
        judged = [e for e in self.entries if e.attribute_right is not None]
        subjects = [e for e in self.entries if e.subject_right is not None]
        return {"typed": sum(e.attribute is not None for e in self.entries),
                "attributes_right": f"{sum(bool(e.attribute_right) for e in judged)}/{len(judged)}",
                "subjects_right": f"{sum(bool(e.subject_right) for e in subjects)}/{len(subjects)}",
                "secrets_leaked": len(self.leaked), "current_right": self.current}

    def figures(self) -> dict:
        return {
            "conversation": self.conversation, "model": self.model, "entries": len(self.entries),
            "true": self.true, "true_third_person": self.clean_true, "false": self.false, **self.typed_figures(),
            "facts_found": f"{self.facts_found}/{self.expected}",
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
    # every entry formed, a value a newer one replaced included (it was a true fact when said)
    for memory in (m for m in agent.store.memories(status=None) if m.status != "forgotten"):
        source = next((message_index[m] for m in memory.source_message_ids if m in message_index), None)
        if source is not None:
            result.entries.append(judge(memory.text, source, conversation.messages[source], conversation.others,
                                        attribute=memory.attribute, subject=memory.subject))
        result.leaked += [s for s in conversation.secrets if s in memory.text or s in (memory.value or "")]
    if conversation.current:
        profile = agent.store.facts.profile()
        held = sum(any(row.attribute in (f.attribute or "").split("|") and matches(row.value, f) for row in profile)
                   for f in conversation.current)
        result.current = f"{held}/{len(conversation.current)}"
    if dream:
        result.dream = dream_and_undo(agent, now=conversation.messages[-1].date + "T23:00:00")
    return result


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
        lines.append(f"  {mark} m{entry.message + 1}: {entry.text}{style}")
    for name in ("dream_accepted_ops", "dream_refused_ops"):
        for op in result.dream.get(name.removeprefix("dream_"), []):
            lines.append(f"  {name.split('_')[1]}: {op}")
    for message, reply in result.replies:
        ok = natural(reply, message, result.instructions)
        lines.append(f"  {'ok ' if ok else 'BAD'} {message[:50]!r} -> {reply!r}")
    return "\n".join(lines)
