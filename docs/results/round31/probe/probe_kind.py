import sys, time
sys.path.insert(0, "/work/main")
from dreaming_agent.llm.llamacpp import LlamaCppLLM
from dreaming_agent.pipeline.fact_kind import type_entry
from dreaming_agent.prompts import PromptLibrary
facts = [("The user lives in Leeds","home"),("The user moved to Bristol","home"),("The user works as a pharmacist","occupation"),
("The user started a new job as a teacher","occupation"),("The user drinks coffee in the mornings","diet"),("The user switched to green tea in the mornings","diet"),
("The user's dog Canela weighs 27 kg","other"),("The user has a dog called Canela","pet"),("The user runs three times a week","hobby"),
("The user's Portuguese tutor is Joana","relative"),("The user plans to visit Rome in June","plan"),("The user drives a 2009 Renault Clio","vehicle"),
("The user sold the Clio and bought an e-bike","vehicle"),("The user's boyfriend is Henrik","partner"),("The user is allergic to penicillin","health"),
("The user renamed the cat Mochi","name"),("The user is trasferited to Roma","home"),("The user works at Bosch","employer"),("The user now works at Siemens","employer"),
("The user's manager is Gillian","relative"),("The user is vegetarian","diet"),("The user is now vegan","diet"),("The user is Dana","name"),
("The user works from home","other"),("The user is learning German","hobby"),("The user's sister Ruth lives in Paris","home"),
("The user had a job interview yesterday","event"),("The user is 34 years old","age")]
llm = LlamaCppLLM("/work/main/models/qwen2.5-coder-0.5b-instruct.gguf", threads=1)
p = PromptLibrary.bundled()["fact_kind"]
ok = 0; t0 = time.perf_counter()
for f, want in facts:
    k, s = type_entry(llm, p, f, "2026-03-18T10:00:00")
    got = k.attribute if k else None
    ok += got == want
    print(f"{'OK ' if got==want else 'BAD'} {f:50s} want={want:10s} got={k}")
print(ok, len(facts), f"{(time.perf_counter()-t0)/len(facts):.1f}s/fact")
