import json, sys, time
sys.path.insert(0, "/work/main"); sys.path.insert(0, "/work/results/r31")
from dreaming_agent.llm.llamacpp import LlamaCppLLM
from dreaming_agent.llm.structured import structured_call
from pydantic import BaseModel

SYSTEM = sys.argv[1] if len(sys.argv) > 1 else None
from cases import CASES  # (message, older facts, 1-based indexes no longer true)
class Out(BaseModel):
    no_longer_true: list[int]

def schema(n):
    return {"type": "object", "properties": {"no_longer_true": {"type": "array", "items": {"type": "integer", "enum": list(range(1, n+1))}, "maxItems": n}}, "required": ["no_longer_true"]}

PROMPT = open("/work/results/r31/prompt.md").read()
llm = LlamaCppLLM("/work/main/models/qwen2.5-coder-0.5b-instruct.gguf", threads=1)
right = 0; fp = 0; fn = 0
for msg, old, want in CASES:
    listing = "\n".join(f"{i}. {t}" for i, t in enumerate(old, 1))
    sysp, _, user = PROMPT.partition("=== user ===")
    messages = [{"role": "system", "content": sysp.strip()}, {"role": "user", "content": user.strip().replace("$message", msg).replace("$entries", listing)}]
    t = time.perf_counter()
    r = structured_call(llm, messages, Out, lambda: Out(no_longer_true=[]), max_tokens=30, schema=schema(len(old)))
    got = sorted(set(r.value.no_longer_true))
    ok = got == sorted(want)
    right += ok; fp += len(set(got) - set(want)); fn += len(set(want) - set(got))
    print(f"{'OK ' if ok else 'BAD'} {time.perf_counter()-t:4.1f}s want={want} got={got} | {msg[:60]}")
print(f"right {right}/{len(CASES)} false-pos {fp} false-neg {fn}")
