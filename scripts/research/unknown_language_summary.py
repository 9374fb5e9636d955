"""Before and after, from unknown_language.py's outputs: `python scripts/research/unknown_language_summary.py SET.json
BEFORE.json AFTER.json`. Per set: questions right (of those told), replies that hand back one of the person's
sentences whole (`responder.hands_back`) for a question never told, and answers that changed."""
import json, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from dreaming_agent.pipeline.responder import hands_back
from dreaming_agent.text import split_sentences

told = [s for c in json.load(open(sys.argv[1], encoding="utf-8"))["conversations"] for t in c["told"]
        for s in (t, *split_sentences(t))]


def summary(path: str) -> dict:
    qs = [r for r in json.load(open(path, encoding="utf-8")) if r["kind"] == "question"]
    whole = [r for r in qs if any(hands_back(r["reply"], s) for s in told)]
    return {"right": sum(bool(r["right"]) for r in qs), "of": sum(r["right"] is not None for r in qs),
            "whole": len(whole), "whole_never_told": sum(r["right"] is None for r in whole),
            "replies": {r["said"]: r["reply"] for r in qs}}


before, after = summary(sys.argv[2]), summary(sys.argv[3])
for name, s in (("before", before), ("after", after)):
    print(f"{name}: right {s['right']} of {s['of']}; a sentence handed back whole {s['whole']} "
          f"({s['whole_never_told']} for a question never told)")
changed = [(q, before["replies"][q], after["replies"][q]) for q in before["replies"]
           if before["replies"][q] != after["replies"].get(q)]
print(f"changed {len(changed)} of {len(before['replies'])}")
for q, b, a in changed:
    print(f"  {q}  {b!r} -> {a!r}")
