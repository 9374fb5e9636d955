"""A fed memory kept and reused: a consistent copy of a store's whole database (SQLite's backup API)."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from .migrations import migrate
from .sqlite import Store


def save_copy(store: Store, path: str | os.PathLike) -> None:
    """Write the whole database to `path`, consistent even while the store is in use. The copy is written beside it
    and renamed into place: a run stopped while writing leaves no half copy at `path` that a later run would reuse
    as a fed memory."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with store.lock:
        target = sqlite3.connect(str(partial))
        try:
            store.db.backup(target)
        finally:
            target.close()
    os.replace(partial, path)


def open_copy(path: str | os.PathLike) -> Store:
    """An ephemeral store that starts as a copy of the database at `path`, which is never written."""
    store = Store()
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        with store.lock:
            source.backup(store.db)
            migrate(store.db)  # a copy saved by an older version reads like any older database
    finally:
        source.close()
    return store
