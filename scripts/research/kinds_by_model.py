"""Probe (round 43): does the model confirm an entry's kind? Entries typed loosely by their nearest example (floor 1.2
spreads, no margin), then the model asked with the grammar: `yesno`, whether the entry tells that kind ("where the
user lives now"); `choice`, which of the seven kinds or "none" it tells, kept when it agrees. Scored on round 37's
labels and on the eighteenth scenario's: `python scripts/research/kinds_by_model.py yesno|choice`."""
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from dreaming_agent.settings import Settings  # noqa: E402
from dreaming_agent.store import kinds as K  # noqa: E402
from dreaming_agent.text import proper_nouns  # noqa: E402
from dreaming_agent.wiring import build_embedder, build_llm  # noqa: E402

DESC = {"home": "the town or city where the user lives now", "workplace": "the company or organisation the user works for now",
        "occupation": "the user's job or profession now", "partner": "who the user's romantic partner is",
        "diet": "what diet the user follows now", "vehicle": "which car or vehicle the user owns now",
        "pet name": "the name of the user's pet"}
OF_THE_USER = re.compile(r"^\W*(?:the\s+)?user\b", re.I)
LABELS = [("r37", "docs/results/round37/kinds-labels.json"), ("e18", "docs/results/round43/kinds/eighteenth-labels.json")]


def confirmed(llm, text: str, kind: str, variant: str) -> bool:
    if variant == "yesno":
        schema = {"type": "object", "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}},
                  "required": ["answer"]}
        asked = f"Statement: \"{text}\"\nDoes this statement tell {DESC[kind]}? Answer yes or no."
        messages = [{"role": "system", "content": "You check one statement. Reply with JSON only."},
                    {"role": "user", "content": asked}]
        return json.loads(llm.complete(messages, schema=schema, max_tokens=12).text)["answer"] == "yes"
    options = ", ".join(f'"{name}" ({said})' for name, said in DESC.items())
    schema = {"type": "object", "properties": {"kind": {"type": "string", "enum": [*DESC, "none"]}}, "required": ["kind"]}
    asked = (f"Statement: \"{text}\"\nWhich one thing does it tell? Options: {options}, or \"none\" if it tells none "
             "of these (a plan, someone else, a feeling, a past thing).\nReply {\"kind\": option}.")
    messages = [{"role": "system", "content": "You sort one statement about a person. Reply with JSON only."},
                {"role": "user", "content": asked}]
    return json.loads(llm.complete(messages, schema=schema, max_tokens=12).text)["kind"] == kind


def main(variant: str) -> None:
    embedder = build_embedder(Settings.load({}))
    examples, llm = K.for_embedder(embedder), build_llm(Settings())
    labels = np.array(examples.labels)
    spread = examples.margin / K.MARGIN_SPREADS
    loose = examples.floor - (K.FLOOR_SPREADS - 1.2) * spread
    for name, path in LABELS:
        entries = json.load(open(path))["labels"]
        scores = np.asarray(embedder.embed_batch([e["text"] for e in entries], role="passage")) @ examples.vectors.T
        typed = typed_right = said = right = asked = 0
        started = time.time()
        for entry, s in zip(entries, scores):
            kind = labels[int(np.argmax(np.where(labels == "other", -9, s)))]
            if (not OF_THE_USER.search(entry["text"]) or s[labels == kind].max() < loose
                    or (kind in K.NAMED and not proper_nouns(entry["text"]))):
                continue
            typed, typed_right, asked = typed + 1, typed_right + (kind == entry["kind"]), asked + 1
            if confirmed(llm, entry["text"], kind, variant):
                said, right = said + 1, right + (kind == entry["kind"])
        labelled = sum(e["kind"] != "none" for e in entries)
        print(f"{name}: loose typing P {typed_right}/{typed}; confirmed by the model: P {right}/{said} R {right}/{labelled}"
              f" ({asked} asked, {time.time() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
