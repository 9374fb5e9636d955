"""Assemble the 0.5B evaluation model: `python3 scripts/eval_model.py [--out PATH]` (no virtual environment needed).

The code lives in dreaming_agent/llm/eval_model.py, which `make run` also uses; it is loaded here by path so that
the package's own imports (pydantic, numpy) are not needed for a download.
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_SPEC = importlib.util.spec_from_file_location("eval_model", ROOT / "dreaming_agent" / "llm" / "eval_model.py")
eval_model = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(eval_model)
DEFAULT_OUT = ROOT / "models" / eval_model.FILE_NAME


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output GGUF path (default {DEFAULT_OUT})")
    args = parser.parse_args(argv)
    started = time.monotonic()
    if eval_model.verifies(args.out):
        print(f"{args.out} already present and verified; nothing to do.")
        return 0
    try:
        eval_model.fetch(args.out)
    except eval_model.AssemblyError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({eval_model.EXPECTED_SIZE:,} bytes, sha256 verified) in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
