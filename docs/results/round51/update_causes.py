"""Per update question over a fed memory: the kind asked, whether memory's current value says the answer, else
why not (no entry says it, none typed, the question asks no kind). Counts only unless a third argument is given
(seen scenarios only). `PYTHONPATH=. python docs/results/round51/update_causes.py MEMORY.sqlite3 SCENARIO.json`"""
import json, sys
from dreaming_agent.store import Store
from dreaming_agent.store import kinds as K
from dreaming_agent.store import attributes as A
from dreaming_agent.embed.offline import default_offline_embedder
from dreaming_agent.text import normalize

db, scen = sys.argv[1], sys.argv[2]
show = len(sys.argv) > 3  # print content (seen scenarios only)
emb = default_offline_embedder()
kinds = K.for_embedder(emb)
store = Store(db)
store.kinds.use(kinds)
typed = store.kinds.typed()
mems = store.memories()
prof = A.profile(store)
d = json.load(open(scen))
tally = {}
for q in d['questions']:
    if q['type'] != 'update':
        continue
    v = emb.embed_batch([q['question']], role='query')[0]
    asked = kinds.asked(v)
    exp = [normalize(e) for e in q['expect_any']]
    has = lambda t: any(e in normalize(t) for e in exp)
    in_mem = [m for m in mems if has(m.text)]
    in_typed = [m for m in in_mem if typed.get(m.id)]
    rows = [c for c in prof if c.attribute.split(':')[0] == asked] if asked else []
    now_right = any(has(h.value) or has(store.memory(h.memory_id).text if hasattr(store,'memory') else '') for c in rows for h in c.now)
    cause = ('current right' if now_right else 'asked none' if not asked else
             'no entry' if not in_mem else 'untyped' if not in_typed else 'typed but not current')
    tally[cause] = tally.get(cause, 0) + 1
    if show:
        print(f"[{cause}] {q['question']} | asked={asked} | exp={q['expect_any']}")
        for c in rows:
            print('   now:', [h.value for h in c.now], 'before:', [h.value for h in c.before])
        for m in in_mem[:4]:
            print('   mem:', m.id, m.status, typed.get(m.id), m.text[:90])
print(json.dumps(tally))
