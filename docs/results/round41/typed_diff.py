"""Entries whose kind the sentence check (`Kinds.borne_out`) removes, per fed memory: `python
docs/results/round41/typed_diff.py MEMORY.sqlite3 ...` from a checkout. Types every entry twice, with the check and
with no sentences given to it, and prints those typed only without it."""
import sys
sys.path.insert(0, '.')
from dreaming_agent.settings import Settings
from dreaming_agent.wiring import build_embedder
from dreaming_agent.store import kinds
from dreaming_agent.store.snapshot import open_copy
emb = build_embedder(Settings.load({}))
ex = kinds.for_embedder(emb)
for path in sys.argv[1:]:
    store = open_copy(path); store.kinds.use(ex)
    after = store.kinds.typed()
    store.kinds._drawn_from = lambda e: {}
    store.kinds.use(ex); store.kinds._known = {}
    before = store.kinds.typed()
    text = {m.id: m.text for m in store.memories(status=None, ids=list(before))}
    print('##', path.split('/')[-1][:16], 'typed', len(before), '->', len(after))
    for i in before:
        if i not in after: print('   dropped', before[i], '|', text[i][:90])
