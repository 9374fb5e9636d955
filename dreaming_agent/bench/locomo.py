"""Loader for LoCoMo (locomo10.json): dated dialogue turns and questions per conversation, read in place."""
from __future__ import annotations

import datetime as dt
import json
import re
from collections import defaultdict
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from dreaming_agent.errors import ConfigError

CATEGORY_NAMES = {1: "multi_hop", 2: "temporal", 3: "open_domain", 4: "single_hop", 5: "adversarial"}
ADVERSARIAL = 5

_SESSION_KEY = re.compile(r"session_(\d+)")
# A few evidence entries are malformed ("D8:6; D9:17", "D:11:26"); every well-formed id inside them is kept.
_DIA_ID = re.compile(r"D:?(\d+):(\d+)")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class LocomoTurn(_Frozen):
    speaker: str
    text: str
    dia_id: str
    session: int
    session_time: dt.datetime
    image_caption: str | None = None  # the dataset's caption of a photo shared with this turn

    @property
    def session_date(self) -> dt.date:
        return self.session_time.date()

    def as_message(self) -> str:
        """The turn as a chat message, with a shared photo described the way the official LoCoMo prompts do."""
        if self.image_caption:
            return f"{self.text} [shares {self.image_caption}]"
        return self.text


class LocomoQuestion(_Frozen):
    id: str
    question: str
    answer: str | None  # None for adversarial questions: the right reply is to abstain
    category: int
    evidence: tuple[str, ...]
    adversarial_answer: str | None = None  # the tempting wrong answer of an adversarial question

    @property
    def adversarial(self) -> bool:
        return self.category == ADVERSARIAL

    @property
    def category_name(self) -> str:
        return CATEGORY_NAMES.get(self.category, f"category_{self.category}")


class LocomoConversation(_Frozen):
    sample_id: str
    speaker_a: str
    speaker_b: str
    turns: tuple[LocomoTurn, ...]
    questions: tuple[LocomoQuestion, ...]


def parse_session_time(value: str) -> dt.datetime:
    """Parse LoCoMo's "1:56 pm on 8 May, 2023"."""
    return dt.datetime.strptime(" ".join(value.split()), "%I:%M %p on %d %B, %Y")


def load_locomo(
    path: str | Path, conversations: int | None = None, max_questions: int | None = None,
    samples: list[str] | None = None,
) -> list[LocomoConversation]:
    """Read the first `conversations` conversations (or those named in `samples`, e.g. ["conv-30"]), each with at
    most `max_questions` questions.

    Questions are taken round-robin over categories, since the file lists them grouped by category.
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError(
            f"Cannot read LoCoMo file {path}: {e.strerror or e}. It is expected at ../shared/data/locomo/locomo10.json."
        ) from e
    except json.JSONDecodeError as e:
        raise ConfigError(f"LoCoMo file {path} is not valid JSON: {e.msg} at line {e.lineno}.") from e
    if not isinstance(data, list):
        raise ConfigError(f"LoCoMo file {path} should hold a list of conversations, found {type(data).__name__}.")
    if samples:
        known = {raw.get("sample_id") for raw in data if isinstance(raw, dict)}
        unknown = [name for name in samples if name not in known]
        if unknown:
            raise ConfigError(f"LoCoMo file {path} has no conversation {', '.join(unknown)}; "
                              f"it has {', '.join(sorted(str(k) for k in known))}.")
        selected = [raw for name in samples for raw in data if raw.get("sample_id") == name]
    else:
        selected = data if conversations is None else data[:conversations]
    try:
        return [_conversation(raw, max_questions) for raw in selected]
    except (KeyError, TypeError, ValueError) as e:
        raise ConfigError(f"LoCoMo file {path} has an unexpected shape: {e!r}.") from e


def _conversation(raw: dict, max_questions: int | None) -> LocomoConversation:
    sample_id = str(raw["sample_id"])
    dialogue = raw["conversation"]
    turns: list[LocomoTurn] = []
    # Some conversations carry dates for sessions that have no turns; only sessions with turns are read.
    numbers = sorted(int(m.group(1)) for key in dialogue if (m := _SESSION_KEY.fullmatch(key)))
    for number in numbers:
        when = parse_session_time(dialogue[f"session_{number}_date_time"])
        for turn in dialogue[f"session_{number}"]:
            turns.append(LocomoTurn(
                speaker=turn["speaker"], text=turn["text"], dia_id=turn["dia_id"], session=number,
                session_time=when, image_caption=turn.get("blip_caption"),
            ))
    questions = [_question(f"{sample_id}:q{n:03d}", qa) for n, qa in enumerate(raw["qa"], start=1)]
    return LocomoConversation(
        sample_id=sample_id, speaker_a=dialogue["speaker_a"], speaker_b=dialogue["speaker_b"],
        turns=tuple(turns), questions=tuple(_spread(questions, max_questions)),
    )


def _question(question_id: str, qa: dict) -> LocomoQuestion:
    category = int(qa["category"])
    evidence = tuple(f"D{s}:{t}" for item in qa.get("evidence", []) for s, t in _DIA_ID.findall(str(item)))
    # Two adversarial items also carry a plain "answer"; they are still scored as abstention like the rest.
    answer = None if category == ADVERSARIAL else str(qa["answer"])
    adversarial = qa.get("adversarial_answer")
    return LocomoQuestion(
        id=question_id, question=qa["question"], answer=answer, category=category, evidence=evidence,
        adversarial_answer=None if adversarial is None else str(adversarial),
    )


def _spread(questions: list[LocomoQuestion], limit: int | None) -> list[LocomoQuestion]:
    """The first `limit` questions taken in turn from each category, returned in file order."""
    if limit is None or limit >= len(questions):
        return questions
    by_category: dict[int, list[LocomoQuestion]] = defaultdict(list)
    for q in questions:
        by_category[q.category].append(q)
    queues = [by_category[c] for c in sorted(by_category)]
    chosen: set[str] = set()
    depth = 0
    while len(chosen) < limit:
        for queue in queues:
            if depth < len(queue) and len(chosen) < limit:
                chosen.add(queue[depth].id)
        depth += 1
    return [q for q in questions if q.id in chosen]
