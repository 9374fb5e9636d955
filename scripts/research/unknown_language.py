"""Conversations in languages no lang/ module knows, on the default 0.5B model:
`python scripts/research/unknown_language.py [OUT.json] [THREADS] [SET.json]` (SET: unknown_language.json, the
tuning set, by default; unknown_language_heldout.json is held out).

Each conversation of unknown_language.json is told to a fresh agent (LightMem, Writer on, waiting for it after every
turn), then its questions are asked. Counted: questions whose reply holds the expected words; replies that are mostly
the words of one message the person told (their own sentence handed back). The default set was written by the
session that tunes on it: it is not held out."""
import json, re, sys, tempfile, unicodedata
from pathlib import Path
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from dreaming_agent.llm import eval_model
from dreaming_agent.llm.llamacpp import LlamaCppLLM
from dreaming_agent.settings import Settings
from dreaming_agent.wiring import build_agent, build_embedder
data = json.load(open(sys.argv[3] if len(sys.argv) > 3 else Path(__file__).with_suffix(".json"), encoding="utf-8"))
llm = LlamaCppLLM(str(ROOT / "models" / eval_model.FILE_NAME), threads=int(sys.argv[2]) if len(sys.argv) > 2 else 2)
words = lambda t: re.findall(r"\w+", unicodedata.normalize("NFC", t.lower()))
rows = []
for conv in data["conversations"]:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings.load({}, overrides={"db": str(Path(tmp) / "m.sqlite3")})
        agent = build_agent(settings, llm=llm, embedder=build_embedder(settings))
        for text in conv["told"]:
            r = agent.turn(text, "lightmem"); agent.learning.wait(timeout=600)
            rows.append({"lang": conv["lang"], "said": text, "reply": r.answer, "kind": "statement"})
        for q, expected in conv["asked"]:
            r = agent.turn(q, "lightmem"); agent.learning.wait(timeout=600)
            rw = words(r.answer)
            copied = any(len(rw) >= 3 and sum(w in set(words(t)) for w in rw) >= 0.8 * len(rw) for t in conv["told"])
            right = all(e.lower() in r.answer.lower() for e in expected) if expected else None
            rows.append({"lang": conv["lang"], "said": q, "reply": r.answer, "kind": "question", "right": right,
                         "copied": copied, "steps": [s.name for s in r.trace.steps]})
            print(conv["lang"], q, "->", repr(r.answer), "right" if right else ("-" if right is None else "WRONG"),
                  "COPIED" if copied else "", flush=True)
        agent.close()
qs = [r for r in rows if r["kind"] == "question"]
told = [r for r in qs if r["right"] is not None]
print(f"questions {len(qs)}: right {sum(r['right'] for r in told)} of {len(told)}; copied {sum(r['copied'] for r in qs)} of {len(qs)}")
Path(sys.argv[1] if len(sys.argv) > 1 else "unknown_language.out.json").write_text(json.dumps(rows, ensure_ascii=False, indent=1))
