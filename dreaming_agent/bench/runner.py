"""Drive one agent per (run, condition) through a scenario or a LoCoMo conversation and score its answers."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from ..embed.base import Embedder
from ..llm.base import LLM
from ..pipeline.agent import Agent, AgentConfig
from ..pipeline.gather_config import GatherConfig
from ..pipeline.writer import KEEPS
from ..store import Store, VectorIndex
from ..store.snapshot import open_copy, save_copy
from .conditions import Condition
from .locomo import LocomoConversation
from .longmemeval import LongMemQuestion
from .longmemeval_scoring import score_longmemeval
from .scenario import Question, Scenario
from .scoring import score_answer, score_locomo


@dataclass
class AnswerRecord:
    run: int
    condition: str
    question_id: str
    type: str
    question: str
    answer: str
    correct: bool | None
    f1: float | None
    evidence_recall: float | None
    reject_hits: int
    latency_ms: float
    blocking_llm_calls: int
    prompt_tokens: int
    extra: dict = field(default_factory=dict)


@dataclass
class Setup:
    """What every condition shares: the model, the embedder and the Chroma client."""

    llm: LLM
    embedder: Embedder
    client: object
    reply_tokens: int = 96
    chat_reply_tokens: int = 48  # answers to the sessions' own turns are not scored: keep them short
    live: bool = False  # questions asked as ordinary turns of one conversation (stored, indexed, learned from)
    memory_dir: Path | None = None  # keep each fed memory here and reuse it (same scenario, condition, run, prompts)
    memory_key: str = ""  # what fed memory depends on besides the scenario: model and Writer/Dream prompt versions
    progress: Callable[[str], None] = lambda _: None


def _agent(setup: Setup, condition: Condition, run: int, store: Store | None = None) -> Agent:
    # Read-only questions are asked in fresh conversations, so no fed conversation's rolling summary is ever read:
    # folding them cost E a third of its LongMemEval time (round 40).
    config = AgentConfig(variant=condition.variant, learn=condition.learn, seed=run, reply_tokens=setup.reply_tokens,
                         gather=GatherConfig(distinctive_from=0) if condition.distinctive_always else GatherConfig(),
                         fold_window=setup.live)
    return Agent(store=store or Store(), index=VectorIndex(setup.client), llm=setup.llm, embedder=setup.embedder,
                 config=config)


def memory_key(llm_name: str, embedder_name: str, prompts) -> str:
    """What a fed memory depends on besides the scenario: the model, the embedder, the Writer's and Dream's prompts,
    and what the Writer's code keeps of its model's facts (`writer.KEEPS`)."""
    return "-".join([llm_name, embedder_name, f"{prompts['writer'].version}.{KEEPS}", prompts["dream"].version])


def _fed_memory(setup: Setup, unit: str, condition: Condition, run: int) -> Path | None:
    if setup.memory_dir is None:
        return None
    key = "".join(c if c.isalnum() or c in "-_." else "_" for c in f"{unit}-{condition.name}-{run}-{setup.memory_key}")
    return setup.memory_dir / f"{key}.sqlite3"


def _finish(agent: Agent) -> None:
    agent.close()
    agent.index.drop()
    agent.store.close()


def feed_scenario(agent: Agent, scenario: Scenario, condition: Condition, *, live: bool = False,
                  progress: Callable[[str], None] = lambda kind: None) -> None:
    """Every session as dated user turns, three minutes apart from 9:00 (answered as in a chat when `live`), the
    Writer waited for, then a Dream at 23:00 where the condition has one."""
    for session in scenario.sessions:
        agent.new_conversation(session.id)
        for i, text in enumerate(session.turns):
            stamp = (dt.datetime.combine(session.date, dt.time(9, 0)) + dt.timedelta(minutes=3 * i)).isoformat()
            if live:
                agent.turn(text, condition.mode, now=stamp)
            else:
                agent.ingest(text, now=stamp, learn=condition.learn)
            progress("turn")
        agent.learning.wait()
        if condition.dream_each_session:
            agent.memory.dream(now=session.date.isoformat() + "T23:00:00")


def asked_at(question: Question, i: int) -> str:
    """When the `i`th question of a scenario is asked: its day, from 10:00, a minute apart."""
    return (dt.datetime.combine(question.date, dt.time(10, 0)) + dt.timedelta(minutes=i)).isoformat()


def feed_locomo(agent: Agent, conversation: LocomoConversation, condition: Condition, *,
                progress: Callable[[str], None] = lambda kind: None) -> None:
    """Both speakers' turns as messages (speaker, date and dialogue id kept), a conversation per session, a Dream
    between sessions where the condition has one, the Writer waited for."""
    session = None
    for turn in conversation.turns:
        if turn.session != session:
            if session is not None and condition.dream_each_session:
                agent.learning.wait()
                agent.memory.dream(now=turn.session_time.isoformat())
            session = turn.session
            agent.new_conversation(f"session-{session}")
        agent.ingest(f"{turn.speaker}: {turn.as_message()}", now=turn.session_time.isoformat(),
                     speaker=turn.speaker, external_id=turn.dia_id, learn=condition.learn)
        progress("turn")
    agent.learning.wait()


def asked_after(conversation: LocomoConversation) -> str:
    """LoCoMo's questions are asked the day after its last session."""
    return (conversation.turns[-1].session_time + dt.timedelta(days=1)).isoformat()


