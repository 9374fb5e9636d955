"""Greedy JSON decoding: llama.cpp's grammar sampler vs GrammarLastLlama, same prompts; outputs and time."""
import json, sys, time, os
sys.path.insert(0, os.getcwd())
from llama_cpp import Llama
from dreaming_agent.llm.grammar_last import GrammarLastLlama
from dreaming_agent.prompts import PromptLibrary
from dreaming_agent.pipeline.writer import ExtractedFacts
from dreaming_agent.dream.propose import __dict__ as propose_ns
n = int(sys.argv[1]); threads = int(sys.argv[2])
data = json.load(open("../shared/data/longmemeval/longmemeval_oracle_dev.json"))
texts = [t["content"][:1500] for q in data[::7] for s in q["haystack_sessions"][:1] for t in s[:2] if t["role"] == "user"][:n]
texts += ["Hoje mudei-me para o Porto e comecei a trabalhar na Sonae.", "Vi har bytt bil: nu kör vi en Volvo V70.",
          "Kemarin aku pindah ke Bandung, dan kucingku namanya Mochi.", "My bank PIN is 4471, don't tell anyone."]
prompts = PromptLibrary.bundled()
schema = ExtractedFacts.model_json_schema()
rf = {"type": "json_object", "schema": schema}
outs = {}
for cls in (Llama, GrammarLastLlama):
    llm = cls(model_path="models/qwen2.5-coder-0.5b-instruct.gguf", n_ctx=4096, n_threads=threads, n_threads_batch=threads, verbose=False)
    t = time.perf_counter(); toks = 0; res = []
    for text in texts:
        msgs = prompts["writer"].render(today="2026-12-06", message=text)
        r = llm.create_chat_completion(messages=msgs, temperature=0.0, max_tokens=160, response_format=rf, seed=0)
        res.append(r["choices"][0]["message"]["content"]); toks += r["usage"]["completion_tokens"]
    d = time.perf_counter() - t
    outs[cls.__name__] = res
    print(cls.__name__, f"{len(texts)} calls {toks} tokens {d:.1f}s", flush=True)
    llm.close()
a, b = outs["Llama"], outs["GrammarLastLlama"]
same = sum(x == y for x, y in zip(a, b))
print(f"identical {same}/{len(a)}")
for x, y in zip(a, b):
    if x != y: print("DIFF\n", x, "\n", y)
