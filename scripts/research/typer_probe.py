"""Can the 0.5B model type a Writer entry? One grammar-constrained call per entry of a fed memory: an attribute from a
small vocabulary and its value copied from the entry. Prints each entry's label and whether the value is in the
entry's words: `python scripts/research/typer_probe.py MEMORY.sqlite3 [GGUF]`.

A probe, not a component: round 35 ran it over the tenth scenario's E memory before building typed facts
(docs/results/round35/README.md)."""
import sqlite3
import sys
import time
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from dreaming_agent.llm.llamacpp import LlamaCppLLM  # noqa: E402
from dreaming_agent.llm.structured import structured_call  # noqa: E402


class Typed(BaseModel):
    attribute: Literal["home", "employer", "occupation", "diet", "partner", "vehicle", "pet", "plan", "other"]
    value: str


SYSTEM = """You label one fact about a person with what it tells and its value, copied from the fact.
attribute:
- home: the city or town where the person lives
- employer: the company or organisation the person works for
- occupation: the person's job or job title
- diet: what the person eats or does not eat
- partner: the person's partner (boyfriend, girlfriend, husband, wife, fiancé) or their status
- vehicle: a car, bike or other vehicle the person has
- pet: a pet of the person, its kind or name
- plan: a trip, visit or event planned
- other: anything else
value: the words of the fact that give it (a place, a company, a title, a name), copied exactly; "" if none.
Examples:
Fact: The user has moved to Bristol
{"attribute": "home", "value": "Bristol"}
Fact: The user got a job at Acme Labs
{"attribute": "employer", "value": "Acme Labs"}
Fact: The user's title is senior nurse
{"attribute": "occupation", "value": "senior nurse"}
Fact: The user's dog is called Rex
{"attribute": "pet", "value": "Rex"}
Fact: The user likes jazz
{"attribute": "other", "value": "jazz"}
Reply with JSON only."""


def main(memory: str, gguf: str = "models/qwen2.5-coder-0.5b-instruct.gguf") -> None:
    llm = LlamaCppLLM(gguf, threads=1)
    started = time.time()
    rows = sqlite3.connect(memory).execute("select id, text from memories where status='active' order by id")
    for memory_id, text in rows:
        if not text.lower().startswith("the user"):
            continue
        typed = structured_call(llm, [{"role": "system", "content": SYSTEM}, {"role": "user", "content": f"Fact: {text}"}],
                                Typed, lambda: Typed(attribute="other", value=""), max_tokens=40).value
        grounded = bool(typed.value) and typed.value.lower() in text.lower()
        print(f"{memory_id:4d} {typed.attribute:10s} {typed.value!r:40s} {'' if grounded else 'UNGROUNDED'} | {text}",
              flush=True)
    print(f"seconds: {time.time() - started:.0f}")


if __name__ == "__main__":
    main(*sys.argv[1:])
