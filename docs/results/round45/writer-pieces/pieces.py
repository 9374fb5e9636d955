"""Probe: the Writer over a seen scenario, whole messages vs pieces; entries, kinds typed, time."""
import sys, time, json, datetime as dt
sys.path.insert(0, "/work/main")
from dataclasses import replace
from dreaming_agent.bench.runner import Setup, _agent, _finish
from dreaming_agent.bench.conditions import CONDITIONS
from dreaming_agent.bench.scenario import load_scenario
from dreaming_agent.store import make_client
from dreaming_agent.settings import Settings
from dreaming_agent.wiring import build_embedder
from dreaming_agent.llm.llamacpp import LlamaCppLLM
from dreaming_agent.pipeline.writer import WriterSettings
name, chars = sys.argv[1], int(sys.argv[2])
llm = LlamaCppLLM("/work/main/models/qwen2.5-coder-0.5b-instruct.gguf", threads=1)
emb = build_embedder(Settings.load({}))
cond = CONDITIONS["E"]
setup = Setup(llm, emb, make_client())
sc = load_scenario(f"/work/main/dreaming_agent/bench/scenarios/{name}.json")
agent = _agent(setup, cond, 0)
agent.config = replace(agent.config, writer=WriterSettings(piece_chars=chars))
agent.learning.writer = agent.config.writer
t = time.time()
for session in sc.sessions:
    agent.new_conversation(session.id)
    for i, text in enumerate(session.turns):
        stamp = (dt.datetime.combine(session.date, dt.time(9, 0)) + dt.timedelta(minutes=3 * i)).isoformat()
        agent.ingest(text, now=stamp, learn=True)
    agent.learning.wait()
el = time.time() - t
typed = agent.store.kinds.typed()
rows = [(m.id, m.text) for m in agent.store.memories()]
print(f"{name} piece_chars={chars}: {len(rows)} entries, {len(typed)} typed, {el:.0f} s")
for i, text in rows:
    print(f"  #{i} [{typed.get(i, '')}] {text}")
_finish(agent)
