"""Child process for the crash tests: one large Dream applied to a file database, pausing between statements.

Prints "ready" before the Dream starts and "done" after it. With a Chroma path (the restart test) the Dream also
writes that persistent index: "ready" then waits for the index to be in step, "committing" marks the last pause
before COMMIT, and "done" the index having followed. The parent kills it with SIGKILL somewhere in between.
"""
from __future__ import annotations

import random
import sys
import time

from dreaming_agent.dream import Decision, DreamOperation, Verdict
from dreaming_agent.dream.apply import apply_dream
from dreaming_agent.dream.propose import load_entries
from dreaming_agent.store import Store, VectorIndex, make_client
from dreaming_agent.testing import HashEmbedder

NAMESPACE = "main"


def main(db_path: str, seed: int, chroma_path: str | None = None) -> None:
    rng = random.Random(seed)
    store = Store(db_path)
    index = None
    if chroma_path:
        index = VectorIndex(make_client(path=chroma_path), namespace=NAMESPACE)
        index.sync(store)  # as on a running app: the index mirrors SQLite before the Dream starts
    entries = load_entries(store)
    ids = sorted(entries)
    decisions = [
        Decision(
            DreamOperation(op="MERGE", target_ids=[a, b], text=f"{entries[a].text}; {entries[b].text}", reason="crash"),
            Verdict(True, "Accepted for the crash test."),
        )
        for a, b in zip(ids[::2], ids[1::2])
    ]
    pauses_left = [3 * len(decisions) + 1]  # one per decision, two inside each MERGE, one before COMMIT

    def pause() -> None:
        pauses_left[0] -= 1
        if pauses_left[0] == 0 and index is not None:
            print("committing", flush=True)
        time.sleep(rng.uniform(0, 0.003))

    print("ready", flush=True)
    apply_dream(store, index, HashEmbedder(), decisions, entries, started_at="2024-09-01T03:00:00", pause=pause)
    print("done", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), *sys.argv[3:4])
