import sqlite3

import numpy as np
import pytest

from dreaming_agent.errors import InvalidInput, NotFound, StoreNotWritable
from dreaming_agent.store import Store
from dreaming_agent.store.migrations import MIGRATIONS


def test_migrations_recorded_once_with_wal_and_foreign_keys(tmp_path):
    path = tmp_path / "db.sqlite3"
    first = Store(path)
    assert first.query("PRAGMA journal_mode")[0][0] == "wal"
    assert first.query("PRAGMA foreign_keys")[0][0] == 1
    first.close()
    again = Store(path)
    names = [r[0] for r in again.query("SELECT name FROM _migrations ORDER BY rowid")]
    assert names == [m.__name__ for m in MIGRATIONS]
    again.close()


def test_user_message_is_stored_verbatim_with_its_sentences(store):
    text = "Me mudé a Lisboa.  I work at Acme!\nMy cat is Miso"
    message = store.add_message("s1", "user", text, "2026-03-02T10:00:00")
    assert store.message(message.id).text == text
    assert [s.text for s in store.sentences()] == ["Me mudé a Lisboa.", "I work at Acme!", "My cat is Miso"]
    store.add_message("s1", "assistant", "Nice. And you?", "2026-03-02T10:00:01")
    assert len(store.sentences()) == 3  # assistant turns are not evidence about the person


def test_memory_with_provenance_and_access_statistics(store):
    m = store.add_message("s1", "user", "I live in Porto.", "2026-03-02T10:00:00")
    memory_id = store.add_memory("The user lives in Porto", source_message_ids=[m.id], embedding=np.ones(4, np.float32))
    memory = store.memory(memory_id)
    assert (memory.tier, memory.origin, memory.status, memory.source_message_ids) == ("mtm", "writer", "active", (m.id,))
    store.touch([memory_id], "2026-03-03T00:00:00")
    store.touch([memory_id], "2026-03-04T00:00:00")
    memory = store.memory(memory_id)
    assert memory.access_count == 2 and memory.last_accessed == "2026-03-04T00:00:00"


def test_deleting_a_message_removes_every_learned_entry_that_drew_on_it(store):
    a = store.add_message("s1", "user", "My dog is Rex.")
    b = store.add_message("s1", "user", "I live in Vigo.")
    only_a = store.add_memory("The user has a dog named Rex", source_message_ids=[a.id])
    only_b = store.add_memory("The user lives in Vigo", source_message_ids=[b.id])
    typed = store.add_memory("My dog Rex is old", origin="manual", tier="ltm", source_message_ids=[a.id])
    merged = store.add_memory("The user has a dog Rex and lives in Vigo", origin="dream", source_message_ids=[a.id, b.id])
    with store.transaction() as db:
        db.execute("UPDATE memories SET status='superseded', superseded_by=? WHERE id IN (?, ?)", (merged, only_a, only_b))
    deletion = store.delete_message(a.id)
    assert sorted(deletion.memories) == sorted([merged, only_a])  # the merge quoted the deleted words
    assert deletion.restored == [only_b] and store.memory(only_b).status == "active"
    assert deletion.sentences and not store.sentences(ids=deletion.sentences)
    assert store.memory(typed).source_message_ids == ()  # the person's own words stay
    with pytest.raises(NotFound):
        store.memory(only_a)


def test_deleting_a_memory_also_deletes_what_it_superseded(store):
    old = store.add_memory("The user lives in Vigo")
    new = store.add_memory("The user lives in Lugo", origin="dream")
    with store.transaction() as db:
        db.execute("UPDATE memories SET status='superseded', superseded_by=? WHERE id=?", (new, old))
    assert sorted(store.delete_memory(new)) == sorted([old, new])
    assert store.memories(status=None) == []


def test_transaction_is_all_or_nothing(store):
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.add_memory("first")
            store.add_memory("second")
            raise RuntimeError("crash between writes")
    assert store.memories(status=None) == []


def test_source_of_a_deleted_message_is_refused(store):
    gone = store.add_message("s1", "user", "Temporary.")
    store.delete_message(gone.id)
    with pytest.raises(sqlite3.IntegrityError):
        store.add_memory("derived from a deleted message", source_message_ids=[gone.id])
    assert store.memories(status=None) == []


def test_bad_inputs_have_clear_errors(store, tmp_path):
    with pytest.raises(InvalidInput):
        store.add_memory("   ")
    with pytest.raises(NotFound, match="deleted"):
        store.delete_message(999)
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreNotWritable, match="DREAMING_DB"):
        Store(blocker / "db.sqlite3")


def test_ephemeral_store_is_removed_on_close():
    s = Store()
    path = s.path
    s.add_message("s", "user", "hello")
    s.close()
    import os
    assert not os.path.exists(path)
