import sqlite3
import threading

import numpy as np
import pytest

from dreaming_agent.errors import InvalidInput, NotFound, StoreNotWritable
from dreaming_agent.store import Store
from dreaming_agent.store.migrations import MIGRATIONS
from dreaming_agent.store.snapshot import open_copy, save_copy


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


def test_a_deleted_id_is_never_handed_out_again(store):
    first, last = store.add_message("s1", "user", "One."), store.add_message("s1", "user", "Two. Three.")
    entry = store.add_memory("The user said two things", source_message_ids=[last.id])
    sentence_ids = [s.id for s in store.sentences()]
    store.delete_message(last.id)
    store.delete_memory(store.add_memory("Scratch"))
    again = store.add_message("s1", "user", "Four.")
    assert again.id == last.id + 1 and first.id < last.id
    assert store.sentences()[-1].id == max(sentence_ids) + 1
    assert store.add_memory("A new entry") == entry + 2  # neither the deleted entry's id nor the scratch one's
    with store.transaction() as db:
        db.execute("INSERT INTO dream_runs (started_at, status) VALUES ('2026-03-02T10:00:00', 'applied')")
        db.execute("DELETE FROM dream_runs")
        cur = db.execute("INSERT INTO dream_runs (started_at, status) VALUES ('2026-03-02T11:00:00', 'applied')")
    assert cur.lastrowid == 2


