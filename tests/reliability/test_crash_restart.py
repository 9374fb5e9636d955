"""A Dream killed with SIGKILL: SQLite holds all of it or none, and the next start repairs the vector index.

tests/dream/test_crash.py checks the database alone; here the Dream also writes a persistent Chroma index, the
kill may land between COMMIT and the index catching up, and a new Agent on the same files must find the drift.
"""
from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from dream.builders import remember, snapshot
from dream.crash_child import NAMESPACE
from dream.test_crash import CHILD, PAIRS, outcome
from dreaming_agent.pipeline.agent import Agent
from dreaming_agent.store import Store, VectorIndex, make_client
from dreaming_agent.testing import HashEmbedder, ScriptedLLM

from .conftest import report

ROOT = Path(__file__).resolve().parents[2]


def start(db: Path, chroma: Path, seed: int) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ANONYMIZED_TELEMETRY": "False"}
    child = subprocess.Popen([sys.executable, str(CHILD), str(db), str(seed), str(chroma)], cwd=ROOT, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert child.stdout.readline().strip() == b"ready"
    return child


def restart(db: Path, chroma: Path) -> dict[str, int]:
    """What the next start does: a new Agent on the same files. Returns its repairs after checking the result."""
    store = Store(db)
    agent = Agent(store=store, index=VectorIndex(make_client(path=str(chroma)), namespace=NAMESPACE),
                  llm=ScriptedLLM(), embedder=HashEmbedder())
    try:
        assert agent.index.ids("memories") == {m.id for m in store.memories()}
        assert agent.index.ids("sentences") == set(store.sentence_vectors())
        return agent.repairs
    finally:
        agent.close()
        store.close()


def test_a_killed_dream_is_all_or_nothing_and_the_index_is_repaired_on_restart(tmp_path, embedder, full):
    base = tmp_path / "base.sqlite3"
    store = Store(base)
    for n in range(2 * PAIRS):
        said = (f"Remember fact {n}.", f"2024-01-{n % 28 + 1:02d}")
        remember(store, embedder, f"The user noted fact number {n}", said)
    initial = snapshot(store)
    store.close()

    # One uninterrupted run: how long the whole Dream takes, and how long COMMIT plus the index update take.
    db, chroma = tmp_path / "calibration.sqlite3", tmp_path / "calibration-chroma"
    shutil.copy(base, db)
    child = start(db, chroma, 0)
    started = time.perf_counter()
    assert child.stdout.readline().strip() == b"committing"
    committing = time.perf_counter()
    assert child.stdout.readline().strip() == b"done"
    whole, tail = committing - started, time.perf_counter() - committing
    child.wait(timeout=60)
    assert outcome(db, initial) == "all" and restart(db, chroma) == {"added": 0, "removed": 0}

    rng = random.Random(20240902)
    trials = 50 if full else 10
    seen = {"none": 0, "all": 0}
    repaired = 0
    for trial in range(trials):
        db, chroma = tmp_path / f"trial-{trial}.sqlite3", tmp_path / f"trial-{trial}-chroma"
        shutil.copy(base, db)
        child = start(db, chroma, trial + 1)
        if trial % 2:  # anywhere in the Dream, from before the first write to after the commit
            time.sleep(rng.uniform(0, whole + tail))
        else:  # aimed at the gap between COMMIT and the index catching up
            assert child.stdout.readline().strip() == b"committing"
            time.sleep(rng.uniform(0, 1.5 * tail))
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        seen[outcome(db, initial)] += 1
        repairs = restart(db, chroma)
        repaired += bool(repairs["added"] or repairs["removed"])
    report("crash during Dream", trials=trials, all_of_it=seen["all"], none_of_it=seen["none"],
           index_repaired_on_restart=repaired, partial_dreams=0, index_mismatches_after_restart=0,
           commit_to_index_ms=round(tail * 1000, 1))
    assert seen["none"] and seen["all"]  # kills landed both before and after the commit
    assert repaired  # at least one kill left the index out of step, and the restart put it right
