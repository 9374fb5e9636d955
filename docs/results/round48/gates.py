"""Counts, for scenarios (read only as counts), how the message-level and sentence-level readings of a language no module knows agree. PYTHONPATH=. python docs/results/round48/gates.py NAME..."""
import json, sys
from dreaming_agent.lang import elsewhere, _identifier, LANGUAGES
from dreaming_agent.text import split_sentences
def sure(t, p):
    code, prob = _identifier().classify(t)
    return elsewhere(t) and code not in LANGUAGES and prob >= p
for name in sys.argv[1:]:
    d = json.load(open(f'dreaming_agent/bench/scenarios/{name}.json'))
    msgs = [t for s in d['sessions'] for t in s['turns']]
    for p in (0.0, 0.5, 0.7):
        a = b = c = 0
        for m in msgs:
            whole = elsewhere(m)
            sents = [sure(s, p) for s in split_sentences(m) or [m]]
            a += whole and not all(sents)   # unknown message with a sentence read as known
            b += (not whole) and any(sents)  # known message with a sentence read as foreign
            c += sum(sents)
        print(name, 'p>=', p, 'unknown msg w/ known sentence', a, '| known msg w/ foreign sentence', b, '| foreign sentences', c)
