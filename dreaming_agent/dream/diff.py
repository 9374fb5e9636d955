"""What a Dream did, as data (the UI renders it, the API returns it): before, after, and what was refused."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from ..store import Memory, Store


@dataclass(frozen=True)
class EntryView:
    id: int
    tier: str
    status: str
    text: str


@dataclass
class OpReport:
    op: str
    target_ids: list[int]
    text: str | None
    reason: str
    verdict: str
    new_memory_id: int | None = None
    before: list[EntryView] = field(default_factory=list)
    after: list[EntryView] = field(default_factory=list)


@dataclass
class DreamReport:
    dream_id: int | None
    status: str  # "applied" | "undone"
    started_at: str
    accepted: list[OpReport] = field(default_factory=list)
    rejected: list[OpReport] = field(default_factory=list)
    raw_outputs: list[dict] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    llm_calls: int = 0
    clusters: int = 0  # groups the model was asked about
    settled: int = 0  # fresh lone entries no proposal could change (the validator refuses both ways): no call
    model: str | None = None
    prompt_version: str | None = None

    def to_json(self) -> dict:
        """A plain dict (lists, strings, numbers) for the API."""
        return asdict(self)


def report_from_store(store: Store, dream_id: int) -> DreamReport:
    """Rebuild a Dream's report from its recorded operations, row images and the rows as they are now."""
    run = store.dreams.run(dream_id)
    images = store.dreams.images(dream_id)
    ops = store.dreams.operations(dream_id)
    mentioned = {i for o in ops for i in o.target_ids} | {o.new_memory_id for o in ops if o.new_memory_id is not None}
    now = {m.id: _view(m) for m in store.memories(status=None, ids=sorted(mentioned))}
    report = DreamReport(dream_id, run.status, run.started_at, model=run.model, prompt_version=run.prompt_version)
    for o in ops:
        targets, new_id = o.target_ids, o.new_memory_id
        entry = OpReport(o.op, targets, o.text, o.reason or "", o.verdict, new_id)
        entry.before = [_image_view(images[i]) if i in images else now[i] for i in targets if i in images or i in now]
        if o.accepted:
            entry.after = [now[i] for i in targets + ([new_id] if new_id else []) if i in now]
            report.accepted.append(entry)
        else:
            report.rejected.append(entry)
    return report


def _view(memory: Memory) -> EntryView:
    return EntryView(memory.id, memory.tier, memory.status, memory.text)


def _image_view(image: dict) -> EntryView:
    return EntryView(image["id"], image["tier"], image["status"], image["text"])
