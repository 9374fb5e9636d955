"""Probe (round 43): the model asked yes or no whether an entry tells the kind its nearest example has (entries typed
loosely: floor 1.2 spreads, no margin). `python scripts/research/kinds_by_model.py q`; prints precision and recall."""
import sys, json, re, time, numpy as np
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
from dreaming_agent.settings import Settings
from dreaming_agent.wiring import build_embedder, build_llm
from dreaming_agent.store import kinds as K
from dreaming_agent.text import proper_nouns
emb = build_embedder(Settings.load({})); k = K.for_embedder(emb); llm = build_llm(Settings())
labels = np.array(k.labels); spread = k.margin / K.MARGIN_SPREADS; mean = k.floor - K.FLOOR_SPREADS * spread
OF = re.compile(r"^\W*(?:the\s+)?user\b", re.I)
DESC = {"home": "the town or city where the user lives now", "workplace": "the company or organisation the user works for now",
        "occupation": "the user's job or profession now", "partner": "who the user's romantic partner is",
        "diet": "what diet the user follows now", "vehicle": "which car or vehicle the user owns now",
        "pet name": "the name of the user's pet"}
SCHEMA = {"type": "object", "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}}, "required": ["answer"]}
variant = sys.argv[1]
for name, path in [("r37", "docs/results/round37/kinds-labels.json"), ("e18", "docs/results/round43/kinds/eighteenth-labels.json")]:
    L = json.load(open(path))["labels"]
    V = np.asarray(emb.embed_batch([x["text"] for x in L], role="passage")); S = V @ k.vectors.T
    said = right = asked = 0; base_s = base_r = 0; t0 = time.time()
    for x, s in zip(L, S):
        if not OF.search(x["text"]): continue
        kind = labels[int(np.argmax(np.where(labels == "other", -9, s)))]
        if s[labels == kind].max() < mean + 1.2 * spread: continue
        if kind in K.NAMED and not proper_nouns(x["text"]): continue
        base_s += 1; base_r += kind == x["kind"]
        if variant == "q":
            msgs = [{"role": "system", "content": "You check one statement. Reply with JSON only."},
                    {"role": "user", "content": f"Statement: \"{x['text']}\"\nDoes this statement tell {DESC[kind]}? Answer yes or no."}]
        else:
            msgs = [{"role": "user", "content": f"Statement: \"{x['text']}\"\nQuestion: does the statement say {DESC[kind]}?\nReply {{\"answer\": \"yes\"}} or {{\"answer\": \"no\"}}."}]
        r = llm.complete(msgs, schema=SCHEMA, max_tokens=12); asked += 1
        yes = '"yes"' in r.text
        if yes: said += 1; right += kind == x["kind"]
    lab = sum(x["kind"] != "none" for x in L)
    print(f"{name}: loose typing P {base_r}/{base_s} ; with model yes: P {right}/{said} R {right}/{lab} ({asked} asked, {time.time()-t0:.0f}s)", flush=True)
