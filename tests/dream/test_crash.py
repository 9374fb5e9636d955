"""A Dream killed with SIGKILL at a random point leaves the database with all of it or none of it."""
from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from dreaming_agent.store import Store

from .builders import remember, snapshot

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("crash_child.py")
PAIRS = 20


def start_child(path: Path, seed: int) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, str(CHILD), str(path), str(seed)], cwd=ROOT, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert child.stdout.readline().strip() == b"ready"
    return child


def outcome(path: Path, initial) -> str:
    """'none' or 'all'; anything in between fails the test."""
    store = Store(path)
    try:
        assert store.query("PRAGMA integrity_check") == [("ok",)]
        runs = store.query("SELECT finished_at, status FROM dream_runs")
        ops = store.query("SELECT COUNT(*) FROM dream_ops")[0][0]
        changes = store.query("SELECT COUNT(*) FROM dream_changes")[0][0]
        if not runs:
            assert (ops, changes) == (0, 0)
            assert snapshot(store) == initial
            return "none"
        assert runs == [("2024-09-01T03:00:00", "applied")]
        assert (ops, changes) == (PAIRS, 3 * PAIRS)
        memories = store.memories(status=None)
        assert sum(m.status == "superseded" for m in memories) == 2 * PAIRS
        created = [m for m in memories if m.origin == "dream"]
        assert len(created) == PAIRS and all(m.status == "active" and len(m.source_message_ids) == 2 for m in created)
        return "all"
    finally:
        store.close()


def test_a_killed_dream_leaves_all_of_it_or_none(tmp_path, embedder, full):
    base = tmp_path / "base.sqlite3"
    store = Store(base)
    for n in range(2 * PAIRS):
        remember(store, embedder, f"The user noted fact number {n}", (f"Remember fact {n}.", f"2024-01-{n % 28 + 1:02d}"))
    initial = snapshot(store)
    store.close()

    # Time one uninterrupted run so kills land anywhere from before the first write to after the commit.
    calibration = tmp_path / "calibration.sqlite3"
    shutil.copy(base, calibration)
    child = start_child(calibration, 0)
    started = time.perf_counter()
    assert child.stdout.readline().strip() == b"done"
    duration = time.perf_counter() - started
    child.wait(timeout=30)
    assert outcome(calibration, initial) == "all"

    rng = random.Random(20240901)
    seen = []
    for trial in range(50 if full else 10):
        path = tmp_path / f"trial-{trial}.sqlite3"
        shutil.copy(base, path)
        child = start_child(path, trial + 1)
        time.sleep(rng.uniform(0, duration))
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        seen.append(outcome(path, initial))
    assert "none" in seen  # at least one kill landed before the commit, so the test did interrupt a Dream
