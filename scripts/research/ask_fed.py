"""Ask questions of a bench memory fed earlier (`bench --memory-dir`), printing each trace: `python scripts/research/ask_fed.py SCENARIO CONDITION q01,q02 [MEMORY_DIR]`."""
import sys, json, datetime as dt, glob
sys.path.insert(0, str(__import__('pathlib').Path(__file__).resolve().parents[2]))
from dreaming_agent.bench.runner import Setup, _agent
from dreaming_agent.bench.conditions import CONDITIONS
from dreaming_agent.bench.scenario import load_scenario
from dreaming_agent.llm.llamacpp import LlamaCppLLM
from dreaming_agent.settings import Settings
from dreaming_agent.wiring import build_embedder, build_vector_client
from dreaming_agent.store.snapshot import open_copy
scen, cond, ids = sys.argv[1], sys.argv[2], sys.argv[3].split(',')
s = load_scenario(f'dreaming_agent/bench/scenarios/{scen}.json')
settings = Settings.load({})
setup = Setup(LlamaCppLLM('models/qwen2.5-coder-0.5b-instruct.gguf', threads=2), build_embedder(settings), build_vector_client(settings))
memory_dir = sys.argv[4] if len(sys.argv) > 4 else 'out/memory'
path = glob.glob(f'{memory_dir}/{scen}-{cond}-0-*.sqlite3')[0]
agent = _agent(setup, CONDITIONS[cond], 0, open_copy(path))
agent.learning.index_new_sentences()
for i, q in enumerate(s.questions):
    if q.id not in ids: continue
    asked = dt.datetime.combine(q.date, dt.time(10, 0)) + dt.timedelta(minutes=i)
    agent.new_conversation(f"question-{q.id}")
    r = agent.ask(q.question, CONDITIONS[cond].mode, now=asked.isoformat())
    print(f"\n### {q.id} {q.question}\n<<< {r.answer!r}")
    for st in r.trace.steps:
        print(f"   [{st.name}] {st.decision[:200]}")
        if st.name not in ("Retriever",):
            print("      ", json.dumps(st.parsed, ensure_ascii=False, default=str)[:700])
    print("   PROMPT:", (r.prompt_text or '')[-1500:])
