import sys, time
sys.path.insert(0, "/work/main"); sys.path.insert(0, "/work/results/r31")
from cases import CASES
from dreaming_agent.llm.llamacpp import LlamaCppLLM
from dreaming_agent.llm.structured import structured_call
from pydantic import BaseModel
mode = sys.argv[1]
llm = LlamaCppLLM("/work/main/models/qwen2.5-coder-0.5b-instruct.gguf", threads=1)
class YN(BaseModel):
    still_true: bool
class RW(BaseModel):
    fact: str
tp=fp=fn=tn=0
for msg, old, want in CASES:
    got=[]
    t=time.perf_counter()
    for i, fact in enumerate(old, 1):
        if mode == "yn":
            m=[{"role":"system","content":"You check whether a remembered fact about a person is still true after their new message. It is still true unless the new message gives a different current value for the same thing about the same person or thing (a new home, job, name, weight, partner; a plan called off; a habit given up). A message about something else leaves the fact true. Reply with JSON only."},
               {"role":"user","content":f"Remembered fact: {fact}\nNew message: {msg}\nIs the remembered fact still true?"}]
            r=structured_call(llm,m,YN,lambda: YN(still_true=True),max_tokens=12)
            changed = not r.value.still_true
        else:
            m=[{"role":"system","content":"You keep a remembered fact about a person up to date. Given the fact and the person's new message, write the fact as it is true now. If the message does not change it, copy the fact exactly. Reply with JSON only: {\"fact\": \"...\"}"},
               {"role":"user","content":f"Fact: {fact}\nNew message: {msg}"}]
            r=structured_call(llm,m,RW,lambda: RW(fact=fact),max_tokens=40)
            new=r.value.fact.strip().rstrip('.').lower(); changed = new != fact.lower()
            if changed: print("    ", fact, "->", r.value.fact)
        if changed: got.append(i)
    w=set(want); g=set(got)
    tp+=len(w&g); fp+=len(g-w); fn+=len(w-g); tn+=len(old)-len(w|g)
    print(f"{'OK ' if w==g else 'BAD'} {time.perf_counter()-t:4.1f}s want={want} got={got} | {msg[:60]}")
print(f"pairs: tp {tp} fp {fp} fn {fn} tn {tn}")
