"""Memory forming with the default model: `python scripts/research/memory_forming.py [tune|check|FILE.json ...]`.

Tells each conversation to a fresh agent turn by turn (reply and background Writer, as in the app), judges every
entry against the facts its message holds, runs one Dream and undoes it; prints the figures and every entry.
The 0.5B model is assembled first when it is missing (make eval-model). Figures: docs/results/default-model-memory.md.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dreaming_agent.bench import forming  # noqa: E402
from dreaming_agent.llm import eval_model  # noqa: E402
from dreaming_agent.llm.llamacpp import LlamaCppLLM  # noqa: E402
from dreaming_agent.settings import Settings  # noqa: E402
from dreaming_agent.wiring import build_agent, build_embedder  # noqa: E402

DEFAULT_MODEL = ROOT / "models" / eval_model.FILE_NAME


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("conversations", nargs="*", default=["tune", "check"])
    parser.add_argument("--gguf", type=Path, default=DEFAULT_MODEL, help="the model (default: the 0.5B model)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--no-dream", action="store_true", help="the Writer's figures only")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    if args.gguf == DEFAULT_MODEL:
        eval_model.fetch(DEFAULT_MODEL)
    settings = Settings.load({})
    llm = LlamaCppLLM(str(args.gguf), threads=args.threads)
    embedder = build_embedder(settings)
    results = []
    for name in args.conversations:
        agent = build_agent(settings, llm=llm, embedder=embedder)
        try:
            result = forming.run(agent, forming.load(name), dream=not args.no_dream)
        finally:
            agent.close()
            agent.index.drop()
            agent.store.close()
        print(forming.report_text(result), flush=True)
        results.append(result.figures())
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
