"""The Dream operations recorded in bench memories (`bench --memory-dir DIR`), judged again by this tree's validator:
`python scripts/research/revalidate_dreams.py FILE.sqlite3...`. The rewrites only (MERGE, UPDATE): counts the
proposals accepted when the Dream ran and those this validator accepts, and prints each accepted one it now refuses,
with the reason. Entries are read as they are now and set active (an accepted MERGE left its entries superseded).
PROMOTE and FORGET are not replayed: their entries' tier and status are no longer what they were."""
import dataclasses, json, sys
from collections import Counter
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from dreaming_agent.dream.model import DreamOperation
from dreaming_agent.dream.validate import validate
from dreaming_agent.store.snapshot import open_copy

then, now = Counter(), Counter()
for path in sys.argv[1:]:
    store = open_copy(path)
    entries = {m.id: dataclasses.replace(m, status="active") for m in store.memories(status=None, with_sources=True)}
    for kind, targets, text, accepted in store.query("SELECT op, target_ids, text, accepted FROM dream_ops "
                                                     "WHERE op IN ('MERGE', 'UPDATE') ORDER BY id"):
        verdict = validate(DreamOperation(op=kind, target_ids=json.loads(targets), text=text, reason="recorded"), entries)
        then[kind] += bool(accepted)
        now[kind] += bool(accepted) and verdict.accepted
        if accepted and not verdict.accepted:
            print(f"{Path(path).name}: {kind} {targets} {text!r}\n    {verdict.reason}")
for kind in sorted(then):
    print(f"{kind}: accepted then {then[kind]}, of those accepted now {now[kind]}")
