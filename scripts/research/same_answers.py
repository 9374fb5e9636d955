"""Whether two bench runs gave the same answers: `python scripts/research/same_answers.py BEFORE/answers.jsonl AFTER/answers.jsonl`.

Prints, per condition, how many answers (and prompt token counts) are byte-identical, and every answer that differs.
Exits 1 when any differs: a pure refactor must leave greedy answers unchanged.
"""
from __future__ import annotations

import json
import sys


def _load(path: str) -> dict[tuple[str, int, str], dict]:
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return {(r["condition"], r["run"], r["question_id"]): r for r in rows}


def main(before_path: str, after_path: str) -> int:
    before, after = _load(before_path), _load(after_path)
    differs = 0
    for condition in sorted({k[0] for k in before}):
        keys = sorted(k for k in before if k[0] == condition)
        same = [k for k in keys if k in after and after[k]["answer"] == before[k]["answer"]]
        tokens = sum(1 for k in keys if k in after and after[k]["prompt_tokens"] == before[k]["prompt_tokens"])
        print(f"{condition}: {len(same)}/{len(keys)} answers identical, {tokens}/{len(keys)} prompt sizes identical; "
              f"right {sum(before[k]['correct'] for k in keys)} -> {sum(after[k]['correct'] for k in keys if k in after)}")
        for k in keys:
            if k not in same:
                differs += 1
                print(f"  {k[2]}: {before[k]['answer']!r} -> {after.get(k, {}).get('answer')!r}")
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
