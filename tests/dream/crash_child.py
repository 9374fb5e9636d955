"""Child process for the crash test: applies one large Dream to a file database, pausing between statements."""
from __future__ import annotations

import random
import sys
import time

from dreaming_agent.dream import Decision, DreamOperation, Verdict
from dreaming_agent.dream.apply import apply_dream
from dreaming_agent.dream.propose import load_entries
from dreaming_agent.store import Store
from dreaming_agent.testing import HashEmbedder


def main(path: str, seed: int) -> None:
    rng = random.Random(seed)
    store = Store(path)
    entries = load_entries(store)
    ids = sorted(entries)
    decisions = [
        Decision(
            DreamOperation(op="MERGE", target_ids=[a, b], text=f"{entries[a].text}; {entries[b].text}", reason="crash"),
            Verdict(True, "Accepted for the crash test."),
        )
        for a, b in zip(ids[::2], ids[1::2])
    ]
    print("ready", flush=True)
    apply_dream(store, None, HashEmbedder(), decisions, entries, started_at="2024-09-01T03:00:00",
                pause=lambda: time.sleep(rng.uniform(0, 0.003)))
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
