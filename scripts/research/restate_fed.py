"""Apply `pipeline/whose.py` to memories fed before it existed, as the Writer would have at write time, so that the
answers over them can be compared without feeding again (an hour of Writer and Dreams per scenario):

    python scripts/research/restate_fed.py IN_MEMORY_DIR OUT_MEMORY_DIR [CONDITION]

Every fed memory of CONDITION (default E) in IN is copied to OUT. Message by message, in the order they were
written, the Writer's entries drawn from one message are read as `whose.restate` reads them: a claim naming the person
as someone else is deleted, the message's other entries about "the user" are restated of the one it named and
embedded again. What a Dream made of entries later restated is left as it is (its merged text still says "the user");
that is where this differs from a fresh feed. Prints each message changed.
"""
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from dreaming_agent.pipeline import whose  # noqa: E402
from dreaming_agent.settings import Settings  # noqa: E402
from dreaming_agent.store import Store  # noqa: E402
from dreaming_agent.store.sqlite import to_blob  # noqa: E402
from dreaming_agent.wiring import build_embedder  # noqa: E402


def restate_file(path: Path, embedder) -> int:
    store = Store(path)
    entries = store.memories(status=None)
    messages = store.messages_by_id({i for m in entries for i in m.source_message_ids})
    by_message: dict[int, list] = {}
    for m in entries:
        if m.origin == "writer" and m.source_message_ids:
            by_message.setdefault(m.source_message_ids[0], []).append(m)
    seen: list[tuple[str, str | None]] = []  # (entry as kept, its message's speaker), in the order written
    changed = 0
    for message_id in sorted(by_message):
        group, speaker = by_message[message_id], messages[message_id].speaker
        mine = [t for t, s in seen if s == speaker]
        own = {speaker} if speaker else next(({n} for t in mine if (n := whose.claimed(t))), set())
        texts = [m.text for m in group]
        result = whose.restate(texts, own, lambda name: any(whose.someone_named(t, name) for t, _ in seen))
        dropped = {fact for fact, _ in result.dropped}
        kept = iter(result.facts)
        for m in group:
            if m.text in dropped:
                store.delete_memory(m.id)
                continue
            new = next(kept)
            if new != m.text:
                vector = embedder.embed_batch([new], role="passage")[0]
                with store.transaction() as db:
                    db.execute("UPDATE memories SET text = ?, embedding = ? WHERE id = ?", (new, to_blob(vector), m.id))
            seen.append((new, speaker))
        if result.dropped or result.about:
            changed += 1
            print(f"  message {message_id}: {texts} -> {result.facts} (about {result.about})")
    store.close()
    return changed


def copies(source: str, out: str, condition: str):
    """Each fed memory of `condition` in `source`, copied into `out` with its journal; yields each copy's path."""
    Path(out).mkdir(parents=True, exist_ok=True)
    for path in sorted(Path(source).glob(f"*-{condition}-*.sqlite3")):
        copy = Path(out) / path.name
        shutil.copy(path, copy)
        for suffix in ("-wal", "-shm"):
            if Path(str(path) + suffix).exists():
                shutil.copy(str(path) + suffix, str(copy) + suffix)
        yield copy


def main(source: str, out: str, condition: str = "E") -> None:
    embedder = build_embedder(Settings.load({}))
    for copy in copies(source, out, condition):
        print(copy.name, restate_file(copy, embedder), "messages changed")


if __name__ == "__main__":
    main(*sys.argv[1:])
