"""Can the 0.5B model tell that a newer entry replaces an older one? One grammar-constrained yes/no call per pair of
the person's entries that are near each other (cosine >= MIN), told on different days, naming different things:
`python scripts/research/supersede_probe.py MEMORY.sqlite3 [MIN] [GGUF]`.

A probe, not a component: round 36 ran it over seen scenarios' E memories to see whether a Dream could propose
UPDATEs pair by pair (docs/results/round36/README.md)."""
import sqlite3
import sys
import time
from pathlib import Path

import numpy as np
from pydantic import BaseModel

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from dreaming_agent.llm.llamacpp import LlamaCppLLM  # noqa: E402
from dreaming_agent.llm.structured import structured_call  # noqa: E402
from dreaming_agent.store.sqlite import from_blob  # noqa: E402
from dreaming_agent.text import proper_nouns  # noqa: E402


class Judged(BaseModel):
    replaces: bool


SYSTEM = """Two facts about one person, from different days. Say whether the NEWER fact replaces the OLDER one: the
same thing about the person (where they live, where they work, their job, their partner, a pet's name, their car,
their diet, a plan's date), now with a different value. Two different things, or two facts that can both be true, do
not replace each other.
Examples:
OLDER: The user lives in Leeds
NEWER: The user moved to Bristol
{"replaces": true}
OLDER: The user has a dog called Rex
NEWER: The user adopted a cat called Tom
{"replaces": false}
OLDER: The user works at Acme
NEWER: The user's sister works at Zenith
{"replaces": false}
Reply with JSON only."""


def main(memory: str, minimum: float = 0.55, gguf: str = "models/qwen2.5-coder-0.5b-instruct.gguf") -> None:
    llm = LlamaCppLLM(gguf, threads=1)
    db = sqlite3.connect(memory)
    rows = db.execute("""SELECT m.id, m.text, m.embedding, coalesce(max(g.created_at), m.created_at) FROM memories m
        LEFT JOIN memory_sources s ON s.memory_id = m.id LEFT JOIN messages g ON g.id = s.message_id
        WHERE m.status != 'forgotten' AND m.text LIKE 'The user%' GROUP BY m.id ORDER BY m.id""").fetchall()
    entries = [(i, t, from_blob(b), day[:10]) for i, t, b, day in rows if b]
    started, asked, yes = time.time(), 0, 0
    for a in range(len(entries)):
        for b in range(len(entries)):
            (ia, ta, va, da), (ib, tb, vb, db_) = entries[a], entries[b]
            if not da < db_ or float(va @ vb) < minimum:
                continue
            na, nb = proper_nouns(ta), proper_nouns(tb)
            if not (na - nb and nb - na):
                continue
            judged = structured_call(llm, [{"role": "system", "content": SYSTEM},
                                           {"role": "user", "content": f"OLDER: {ta}\nNEWER: {tb}"}],
                                     Judged, lambda: Judged(replaces=False), max_tokens=12).value
            asked += 1
            yes += judged.replaces
            print(f"{'YES' if judged.replaces else 'no '} {float(va @ vb):.2f} #{ia} {da} {ta[:70]!r} -> #{ib} {db_} {tb[:70]!r}")
    print(f"{asked} pairs, {yes} judged replaced, {time.time() - started:.0f} s")


if __name__ == "__main__":
    main(sys.argv[1], *(float(a) if i == 0 else a for i, a in enumerate(sys.argv[2:])))
