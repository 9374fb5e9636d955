"""How the 0.5B model answers with and without a section before the dated lines: `python docs/results/round32/current-values/section_probe.py`."""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[4]))
from dreaming_agent.llm import eval_model
from dreaming_agent.llm.llamacpp import LlamaCppLLM
llm = LlamaCppLLM(str(Path(__file__).resolve().parents[4] / "models" / eval_model.FILE_NAME), threads=1)
HEAD = ("You are a helpful personal assistant that remembers what the person told you. Today is 2026-12-05.\n"
 "Answer using only the memory below and the conversation. Dates show when the person said each thing; when two entries disagree, the newer one is current.\n"
 "If the memory does not hold the answer, say \"I don't know.\"; never guess personal facts.\n"
 "Answer briefly, in the language of the person's last message.\n\n")
L1 = "- 2026-12-05: I have a dog called Pepper."
L2 = "- 2026-12-05: Big news: I moved to Bristol last week and started a new job as a teacher."
V = {
 "A": f"Facts about the person:\n- home: Bristol (current since 2026-12-05; replaced Leeds)\n\nEvidence from memory (dated):\n{L1}\n{L2}",
 "B": f"Facts about the person:\n- The user's home is now Bristol (since 2026-12-05)\n\nEvidence from memory (dated):\n{L1}\n{L2}",
 "C-nohome": f"Current values:\n- occupation: teacher (since 2026-12-05; before: pharmacist)\n\nEvidence from memory (dated):\n{L1}\n{L2}",
 "C-both": f"Current values:\n- home: Bristol (since 2026-12-05; before: Leeds)\n- occupation: teacher (since 2026-12-05; before: pharmacist)\n\nEvidence from memory (dated):\n{L1}\n{L2}",
}
for name, sec in V.items():
    for q in ["Where do I live now?", "Where do I live?", "What's my job?", "¿Dónde vivo ahora?", "What is my dog called?", "What did I do before teaching?"]:
        c = llm.complete([{"role": "system", "content": HEAD + sec}, {"role": "user", "content": q}], max_tokens=40)
        print(f"{name:16}", q, "->", repr(c.text.strip()), flush=True)
