"""Probe (round 43): can the model put a message into English? Three prompts over the Writer probe's messages.
`python scripts/research/translate_probe.py > OUT.jsonl`; each row: the message and each prompt's reply (text, seconds)."""
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1].parent
sys.path.insert(0, str(ROOT))
from dreaming_agent.lang import _identifier  # noqa: E402
from dreaming_agent.settings import Settings  # noqa: E402
from dreaming_agent.wiring import build_llm  # noqa: E402

_PROBE = (ROOT / "scripts" / "research" / "writer_unknown_language.py").read_text()
MESSAGES = eval(_PROBE.split("MESSAGES =")[1].split("TRANSLATE =")[0])
NAMES = {"fr": "French", "de": "German", "nl": "Dutch", "it": "Italian", "pt": "Portuguese", "pl": "Polish",
         "en": "English", "es": "Spanish", "ru": "Russian"}


def named(message: str) -> str:
    return NAMES.get(_identifier().classify(message)[0], "another language")


PROMPTS = {
    "T1": lambda m: [{"role": "system", "content": "You are a translator. Translate the user's text into English."},
                     {"role": "user", "content": f"{named(m)}: {m}\nEnglish:"}],
    "T2": lambda m: [{"role": "user", "content": f"Translate into English:\n{m}"}],
    "T3": lambda m: [{"role": "system", "content": "You are a helpful assistant."},
                     {"role": "user", "content": f"Translate this {named(m)} sentence into English: \"{m}\""}],
}

llm = build_llm(Settings())
for message in MESSAGES:
    row = {"m": message}
    for name, prompt in PROMPTS.items():
        started = time.time()
        reply = llm.complete(prompt(message), max_tokens=80)
        row[name] = (reply.text.strip()[:150], round(time.time() - started, 1))
    print(json.dumps(row, ensure_ascii=False), flush=True)
