"""The bench: scenario and LoCoMo data, and the pure scorers that judge the agent's answers."""
from __future__ import annotations

from pathlib import Path

from dreaming_agent.bench.locomo import LocomoConversation, LocomoQuestion, LocomoTurn, load_locomo
from dreaming_agent.bench.scenario import QUESTION_TYPES, Question, Scenario, Session, load_scenario
from dreaming_agent.bench.scoring import LocomoScore, Score, locomo_f1, score_answer, score_locomo, says_unknown

SCENARIOS_DIR = Path(__file__).parent / "scenarios"

__all__ = [
    "QUESTION_TYPES", "SCENARIOS_DIR", "LocomoConversation", "LocomoQuestion", "LocomoScore", "LocomoTurn",
    "Question", "Scenario", "Score", "Session", "load_locomo", "load_scenario", "locomo_f1", "says_unknown",
    "score_answer", "score_locomo",
]
