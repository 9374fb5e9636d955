"""The round-30 walk as a script, on a fresh memory: `PYTHONPATH=. python docs/results/round32/current-values/later.py`
(the default 0.5B model; the move, three questions and a PIN, then "Where do I live now?" again)."""
import json
from dreaming_agent.settings import Settings
from dreaming_agent.wiring import build_agent, choose_llm
s = choose_llm(Settings(gguf="models/qwen2.5-coder-0.5b-instruct.gguf", llm="embedded")).settings
import tempfile, dataclasses
tmp = tempfile.mkdtemp()
s = dataclasses.replace(s, db=tmp + "/m.sqlite3", chroma_path=None) if dataclasses.is_dataclass(s) else s.model_copy(update={"db": tmp + "/m.sqlite3", "chroma_path": None})
a = build_agent(s)
for t in ["Hi! I'm Dana, I live in Leeds and I work as a pharmacist.", "I have a dog called Pepper.",
          "Big news: I moved to Bristol last week and started a new job as a teacher."]:
    a.turn(t)
def ask0(q):
    r = a.turn(q); print(q, repr(r.answer))
for q in ["Where do I live now?", "What's my job?", "What's my dog called?", "My bank PIN is 4471, don't tell anyone."]:
    ask0(q)
a.learning.wait()
def ask(label):
    r = a.turn("Where do I live now?")
    print(label, repr(r.answer))
    for st in r.trace.steps:
        print("   ", st.name, "|", st.decision[:200])
    print("   PROMPT:", r.prompt_text[-1500:].replace("\n", " / "))
ask("before")
a.close(); raise SystemExit
rep = a.memory.dream()
print("dream", [(o.op, o.target_ids) for o in rep.accepted])
ask("after dream")
a.memory.undo_last_dream()
ask("after undo")
a.close()
