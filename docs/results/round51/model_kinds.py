"""Can the 0.5B model say which single-valued kind an entry states? Against round 37's 411 labels.
`PYTHONPATH=. python docs/results/round51/model_kinds.py` (about 4 minutes on one core)."""
import json, sys, time
from typing import Literal
from collections import Counter
from pydantic import BaseModel
from dreaming_agent.llm.llamacpp import LlamaCppLLM
from dreaming_agent.llm.base import ChatMessage
from dreaming_agent.llm.structured import structured_call
from dreaming_agent.store import kinds
from dreaming_agent.text import proper_nouns
from dreaming_agent.embed.offline import UniversalSentenceEncoderEmbedder

class Kind(BaseModel):
    kind: Literal["home", "employer", "job", "diet", "partner", "car", "pet name", "none"]
MAP = {"employer": "workplace", "job": "occupation", "car": "vehicle", "none": None}
SYSTEM = open(__file__.replace("model_kinds.py", "model_kinds_prompt.txt")).read()
llm = LlamaCppLLM('models/qwen2.5-coder-0.5b-instruct.gguf', threads=1)
labels = json.load(open('docs/results/round37/kinds-labels.json'))['labels']
emb = UniversalSentenceEncoderEmbedder(); K = kinds.for_embedder(emb)
vs = emb.embed_batch([i['text'] for i in labels])
res = {'model': Counter(), 'emb': Counter(), 'both': Counter(), 'either': Counter()}
lab = sum(i['kind'] != 'none' for i in labels)
t = time.time(); wrong = []
for item, v in zip(labels, vs):
    out = structured_call(llm, [{'role':'system','content':SYSTEM}, {'role':'user','content':f"Sentence: {item['text']}"}], Kind,
                          lambda: Kind(kind='none'), max_tokens=12)
    m = MAP.get(out.value.kind, out.value.kind)
    e = K.of(item['text'], v)
    truth = None if item['kind'] == 'none' else item['kind']
    for name, k in [('model', m), ('emb', e), ('both', m if m == e else None), ('either', e or m)]:
        if k in kinds.NAMED and not proper_nouns(item['text']): k = None
        if k: res[name]['said'] += 1; res[name]['right'] += k == truth
    if m != truth: wrong.append((m, truth, item['text'][:80]))
for name, c in res.items():
    print(f"{name:7} typed {c['said']:3} right {c['right']:3} prec {c['right']/max(1,c['said']):.0%} recall {c['right']/lab:.0%}")
print(f"{time.time()-t:.0f} s")
for w in wrong[:40]: print('  ', w)
