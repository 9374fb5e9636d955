"""The terminal chat: the same agent as the web page, for people who prefer a shell."""
from __future__ import annotations

import sys
from typing import Callable, TextIO

from .errors import DreamingAgentError
from .llm.choose import Choice


def run_chat(choice: Choice, *, mode: str = "lightmem", stdin: TextIO | None = None,
             out: Callable[[str], None] = print, agent=None) -> int:
    """Read lines from stdin until /quit or EOF with the model `choice` names (`wiring.choose_llm`); `agent` may
    be passed in (tests), else built from the choice's settings."""
    from .wiring import build_agent, describe

    try:
        agent = agent or build_agent(choice.settings)
    except DreamingAgentError as e:
        out(f"error: {e}")
        return 1
    shown = {**describe(choice.settings), "model": choice.line()}
    out("dreaming agent — " + ", ".join(f"{k}: {v}" for k, v in shown.items()))
    out("Commands: /dream, /undo, /memory, /quit")
    for line in stdin or sys.stdin:
        text = line.rstrip("\n")
        if text.strip() in ("/quit", "/exit"):
            break
        try:
            out(_handle(agent, text, mode))
        except DreamingAgentError as e:
            out(f"error: {e}")
    agent.learning.wait(timeout=120)
    agent.close()
    return 0


def _handle(agent, text: str, mode: str) -> str:
    command = text.strip()
    if command == "/dream":
        report = agent.memory.dream()
        data = report.to_json()
        line = f"🌙 Dream {data.get('dream_id')}: {len(data.get('accepted', []))} accepted, {len(data.get('rejected', []))} rejected"
        return line + (f", {report.settled} kept unchanged without a model call" if report.settled else "")
    if command == "/undo":
        report = agent.memory.undo_last_dream()
        return "nothing to undo" if report is None else "undid the last Dream"
    if command == "/memory":
        agent.learning.wait(timeout=120)
        lines = [f"[{m.tier} #{m.id} {m.origin}] {m.text}" for m in agent.memory.facts() + agent.memory.mid_term()]
        return "\n".join(lines) or "(no memories yet)"
    if mode == "compare":
        results = agent.compare(text)
        return "\n".join(f"[{m} {r.timings['total_ms']:.0f} ms] {r.answer}" for m, r in results.items())
    result = agent.turn(text, mode)
    return f"[{mode} {result.timings['total_ms']:.0f} ms] {result.answer}"


def run_dream_once(choice: Choice, out: Callable[[str], None] = print) -> int:
    if not choice.settings.db:
        out("error: pass --db PATH (or DREAMING_DB): a Dream needs an existing database.")
        return 2
    from .wiring import build_agent

    agent = build_agent(choice.settings)
    out(str(agent.memory.dream().to_json()))
    agent.close()
    return 0
