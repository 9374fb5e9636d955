"""Kinds read from entries, and again without their names where the first reading finds none, against round 37's
labels; three stand-ins for the names. `PYTHONPATH=. python docs/results/round51/unnamed_labels.py`"""
import json, re, sys
from dreaming_agent.store import kinds
from dreaming_agent.text import proper_nouns, name_runs
from dreaming_agent.embed.offline import UniversalSentenceEncoderEmbedder
emb = UniversalSentenceEncoderEmbedder(); K = kinds.for_embedder(emb)
labels = json.load(open('docs/results/round37/kinds-labels.json'))['labels']
def mask(text, token):
    out = text
    for run in name_runs(text):
        out = re.sub(r"(?<!\w)" + r"\W+".join(map(re.escape, run)) + r"(?!\w)", token, out, count=1)
    return re.sub(r"\s+", " ", out).strip()
lab = sum(i['kind'] != 'none' for i in labels)
for token in ['X', 'Sam', '']:
    v1 = emb.embed_batch([i['text'] for i in labels]); v2 = emb.embed_batch([mask(i['text'], token) for i in labels])
    said = right = 0; added = []
    for item, a, b in zip(labels, v1, v2):
        k = K.of(item['text'], a); k2 = k or K.of(item['text'], b)
        if k2 in kinds.NAMED and not proper_nouns(item['text']): k2 = None
        truth = None if item['kind'] == 'none' else item['kind']
        if k2: said += 1; right += k2 == truth
        if k2 and not k: added.append((k2, truth, item['text'][:70]))
    print(repr(token), f"typed {said} right {right} prec {right/max(1,said):.0%} recall {right/lab:.0%}")
    for x in added: print('   ', x)
