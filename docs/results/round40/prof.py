"""Profile E's feed of one LongMemEval question: every model call by caller, with tokens and time.

Run from a checkout: python docs/results/round40/prof.py QUESTION_ID THREADS MEMORY_DIR"""
import sys, time, traceback, collections, argparse
import os; sys.path.insert(0, os.getcwd())
from dreaming_agent.bench import cli
from dreaming_agent.bench.longmemeval import load_longmemeval
from dreaming_agent.bench.runner import Setup, run_longmemeval
from dreaming_agent.bench.conditions import parse_conditions
from dreaming_agent.store import make_client
from dreaming_agent.llm import llamacpp

calls = []
orig = llamacpp.LlamaCppLLM.complete
def complete(self, messages, **kw):
    stack = [f.name for f in traceback.extract_stack()[-12:-1]]
    who = next((n for n in reversed(stack) if n in ("write", "propose", "dream", "ask", "answer", "respond", "summarize", "_summarize", "check")), stack[-3])
    c = orig(self, messages, **kw)
    calls.append((who, ">".join(stack[-5:]), c.prompt_tokens, c.completion_tokens, c.duration_ms))
    return c
llamacpp.LlamaCppLLM.complete = complete

ns = argparse.Namespace(llm=None, gguf="models/qwen2.5-coder-0.5b-instruct.gguf", ollama_model=None, embedder="embedded", threads=int(sys.argv[2]))
llm, embedder, name = cli._models(ns)
qs = load_longmemeval("../shared/data/longmemeval/longmemeval_oracle_dev.json")
q = next(q for q in qs if q.id == sys.argv[1])
print(q.id, q.type, len(q.sessions), q.turn_count, sum(len(t.content) for s in q.sessions for t in s.turns if t.role=="user"))
setup = Setup(llm, embedder, make_client())
t = time.perf_counter()
from pathlib import Path
setup.memory_dir = Path(sys.argv[3]); setup.memory_dir.mkdir(parents=True, exist_ok=True)
rec = run_longmemeval(setup, q, parse_conditions("E")[0], 0)
print("ANSWER", repr(rec[0].answer))
print("total s", time.perf_counter() - t)
agg = collections.defaultdict(lambda: [0, 0, 0, 0.0])
for who, st, p, c, d in calls:
    a = agg[st]; a[0] += 1; a[1] += p; a[2] += c; a[3] += d
for st, (n, p, c, d) in sorted(agg.items(), key=lambda x: -x[1][3]):
    print(f"{d/1000:8.1f}s {n:4d} calls prompt {p:7d} out {c:6d}  {st}")
