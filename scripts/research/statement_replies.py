"""What a new user is shown for a statement: `python scripts/research/statement_replies.py [--json FILE]
[--conversations SET.json] [--acknowledge VARIANT.md]`.

Tells the 20 statements of the forming conversations (`bench/conversations/tune.json`, `check.json`), or with
`--conversations` those of an unknown_language.py set, one by one to a fresh agent on the default 0.5B model
(LightMem, no Writer: a statement's reply reads only the message), and counts the model's replies in the other
language, replies in English to a message in a language no module knows, refusals or the prompt's instruction said
back, and what code showed instead. `--acknowledge` replaces `prompts/acknowledge.md` by a variant. Each reply is
printed."""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dreaming_agent.bench import forming  # noqa: E402
from dreaming_agent.llm import eval_model  # noqa: E402
from dreaming_agent.llm.llamacpp import LlamaCppLLM  # noqa: E402
from dreaming_agent.lang import said_in  # noqa: E402
from dreaming_agent.pipeline import acknowledge  # noqa: E402
from dreaming_agent.pipeline.agent import AgentConfig  # noqa: E402
from dreaming_agent.prompts import PromptLibrary  # noqa: E402
from dreaming_agent.text import normalize  # noqa: E402
from dreaming_agent.settings import Settings  # noqa: E402
from dreaming_agent.wiring import build_agent, build_embedder  # noqa: E402

DEFAULT_MODEL = ROOT / "models" / eval_model.FILE_NAME


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gguf", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write every reply here")
    parser.add_argument("--conversations", type=Path, help="an unknown_language.py set: its statements instead")
    parser.add_argument("--acknowledge", type=Path, help="a variant of prompts/acknowledge.md")
    args = parser.parse_args(argv)
    if args.gguf == DEFAULT_MODEL:
        eval_model.fetch(DEFAULT_MODEL)
    if args.conversations:
        told = [t for c in json.loads(args.conversations.read_text(encoding="utf-8"))["conversations"] for t in c["told"]]
    else:
        told = [m.text for name in ("tune", "check") for m in forming.load(name).messages]
    with tempfile.TemporaryDirectory() as tmp:
        prompts = None
        if args.acknowledge:
            shutil.copytree(ROOT / "prompts", Path(tmp) / "prompts")
            shutil.copy(args.acknowledge, Path(tmp) / "prompts" / "acknowledge.md")
            prompts = PromptLibrary(Path(tmp) / "prompts")
        settings = Settings.load({}, overrides={"db": str(Path(tmp) / "memory.sqlite3")})
        agent = build_agent(settings, llm=LlamaCppLLM(str(args.gguf), threads=args.threads),
                            embedder=build_embedder(settings), config=AgentConfig(learn=False))
        agent.prompts = prompts or agent.prompts  # a statement's reply reads only the Responder's prompts
        rows = []
        for text in told:
            result = agent.turn(text, "lightmem")
            model = result.trace.step("Responder").raw[0].strip()
            rows.append({"said": text, "model": model, "shown": result.answer,
                         "why": result.trace.step("Acknowledgement").decision})
            print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
        agent.close()

    def other(a: str, b: str) -> bool:
        return bool(said_in(a) and said_in(b) and said_in(a) != said_in(b))

    def refused(reply: str) -> bool:
        folded = normalize(reply).replace("’", "'")
        return any(p in folded for p in (*acknowledge._REFUSALS, *acknowledge._ECHOES))

    unread = [r for r in rows if said_in(r["said"]) is None]
    print(f"statements {len(rows)}; the model replied in the other language to "
          f"{sum(other(r['said'], r['model']) for r in rows)}; shown in the other language: "
          f"{sum(other(r['said'], r['shown']) for r in rows)}; the model's own reply shown: "
          f"{sum(r['model'] == r['shown'] for r in rows)}; in a language no module knows ({len(unread)}), replied in "
          f"English {sum(said_in(r['model']) == 'en' for r in unread)}; refused or said its instruction back "
          f"{sum(refused(r['model']) for r in rows)}")
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
