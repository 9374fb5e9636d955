"""How well an entry's kind is read from its vector (`store/kinds`), against hand labels: `python
scripts/research/kinds_labels.py docs/results/round37/kinds-labels.json`. Prints, per kind, the entries typed, those
right, and those labelled but missed; then the share of typed entries whose kind is right (precision) and of labelled
entries typed right (recall). Only kinds whose value is a name need one named (`attributes.stated`), as the profile
reads them."""
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from dreaming_agent.settings import Settings  # noqa: E402
from dreaming_agent.store import kinds  # noqa: E402
from dreaming_agent.text import proper_nouns  # noqa: E402
from dreaming_agent.wiring import build_embedder  # noqa: E402

labels = json.load(open(sys.argv[1]))["labels"]
embedder = build_embedder(Settings.load({}))
typed = kinds.for_embedder(embedder)
vectors = embedder.embed_batch([item["text"] for item in labels], role="passage")
said, right, missed = Counter(), Counter(), Counter()
for item, vector in zip(labels, vectors):
    kind = typed.of(item["text"], vector)
    if kind in kinds.NAMED and not proper_nouns(item["text"]):
        kind = None  # no value: the profile does not read it
    truth = None if item["kind"] == "none" else item["kind"]
    if kind:
        said[kind] += 1
        right[kind] += kind == truth
        if kind != truth:
            print(f"  typed {kind!r:12} labelled {truth!r:12} {item['text'][:90]}")
    if truth and kind != truth:
        missed[truth] += 1
        if not kind:
            print(f"  missed {truth!r:24} {item['text'][:90]}")
for kind in sorted(set(said) | set(missed)):
    print(f"{kind:12} typed {said[kind]:3}  right {right[kind]:3}  labelled but not typed so {missed[kind]:3}")
total_said, total_right = sum(said.values()), sum(right.values())
labelled = sum(1 for item in labels if item["kind"] != "none")
print(f"precision {total_right}/{total_said} = {total_right / max(1, total_said):.0%}; "
      f"recall {total_right}/{labelled} = {total_right / max(1, labelled):.0%}; {len(labels)} entries")
