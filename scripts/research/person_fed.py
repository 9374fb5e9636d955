"""Apply the Writer's `grounding.person` check to memories fed before it existed, as the Writer would have at write
time, so that the answers over them can be compared without feeding again:

    python scripts/research/person_fed.py IN_MEMORY_DIR OUT_MEMORY_DIR [CONDITION]

Every fed memory of CONDITION (default E) in IN is copied to OUT, and each Writer entry the check rejects against the
message it was drawn from is deleted. A Dream's entries made of one are left as they are: that is where this differs
from a fresh feed. Prints each entry deleted.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from dreaming_agent.pipeline.grounding import person  # noqa: E402
from dreaming_agent.store import Store  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from restate_fed import copies  # noqa: E402


def check_file(path: Path) -> int:
    store = Store(path)
    entries = [m for m in store.memories(status=None) if m.origin == "writer" and m.source_message_ids]
    messages = store.messages_by_id({m.source_message_ids[0] for m in entries})
    deleted = 0
    for m in entries:
        verdict = person(m.text, messages[m.source_message_ids[0]].text)
        if not verdict.ok:
            store.delete_memory(m.id)
            deleted += 1
            print(f"  {m.text!r}: {verdict.reason}")
    store.close()
    return deleted


def main(source: str, out: str, condition: str = "E") -> None:
    for copy in copies(source, out, condition):
        print(copy.name, check_file(copy), "entries deleted")

if __name__ == "__main__":
    main(*sys.argv[1:])
