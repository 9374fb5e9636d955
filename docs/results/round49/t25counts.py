"""Counts only (the scenario is held out): entries, by status and origin, typed kinds, and the messages by language."""
import sys, glob, json
from collections import Counter
from dreaming_agent.store.snapshot import open_copy
from dreaming_agent.store import kinds
from dreaming_agent.settings import Settings
from dreaming_agent.wiring import build_embedder
from dreaming_agent import lang
path = glob.glob(sys.argv[1] + '/*-E-*.sqlite3')[0]
store = open_copy(path)
store.kinds.use(kinds.for_embedder(build_embedder(Settings.load({}))))
ms = store.with_sources(store.memories(status=None))
print('entries by origin/status', Counter((m.origin, m.status) for m in ms))
print('typed kinds', Counter(store.kinds.typed().values()))
msgs = [m for m in store.query("SELECT id, text FROM messages WHERE role='user'")]
src = Counter(s.message_id for m in ms if m.origin == 'writer' for s in m.sources)
known = [i for i, t in msgs if not lang.surely_elsewhere(t)]
other = [i for i, t in msgs if lang.surely_elsewhere(t)]
print('messages', len(msgs), 'in a language no module knows (surely)', len(other))
print('writer entries from known-language messages', sum(src[i] for i in known), 'from the others', sum(src[i] for i in other))
print('known-language messages with no entry', sum(1 for i in known if not src[i]), 'of', len(known))
