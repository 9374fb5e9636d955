"""Statement replies in languages no lang/ module knows, with the bundled acknowledge prompt or a variant of it:
`python scripts/research/statement_prompt.py SET.json [VARIANT.md]` (the 0.5B model, no Writer). Counts replies in
English (`lang.said_in`) and refusals or the instruction said back."""
import json, sys, tempfile, shutil
from pathlib import Path
ROOT = Path(__file__).resolve().parents[2]; sys.path.insert(0, str(ROOT))
from dreaming_agent.llm import eval_model
from dreaming_agent.llm.llamacpp import LlamaCppLLM
from dreaming_agent.lang import said_in
from dreaming_agent.pipeline.agent import AgentConfig
from dreaming_agent.prompts import PromptLibrary
from dreaming_agent.settings import Settings
from dreaming_agent.wiring import build_agent, build_embedder
SET = sys.argv[1]; VARIANT = sys.argv[2] if len(sys.argv) > 2 else None
data = json.load(open(SET, encoding="utf-8"))
llm = LlamaCppLLM(str(ROOT / "models" / eval_model.FILE_NAME), threads=2)
prompts = None
if VARIANT:
    d = Path(tempfile.mkdtemp()); shutil.copytree(ROOT / "prompts", d / "p")
    (d / "p" / "acknowledge.md").write_text(Path(VARIANT).read_text())
    prompts = PromptLibrary(d / "p")
settings = Settings.load({}, overrides={"db": str(Path(tempfile.mkdtemp()) / "m.sqlite3")})
emb = build_embedder(settings)
english = refusal = 0; n = 0
for conv in data["conversations"]:
    with tempfile.TemporaryDirectory() as tmp:
        s = Settings.load({}, overrides={"db": str(Path(tmp) / "m.sqlite3")})
        agent = build_agent(s, llm=llm, embedder=emb, config=AgentConfig(learn=False))
        if prompts:
            agent.prompts = prompts
        for t in conv["told"]:
            r = agent.turn(t, "lightmem"); n += 1
            en = said_in(r.answer) == "en"; english += en
            ref = any(p in r.answer.lower() for p in ("sorry", "can't", "cannot", "don't have any information", "acknowledge"))
            refusal += ref
            print(conv["lang"], repr(t[:40]), "->", repr(r.answer[:100]), "EN" if en else "", "REF" if ref else "", flush=True)
        agent.close()
print(f"statements {n}: reply in English {english}, refusal/echo of the instruction {refusal}")
