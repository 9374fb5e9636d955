import json, sys, time
sys.path.insert(0, "/work/main")
from dreaming_agent.llm.llamacpp import LlamaCppLLM
from dreaming_agent.llm.structured import structured_call
from pydantic import BaseModel

SYSTEM = sys.argv[1] if len(sys.argv) > 1 else None
CASES = [  # (message, older facts, indexes (1-based) no longer true)
 ("Big news: I moved to Bristol last week and started a new job as a teacher.",
  ["The user lives in Leeds", "The user works as a pharmacist", "The user has a dog called Pepper"], [1, 2]),
 ("We got a kitten, her name is Tom!", ["The user has a dog called Pepper", "The user lives in Leeds", "The user is allergic to penicillin"], []),
 ("I switched to green tea in the mornings, coffee was wrecking my sleep.", ["The user drinks coffee in the mornings", "The user sleeps badly", "The user works as a nurse"], [1]),
 ("Vet visit today: Canela is down to 25.5 kg!", ["The user's dog Canela weighs 27 kg", "The user has a dog called Canela", "The user lives in Granada"], [1]),
 ("I gave up running, my knee hates it, so now I swim three times a week.", ["The user runs three times a week", "The user has a bad knee", "The user's sister is Ana"], [1]),
 ("Joana moved away so I have a new Portuguese tutor, Rita.", ["The user's Portuguese tutor is Joana", "The user is learning Portuguese", "The user lives in Porto"], [1]),
 ("My sister just moved to Porto too!", ["The user lives in Porto", "The user's sister lives in Lisbon", "The user works at a bank"], [2]),
 ("I love hiking on weekends.", ["The user is a vegetarian", "The user lives in Leeds", "The user works at Acme"], []),
 ("The Rome trip in June is off, we couldn't get time off.", ["The user plans to visit Rome in June", "The user works at a hospital", "The user's partner is Marco"], [1]),
 ("Sold the old Clio and got myself an e-bike.", ["The user drives a 2009 Renault Clio", "The user lives in Headingley", "The user has a cat called Caju"], [1]),
 ("My sister Ana is getting married in July.", ["The user's boyfriend is Henrik", "The user's sister is Ana", "The user lives in Leeds"], []),
 ("Turns out I'm allergic to cats as well.", ["The user is allergic to penicillin", "The user has a dog called Pepper", "The user works as a teacher"], []),
 ("We decided to call the cat Mochi instead of Luna.", ["The user's cat is called Luna", "The user has a cat", "The user lives in Turin"], [1]),
 ("Mi sono trasferita a Roma, finalmente!", ["The user lives in Torino", "The user works as a designer", "The user's sister is Chiara"], [1]),
 ("My new manager is Gillian, she's lovely.", ["The user works at Acme", "The user's manager is Bob", "The user lives in Leeds"], [2]),
 ("Started guitar lessons on Tuesday.", ["The user is learning German", "The user plays tennis", "The user's teacher is Anna"], []),
 ("Ich arbeite jetzt bei Siemens, nicht mehr bei Bosch.", ["The user works at Bosch", "The user lives in Munich", "The user has a son called Jonas"], [1]),
 ("Henrik and I broke up. I'm seeing someone new, Tom.", ["The user's boyfriend is Henrik", "Henrik is a climbing instructor", "The user lives in Leeds"], [1]),
 ("I'm Dana, I live in Leeds and I work as a pharmacist.", ["The user likes tea", "The user has a dog", "The user's sister is Ruth"], []),
 ("My daughter turned 6 yesterday!", ["The user's daughter is 5 years old", "The user's daughter is called Mia", "The user lives in Oslo"], [1]),
 ("Finally vegan now, no more cheese for me.", ["The user is vegetarian", "The user eats cheese every day", "The user lives in Bristol"], [1, 2]),
 ("I still live in Leeds but I work from home now.", ["The user lives in Leeds", "The user works at an office in Wakefield", "The user has a cat"], [2]),
]
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
