"""Probe (round 43): other rules for reading an entry's kind from its nearest labelled examples (the floor and margin
in spreads, the nearest one or the mean of the nearest two per kind), scored on round 37's labels and on the eighteenth
scenario's (docs/results/round43/kinds/). `python scripts/research/kinds_rules.py`; prints precision and recall per rule."""
import sys, json, numpy as np
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
from dreaming_agent.settings import Settings
from dreaming_agent.wiring import build_embedder
from dreaming_agent.store import kinds as K
from dreaming_agent.text import proper_nouns
emb = build_embedder(Settings.load({})); k = K.for_embedder(emb)
labels = np.array(k.labels); spread = k.margin / K.MARGIN_SPREADS; mean = k.floor - K.FLOOR_SPREADS * spread
sets = {}
for name, path in [("r37", "docs/results/round37/kinds-labels.json"), ("e18", "docs/results/round43/kinds/eighteenth-labels.json")]:
    L = json.load(open(path))["labels"]
    V = np.asarray(emb.embed_batch([x["text"] for x in L], role="passage"))
    sets[name] = (L, V @ k.vectors.T)
kinds = [l for l in dict.fromkeys(k.labels) if l != "other"]
def rule_nearest(S, fs, ms, topn=1):
    out = []
    for s in S:
        per = {}
        for lab in dict.fromkeys(k.labels):
            v = np.sort(s[labels == lab])[::-1][:topn]; per[lab] = float(v.mean())
        best = max((l for l in per if l != "other"), key=per.get)
        ok = per[best] >= mean + fs * spread and per[best] - max(float(s[labels == "other"].max()), per["other"]) >= ms * spread
        out.append(best if ok else None)
    return out
def score(L, pred):
    said = right = 0
    for x, p in zip(L, pred):
        if p in K.NAMED and not proper_nouns(x["text"]): p = None
        if p: said += 1; right += p == x["kind"]
    lab = sum(x["kind"] != "none" for x in L)
    return said, right, lab
import re
OF = re.compile(r"^\W*(?:the\s+)?user\b", re.I)
for topn in (1, 2):
  for fs in (1.2, 1.5, 1.77, 2.0):
    for ms in (0.0, 0.4, 0.8, 1.19, 1.6):
        row = []
        for name, (L, S) in sets.items():
            pred = rule_nearest(S, fs, ms, topn)
            pred = [p if OF.search(x["text"]) else None for x, p in zip(L, pred)]
            s, r, lab = score(L, pred); row.append(f"{name} P {r}/{s}={r/max(s,1):.0%} R {r}/{lab}")
        print(f"top{topn} floor {fs} margin {ms}: " + " | ".join(row))
