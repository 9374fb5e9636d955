"""Calibrate the Writer's grounding on the development conversation: what each check stops, what it wrongly drops.

Runs the real Writer (pipeline.writer.write) over every user turn of bench/scenarios/dev.json, then scores each
extracted fact with the lexical check, the semantic check (USE embedder) and the role check, against hand labels.

Run: .venv/bin/python scripts/grounding_check.py [--model GGUF] [--prompt WRITER_MD] [--save FACTS.json | --load FACTS.json]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_MODEL = ROOT / "models" / "qwen2.5-coder-0.5b-instruct.gguf"
DEV = ROOT / "dreaming_agent" / "bench" / "scenarios" / "dev.json"


@dataclass
class ScoredFact:
    turn: int
    message: str
    fact: str
    lexical_ok: bool
    lexical_reason: str
    similarity: float
    role_ok: bool
    role_reason: str


def dev_turns() -> list[tuple[int, str, str]]:
    """(turn number from 1, date, text) for every user turn of the development conversation."""
    scenario = json.loads(DEV.read_text(encoding="utf-8"))
    turns = [(s["date"], t) for s in scenario["sessions"] for t in s["turns"]]
    return [(n, date, text) for n, (date, text) in enumerate(turns, start=1)]


def extract(model: Path, prompt_file: Path | None) -> tuple[list[tuple[int, str, list[str]]], float]:
    """Every turn through the real Writer; returns (turn, message, extracted facts) and seconds per turn."""
    from dreaming_agent.embed.offline import default_offline_embedder
    from dreaming_agent.llm.llamacpp import LlamaCppLLM
    from dreaming_agent.pipeline.writer import WriterSettings, write
    from dreaming_agent.prompts import PromptLibrary
    from dreaming_agent.store import Store, VectorIndex, make_client

    prompts = PromptLibrary.bundled()
    if prompt_file is not None:
        directory = Path(tempfile.mkdtemp(prefix="writer-prompt-"))
        (directory / "writer.md").write_text(prompt_file.read_text(encoding="utf-8"), encoding="utf-8")
        prompts = PromptLibrary(directory)
    llm = LlamaCppLLM(str(model), n_ctx=2048)
    embedder = default_offline_embedder()
    store, index = Store(), VectorIndex(make_client())
    # Keep everything the model says: no grounding, no duplicate skipping; the checks are scored afterwards.
    keep_all = WriterSettings(semantic_threshold=-2.0, duplicate_threshold=2.0)
    rows = []
    started = time.perf_counter()
    for turn, date, text in dev_turns():
        message = store.add_message("dev", "user", text, date + "T12:00:00")
        outcome = write(store, index, embedder, llm, prompts, message, settings=keep_all)
        rows.append((turn, text, list(outcome.step.parsed["extracted"])))
        print(f"[{turn:2d}] {len(rows[-1][2])} facts ({outcome.step.duration_ms / 1000:.1f} s)", file=sys.stderr)
    seconds = (time.perf_counter() - started) / max(1, len(rows))
    return rows, seconds


def score(rows: list[tuple[int, str, list[str]]]) -> list[ScoredFact]:
    from dreaming_agent.embed.offline import default_offline_embedder
    from dreaming_agent.pipeline.grounding import lexical, semantic
    from dreaming_agent.text import split_sentences

    embedder = default_offline_embedder()
    scored = []
    for turn, message, facts in rows:
        if not facts:
            continue
        sentences = split_sentences(message) or [message]
        vectors = embedder.embed_batch(facts + sentences, role="passage")
        for fact, vector in zip(facts, vectors[: len(facts)]):
            lex = lexical(fact, message)
            sem = semantic(vector, vectors[len(facts):], 0.0)
            role = _role(fact, message)
            scored.append(ScoredFact(turn, message, fact, lex.ok, lex.reason, round(sem.similarity, 4), role.ok, role.reason))
    return scored


def _role(fact: str, message: str):
    from dreaming_agent.pipeline import grounding

    check = getattr(grounding, "role", None)
    return check(fact, message) if check else grounding.GroundingVerdict(True, "no role check")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--prompt", type=Path, default=None, help="a writer prompt file other than prompts/writer.md")
    parser.add_argument("--save", type=Path, help="write the extracted facts here (JSON)")
    parser.add_argument("--load", type=Path, help="score facts saved earlier instead of running the model")
    args = parser.parse_args()
    if args.load:
        saved = json.loads(args.load.read_text(encoding="utf-8"))
        rows, seconds = [tuple(r) for r in saved["rows"]], saved["seconds_per_turn"]
    else:
        rows, seconds = extract(args.model, args.prompt)
        if args.save:
            args.save.write_text(json.dumps({"rows": rows, "seconds_per_turn": seconds}, ensure_ascii=False, indent=1))
    for fact in score(rows):
        print(json.dumps(asdict(fact), ensure_ascii=False))
    print(f"seconds per turn: {seconds:.2f}", file=sys.stderr)


if __name__ == "__main__":
    main()
