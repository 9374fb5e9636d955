"""scripts/capacity.py's measure on two small sessions: every figure is there and positive."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from dreaming_agent.settings import Settings
from dreaming_agent.store import make_client
from dreaming_agent.testing import HashEmbedder

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "capacity.py"


def load_capacity():
    spec = importlib.util.spec_from_file_location("capacity", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_two_sessions_two_turns_give_every_figure():
    capacity = load_capacity()
    row = capacity.measure(2, 2, 2, llm=capacity.scripted_model(), embedder=HashEmbedder(),
                           settings=Settings.load({}), client=make_client())
    assert row["sessions"] == 2 and row["turns"] == 4
    for key in ("turn_p50_ms", "turn_p95_ms", "turn_max_ms", "turns_per_s", "seconds_to_answer", "rss_after_mb"):
        assert row[key] > 0, key
    assert "mb_per_session" in row
    assert row["memories_learned"] > 0  # the scripted Writer kept "I like ..." as a memory
    assert capacity.saturation([row, {**row, "sessions": 4}]).startswith("throughput stops growing")
    assert "| 2 | 2 | 4 |" in capacity.markdown([row])