def run_scenario(setup: Setup, scenario: Scenario, condition: Condition, run: int) -> list[AnswerRecord]:
    """Feed every session as dated user turns, then ask each question (read-only, or live as turns).

    Live, the sessions' turns are answered as in a chat; otherwise they are only stored and learned from, since
    no question can see those replies. A fed memory kept in `memory_dir` is reused instead of feeding again."""
    cached = _fed_memory(setup, scenario.name, condition, run)
    reuse = cached is not None and cached.exists() and not setup.live
    agent = _agent(setup, condition, run, open_copy(cached) if reuse else None)
    question_config = agent.config
    agent.config = replace(question_config, reply_tokens=setup.chat_reply_tokens)
    try:
        if reuse:
            for _ in range(scenario.turn_count):
                setup.progress("turn")
        else:
            feed_scenario(agent, scenario, condition, live=setup.live, progress=setup.progress)
        if not reuse and cached is not None and not setup.live:
            save_copy(agent.store, cached)
        agent.config = question_config
        records = []
        agent.new_conversation("questions")
        for i, q in enumerate(scenario.questions):
            if setup.live:  # the way the app is used: each question is a turn the next one can see
                result = agent.turn(q.question, condition.mode, now=asked_at(q, i))
            else:
                agent.new_conversation(f"question-{q.id}")
                result = agent.ask(q.question, condition.mode, now=asked_at(q, i))
            score = score_answer(q, result.answer, result.prompt_text)
            records.append(AnswerRecord(
                run, condition.name, q.id, q.type, q.question, result.answer, score.correct, None,
                score.evidence_recall, score.reject_hits, result.timings["total_ms"], result.blocking_llm_calls,
                result.prompt.prompt_tokens if result.prompt else 0,
            ))
            setup.progress("question")
        return records
    finally:
        _finish(agent)


def run_locomo(setup: Setup, conversation: LocomoConversation, condition: Condition, run: int) -> list[AnswerRecord]:
    """Both speakers' turns are stored as messages (speaker and date kept); questions scored by token F1.

    A fed memory kept in `memory_dir` is reused instead of feeding again (an hour of Writer and Dreams for E)."""
    cached = _fed_memory(setup, conversation.sample_id, condition, run)
    reuse = cached is not None and cached.exists()
    agent = _agent(setup, condition, run, open_copy(cached) if reuse else None)
    try:
        if reuse:
            for _ in conversation.turns:
                setup.progress("turn")
        else:
            feed_locomo(agent, conversation, condition, progress=setup.progress)
        if not reuse and cached is not None:
            save_copy(agent.store, cached)
        records = []
        for q in conversation.questions:
            agent.new_conversation(f"question-{q.id}")
            result = agent.ask(q.question, condition.mode, now=asked_after(conversation))
            dia_ids = {s.external_id for c in result.evidence for s in c.sources if s.external_id}
            score = score_locomo(q, result.answer, dia_ids)
            # LoCoMo's text stays in ../shared: a result names its question by id, never copies it or its answer.
            records.append(AnswerRecord(
                run, condition.name, q.id, q.category_name, "", result.answer,
                score.abstained if q.adversarial else None, score.f1, score.evidence_recall, 0,
                result.timings["total_ms"], result.blocking_llm_calls,
                result.prompt.prompt_tokens if result.prompt else 0,
                {"conversation": conversation.sample_id},
            ))
            setup.progress("question")
        return records
    finally:
        _finish(agent)


def run_longmemeval(setup: Setup, question: LongMemQuestion, condition: Condition, run: int) -> list[AnswerRecord]:
    """A fresh memory fed with the question's sessions in date order (both roles, each turn at its session's date;
    the Writer on the person's turns only, a Dream after each session where the condition has one), then the
    question asked read-only at its own date."""
    cached = _fed_memory(setup, question.id, condition, run)
    reuse = cached is not None and cached.exists()
    agent = _agent(setup, condition, run, open_copy(cached) if reuse else None)
    try:
        for session in [] if reuse else question.sessions:
            agent.new_conversation(session.id)
            for turn in session.turns:
                agent.ingest(turn.content, now=session.date.isoformat(), role=turn.role,
                             external_id=turn.external_id, learn=condition.learn)
                setup.progress("turn")
            agent.learning.wait()
            if condition.dream_each_session:
                agent.memory.dream(now=session.date.isoformat())
        if reuse:
            for _ in range(question.turn_count):
                setup.progress("turn")
        elif cached is not None:
            save_copy(agent.store, cached)
        agent.new_conversation(f"question-{question.id}")
        result = agent.ask(question.question, condition.mode, now=question.date.isoformat())
        shown = {s.external_id for c in result.evidence for s in c.sources if s.external_id}
        score = score_longmemeval(question, result.answer, shown)
        setup.progress("question")
        # The data stays in ../shared: a result names its question by id, never copies it or its answer.
        return [AnswerRecord(
            run, condition.name, question.id, question.type, "", result.answer, score.correct, None,
            score.evidence_recall, 0, result.timings["total_ms"], result.blocking_llm_calls,
            result.prompt.prompt_tokens if result.prompt else 0,
            {"abstention": question.abstention, "scored_apart": question.preference, "answer_recall": score.recall},
        )]
    finally:
        _finish(agent)