def old_database(path) -> sqlite3.Connection:
    """A database as the app left it before ids were AUTOINCREMENT (migrations m001 and m002 only)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at TEXT DEFAULT CURRENT_TIMESTAMP)")
    for migration in MIGRATIONS[:2]:
        db.executescript(migration() + f"\nINSERT INTO _migrations (name) VALUES ('{migration.__name__}');")
    assert "AUTOINCREMENT" not in db.execute("SELECT sql FROM sqlite_master WHERE name = 'messages'").fetchone()[0]
    return db


def test_migration_keeps_every_row_and_id_of_an_old_database(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = old_database(path)
    db.executescript("""
        INSERT INTO messages VALUES (3, 's1', 'user', 'I live in Vigo. I like tea.', '2026-03-01T10:00:00', NULL, NULL);
        INSERT INTO messages VALUES (7, 's1', 'assistant', 'Noted.', '2026-03-01T10:00:01', 'lightmem', NULL);
        INSERT INTO sentences VALUES (11, 3, 0, 'I live in Vigo.', x'0000803f'), (12, 3, 1, 'I like tea.', NULL);
        INSERT INTO memories VALUES (9, 'ltm', 'The user lives in Vigo and likes tea', 'dream', 'active', NULL,
            '2026-03-02T10:00:00', '2026-03-02T10:00:00', '2026-03-03T10:00:00', 2, x'0000803f', 'dream@1');
        INSERT INTO memories VALUES (5, 'mtm', 'The user lives in Vigo', 'writer', 'superseded', 9,
            '2026-03-01T10:00:02', '2026-03-01T10:00:02', NULL, 0, NULL, 'writer@1');
        INSERT INTO memory_sources VALUES (5, 3), (9, 3);
        INSERT INTO summaries VALUES ('s1', 7, 'They met.', '2026-03-01T10:00:03');
        INSERT INTO writer_jobs VALUES (3, 'done', 1, NULL, '2026-03-01T10:00:02');
        INSERT INTO dream_runs VALUES (4, '2026-03-02T10:00:00', '2026-03-02T10:00:01', 'applied', 'm', 'dream@1');
        INSERT INTO dream_ops VALUES (6, 4, 'MERGE', '[5]', 'The user lives in Vigo and likes tea', 'why', 1, 'ok', 9);
        INSERT INTO dream_changes VALUES (4, 5, '{"status": "active"}');
    """)
    tables = ("messages", "sentences", "memories", "memory_sources", "summaries", "writer_jobs", "dream_runs",
              "dream_ops", "dream_changes")
    before = {t: db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in tables}
    db.close()

    store = Store(path)
    applied = [r[0] for r in store.query("SELECT name FROM _migrations ORDER BY rowid")]
    assert applied == [m.__name__ for m in MIGRATIONS]
    after = {t: store.query(f"SELECT * FROM {t} ORDER BY 1, 2") for t in tables}
    assert [row[7:] for row in after["messages"]] == [(None,), (None,)]  # m004: no message was withheld before
    after["messages"] = [row[:7] for row in after["messages"]]
    assert after == before
    assert store.query("PRAGMA foreign_key_check") == [] and store.query("PRAGMA foreign_keys")[0][0] == 1
    assert store.memory(9).source_message_ids == (3,) and store.memory(5).superseded_by == 9

    store.delete_message(7)
    assert store.add_message("s1", "user", "Hello again.").id == 8  # 7 is gone for good
    assert store.add_memory("The user is back") == 10
    # The cascades still work on the rebuilt tables: deleting the message takes its sentences and entries.
    assert sorted(store.delete_message(3).memories) == [5, 9]
    assert store.query("SELECT count(*) FROM sentences WHERE message_id = 3") == [(0,)]
    store.close()


def test_a_migration_that_fails_changes_nothing(tmp_path, monkeypatch):
    from dreaming_agent.errors import MigrationFailed
    from dreaming_agent.store import migrations

    path = tmp_path / "old.sqlite3"
    db = old_database(path)
    db.execute("INSERT INTO messages VALUES (1, 's1', 'user', 'Kept.', '2026-03-01T10:00:00', NULL, NULL)")
    db.close()
    broken = lambda: migrations.m003_ids_never_reused() + "\nINSERT INTO no_such_table VALUES (1);"  # noqa: E731
    broken.__name__ = "m003_ids_never_reused"
    monkeypatch.setattr(migrations, "MIGRATIONS", [*MIGRATIONS[:2], broken])
    with pytest.raises(MigrationFailed, match="no_such_table"):
        Store(path)
    db = sqlite3.connect(path)
    assert db.execute("SELECT id, text FROM messages").fetchall() == [(1, "Kept.")]
    assert "AUTOINCREMENT" not in db.execute("SELECT sql FROM sqlite_master WHERE name = 'messages'").fetchone()[0]
    assert [r[0] for r in db.execute("SELECT name FROM _migrations")] == ["m001_chat_and_memory", "m002_dreams"]
    db.close()


def test_a_snapshot_reloads_whole_and_the_copy_never_writes_back(tmp_path):
    original = Store(tmp_path / "fed.sqlite3")
    message = original.add_message("s", "user", "I live in Porto. I love it.", "2026-03-01T09:00:00")
    original.add_memory("The user lives in Porto", source_message_ids=[message.id])
    save_copy(original, tmp_path / "snap.sqlite3")
    copy = open_copy(tmp_path / "snap.sqlite3")
    assert [m.text for m in copy.memories()] == ["The user lives in Porto"]
    assert [s.text for s in copy.sentences()] == ["I live in Porto.", "I love it."]
    assert [m.text for m in copy.memories_from_messages([message.id])] == ["The user lives in Porto"]
    copy.add_memory("The user has a cat")
    assert [m.text for m in Store(tmp_path / "snap.sqlite3").memories()] == ["The user lives in Porto"]
    copy.close()
    original.close()


def test_a_snapshot_stopped_while_written_leaves_nothing_a_later_run_would_reuse(tmp_path):
    class Failing:  # a store whose copy stops part way, as a run killed during it does
        lock = threading.Lock()

        class db:
            @staticmethod
            def backup(target):
                target.execute("CREATE TABLE half (x)")
                raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        save_copy(Failing(), tmp_path / "snap.sqlite3")
    assert not (tmp_path / "snap.sqlite3").exists()
    original = Store(tmp_path / "fed.sqlite3")
    save_copy(original, tmp_path / "snap.sqlite3")  # a later run writes it whole
    assert (tmp_path / "snap.sqlite3").exists() and not (tmp_path / "snap.sqlite3.partial").exists()
    original.close()


def test_memories_can_be_cut_to_texts_like_a_pattern(store):
    ids = [store.add_memory(text) for text in ("The user lives in Vigo", "The user LIKES tea", "The user has a job")]
    assert [m.id for m in store.memories(text_like=["%live%", "%JOB%"])] == [ids[0], ids[2]]
    assert [m.id for m in store.memories(text_like=[])] == ids
